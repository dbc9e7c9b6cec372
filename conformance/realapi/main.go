// Command realapi runs server-side-apply scenarios against a real
// kube-apiserver (and etcd) built from the modules go.mod pins, and the
// same requests through smdx, and compares what each stores.
//
//	realapi run -etcd BIN -apiserver BIN -smdx BIN -kinds DIR [-schema FILE] [-only SUBSTR] [-random SEED:COUNT] [-cr-openapi] [-v]
//	realapi fetch -etcd BIN -apiserver BIN -out DIR PATH...
//	realapi openapi -etcd BIN -apiserver BIN -out FILE
//	realapi serve -etcd BIN -apiserver BIN
//
// run starts the servers, expands the scenarios of every kind file in DIR
// (testdata/realapi/kinds/README.md), runs them and prints one line per scenario that
// differs, then a summary ending `N passed, N failed`; it exits 1 when a
// scenario failed. fetch writes the server's answers to GET PATH (e.g.
// /openapi/v2) into DIR. serve starts the servers and prints the URL and
// the admin credentials' directory until interrupted. openapi starts the
// apiserver with every API version it has (api/all=true) and writes one
// OpenAPI v3 document holding the schemas of all its /openapi/v3 group
// documents: the definitions its server-side apply types objects with.
package main

import (
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"path/filepath"
	"runtime/debug"
	"strings"
	"syscall"
	"time"
)

func main() {
	if len(os.Args) < 2 {
		usage()
	}
	cmd := os.Args[1]
	fs := flag.NewFlagSet(cmd, flag.ExitOnError)
	etcdBin := fs.String("etcd", "", "the etcd binary")
	apiserverBin := fs.String("apiserver", "", "the kube-apiserver binary")
	smdxBin := fs.String("smdx", "", "the smdx binary (run)")
	kindsDir := fs.String("kinds", "", "the kind files (run)")
	schema := fs.String("schema", "", "the OpenAPI document smdx types built-in kinds with (run; default: its embedded one)")
	only := fs.String("only", "", "run the scenarios whose name contains this (run)")
	random := fs.String("random", "", "SEED:COUNT: run COUNT random scenarios from SEED instead of the corpus (run; random.go)")
	verbose := fs.Bool("v", false, "print every step (run)")
	crOpenAPI := fs.Bool("cr-openapi", false, "type custom resources with the cluster's /openapi/v3 documents of their group instead of their CRDs (run)")
	out := fs.String("out", "", "the directory fetch writes to")
	logs := fs.Bool("logs", false, "the servers log to stderr")
	wait := fs.Duration("wait", 90*time.Second, "how long the apiserver may take to be ready")
	_ = fs.Parse(os.Args[2:])
	if *etcdBin == "" || *apiserverBin == "" {
		usage()
	}

	start := time.Now()
	var extra []string
	if cmd == "openapi" {
		extra = append(extra, "--runtime-config=api/all=true")
	}
	c, err := startCluster(*etcdBin, *apiserverBin, *wait, *logs, extra...)
	if err != nil {
		fmt.Fprintf(os.Stderr, "realapi: %v\n", err)
		os.Exit(1)
	}
	// Whatever happens, the servers stop: on return, on a signal.
	sigs := make(chan os.Signal, 1)
	signal.Notify(sigs, syscall.SIGINT, syscall.SIGTERM, syscall.SIGHUP)
	go func() {
		<-sigs
		c.stop()
		os.Exit(130)
	}()
	code := 0
	func() {
		defer c.stop()
		defer func() {
			if r := recover(); r != nil {
				fmt.Fprintf(os.Stderr, "realapi: %v\n%s", r, debug.Stack())
				code = 1
			}
		}()
		fmt.Fprintf(os.Stderr, "realapi: etcd and kube-apiserver ready at %s in %.1fs\n", c.url, time.Since(start).Seconds())
		switch cmd {
		case "serve":
			fmt.Printf("%s\n%s\n", c.url, c.dir)
			<-sigs
		case "fetch":
			code = fetch(c, *out, fs.Args())
		case "openapi":
			code = mergedOpenAPI(c, *out)
		case "run":
			if *smdxBin == "" || *kindsDir == "" {
				usage()
			}
			code = runAll(c, *smdxBin, *kindsDir, *schema, *only, *random, *crOpenAPI, *verbose)
		default:
			usage()
		}
	}()
	os.Exit(code)
}

func usage() {
	fmt.Fprintln(os.Stderr, "usage: realapi run|fetch|openapi|serve -etcd BIN -apiserver BIN [flags] (see main.go)")
	os.Exit(2)
}

func fetch(c *cluster, dir string, paths []string) int {
	if dir == "" || len(paths) == 0 {
		usage()
	}
	for _, p := range paths {
		resp, err := c.client.Get(c.url + p)
		if err != nil {
			fmt.Fprintf(os.Stderr, "realapi: GET %s: %v\n", p, err)
			return 1
		}
		body, err := io.ReadAll(resp.Body)
		resp.Body.Close()
		if err != nil || resp.StatusCode != 200 {
			fmt.Fprintf(os.Stderr, "realapi: GET %s: %s %v\n", p, resp.Status, err)
			return 1
		}
		name := strings.Trim(strings.ReplaceAll(p, "/", "_"), "_") + ".json"
		if err := os.WriteFile(filepath.Join(dir, name), body, 0o644); err != nil {
			fmt.Fprintf(os.Stderr, "realapi: %v\n", err)
			return 1
		}
		fmt.Println(filepath.Join(dir, name))
	}
	return 0
}
