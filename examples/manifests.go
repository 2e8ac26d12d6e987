// Package examples holds the manifests of the source document, embedded, so that the
// example programs below it and any test can use them without touching the file system:
// an InstanceType (my_instance_type.yaml), an InstanceTypeList (my_instance_type_list.yaml),
// a command job (job.yaml) and two online deployments (deployment.yaml,
// deployment_resources.yaml). The broken/ directory holds deliberate mistakes for
// `instancetype validate examples/` to report.
package examples

import "embed"

// Manifests are the source document's manifests, valid together: the instance types the
// job and deployments name are defined in them.
//
//go:embed *.yaml
var Manifests embed.FS

// Broken are manifests with deliberate mistakes, under broken/.
//
//go:embed broken/*.yaml
var Broken embed.FS
