package manifest_test

import (
	"runtime"
	"testing"

	yamlv3 "go.yaml.in/yaml/v3"
	"sigs.k8s.io/yaml"

	"github.com/amlarc-go/instancetypes/instancetype"
	"github.com/amlarc-go/instancetypes/manifest"
)

// BenchmarkDecodeList compares decoding a generated InstanceTypeList with this package
// (strict, with positions and findings) against the ways a user would otherwise decode it:
// sigs.k8s.io/yaml into the API types (what kubectl-style tools do), and a bare
// go.yaml.in/yaml/v3 parse into nodes (the floor under this package).
//
// The row file=one-type is a file of one InstanceType in block style, as kept one object a
// file (what scripts/kubeconform.sh times 2,000 of): the form the package reads without
// the YAML reader (parsePlain).
func BenchmarkDecodeList(b *testing.B) {
	one := []byte(`apiVersion: amlarc.azureml.com/v1alpha1
kind: InstanceType
metadata:
  name: it-1
spec:
  nodeSelector:
    pool: pool-1
  resources:
    requests:
      cpu: "101m"
      memory: "257Mi"
    limits:
      cpu: "2"
      memory: "3Gi"
      nvidia.com/gpu: 1
`)
	b.Run("manifest/file=one-type", func(b *testing.B) {
		b.ReportAllocs()
		b.SetBytes(int64(len(one)))
		for b.Loop() {
			if f := manifest.Parse("one.yaml", one); len(f.Documents) != 1 || len(f.Documents[0].InstanceTypes) != 1 {
				b.Fatal("bad decode")
			}
		}
	})
	b.Run("sigsyaml/file=one-type", func(b *testing.B) {
		b.ReportAllocs()
		b.SetBytes(int64(len(one)))
		for b.Loop() {
			var it instancetype.InstanceType
			if err := yaml.Unmarshal(one, &it); err != nil || it.Name != "it-1" {
				b.Fatal(err)
			}
		}
	})
	b.Run("yamlv3node/file=one-type", func(b *testing.B) {
		b.ReportAllocs()
		b.SetBytes(int64(len(one)))
		for b.Loop() {
			var node yamlv3.Node
			if err := yamlv3.Unmarshal(one, &node); err != nil {
				b.Fatal(err)
			}
		}
	})
	for _, n := range []int{100, 20000} {
		data := bigList(n)
		b.Run("manifest/items="+itoa(n), func(b *testing.B) {
			b.ReportAllocs()
			b.SetBytes(int64(len(data)))
			for b.Loop() {
				f := manifest.Parse("big.yaml", data)
				if len(f.Documents) != 1 || len(f.Documents[0].InstanceTypes) != n {
					b.Fatal("bad decode")
				}
			}
		})
		// On one processor: a long list is parsed in parts on every processor otherwise,
		// and this is the time of the same work done alone.
		b.Run("manifest-1cpu/items="+itoa(n), func(b *testing.B) {
			defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(1))
			b.ReportAllocs()
			b.SetBytes(int64(len(data)))
			for b.Loop() {
				f := manifest.Parse("big.yaml", data)
				if len(f.Documents) != 1 || len(f.Documents[0].InstanceTypes) != n {
					b.Fatal("bad decode")
				}
			}
		})
		b.Run("sigsyaml/items="+itoa(n), func(b *testing.B) {
			b.ReportAllocs()
			b.SetBytes(int64(len(data)))
			for b.Loop() {
				var l instancetype.InstanceTypeList
				if err := yaml.Unmarshal(data, &l); err != nil || len(l.Items) != n {
					b.Fatal(err)
				}
			}
		})
		b.Run("yamlv3node/items="+itoa(n), func(b *testing.B) {
			b.ReportAllocs()
			b.SetBytes(int64(len(data)))
			for b.Loop() {
				var node yamlv3.Node
				if err := yamlv3.Unmarshal(data, &node); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

func itoa(n int) string {
	if n >= 1000 && n%1000 == 0 {
		return itoa(n/1000) + "k"
	}
	s := ""
	for ; n > 0 || s == ""; n /= 10 {
		s = string(rune('0'+n%10)) + s
	}
	return s
}
