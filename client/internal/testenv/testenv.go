// Package testenv starts a real kube-apiserver and etcd for the integration tests of this
// module, with controller-runtime's envtest, from the binaries that hack/envtest.sh builds
// (kube-apiserver of k8s.io/kubernetes v1.37.2 and etcd v3.7.3, from the Go module proxy).
//
// The binaries are looked up in $KUBEBUILDER_ASSETS, else in [DefaultAssetsDir]. When they
// are missing, [Environment.Start] skips the test with one line naming the script — unless
// the binaries are required ($CI is true, or $INSTANCETYPES_ENVTEST_REQUIRED is 1), in
// which case the test fails: in CI a skip is a failure.
//
// An [Environment] is started once per test binary, on first use, and stopped by
// [Environment.Stop], which a TestMain calls after m.Run.
package testenv

import (
	"fmt"
	"os"
	"path/filepath"
	"sync"
	"testing"

	"k8s.io/client-go/rest"
	"sigs.k8s.io/controller-runtime/pkg/envtest"
)

// Script is the script that builds the binaries, relative to the client module.
const Script = "client/hack/envtest.sh"

// Versions of the binaries, as the script builds them; they name the assets directory.
const (
	KubernetesVersion = "v1.37.2"
	EtcdVersion       = "v3.7.3"
)

// DefaultAssetsDir returns where hack/envtest.sh puts the binaries by default:
// $INSTANCETYPES_ENVTEST_CACHE (else the user cache directory's instancetypes-envtest),
// then k8s-VERSION-etcd-VERSION.
func DefaultAssetsDir() string {
	base := os.Getenv("INSTANCETYPES_ENVTEST_CACHE")
	if base == "" {
		cache, err := os.UserCacheDir()
		if err != nil {
			cache = os.TempDir()
		}
		base = filepath.Join(cache, "instancetypes-envtest")
	}
	return filepath.Join(base, "k8s-"+KubernetesVersion+"-etcd-"+EtcdVersion)
}

// AssetsDir returns the directory of the binaries: $KUBEBUILDER_ASSETS, else
// DefaultAssetsDir.
func AssetsDir() string {
	if dir := os.Getenv("KUBEBUILDER_ASSETS"); dir != "" {
		return dir
	}
	return DefaultAssetsDir()
}

// Required reports whether a missing binary fails a test instead of skipping it: in CI
// ($CI=true) or with $INSTANCETYPES_ENVTEST_REQUIRED=1.
func Required() bool {
	return os.Getenv("CI") == "true" || os.Getenv("INSTANCETYPES_ENVTEST_REQUIRED") == "1"
}

// missing returns the binaries absent from dir.
func missing(dir string) []string {
	var out []string
	for _, name := range []string{"kube-apiserver", "etcd"} {
		if fi, err := os.Stat(filepath.Join(dir, name)); err != nil || fi.IsDir() || fi.Mode()&0o111 == 0 {
			out = append(out, name)
		}
	}
	return out
}

// Environment is one kube-apiserver and etcd, started on first use.
type Environment struct {
	// Setup adjusts the envtest environment before it starts: CRDs to install, webhooks
	// to register. BinaryAssetsDirectory is set by Start.
	Setup func(*envtest.Environment) error

	once sync.Once
	env  *envtest.Environment
	cfg  *rest.Config
	err  error
	skip string
}

// Start returns the REST config of the running API server, starting it on first use. It
// skips t (or fails it, when the binaries are [Required]) if they are missing, and fails
// t if the server did not start.
func (e *Environment) Start(t testing.TB) *rest.Config {
	t.Helper()
	e.once.Do(e.start)
	if e.skip != "" {
		if Required() {
			t.Fatal(e.skip + " (required here: a skip is a failure)")
		}
		t.Skip(e.skip)
	}
	if e.err != nil {
		t.Fatalf("starting kube-apiserver and etcd: %v", e.err)
	}
	return e.cfg
}

// Env returns the started envtest environment, for its webhook options; nil before Start.
func (e *Environment) Env() *envtest.Environment { return e.env }

func (e *Environment) start() {
	dir := AssetsDir()
	if m := missing(dir); len(m) > 0 {
		e.skip = fmt.Sprintf("integration test skipped: no %v in %s; build them with %s", m, dir, Script)
		return
	}
	e.env = &envtest.Environment{BinaryAssetsDirectory: dir, ErrorIfCRDPathMissing: true}
	if e.Setup != nil {
		if e.err = e.Setup(e.env); e.err != nil {
			return
		}
	}
	e.env.BinaryAssetsDirectory = dir
	e.cfg, e.err = e.env.Start()
}

// Stop stops the API server and etcd if they were started.
func (e *Environment) Stop() error {
	if e.env == nil || e.cfg == nil {
		return nil
	}
	return e.env.Stop()
}
