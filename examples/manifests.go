// Package examples holds the example manifests, embedded, so that the example programs
// below it and any test can use them without touching the file system:
//
//   - manifests/: the manifests of the source document, valid together: an InstanceType
//     (my_instance_type.yaml), an InstanceTypeList (my_instance_type_list.yaml), a command
//     job (job.yaml) and two online deployments (deployment.yaml,
//     deployment_resources.yaml). `instancetype validate examples/manifests` passes.
//   - broken/: deliberate mistakes, each marked # ✗, for `instancetype validate
//     examples/broken` to report.
package examples

import (
	"embed"
	"io/fs"
)

//go:embed manifests/*.yaml
var manifests embed.FS

//go:embed broken/*.yaml
var broken embed.FS

// Manifests are the source document's manifests, valid together: the instance types the
// job and deployments name are defined in them. Paths are file names: job.yaml.
var Manifests = sub(manifests, "manifests")

// Broken are manifests with deliberate mistakes. Paths are file names:
// instance_types.yaml, deployments.yaml.
var Broken = sub(broken, "broken")

func sub(fsys fs.FS, dir string) fs.FS {
	s, err := fs.Sub(fsys, dir)
	if err != nil {
		panic(err) // the embedded directories exist
	}
	return s
}
