package main

import (
	"bufio"
	"bytes"
	"context"
	"crypto/tls"
	"encoding/json"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/prometheus/client_golang/prometheus"
)

func TestParseFlags(t *testing.T) {
	c, err := parseFlags(nil, io.Discard)
	if err != nil {
		t.Fatal(err)
	}
	if c.bindAddress != ":9443" || c.probeAddress != ":8081" || c.metrics != "127.0.0.1:8080" || c.maxInFlight != 32 || c.logLevel != slog.LevelInfo {
		t.Errorf("defaults %+v", c)
	}
	// The old address, given explicitly, is still taken as it is.
	if c, err := parseFlags([]string{"--metrics-bind-address", ":8080"}, io.Discard); err != nil || c.metrics != ":8080" {
		t.Errorf("--metrics-bind-address :8080: %+v, %v", c, err)
	}
	c, err = parseFlags([]string{"--node-selector", "pool=gpu,zone=a", "--node-selector=team=ml", "--strict-subset", "--log-level", "debug"}, io.Discard)
	if err != nil {
		t.Fatal(err)
	}
	if len(c.options.NodeSelector) != 3 || c.options.NodeSelector["team"] != "ml" || !c.options.StrictSubset || c.logLevel != slog.LevelDebug {
		t.Errorf("parsed %+v", c)
	}
	for _, args := range [][]string{
		{"--node-selector", "pool"},
		{"--node-selector", "a b=c"},
		{"--node-selector", "pool=a", "--node-selector", "pool=b"},
		{"--max-in-flight", "0"},
		{"--read-timeout", "0s"},
		{"--log-level", "loud"},
		{"--max-in-flight-bytes", "0"},
		{"--max-in-flight-bytes", "2Gi"},
		{"--max-in-flight-bytes", "lots"},
		{"--no-such-flag"},
		{"extra"},
	} {
		if _, err := parseFlags(args, io.Discard); err == nil {
			t.Errorf("parseFlags(%q) succeeded", args)
		}
	}
}

// logLines collects the JSON log lines of a server and tells the addresses it serves on.
type logLines struct {
	mu    sync.Mutex
	lines []map[string]any
	addrs map[string]string
	w     *io.PipeWriter
}

func newLogLines() *logLines {
	r, w := io.Pipe()
	l := &logLines{addrs: map[string]string{}, w: w}
	go func() {
		sc := bufio.NewScanner(r)
		for sc.Scan() {
			var m map[string]any
			if json.Unmarshal(sc.Bytes(), &m) != nil {
				continue
			}
			l.mu.Lock()
			l.lines = append(l.lines, m)
			if m["msg"] == "serving" {
				l.addrs[m["server"].(string)] = m["address"].(string)
			}
			l.mu.Unlock()
		}
	}()
	return l
}

func (l *logLines) find(msg string) []map[string]any {
	l.mu.Lock()
	defer l.mu.Unlock()
	var out []map[string]any
	for _, m := range l.lines {
		if m["msg"] == msg {
			out = append(out, m)
		}
	}
	return out
}

func (l *logLines) addr(server string) string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.addrs[server]
}

// waitFor polls f until it holds, for at most 30 s: a bound on a hang, not on speed.
func waitFor(t *testing.T, what string, f func() bool) {
	t.Helper()
	deadline := time.Now().Add(30 * time.Second)
	for !f() {
		if time.Now().After(deadline) {
			t.Fatalf("gave up waiting for %s", what)
		}
		time.Sleep(10 * time.Millisecond)
	}
}

const review = `{"apiVersion":"admission.k8s.io/v1","kind":"AdmissionReview","request":{"uid":"u-1","operation":"CREATE",
 "resource":{"group":"amlarc.azureml.com","version":"v1alpha1","resource":"instancetypes"},"name":"gpu",
 "object":{"apiVersion":"amlarc.azureml.com/v1alpha1","kind":"InstanceType","metadata":{"name":"gpu"},
  "spec":{"resources":{"requests":{"cpu":"1","memory":"1Gi"},"limits":{"cpu":"2","memory":"2Gi"}}}}}}`

// TestServe runs the servers in process: the webhook over TLS answers, the probes and
// metrics answer, and a canceled context shuts everything down with readiness failing
// first.
func TestServe(t *testing.T) {
	dir, ca := certDir(t)
	logs := newLogLines()
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan int, 1)
	go func() {
		done <- run(ctx, []string{"--cert-dir", dir, "--bind-address", "127.0.0.1:0", "--health-probe-bind-address", "127.0.0.1:0",
			"--metrics-bind-address", "127.0.0.1:0", "--shutdown-delay", "300ms"}, logs.w)
	}()
	defer cancel()
	waitFor(t, "the servers", func() bool { return logs.addr("metrics") != "" && len(logs.find("ready")) > 0 })

	client := &http.Client{Transport: &http.Transport{TLSClientConfig: &tls.Config{RootCAs: ca.Pool(), ServerName: "127.0.0.1"}}}
	resp, err := client.Post("https://"+logs.addr("webhook")+Path+"?timeout=10s", "application/json", strings.NewReader(review))
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode != 200 || !bytes.Contains(body, []byte(`"allowed":true`)) || resp.ProtoMajor != 1 {
		t.Fatalf("review: %s %d %s", resp.Proto, resp.StatusCode, body)
	}
	if resp, err := client.Get("https://" + logs.addr("webhook") + "/other"); err != nil || resp.StatusCode != 404 {
		t.Errorf("another path: %v %v; want 404", resp, err)
	}

	get := func(server, path string) (int, string) {
		resp, err := http.Get("http://" + logs.addr(server) + path)
		if err != nil {
			return 0, err.Error()
		}
		defer resp.Body.Close()
		b, _ := io.ReadAll(resp.Body)
		return resp.StatusCode, string(b)
	}
	for _, p := range []string{"/healthz", "/readyz"} {
		if code, _ := get("probes", p); code != 200 {
			t.Errorf("%s: %d; want 200", p, code)
		}
	}
	code, m := get("metrics", "/metrics")
	for _, want := range []string{
		`instancetype_webhook_reviews_total{operation="CREATE",outcome="allowed"} 1`,
		`instancetype_webhook_review_duration_seconds_count{operation="CREATE"} 1`,
		`instancetype_webhook_certificate_reloads_total{result="success"} 1`,
		`instancetype_webhook_certificate_expiry_timestamp_seconds `,
		`instancetype_webhook_reviews_in_flight 0`,
		`go_goroutines `,
	} {
		if code != 200 || !strings.Contains(m, want) {
			t.Errorf("metrics (HTTP %d) lack %q", code, want)
		}
	}
	reviews := logs.find("review")
	if len(reviews) != 1 || reviews[0]["uid"] != "u-1" || reviews[0]["outcome"] != "allowed" || reviews[0]["name"] != "gpu" {
		t.Errorf("review logs %v", reviews)
	}
	for _, l := range reviews {
		if _, ok := l["object"]; ok {
			t.Errorf("a review log holds the object: %v", l)
		}
	}

	cancel()
	waitFor(t, "readiness to fail", func() bool { c, _ := get("probes", "/readyz"); return c == 503 })
	if code := <-done; code != 0 {
		t.Errorf("exit status %d after the context ended; want 0", code)
	}
}

// TestServeNoCertificate: without a certificate the command does not start.
func TestServeNoCertificate(t *testing.T) {
	var stderr bytes.Buffer
	if code := run(context.Background(), []string{"--cert-dir", t.TempDir(), "--bind-address", "127.0.0.1:0"}, &stderr); code != 1 {
		t.Errorf("exit status %d; want 1\n%s", code, stderr.String())
	}
}

// TestLimit: beyond the bound, a request waits up to queueWait for a place, then gets 429
// with Retry-After.
func TestLimit(t *testing.T) {
	release := make(chan struct{})
	entered := make(chan struct{}, 4)
	slow := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		entered <- struct{}{}
		<-release
	})
	m := newMetrics(prometheus.NewRegistry())
	h := limit(slow, 1, 1<<20, m, slog.New(slog.DiscardHandler))
	go h.ServeHTTP(httptest.NewRecorder(), httptest.NewRequest("POST", Path, nil))
	<-entered
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, httptest.NewRequest("POST", Path, nil)) // waits queueWait, then 429
	if rec.Code != http.StatusTooManyRequests || rec.Header().Get("Retry-After") != "1" || !strings.Contains(rec.Body.String(), `"reason":"TooManyRequests"`) {
		t.Errorf("second request: %d %v %s; want 429 with Retry-After: 1", rec.Code, rec.Header(), rec.Body)
	}
	// A place freed while waiting lets the request in.
	done := make(chan int)
	go func() {
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, httptest.NewRequest("POST", Path, nil))
		done <- rec.Code
	}()
	release <- struct{}{} // the first finishes
	<-entered             // the third got in
	release <- struct{}{}
	if code := <-done; code != 200 {
		t.Errorf("third request: %d; want 200", code)
	}
}

// TestLimitBytes: request bodies count by their Content-Length against the byte bound; one
// without a length, or longer than the bound, runs alone.
func TestLimitBytes(t *testing.T) {
	release := make(chan struct{})
	entered := make(chan struct{}, 4)
	slow := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		entered <- struct{}{}
		<-release
	})
	h := limit(slow, 10, 1000, newMetrics(prometheus.NewRegistry()), slog.New(slog.DiscardHandler))
	post := func(size int64) *httptest.ResponseRecorder {
		r := httptest.NewRequest("POST", Path, strings.NewReader(strings.Repeat(" ", int(max(size, 0)))))
		r.ContentLength = size
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, r)
		return rec
	}
	go post(800)
	<-entered
	if rec := post(300); rec.Code != http.StatusTooManyRequests { // 800 + 300 > 1000
		t.Errorf("300 bytes beside 800: %d; want 429", rec.Code)
	}
	done := make(chan int)
	go func() { done <- post(150).Code }() // 800 + 150 fits
	<-entered
	if rec := post(-1); rec.Code != http.StatusTooManyRequests { // no length: the whole bound
		t.Errorf("a body without a length beside others: %d; want 429", rec.Code)
	}
	release <- struct{}{}
	release <- struct{}{}
	if code := <-done; code != 200 {
		t.Errorf("150 bytes beside 800: %d; want 200", code)
	}
	go func() { done <- post(5000).Code }() // more than the bound: alone
	<-entered
	release <- struct{}{}
	if code := <-done; code != 200 {
		t.Errorf("5000 bytes alone: %d; want 200", code)
	}
}
