package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	apiextensionsv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/tools/clientcmd"
	clientcmdapi "k8s.io/client-go/tools/clientcmd/api"
	"sigs.k8s.io/controller-runtime/pkg/envtest"
	"sigs.k8s.io/yaml"

	"github.com/amlarc-go/instancetypes/client/clientset/versioned"
	"github.com/amlarc-go/instancetypes/client/internal/testenv"
	"github.com/amlarc-go/instancetypes/client/manifests"
)

const want = `WORKLOAD                   INSTANCE TYPE                   NODE SELECTOR         REQUESTS                LIMITS
deployment.yaml            myinstancetypename              mylabel=mylabelvalue  cpu=700m memory=1500Mi  cpu=1 memory=2Gi nvidia.com/gpu=1
deployment_resources.yaml  cpusmall                        -                     cpu=0.1 memory=0.2Gi    cpu=0.2 memory=0.5Gi nvidia.com/gpu=0
job.yaml                   myinstancetypename              mylabel=mylabelvalue  cpu=700m memory=1500Mi  cpu=1 memory=2Gi nvidia.com/gpu=1
job train-small            cpusmall                        -                     cpu=100m memory=100Mi   cpu=2 memory=2Gi nvidia.com/gpu=0
deployment green           defaultinstancetype (built-in)  -                     cpu=100m memory=2Gi     cpu=2 memory=2Gi
`

// Run with -race: the workers read the store while the informer writes to it.
func TestRun(t *testing.T) {
	for range 3 { // the interleaving differs from run to run; the outcome must not
		var out strings.Builder
		if err := run(t.Context(), "", &out); err != nil {
			t.Fatalf("run: %v", err)
		}
		if got := out.String(); got != want {
			t.Fatalf("run output:\n%s\nwant:\n%s", got, want)
		}
	}
}

// clusterWant is what the program prints against a cluster holding the source document's
// instance types, unchanged: cpusmall with its own limits, the custom default.
const clusterWant = `WORKLOAD                   INSTANCE TYPE        NODE SELECTOR         REQUESTS                LIMITS
deployment.yaml            myinstancetypename   mylabel=mylabelvalue  cpu=700m memory=1500Mi  cpu=1 memory=2Gi nvidia.com/gpu=1
deployment_resources.yaml  cpusmall             -                     cpu=0.1 memory=0.2Gi    cpu=0.2 memory=0.5Gi nvidia.com/gpu=0
job.yaml                   myinstancetypename   mylabel=mylabelvalue  cpu=700m memory=1500Mi  cpu=1 memory=2Gi nvidia.com/gpu=1
job train-small            cpusmall             -                     cpu=100m memory=100Mi   cpu=1 memory=1Gi nvidia.com/gpu=0
deployment green           defaultinstancetype  -                     cpu=1 memory=1Gi        cpu=1 memory=1Gi nvidia.com/gpu=0
`

var cluster = &testenv.Environment{Setup: func(e *envtest.Environment) error {
	var crd apiextensionsv1.CustomResourceDefinition
	if err := yaml.UnmarshalStrict(manifests.CRD, &crd); err != nil {
		return err
	}
	e.CRDs = []*apiextensionsv1.CustomResourceDefinition{&crd}
	return nil
}}

func TestMain(m *testing.M) {
	code := m.Run()
	if err := cluster.Stop(); err != nil {
		code = 1
	}
	os.Exit(code)
}

// TestRunAgainstCluster runs the program with -kubeconfig against a real kube-apiserver
// holding the source document's instance types (see internal/testenv).
func TestRunAgainstCluster(t *testing.T) {
	cfg := cluster.Start(t)
	cs, err := versioned.NewForConfig(cfg)
	if err != nil {
		t.Fatal(err)
	}
	types, _, err := load()
	if err != nil {
		t.Fatal(err)
	}
	for _, it := range types {
		if _, err := cs.AmlarcV1alpha1().InstanceTypes().Create(t.Context(), it, metav1.CreateOptions{}); err != nil {
			t.Fatal(err)
		}
	}
	kubeconfig := filepath.Join(t.TempDir(), "kubeconfig")
	err = clientcmd.WriteToFile(clientcmdapi.Config{
		Clusters:       map[string]*clientcmdapi.Cluster{"envtest": {Server: cfg.Host, CertificateAuthorityData: cfg.CAData}},
		AuthInfos:      map[string]*clientcmdapi.AuthInfo{"envtest": {ClientCertificateData: cfg.CertData, ClientKeyData: cfg.KeyData}},
		Contexts:       map[string]*clientcmdapi.Context{"envtest": {Cluster: "envtest", AuthInfo: "envtest"}},
		CurrentContext: "envtest",
	}, kubeconfig)
	if err != nil {
		t.Fatal(err)
	}
	var out strings.Builder
	if err := run(t.Context(), kubeconfig, &out); err != nil {
		t.Fatalf("run: %v", err)
	}
	if got := out.String(); got != clusterWant {
		t.Fatalf("run output:\n%s\nwant:\n%s", got, clusterWant)
	}
}
