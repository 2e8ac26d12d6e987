//go:build tools

// Package tools records the program this module builds, so that go mod tidy keeps its
// dependencies: k8s.io/kubernetes/cmd/kube-apiserver.
package tools

import _ "k8s.io/kubernetes/cmd/kube-apiserver"
