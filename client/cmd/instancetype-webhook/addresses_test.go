package main

import (
	"context"
	"io"
	"net"
	"net/http"
	"net/netip"
	"testing"

	"github.com/amlarc-go/instancetypes/client/internal/testcerts"
)

// certDir returns a directory holding a serving certificate and key of a new test CA, as
// the kubelet mounts a Secret, and the CA.
func certDir(t *testing.T) (string, *testcerts.CA) {
	t.Helper()
	ca, err := testcerts.NewCA()
	if err != nil {
		t.Fatal(err)
	}
	s, err := ca.Serve()
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	if err := s.WriteAsKubelet(dir); err != nil {
		t.Fatal(err)
	}
	return dir, ca
}

// startServers runs the servers in process with a test certificate and args, and returns
// their logs once they are ready; the test's end stops them and waits for their exit.
func startServers(t *testing.T, args ...string) *logLines {
	t.Helper()
	dir, _ := certDir(t)
	logs := newLogLines()
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan int, 1)
	go func() {
		done <- run(ctx, append([]string{"--cert-dir", dir, "--shutdown-delay", "0s"}, args...), logs.w)
	}()
	t.Cleanup(func() {
		cancel()
		if code := <-done; code != 0 {
			t.Errorf("exit status %d after the context ended; want 0", code)
		}
	})
	waitFor(t, "the servers", func() bool {
		select {
		case code := <-done:
			done <- code
			t.Fatalf("the servers stopped at start: exit status %d", code)
		default:
		}
		return len(logs.find("ready")) > 0
	})
	return logs
}

// ephemeral is addr with port 0: the same interfaces, a port the system picks.
func ephemeral(t *testing.T, addr string) string {
	t.Helper()
	host, _, err := net.SplitHostPort(addr)
	if err != nil {
		t.Fatalf("address %q: %v", addr, err)
	}
	return net.JoinHostPort(host, "0")
}

// boundAddr parses the address a server logged it serves on.
func boundAddr(t *testing.T, logs *logLines, server string) netip.AddrPort {
	t.Helper()
	a, err := netip.ParseAddrPort(logs.addr(server))
	if err != nil {
		t.Fatalf("%s server: address %q: %v", server, logs.addr(server), err)
	}
	return a
}

// httpGet fetches url over plain HTTP, with no credentials, and returns its status code.
func httpGet(t *testing.T, url string) int {
	t.Helper()
	resp, err := http.Get(url)
	if err != nil {
		t.Fatalf("GET %s: %v", url, err)
	}
	defer resp.Body.Close()
	_, _ = io.Copy(io.Discard, resp.Body)
	return resp.StatusCode
}

// TestDefaultAddresses: with the default flags, but for ports the system picks, /metrics
// (plain HTTP, unauthenticated) listens on loopback only, and nowhere else, while the
// probes listen on every interface, as the kubelet needs, on a listener of their own, and
// answer plain HTTP 200 with no credentials. The bound addresses are the listeners' own,
// as the servers log them.
func TestDefaultAddresses(t *testing.T) {
	def, err := parseFlags(nil, io.Discard)
	if err != nil {
		t.Fatal(err)
	}
	logs := startServers(t,
		"--bind-address", ephemeral(t, def.bindAddress),
		"--health-probe-bind-address", ephemeral(t, def.probeAddress),
		"--metrics-bind-address", ephemeral(t, def.metrics))

	metrics := boundAddr(t, logs, "metrics")
	if !metrics.Addr().IsLoopback() {
		t.Errorf("by default /metrics listens on %v; want a loopback address only", metrics)
	}
	if w := logs.find(msgMetricsExposed); len(w) != 0 {
		t.Errorf("warned of metrics beyond loopback: %v", w)
	}
	probes := boundAddr(t, logs, "probes")
	if !probes.Addr().IsUnspecified() {
		t.Errorf("by default the probes listen on %v; want every interface, which the kubelet reaches", probes)
	}
	if probes.Port() == metrics.Port() {
		t.Errorf("the probes and /metrics share port %d; want a listener each", probes.Port())
	}
	probeURL := "http://" + netip.AddrPortFrom(netip.MustParseAddr("127.0.0.1"), probes.Port()).String()
	for _, p := range []string{"/healthz", "/readyz"} {
		if code := httpGet(t, probeURL+p); code != http.StatusOK {
			t.Errorf("GET %s: %d; want 200", p, code)
		}
	}
	if code := httpGet(t, probeURL+"/metrics"); code != http.StatusNotFound {
		t.Errorf("GET /metrics on the probes' listener: %d; want 404", code)
	}
	if code := httpGet(t, "http://"+metrics.String()+"/metrics"); code != http.StatusOK {
		t.Errorf("GET /metrics on loopback: %d; want 200", code)
	}
}

// TestMetricsBeyondLoopback: an address beyond loopback, given explicitly, is still served
// (the old default, :8080, is an explicit choice now), and the start warns of it.
func TestMetricsBeyondLoopback(t *testing.T) {
	logs := startServers(t,
		"--bind-address", "127.0.0.1:0",
		"--health-probe-bind-address", "127.0.0.1:0",
		"--metrics-bind-address", ":0")
	metrics := boundAddr(t, logs, "metrics")
	if !metrics.Addr().IsUnspecified() {
		t.Errorf("--metrics-bind-address :0 listens on %v; want every interface", metrics)
	}
	warned := false
	for _, l := range logs.find(msgMetricsExposed) {
		warned = warned || l["level"] == "WARN" && l["address"] == logs.addr("metrics")
	}
	if !warned {
		t.Error("no warning that /metrics is served beyond loopback")
	}
	url := "http://" + netip.AddrPortFrom(netip.MustParseAddr("127.0.0.1"), metrics.Port()).String() + "/metrics"
	if code := httpGet(t, url); code != http.StatusOK {
		t.Errorf("GET /metrics: %d; want 200", code)
	}
}
