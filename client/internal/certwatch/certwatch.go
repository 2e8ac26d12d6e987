// Package certwatch serves a TLS certificate and key from files that are replaced while
// the server runs, as cert-manager and the kubelet replace a mounted Secret's files: the
// kubelet swaps a ..data symlink to a new directory, others rewrite the files in place.
//
// A [Watcher] reads the two files again every interval and, when either has changed and
// the pair parses, serves the new certificate to every new TLS handshake
// ([Watcher.GetCertificate], for tls.Config.GetCertificate); connections already open keep
// the one they began with. A pair that does not parse (a key written before its
// certificate, a file half written) is reported and the previous certificate is kept; the
// next read tries again. Reading compares the files' contents, not their times, so a
// symlink swap, a rename over the file and a write in place are all seen, on any file
// system.
package certwatch

import (
	"bytes"
	"context"
	"crypto/tls"
	"crypto/x509"
	"errors"
	"fmt"
	"os"
	"sync"
	"sync/atomic"
	"time"
)

// Watcher serves the certificate in CertFile and KeyFile, reloaded as they change.
type Watcher struct {
	certFile, keyFile string

	// OnReload, when set before Load is first called, is called after each read that
	// found the files changed: with the new certificate's leaf and a nil error, or with
	// the error that kept the previous one. It is not called when nothing changed.
	OnReload func(leaf *x509.Certificate, err error)

	cert atomic.Pointer[tls.Certificate]

	mu             sync.Mutex // serializes Load
	lastCert       []byte     // the contents last read, loaded or not
	lastKey        []byte
	lastLoadFailed bool
}

// New returns a Watcher of the PEM files certFile and keyFile. Call Load before serving.
func New(certFile, keyFile string) *Watcher {
	return &Watcher{certFile: certFile, keyFile: keyFile}
}

// Load reads the files and, when they differ from what was read last, parses them and
// serves the new pair. It returns an error when a file cannot be read or the pair does not
// parse; the certificate served before, if any, is kept.
func (w *Watcher) Load() error {
	w.mu.Lock()
	defer w.mu.Unlock()
	certPEM, err := os.ReadFile(w.certFile)
	if err != nil {
		return w.failed(fmt.Errorf("reading the certificate: %w", err))
	}
	keyPEM, err := os.ReadFile(w.keyFile)
	if err != nil {
		return w.failed(fmt.Errorf("reading the key: %w", err))
	}
	if w.cert.Load() != nil && !w.lastLoadFailed && bytes.Equal(certPEM, w.lastCert) && bytes.Equal(keyPEM, w.lastKey) {
		return nil
	}
	changed := !bytes.Equal(certPEM, w.lastCert) || !bytes.Equal(keyPEM, w.lastKey)
	w.lastCert, w.lastKey = certPEM, keyPEM
	cert, err := tls.X509KeyPair(certPEM, keyPEM)
	if err != nil {
		err = fmt.Errorf("loading %s and %s: %w", w.certFile, w.keyFile, err)
		w.lastLoadFailed = true
		if changed && w.OnReload != nil {
			w.OnReload(nil, err)
		}
		return err
	}
	w.lastLoadFailed = false
	w.cert.Store(&cert)
	if w.OnReload != nil {
		w.OnReload(cert.Leaf, nil)
	}
	return nil
}

// failed records that the files could not be read: the next read that succeeds counts as
// a change.
func (w *Watcher) failed(err error) error {
	first := !w.lastLoadFailed
	w.lastLoadFailed = true
	w.lastCert, w.lastKey = nil, nil
	if first && w.OnReload != nil {
		w.OnReload(nil, err)
	}
	return err
}

// Run calls Load every interval until ctx ends. Errors go to OnReload.
func (w *Watcher) Run(ctx context.Context, interval time.Duration) {
	t := time.NewTicker(interval)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-t.C:
			_ = w.Load() // reported through OnReload
		}
	}
}

// ErrNoCertificate is returned by GetCertificate before a certificate was loaded.
var ErrNoCertificate = errors.New("certwatch: no certificate loaded")

// GetCertificate returns the certificate to serve, for tls.Config.GetCertificate.
func (w *Watcher) GetCertificate(*tls.ClientHelloInfo) (*tls.Certificate, error) {
	if c := w.cert.Load(); c != nil {
		return c, nil
	}
	return nil, ErrNoCertificate
}

// Leaf returns the certificate served, nil before one was loaded.
func (w *Watcher) Leaf() *x509.Certificate {
	if c := w.cert.Load(); c != nil {
		return c.Leaf
	}
	return nil
}
