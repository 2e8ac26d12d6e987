package main

import (
	"context"
	"encoding/json"
	"log/slog"
	"net/http"
	"time"

	"golang.org/x/sync/semaphore"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// limit lets at most n requests, and at most maxBytes of request bodies, into h at once.
// A request beyond waits for a place up to queueWait (or until its context ends), then is
// answered 429 Too Many Requests with Retry-After: 1 and a Status, as the API server
// answers when it is overloaded; the API server's client retries such an answer after a
// second, within the webhook's timeoutSeconds.
//
// A body weighs its Content-Length (which the server holds it to), or maxBytes when it
// has none or more: such a request runs alone. Reviewing an object takes about a hundred
// times its size in memory (a 1.5 MB object, the most etcd stores, peaks at 130 MB of
// heap), so the byte bound is what bounds the server's memory, whatever the objects; the
// count bounds the work of many small ones. The wait happens before the body is read, so
// waiting requests hold no memory of the server's. Throttled requests count in the
// reviews_total metric.
func limit(h http.Handler, n int, maxBytes int64, m *metrics, log *slog.Logger) http.Handler {
	count := semaphore.NewWeighted(int64(n))
	bytes := semaphore.NewWeighted(maxBytes)
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		start := time.Now()
		weight := r.ContentLength
		if weight < 0 || weight > maxBytes {
			weight = maxBytes
		}
		ctx, cancel := context.WithTimeout(r.Context(), queueWait)
		err := count.Acquire(ctx, 1)
		if err == nil {
			if err = bytes.Acquire(ctx, weight); err != nil {
				count.Release(1)
			}
		}
		cancel()
		if err != nil {
			throttle(w, r, start, m, log)
			return
		}
		m.inFlight.Inc()
		m.inFlightBytes.Add(float64(weight))
		defer func() {
			m.inFlightBytes.Sub(float64(weight))
			m.inFlight.Dec()
			bytes.Release(weight)
			count.Release(1)
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
