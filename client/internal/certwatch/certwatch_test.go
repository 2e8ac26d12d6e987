package certwatch_test

import (
	"context"
	"crypto/x509"
	"math/big"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/amlarc-go/instancetypes/client/internal/certwatch"
	"github.com/amlarc-go/instancetypes/client/internal/testcerts"
)

func serving(t *testing.T, ca *testcerts.CA) *testcerts.Serving {
	t.Helper()
	s, err := ca.Serve()
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func served(t *testing.T, w *certwatch.Watcher) *big.Int {
	t.Helper()
	c, err := w.GetCertificate(nil)
	if err != nil {
		t.Fatal(err)
	}
	return c.Leaf.SerialNumber
}

// TestReload: the certificate is replaced in each way a Secret's files change, and a pair
// that does not parse keeps the previous certificate until it does.
func TestReload(t *testing.T) {
	ca, err := testcerts.NewCA()
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	w := certwatch.New(filepath.Join(dir, "tls.crt"), filepath.Join(dir, "tls.key"))
	var reloads, failures int
	w.OnReload = func(leaf *x509.Certificate, err error) {
		if err != nil {
			failures++
		} else {
			reloads++
		}
	}
	if _, err := w.GetCertificate(nil); err == nil {
		t.Fatal("a certificate before any was loaded")
	}

	// The kubelet's way: a ..data symlink swapped to a new directory.
	a := serving(t, ca)
	if err := a.WriteAsKubelet(dir); err != nil {
		t.Fatal(err)
	}
	if err := w.Load(); err != nil {
		t.Fatal(err)
	}
	if got := served(t, w); got.Cmp(a.Serial) != 0 {
		t.Fatalf("serving %v; want %v", got, a.Serial)
	}
	if err := w.Load(); err != nil || reloads != 1 {
		t.Fatalf("Load of unchanged files: %v, %d reloads; want nil and 1", err, reloads)
	}
	b := serving(t, ca)
	if err := b.WriteAsKubelet(dir); err != nil {
		t.Fatal(err)
	}
	if err := w.Load(); err != nil {
		t.Fatal(err)
	}
	if got := served(t, w); got.Cmp(b.Serial) != 0 {
		t.Fatalf("after the ..data swap, serving %v; want %v", got, b.Serial)
	}

	// In place, as other tools write: the certificate first, then the key. In between the
	// pair does not match, and the previous certificate is kept.
	dir2 := t.TempDir()
	w2 := certwatch.New(filepath.Join(dir2, "tls.crt"), filepath.Join(dir2, "tls.key"))
	if err := b.WriteFiles(dir2); err != nil {
		t.Fatal(err)
	}
	if err := w2.Load(); err != nil {
		t.Fatal(err)
	}
	c := serving(t, ca)
	if err := os.WriteFile(filepath.Join(dir2, "tls.crt"), c.CertPEM, 0o600); err != nil {
		t.Fatal(err)
	}
	if err := w2.Load(); err == nil {
		t.Fatal("a certificate with another's key loaded")
	}
	if got := served(t, w2); got.Cmp(b.Serial) != 0 {
		t.Fatalf("while half written, serving %v; want the previous %v", got, b.Serial)
	}
	if err := os.WriteFile(filepath.Join(dir2, "tls.key"), c.KeyPEM, 0o600); err != nil {
		t.Fatal(err)
	}
	if err := w2.Load(); err != nil {
		t.Fatal(err)
	}
	if got := served(t, w2); got.Cmp(c.Serial) != 0 {
		t.Fatalf("after the key, serving %v; want %v", got, c.Serial)
	}

	// Files gone (a Secret deleted): the certificate is kept, and comes back with them.
	if err := os.Remove(filepath.Join(dir2, "tls.key")); err != nil {
		t.Fatal(err)
	}
	if err := w2.Load(); err == nil {
		t.Fatal("Load without a key succeeded")
	}
	if got := served(t, w2); got.Cmp(c.Serial) != 0 {
		t.Fatalf("with the key gone, serving %v; want the previous %v", got, c.Serial)
	}
	d := serving(t, ca)
	if err := d.WriteFiles(dir2); err != nil {
		t.Fatal(err)
	}
	if err := w2.Load(); err != nil {
		t.Fatal(err)
	}
	if got := served(t, w2); got.Cmp(d.Serial) != 0 {
		t.Fatalf("serving %v; want %v", got, d.Serial)
	}
	if failures != 0 || reloads != 2 {
		t.Errorf("first watcher: %d reloads and %d failures reported; want 2 and 0", reloads, failures)
	}
}

// TestRun: Run picks a rotation up by itself.
func TestRun(t *testing.T) {
	ca, err := testcerts.NewCA()
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	a := serving(t, ca)
	if err := a.WriteAsKubelet(dir); err != nil {
		t.Fatal(err)
	}
	w := certwatch.New(filepath.Join(dir, "tls.crt"), filepath.Join(dir, "tls.key"))
	if err := w.Load(); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	go w.Run(ctx, 10*time.Millisecond)
	b := serving(t, ca)
	if err := b.WriteAsKubelet(dir); err != nil {
		t.Fatal(err)
	}
	// Not a bound on time: a generous wait for the next reads.
	deadline := time.Now().Add(30 * time.Second)
	for served(t, w).Cmp(b.Serial) != 0 {
		if time.Now().After(deadline) {
			t.Fatal("the rotated certificate was never served")
		}
		time.Sleep(10 * time.Millisecond)
	}
}
