// Command etcd is etcd's server (go.etcd.io/etcd/server/v3, the version
// go.mod pins), built from its module for the real-apiserver corpus.
package main

import (
	"os"

	"go.etcd.io/etcd/server/v3/etcdmain"
)

func main() {
	etcdmain.Main(os.Args)
}
