package main

import (
	"bufio"
	"bytes"
	"crypto/tls"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/amlarc-go/instancetypes/client/internal/testcerts"
)

// Reviews the load benchmark sends: what the API server sends for a typical instance type,
// valid, and one with a mistake in most fields.
var loadReviews = map[string]string{
	"valid": `{"apiVersion":"admission.k8s.io/v1","kind":"AdmissionReview","request":{"uid":"u","operation":"CREATE",
 "resource":{"group":"amlarc.azureml.com","version":"v1alpha1","resource":"instancetypes"},"name":"gpu",
 "object":{"apiVersion":"amlarc.azureml.com/v1alpha1","kind":"InstanceType","metadata":{"name":"gpu","uid":"0b8d","resourceVersion":"7","creationTimestamp":"2026-01-01T00:00:00Z"},
  "spec":{"nodeSelector":{"pool":"gpu"},"resources":{"requests":{"cpu":"1","memory":"1Gi"},"limits":{"cpu":"2","memory":"2Gi","nvidia.com/gpu":1}}}}}}`,
	"broken": `{"apiVersion":"admission.k8s.io/v1","kind":"AdmissionReview","request":{"uid":"u","operation":"CREATE",
 "resource":{"group":"amlarc.azureml.com","version":"v1alpha1","resource":"instancetypes"},"name":"gpu",
 "object":{"apiVersion":"amlarc.azureml.com/v1alpha1","kind":"InstanceType","metadata":{"name":"gpu"},
  "spec":{"nodeSelector":{"pool":"a b"},"extra":1,"resources":{"requests":{"cpu":"0","memory":"3Gi","nvidia.com/gpu":1},"limits":{"cpu":"2","memory":"2Gi","nvidia.com/gpu":0.5,"cpus":"1"}}}}}}`,
}

// loadServer is the webhook's binary, started once for the load benchmark.
var loadServer struct {
	once sync.Once
	err  error
	addr string
	ca   *testcerts.CA
	cmd  *exec.Cmd
}

// startLoadServer builds the binary (CGO_ENABLED=0) and runs it with a test certificate
// and its default flags but the addresses and --max-in-flight, which is 64 here so that
// the concurrency measured is the clients'. It logs every review at info level, as in a
// cluster; the lines are read and dropped.
func startLoadServer(b *testing.B) {
	b.Helper()
	loadServer.once.Do(func() {
		dir, err := os.MkdirTemp("", "instancetype-webhook-load")
		if err != nil {
			loadServer.err = err
			return
		}
		bin := filepath.Join(dir, "instancetype-webhook")
		build := exec.Command("go", "build", "-trimpath", "-o", bin, ".")
		build.Env = append(os.Environ(), "CGO_ENABLED=0")
		if out, err := build.CombinedOutput(); err != nil {
			loadServer.err = fmt.Errorf("go build: %v\n%s", err, out)
			return
		}
		ca, err := testcerts.NewCA()
		if err != nil {
			loadServer.err = err
			return
		}
		s, err := ca.Serve()
		if err != nil {
			loadServer.err = err
			return
		}
		if err := s.WriteFiles(dir); err != nil {
			loadServer.err = err
			return
		}
		cmd := exec.Command(bin, "--cert-dir", dir, "--bind-address", "127.0.0.1:0", "--health-probe-bind-address", "0",
			"--metrics-bind-address", "0", "--max-in-flight", "64", "--shutdown-delay", "0s")
		stderr, err := cmd.StderrPipe()
		if err != nil {
			loadServer.err = err
			return
		}
		if err := cmd.Start(); err != nil {
			loadServer.err = err
			return
		}
		sc := bufio.NewScanner(stderr)
		for sc.Scan() {
			var m map[string]any
			if json.Unmarshal(sc.Bytes(), &m) != nil {
				continue
			}
			if m["msg"] == "serving" && m["server"] == "webhook" {
				loadServer.addr = fmt.Sprint(m["address"])
			}
			if m["msg"] == "ready" {
				break
			}
		}
		go func() { _, _ = io.Copy(io.Discard, stderr) }() // the review lines, until the process ends
		if loadServer.addr == "" {
			loadServer.err = fmt.Errorf("the webhook did not start")
			_ = cmd.Process.Kill()
			return
		}
		loadServer.ca, loadServer.cmd = ca, cmd
	})
	if loadServer.err != nil {
		b.Fatal(loadServer.err)
	}
}

// stopLoadServer ends the process started for the benchmarks; TestMain calls it.
func stopLoadServer() {
	if loadServer.cmd != nil {
		_ = loadServer.cmd.Process.Signal(syscall.SIGTERM)
		_ = loadServer.cmd.Wait()
		os.RemoveAll(filepath.Dir(loadServer.cmd.Path))
	}
}

func TestMain(m *testing.M) {
	code := m.Run()
	stopLoadServer()
	os.Exit(code)
}

// BenchmarkLoad sends reviews to the webhook's binary over TLS on loopback, from 1, 8 and
// 64 clients at once, each on its kept-alive connection. ns/op is the wall time per
// review (the inverse of throughput); reviews/s is the throughput; p50-µs and p99-µs are
// the latencies each client saw, from writing the request to reading the whole answer.
func BenchmarkLoad(b *testing.B) {
	startLoadServer(b)
	url := "https://" + loadServer.addr + Path + "?timeout=10s"
	for _, obj := range []string{"valid", "broken"} {
		body := []byte(strings.ReplaceAll(loadReviews[obj], "\n", ""))
		for _, c := range []int{1, 8, 64} {
			b.Run(fmt.Sprintf("obj=%s/clients=%d", obj, c), func(b *testing.B) {
				tr := &http.Transport{
					TLSClientConfig:     &tls.Config{RootCAs: loadServer.ca.Pool(), ServerName: "127.0.0.1"},
					MaxIdleConnsPerHost: c, MaxConnsPerHost: c,
				}
				defer tr.CloseIdleConnections()
				client := &http.Client{Transport: tr}
				send := func() (time.Duration, error) {
					start := time.Now()
					resp, err := client.Post(url, "application/json", bytes.NewReader(body))
					if err != nil {
						return 0, err
					}
					_, err = io.Copy(io.Discard, resp.Body)
					resp.Body.Close()
					if resp.StatusCode != 200 {
						return 0, fmt.Errorf("HTTP %d", resp.StatusCode)
					}
					return time.Since(start), err
				}
				// Warm the connections up, so that handshakes are not measured.
				var wg sync.WaitGroup
				for range c {
					wg.Go(func() { _, _ = send() })
				}
				wg.Wait()

				latencies := make([][]time.Duration, c)
				var next sync.Mutex
				left := b.N
				b.ResetTimer()
				start := time.Now()
				for i := range c {
					wg.Go(func() {
						for {
							next.Lock()
							if left == 0 {
								next.Unlock()
								return
							}
							left--
							next.Unlock()
							d, err := send()
							if err != nil {
								b.Error(err)
								return
							}
							latencies[i] = append(latencies[i], d)
						}
					})
				}
				wg.Wait()
				elapsed := time.Since(start)
				b.StopTimer()
				all := slices.Concat(latencies...)
				slices.Sort(all)
				if len(all) == 0 {
					return
				}
				b.ReportMetric(float64(len(all))/elapsed.Seconds(), "reviews/s")
				b.ReportMetric(float64(all[len(all)/2].Microseconds()), "p50-µs")
				b.ReportMetric(float64(all[min(len(all)-1, len(all)*99/100)].Microseconds()), "p99-µs")
			})
		}
	}
}
