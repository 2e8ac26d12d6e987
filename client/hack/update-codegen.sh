#!/usr/bin/env bash
# Regenerates everything generated in the client module, from the API types of package
# instancetype (github.com/amlarc-go/instancetypes/instancetype):
#
#   manifests/crd/       the CRD, by controller-gen v0.23.0 from the kubebuilder markers,
#                        then hack/tools/crdschema for what markers cannot say
#   manifests/policy/    the ValidatingAdmissionPolicy and binding, by hack/tools/genvap
#   applyconfiguration/  apply configurations (applyconfiguration-gen, with the OpenAPI
#                        schema the API server publishes for the CRD, hack/tools/crdopenapi)
#   clientset/           the typed clientset and its fake (client-gen)
#   listers/, informers/ listers and shared informers (lister-gen, informer-gen)
#
# The generators are those of k8s.io/code-generator v0.37.2 and controller-tools v0.23.0,
# pinned in hack/tools/go.mod, not in the library's or the client module's go.mod.
#
# Usage: hack/update-codegen.sh [OUTPUT_DIR]
# OUTPUT_DIR defaults to the client module itself; hack/verify-codegen.sh passes a
# temporary directory and compares. Needs only Go; modules come from the Go module proxy.
set -euo pipefail

client=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
root=$(cd "$client/.." && pwd)
out=$(mkdir -p "${1:-$client}" && cd "${1:-$client}" && pwd)
mod=github.com/amlarc-go/instancetypes/client
apis=$mod/apis/amlarc/v1alpha1

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
bin=$work/bin
header=$client/hack/boilerplate.go.txt

# The generators, built from the tools module, alone (cached by the go command after the
# first run).
(cd "$client/hack/tools" && GOWORK=off go build -o "$bin/" \
	k8s.io/code-generator/cmd/applyconfiguration-gen \
	k8s.io/code-generator/cmd/client-gen \
	k8s.io/code-generator/cmd/lister-gen \
	k8s.io/code-generator/cmd/informer-gen \
	sigs.k8s.io/controller-tools/cmd/controller-gen \
	./crdopenapi ./crdschema ./genvap)

# 1. The CRD, from the markers of package instancetype.
rm -rf "$out/manifests/crd" && mkdir -p "$out/manifests/crd"
# The client module in the repository's workspace, so that the library is this tree.
(cd "$client" && GOWORK=$root/go.work "$bin/controller-gen" crd:crdVersions=v1 \
	paths=github.com/amlarc-go/instancetypes/instancetype \
	output:crd:artifacts:config="$out/manifests/crd")
crd=$out/manifests/crd/amlarc.azureml.com_instancetypes.yaml
# What the markers cannot say: quantities in the form controller-gen writes for
# resource.Quantity (anyOf integer, string), and label values of at most 63 characters, a
# bound the CEL rule checking them needs to fit the CRD's cost budget.
"$bin/crdschema" -crd "$crd" -value-max-length spec.nodeSelector=63

# 2. The admission policy, from the CRD's rules.
rm -rf "$out/manifests/policy" && mkdir -p "$out/manifests/policy"
"$bin/genvap" -crd "$crd" >"$out/manifests/policy/instancetypes.amlarc.azureml.com.yaml"

# 3. Client code. Kubernetes' generators want API types at apis/GROUP/VERSION, while the
# types live in package instancetype, which apis/amlarc/v1alpha1 aliases. So the generators
# read a scratch module in which apis/amlarc/v1alpha1 holds a copy of the types' source;
# the code they write refers to $apis, which in the client module is the alias package.
scratch=$work/src
mkdir -p "$scratch/apis/amlarc/v1alpha1"
cp "$client/go.mod" "$client/go.sum" "$scratch/"
(cd "$scratch" && go mod edit -replace "github.com/amlarc-go/instancetypes=$root")
export GOWORK=off # the scratch module is alone, with its replace
for f in "$root"/instancetype/*.go; do
	case $f in *_test.go) continue ;; esac
	sed 's/^package instancetype$/package v1alpha1/' "$f" >"$scratch/apis/amlarc/v1alpha1/$(basename "$f")"
done

"$bin/crdopenapi" -crd "$crd" -version v1alpha1 -go-package "$apis" \
	-type-package github.com/amlarc-go/instancetypes/instancetype >"$work/openapi.json"

rm -rf "$out/applyconfiguration" "$out/clientset" "$out/listers" "$out/informers"
cd "$scratch"
"$bin/applyconfiguration-gen" --go-header-file "$header" \
	--output-dir "$out/applyconfiguration" --output-pkg "$mod/applyconfiguration" \
	--openapi-schema "$work/openapi.json" \
	"$apis"
"$bin/client-gen" --go-header-file "$header" \
	--output-dir "$out/clientset" --output-pkg "$mod/clientset" \
	--clientset-name versioned \
	--apply-configuration-package "$mod/applyconfiguration" \
	--input-base "$mod/apis" --input amlarc/v1alpha1
"$bin/lister-gen" --go-header-file "$header" \
	--output-dir "$out/listers" --output-pkg "$mod/listers" \
	"$apis"
"$bin/informer-gen" --go-header-file "$header" \
	--output-dir "$out/informers" --output-pkg "$mod/informers" \
	--versioned-clientset-package "$mod/clientset/versioned" \
	--listers-package "$mod/listers" \
	"$apis"

# 4. Name the generators' Go files zz_generated.*, as the deep copies are named, so that
# people and tools tell them from written code, and give each generated package that has
# none a package comment, so that its documentation says what it is.
find "$out/applyconfiguration" "$out/clientset" "$out/listers" "$out/informers" -name '*.go' \
	! -name 'zz_generated.*' ! -name doc.go | while read -r f; do
	mv "$f" "$(dirname "$f")/zz_generated.$(basename "$f")"
done
doc() { # doc DIR PACKAGE TEXT: a package comment for DIR, unless it has a doc.go
	[ -e "$out/$1/doc.go" ] && return
	{ cat "$header"; printf '// Code generated by hack/update-codegen.sh. DO NOT EDIT.\n\n// %s\npackage %s\n' "$3" "$2"; } >"$out/$1/doc.go"
}
doc applyconfiguration applyconfiguration "Package applyconfiguration holds the apply configurations of instance types, for server-side apply with the typed clientset: ForKind and the parser of their schema."
doc applyconfiguration/amlarc/v1alpha1 v1alpha1 "Package v1alpha1 holds the apply configurations of amlarc.azureml.com/v1alpha1: InstanceType(name) and its With... setters."
doc clientset/versioned versioned "Package versioned is the typed clientset of instance types: NewForConfig and the AmlarcV1alpha1 group client."
doc informers/externalversions externalversions "Package externalversions holds the shared informer factory of instance types: NewSharedInformerFactory."
doc informers/externalversions/amlarc amlarc "Package amlarc groups the shared informers of the amlarc.azureml.com API group by version."
doc informers/externalversions/amlarc/v1alpha1 v1alpha1 "Package v1alpha1 holds the shared informer of amlarc.azureml.com/v1alpha1 instance types."
doc informers/externalversions/internalinterfaces internalinterfaces "Package internalinterfaces holds the interfaces the generated informers share."
doc listers/amlarc/v1alpha1 v1alpha1 "Package v1alpha1 holds the lister of amlarc.azureml.com/v1alpha1 instance types, which reads an informer's cache."
