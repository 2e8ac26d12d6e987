// Command etcd is etcd v3.7.3's server, built from go.etcd.io/etcd/server/v3/etcdmain for
// the integration tests of the client module (envtest starts it beside kube-apiserver).
package main

import (
	"os"

	"go.etcd.io/etcd/server/v3/etcdmain"
)

func main() { etcdmain.Main(os.Args) }
