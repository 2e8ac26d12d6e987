package main

import (
	"net/http"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/collectors"
	"github.com/prometheus/client_golang/prometheus/promhttp"

	"github.com/amlarc-go/instancetypes/client/webhook"
)

// metrics are the webhook's Prometheus metrics (listed in the module's README).
type metrics struct {
	reviews       *prometheus.CounterVec
	duration      *prometheus.HistogramVec
	findings      *prometheus.CounterVec
	warnings      prometheus.Counter
	inFlight      prometheus.Gauge
	inFlightBytes prometheus.Gauge
	certReloads   *prometheus.CounterVec
	certExpiry    prometheus.Gauge
}

// newMetrics registers the metrics, and the Go runtime's and the process's, with reg.
func newMetrics(reg *prometheus.Registry) *metrics {
	const ns = "instancetype_webhook"
	m := &metrics{
		reviews: prometheus.NewCounterVec(prometheus.CounterOpts{
			Namespace: ns, Name: "reviews_total",
			Help: "Requests answered, by operation (CREATE, UPDATE, DELETE, CONNECT, other, none) and outcome (allowed, denied, canceled, malformed, throttled).",
		}, []string{"operation", "outcome"}),
		duration: prometheus.NewHistogramVec(prometheus.HistogramOpts{
			Namespace: ns, Name: "review_duration_seconds",
			Help:    "Time from a request's arrival to its answer, by operation; a throttled request's wait included.",
			Buckets: []float64{0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30},
		}, []string{"operation"}),
		findings: prometheus.NewCounterVec(prometheus.CounterOpts{
			Namespace: ns, Name: "findings_total",
			Help: "Findings of reviewed objects, by what they did: denied (the request), or ratcheted (admitted, their values unchanged from the old object).",
		}, []string{"result"}),
		warnings: prometheus.NewCounter(prometheus.CounterOpts{
			Namespace: ns, Name: "warnings_total", Help: "Warnings returned to clients.",
		}),
		inFlight: prometheus.NewGauge(prometheus.GaugeOpts{
			Namespace: ns, Name: "reviews_in_flight", Help: "Reviews being answered now (at most --max-in-flight).",
		}),
		inFlightBytes: prometheus.NewGauge(prometheus.GaugeOpts{
			Namespace: ns, Name: "request_bytes_in_flight", Help: "Bytes of the request bodies being reviewed now (at most --max-in-flight-bytes).",
		}),
		certReloads: prometheus.NewCounterVec(prometheus.CounterOpts{
			Namespace: ns, Name: "certificate_reloads_total",
			Help: "Changes of tls.crt and tls.key seen, by result: success (now served) or failure (the previous certificate kept).",
		}, []string{"result"}),
		certExpiry: prometheus.NewGauge(prometheus.GaugeOpts{
			Namespace: ns, Name: "certificate_expiry_timestamp_seconds", Help: "When the certificate served expires, in seconds since the Unix epoch.",
		}),
	}
	reg.MustRegister(m.reviews, m.duration, m.findings, m.warnings, m.inFlight, m.inFlightBytes, m.certReloads, m.certExpiry,
		collectors.NewGoCollector(), collectors.NewProcessCollector(collectors.ProcessCollectorOpts{}))
	return m
}

// operationLabel bounds the operation label to the operations the API server sends:
// anything else (which the handler denies) is "other", and a request with no review
// "none".
func operationLabel(res *webhook.Result) string {
	if res.Outcome == webhook.Malformed {
		return "none"
	}
	switch op := string(res.Operation); op {
	case "CREATE", "UPDATE", "DELETE", "CONNECT":
		return op
	}
	return "other"
}

// observe records one answered request.
func (m *metrics) observe(res *webhook.Result) {
	op := operationLabel(res)
	m.reviews.WithLabelValues(op, string(res.Outcome)).Inc()
	m.duration.WithLabelValues(op).Observe(res.Duration.Seconds())
	if res.Findings > 0 {
		m.findings.WithLabelValues("denied").Add(float64(res.Findings))
	}
	if res.Ratcheted > 0 {
		m.findings.WithLabelValues("ratcheted").Add(float64(res.Ratcheted))
	}
	if res.Warnings > 0 {
		m.warnings.Add(float64(res.Warnings))
	}
}

// metricsHandler serves reg's metrics.
func metricsHandler(reg *prometheus.Registry) http.Handler {
	return promhttp.HandlerFor(reg, promhttp.HandlerOpts{Registry: reg})
}
