// Command instancetype-webhook serves the validating admission webhook of package webhook
// over TLS, for the API server to call on every CREATE and UPDATE of an InstanceType;
// config/ in this module deploys it (see the module's README).
//
//	instancetype-webhook [flags]
//
//	--cert-dir DIR                   tls.crt and tls.key, read again every
//	                                 --cert-reload-interval and served once they change
//	                                 (default /etc/instancetype-webhook/tls)
//	--bind-address ADDR              the webhook, HTTPS, path /validate-instancetypes (default :9443)
//	--health-probe-bind-address ADDR /healthz and /readyz, plain HTTP (default :8081, every
//	                                 interface, for the kubelet; 0 turns it off)
//	--metrics-bind-address ADDR      Prometheus /metrics, plain HTTP and unauthenticated
//	                                 (default 127.0.0.1:8080, loopback only; :8080 serves it on
//	                                 every interface; 0 turns it off)
//	--node-selector k=v[,k=v]        the extension's nodeSelector (repeatable; all pairs count)
//	--strict-subset                  the literal subset rule (R7)
//	--max-in-flight N                reviews at once (default 32)
//	--max-in-flight-bytes Q          request bodies reviewed at once, in bytes (default 4Mi); a
//	                                 review takes about 100 times its object's size in memory, so
//	                                 this bounds the server's memory. Beyond either bound, a
//	                                 request waits up to 1 s for a place, then gets 429 with
//	                                 Retry-After: 1, which the API server retries within the
//	                                 webhook's timeoutSeconds
//	--read-timeout D                 to read a request, headers and body (default 10s; headers
//	                                 alone: at most 5s)
//	--write-timeout D                from the end of the headers to the end of the answer (default 35s)
//	--idle-timeout D                 a kept-alive connection with no request (default 90s)
//	--cert-reload-interval D         how often the certificate files are read (default 10s)
//	--shutdown-delay D               after SIGTERM, how long to keep serving while /readyz
//	                                 fails, so that the Service stops sending (default 5s)
//	--log-level debug|info|warn|error  (default info)
//
// The webhook serves TLS 1.2 and later with Go's default cipher suites, and HTTP/1.1 only:
// its timeouts then bound each connection phase exactly as set (and no HTTP/2 stream
// multiplexes requests past --max-in-flight), as kubebuilder's scaffolding also chooses.
// Headers are at most 32 KiB, a body at most webhook.MaxBodyBytes. A review ends with the
// timeout the API server sends, at most webhook.MaxReviewTime.
//
// /metrics has no authentication, so by default it listens on loopback only, where
// kubectl port-forward reaches it and nothing off the pod does; an address beyond loopback
// is the operator's explicit choice (config/metrics-http makes it for Prometheus, behind a
// NetworkPolicy), and is logged as a warning at start. The probes listen apart, on every
// interface by default, so that the kubelet reaches them whatever /metrics does.
//
// /healthz answers 200 while the process runs. /readyz answers 200 once a certificate is
// loaded and the webhook's listener is open, and 503 once SIGTERM is received. On SIGTERM
// (or SIGINT) the webhook keeps serving for --shutdown-delay, then stops accepting
// connections and waits up to 20 s for the reviews in flight.
//
// Logs are JSON lines (log/slog) on standard error: one per review, with its UID,
// operation, object name, outcome, findings, ratcheted findings, warnings and duration,
// and never the object; the denial's message only at debug level. Metrics are listed in
// the module's README.
//
// Exit status: 0 after a shutdown on a signal, 1 if the servers cannot start (no
// certificate, a port in use), 2 on a usage error.
package main

import (
	"context"
	"crypto/tls"
	"crypto/x509"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"os"
	"os/signal"
	"path/filepath"
	"strings"
	"sync/atomic"
	"syscall"
	"time"

	"github.com/prometheus/client_golang/prometheus"

	"github.com/amlarc-go/instancetypes/client/internal/certwatch"
	"github.com/amlarc-go/instancetypes/client/webhook"
	"github.com/amlarc-go/instancetypes/quantity"
	"github.com/amlarc-go/instancetypes/resolve"
	"github.com/amlarc-go/instancetypes/validate"
)

// Path is the webhook's path, which the ValidatingWebhookConfiguration names.
const Path = "/validate-instancetypes"

// Default addresses of the probes and of /metrics: the probes on every interface, for the
// kubelet to reach; /metrics, which has no authentication, on loopback only.
const (
	defaultProbeAddress   = ":8081"
	defaultMetricsAddress = "127.0.0.1:8080"
)

// msgMetricsExposed is the warning logged at start when /metrics listens beyond loopback.
const msgMetricsExposed = "metrics served over plain HTTP without authentication beyond loopback: restrict who reaches the address (a NetworkPolicy)"

// Fixed limits of the servers.
const (
	maxHeaderBytes    = 32 << 10
	readHeaderTimeout = 5 * time.Second
	shutdownGrace     = 20 * time.Second
	queueWait         = time.Second
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), syscall.SIGTERM, os.Interrupt)
	defer stop()
	os.Exit(run(ctx, os.Args[1:], os.Stderr))
}

// config is what the flags say.
type config struct {
	certDir                            string
	bindAddress, probeAddress, metrics string
	options                            resolve.Options
	maxInFlight                        int
	maxInFlightBytes                   int64
	readTimeout, writeTimeout, idle    time.Duration
	certReload, shutdownDelay          time.Duration
	logLevel                           slog.Level
}

// parseFlags reads the command line.
func parseFlags(args []string, stderr io.Writer) (*config, error) {
	c := &config{}
	fs := flag.NewFlagSet("instancetype-webhook", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.StringVar(&c.certDir, "cert-dir", "/etc/instancetype-webhook/tls", "the directory of tls.crt and tls.key, reloaded when they change")
	fs.StringVar(&c.bindAddress, "bind-address", ":9443", "the address of the webhook (HTTPS)")
	fs.StringVar(&c.probeAddress, "health-probe-bind-address", defaultProbeAddress, "the address of /healthz and /readyz (HTTP, unauthenticated, for the kubelet); 0 turns them off")
	fs.StringVar(&c.metrics, "metrics-bind-address", defaultMetricsAddress, "the address of /metrics (HTTP, unauthenticated): loopback only by default; :8080 serves it on every interface; 0 turns it off")
	var selector []string
	fs.Func("node-selector", "the extension's nodeSelector, `k=v[,k=v]` (repeatable; all pairs count)", func(s string) error {
		selector = append(selector, s)
		return nil
	})
	fs.BoolVar(&c.options.StrictSubset, "strict-subset", false, "the literal subset rule (R7): every key and value of an instance type's nodeSelector must be in the extension's")
	fs.IntVar(&c.maxInFlight, "max-in-flight", 32, "reviews at once; beyond, a request waits up to 1s, then gets 429")
	maxBytes := fs.String("max-in-flight-bytes", "4Mi", "request bodies reviewed at once, in bytes (a quantity: 4Mi, 8M); beyond, a request waits up to 1s, then gets 429")
	fs.DurationVar(&c.readTimeout, "read-timeout", 10*time.Second, "the most time to read a request, headers and body")
	fs.DurationVar(&c.writeTimeout, "write-timeout", 35*time.Second, "the most time from the end of a request's headers to the end of its answer")
	fs.DurationVar(&c.idle, "idle-timeout", 90*time.Second, "how long a kept-alive connection may wait for its next request")
	fs.DurationVar(&c.certReload, "cert-reload-interval", 10*time.Second, "how often tls.crt and tls.key are read again")
	fs.DurationVar(&c.shutdownDelay, "shutdown-delay", 5*time.Second, "after SIGTERM, how long to keep serving while /readyz fails")
	level := fs.String("log-level", "info", "debug, info, warn or error")
	if err := fs.Parse(args); err != nil {
		return nil, err
	}
	if fs.NArg() > 0 {
		return nil, fmt.Errorf("unexpected arguments %q", fs.Args())
	}
	if err := c.logLevel.UnmarshalText([]byte(*level)); err != nil {
		return nil, fmt.Errorf("invalid --log-level %q: want debug, info, warn or error", *level)
	}
	q, err := quantity.Parse(*maxBytes)
	if err != nil || q.Sign() <= 0 || q.Cmp(quantity.MustParse("1Gi")) > 0 {
		return nil, fmt.Errorf("invalid --max-in-flight-bytes %q: want a quantity of bytes from 1 to 1Gi, such as 4Mi", *maxBytes)
	}
	c.maxInFlightBytes = q.Value()
	sel, err := parseSelector(selector)
	if err != nil {
		return nil, fmt.Errorf("invalid --node-selector: %w", err)
	}
	c.options.NodeSelector = sel
	switch {
	case c.maxInFlight < 1:
		return nil, fmt.Errorf("invalid --max-in-flight %d: want 1 or more", c.maxInFlight)
	case c.readTimeout <= 0 || c.writeTimeout <= 0 || c.idle <= 0 || c.certReload <= 0 || c.shutdownDelay < 0:
		return nil, errors.New("durations must be greater than zero (--shutdown-delay: zero or more)")
	}
	return c, nil
}

// parseSelector parses k=v[,k=v], given once or many times, as the instancetype command
// does: label keys and values, checked by validate.NodeSelector.
func parseSelector(values []string) (map[string]string, error) {
	var m map[string]string
	for _, s := range values {
		if strings.TrimSpace(s) == "" {
			continue
		}
		for _, pair := range strings.Split(s, ",") {
			k, v, ok := strings.Cut(strings.TrimSpace(pair), "=")
			if !ok {
				return nil, fmt.Errorf("%q is not key=value", pair)
			}
			if m == nil {
				m = map[string]string{}
			}
			if old, dup := m[k]; dup && old != v {
				return nil, fmt.Errorf("key %q given twice, as %q and %q", k, old, v)
			}
			m[k] = v
		}
	}
	if errs := validate.NodeSelector(m, nil); len(errs) > 0 {
		return nil, errs.ToAggregate()
	}
	return m, nil
}

// run runs the servers until ctx ends, and returns the exit status.
func run(ctx context.Context, args []string, stderr io.Writer) int {
	c, err := parseFlags(args, stderr)
	if errors.Is(err, flag.ErrHelp) {
		return 0
	}
	if err != nil {
		fmt.Fprintln(stderr, "instancetype-webhook:", err)
		return 2
	}
	log := slog.New(slog.NewJSONHandler(stderr, &slog.HandlerOptions{Level: c.logLevel}))
	if err := serve(ctx, c, log); err != nil {
		log.Error("stopped", "error", err.Error())
		return 1
	}
	return 0
}

// serve starts the webhook, probe and metrics servers, and stops them gracefully once ctx
// ends.
func serve(ctx context.Context, c *config, log *slog.Logger) error {
	reg := prometheus.NewRegistry()
	m := newMetrics(reg)

	certs := certwatch.New(filepath.Join(c.certDir, "tls.crt"), filepath.Join(c.certDir, "tls.key"))
	certs.OnReload = func(leaf *x509.Certificate, err error) {
		if err != nil {
			m.certReloads.WithLabelValues("failure").Inc()
			log.Warn("certificate not loaded; serving the previous one, if any", "cert_dir", c.certDir, "error", err.Error())
			return
		}
		m.certReloads.WithLabelValues("success").Inc()
		m.certExpiry.Set(float64(leaf.NotAfter.Unix()))
		log.Info("certificate loaded", "cert_dir", c.certDir, "serial", leaf.SerialNumber.String(), "not_after", leaf.NotAfter.UTC().Format(time.RFC3339))
	}
	if err := certs.Load(); err != nil {
		return err
	}
	watchCtx, stopWatch := context.WithCancel(context.Background())
	defer stopWatch()
	go certs.Run(watchCtx, c.certReload)

	h := &webhook.Handler{Options: c.options, Observe: func(r *http.Request, res *webhook.Result) {
		m.observe(res)
		logReview(log, r, res)
	}}
	mux := http.NewServeMux()
	mux.Handle(Path, limit(h, c.maxInFlight, c.maxInFlightBytes, m, log))
	hooks := &http.Server{
		Handler:           mux,
		TLSConfig:         &tls.Config{MinVersion: tls.VersionTLS12, GetCertificate: certs.GetCertificate, NextProtos: []string{"http/1.1"}},
		ReadHeaderTimeout: min(readHeaderTimeout, c.readTimeout),
		ReadTimeout:       c.readTimeout,
		WriteTimeout:      c.writeTimeout,
		IdleTimeout:       c.idle,
		MaxHeaderBytes:    maxHeaderBytes,
		ErrorLog:          slog.NewLogLogger(log.Handler(), slog.LevelWarn),
	}
	// Without TLSNextProto set to an empty map, ServeTLS would offer HTTP/2 as well.
	hooks.TLSNextProto = map[string]func(*http.Server, *tls.Conn, http.Handler){}

	var ready atomic.Bool
	servers := []*namedServer{{name: "webhook", srv: hooks, addr: c.bindAddress, tls: true}}
	if c.probeAddress != "0" {
		probes := http.NewServeMux()
		probes.HandleFunc("/healthz", func(w http.ResponseWriter, _ *http.Request) { _, _ = io.WriteString(w, "ok\n") })
		probes.HandleFunc("/readyz", func(w http.ResponseWriter, _ *http.Request) {
			if !ready.Load() {
				http.Error(w, "not ready", http.StatusServiceUnavailable)
				return
			}
			_, _ = io.WriteString(w, "ok\n")
		})
		servers = append(servers, &namedServer{name: "probes", srv: plainServer(probes, log), addr: c.probeAddress})
	}
	if c.metrics != "0" {
		mm := http.NewServeMux()
		mm.Handle("/metrics", metricsHandler(reg))
		servers = append(servers, &namedServer{name: "metrics", srv: plainServer(mm, log), addr: c.metrics})
	}

	// Listen on every address before serving any, so that a port in use fails the start.
	for _, s := range servers {
		ln, err := net.Listen("tcp", s.addr)
		if err != nil {
			for _, o := range servers {
				if o.ln != nil {
					o.ln.Close()
				}
			}
			return fmt.Errorf("%s server: %w", s.name, err)
		}
		s.ln = ln
	}
	errc := make(chan error, len(servers))
	for _, s := range servers {
		log.Info("serving", "server", s.name, "address", s.ln.Addr().String())
		if s.name == "metrics" && !loopback(s.ln.Addr()) {
			log.Warn(msgMetricsExposed, "address", s.ln.Addr().String())
		}
		go func() {
			var err error
			if s.tls {
				err = s.srv.ServeTLS(s.ln, "", "")
			} else {
				err = s.srv.Serve(s.ln)
			}
			if !errors.Is(err, http.ErrServerClosed) {
				errc <- fmt.Errorf("%s server: %w", s.name, err)
			}
		}()
	}
	ready.Store(true)
	log.Info("ready", "node_selector", c.options.NodeSelector, "strict_subset", c.options.StrictSubset,
		"max_in_flight", c.maxInFlight, "max_in_flight_bytes", c.maxInFlightBytes)

	var failed error
	select {
	case <-ctx.Done():
	case failed = <-errc:
	}
	ready.Store(false)
	if failed == nil && c.shutdownDelay > 0 {
		log.Info("shutting down: not ready; still serving for the shutdown delay", "delay", c.shutdownDelay.String())
		select {
		case <-time.After(c.shutdownDelay):
		case failed = <-errc:
		}
	}
	log.Info("shutting down: waiting for the reviews in flight", "grace", shutdownGrace.String())
	sctx, cancel := context.WithTimeout(context.Background(), shutdownGrace)
	defer cancel()
	for _, s := range servers {
		if err := s.srv.Shutdown(sctx); err != nil {
			log.Warn("shutdown", "server", s.name, "error", err.Error())
		}
	}
	log.Info("stopped")
	return failed
}

type namedServer struct {
	name string
	srv  *http.Server
	addr string
	tls  bool
	ln   net.Listener
}

// loopback reports whether a is a TCP address on a loopback interface only (127.0.0.0/8,
// ::1); an unspecified address (0.0.0.0, ::) is every interface.
func loopback(a net.Addr) bool {
	tcp, ok := a.(*net.TCPAddr)
	return ok && tcp.IP.IsLoopback()
}

// plainServer is an HTTP server for probes and metrics, with timeouts of its own.
func plainServer(h http.Handler, log *slog.Logger) *http.Server {
	return &http.Server{
		Handler:           h,
		ReadHeaderTimeout: readHeaderTimeout,
		ReadTimeout:       10 * time.Second,
		WriteTimeout:      30 * time.Second,
		IdleTimeout:       90 * time.Second,
		MaxHeaderBytes:    maxHeaderBytes,
		ErrorLog:          slog.NewLogLogger(log.Handler(), slog.LevelWarn),
	}
}

// logReview logs one request's Result: never the object; the denial's message at debug
// level only.
func logReview(log *slog.Logger, r *http.Request, res *webhook.Result) {
	level := slog.LevelInfo
	if res.Outcome == webhook.Malformed {
		level = slog.LevelWarn
	}
	attrs := []slog.Attr{
		slog.String("uid", string(res.UID)),
		slog.String("operation", string(res.Operation)),
		slog.String("name", res.Name),
		slog.String("outcome", string(res.Outcome)),
		slog.Int("status", res.HTTPStatus),
		slog.Int("findings", res.Findings),
		slog.Int("ratcheted", res.Ratcheted),
		slog.Int("warnings", res.Warnings),
		slog.Float64("duration_ms", float64(res.Duration.Microseconds())/1000),
		slog.String("remote", r.RemoteAddr),
	}
	if res.Outcome == webhook.Malformed {
		attrs = append(attrs, slog.String("reason", res.Reason))
	} else if res.Reason != "" && log.Enabled(r.Context(), slog.LevelDebug) {
		log.LogAttrs(r.Context(), slog.LevelDebug, "review", append(attrs, slog.String("reason", res.Reason))...)
		return
	}
	log.LogAttrs(r.Context(), level, "review", attrs...)
}
