package main

import (
	"encoding/json"
	"log/slog"
	"net/http"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// limit lets at most n requests into h at once. A request beyond waits for a place up to
// queueWait (or until its context ends), then is answered 429 Too Many Requests with
// Retry-After: 1 and a Status, as the API server answers when it is overloaded; the API
// server's client retries such an answer after a second, within the webhook's
// timeoutSeconds. The wait happens before the body is read, so waiting requests hold no
// memory of the server's. Throttled requests count in the reviews_total metric.
func limit(h http.Handler, n int, m *metrics, log *slog.Logger) http.Handler {
	slots := make(chan struct{}, n)
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		start := time.Now()
		timer := time.NewTimer(queueWait)
		defer timer.Stop()
		select {
		case slots <- struct{}{}:
		case <-timer.C:
			throttle(w, r, start, m, log)
			return
		case <-r.Context().Done():
			throttle(w, r, start, m, log)
			return
		}
		m.inFlight.Inc()
		defer func() {
			m.inFlight.Dec()
			<-slots
		}()
		h.ServeHTTP(w, r)
	})
}

// throttle answers r 429.
func throttle(w http.ResponseWriter, r *http.Request, start time.Time, m *metrics, log *slog.Logger) {
	st := metav1.Status{
		TypeMeta: metav1.TypeMeta{APIVersion: "v1", Kind: "Status"},
		Status:   metav1.StatusFailure, Code: http.StatusTooManyRequests, Reason: metav1.StatusReasonTooManyRequests,
		Message: "too many reviews in flight; retry after a second",
		Details: &metav1.StatusDetails{RetryAfterSeconds: 1},
	}
	body, _ := json.Marshal(st)
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("Retry-After", "1")
	w.WriteHeader(http.StatusTooManyRequests)
	_, _ = w.Write(body)
	m.reviews.WithLabelValues("none", "throttled").Inc()
	m.duration.WithLabelValues("none").Observe(time.Since(start).Seconds())
	log.Warn("review throttled: too many in flight", "remote", r.RemoteAddr, "waited_ms", time.Since(start).Milliseconds())
}
