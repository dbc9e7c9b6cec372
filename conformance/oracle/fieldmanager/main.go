// Command fm-oracle writes random field-manager conformance cases whose
// expectations are what Kubernetes' own field manager (k8s.io/apimachinery's
// managedfields, at the version go.mod pins) does with them: the stored
// object and every managedFields entry, in order, after each request, or
// the request's conflicts and error. `smdx conformance` replays them.
//
//	fm-oracle -swagger FILE [-defaults FILE] SEED COUNT [--from N]
//	fm-oracle -swagger FILE [-defaults FILE] SEED COUNT --case K [--ops I,J,...] [--drop N,M,...]
//
// Case K of SEED depends only on SEED and K. --ops keeps only the listed ops
// (by position) and --drop removes the map entries numbered N, M, ...
// (depth first over the ops' configurations and overlays, in order): the
// shrinking steps of a minimization. The case format is FORMAT.md with this
// project's fieldManager extension (conformance/README.md).
package main

import (
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"k8s.io/apimachinery/pkg/runtime/schema"

	yaml "go.yaml.in/yaml/v2"
)

func main() {
	swagger := flag.String("swagger", "", "the OpenAPI document of the built-in kinds (smdx/schema/data/kubernetes-v1.37-openapi-v3.json, or a v2 document)")
	defaults := flag.String("defaults", "", "defaults to add to a v2 document (smdx/schema/data/kubernetes-*-defaults.json)")
	var crds crdFlags
	flag.Var(&crds, "crd", "a CustomResourceDefinition manifest whose kind sequences also draw from (repeatable)")
	flag.Parse()
	args := flag.Args()
	if *swagger == "" || len(args) < 2 {
		usage()
	}
	seed, err1 := strconv.ParseInt(args[0], 10, 64)
	count, err2 := strconv.ParseInt(args[1], 10, 64)
	if err1 != nil || err2 != nil {
		usage()
	}
	var from int64
	only := int64(-1)
	var ops, drop map[int]bool
	for i := 2; i < len(args); i += 2 {
		if i+1 >= len(args) {
			usage()
		}
		var err error
		switch args[i] {
		case "--from":
			from, err = strconv.ParseInt(args[i+1], 10, 64)
		case "--case":
			only, err = strconv.ParseInt(args[i+1], 10, 64)
		case "--ops":
			ops, err = parseList(args[i+1])
		case "--drop":
			drop, err = parseList(args[i+1])
		default:
			usage()
		}
		if err != nil {
			usage()
		}
	}
	c, err := loadCatalog(*swagger, *defaults, crds)
	if err != nil {
		fmt.Fprintln(os.Stderr, "fm-oracle:", err)
		os.Exit(2)
	}
	r := newRunner()
	for k := from; k < count; k++ {
		if only >= 0 && k != only {
			continue
		}
		s, err := makeSequence(c, seed, k)
		if err != nil {
			fmt.Fprintln(os.Stderr, "fm-oracle:", err)
			os.Exit(2)
		}
		if ops != nil {
			var kept []opSpec
			for i, o := range s.ops {
				if ops[i] {
					kept = append(kept, o)
				}
			}
			s.ops = kept
		}
		s.dropEarlySubresourceOps()
		if drop != nil {
			counter := 0
			for i := range s.ops {
				s.ops[i].fragment = dropEntries(s.ops[i].fragment, drop, &counter).(map[string]interface{})
			}
		}
		outcomes, err := r.run(s)
		if err != nil {
			fmt.Fprintf(os.Stderr, "fm-oracle: case %d: %v\n", k, err)
			os.Exit(2)
		}
		text, err := yaml.Marshal(caseDocument(s, seed, k, outcomes))
		if err != nil {
			fmt.Fprintln(os.Stderr, "fm-oracle:", err)
			os.Exit(2)
		}
		fmt.Print("---\n", string(text))
	}
}

func usage() {
	fmt.Fprintln(os.Stderr, "usage: fm-oracle -swagger FILE [-defaults FILE] [-crd FILE]... SEED COUNT [--from N] [--case K [--ops I,J,...] [--drop N,M,...]]")
	os.Exit(2)
}

type crdFlags []string

func (c *crdFlags) String() string     { return strings.Join(*c, ",") }
func (c *crdFlags) Set(v string) error { *c = append(*c, v); return nil }

// loadCatalog reads the built-in schema and the CRDs.
func loadCatalog(swagger, defaults string, crds []string) (*catalog, error) {
	b, models, err := loadBuiltinSchema(swagger, defaults)
	if err != nil {
		return nil, err
	}
	c := &catalog{}
	for _, gvk := range builtinKinds {
		c.builtin = append(c.builtin, kindSpec{gvk: gvk, sc: b})
	}
	for _, path := range crds {
		abs, err := filepath.Abs(path)
		if err != nil {
			return nil, err
		}
		sc, info, err := loadCRD(abs, models)
		if err != nil {
			return nil, err
		}
		gvk := schema.GroupVersionKind{Group: info.group, Version: info.versions[0], Kind: info.kind}
		c.custom = append(c.custom, kindSpec{gvk: gvk, sc: sc, crd: info})
	}
	return c, nil
}

func parseList(text string) (map[int]bool, error) {
	out := map[int]bool{}
	for _, part := range strings.Split(text, ",") {
		if part == "" {
			continue
		}
		n, err := strconv.Atoi(part)
		if err != nil || n < 0 {
			return nil, fmt.Errorf("bad list %q", text)
		}
		out[n] = true
	}
	return out, nil
}

// caseDocument writes a sequence and what the field manager did as a case.
// Objects are JSON text, so that no YAML rule changes them on either side.
func caseDocument(s *sequence, seed, k int64, outcomes []opOutcome) yaml.MapSlice {
	custom := s.kind.crd != nil
	fm := yaml.MapSlice{
		{Key: "apiVersion", Value: s.kind.gvk.GroupVersion().String()},
		{Key: "kind", Value: s.kind.gvk.Kind},
		// A custom resource is defaulted from its schema and its registry
		// resets status; the built-in kinds' Go defaulters and strategies
		// are not run here.
		{Key: "defaults", Value: custom},
		{Key: "resetFields", Value: custom},
		{Key: "exactFieldsV1", Value: true},
	}
	var ops []interface{}
	for i, o := range s.ops {
		res := outcomes[i]
		op := yaml.MapSlice{{Key: "op", Value: o.op}, {Key: "manager", Value: o.manager}}
		if o.version != "" {
			op = append(op, yaml.MapItem{Key: "apiVersion", Value: s.gvkAt(o.version).GroupVersion().String()})
		}
		if o.subresource != "" {
			op = append(op, yaml.MapItem{Key: "subresource", Value: o.subresource})
		}
		op = append(op, yaml.MapItem{Key: "object", Value: jsonText(res.body)})
		var ex yaml.MapSlice
		switch res.errKind {
		case "":
			ex = yaml.MapSlice{{Key: "object", Value: jsonText(res.object)}, {Key: "managedFields", Value: entriesDoc(res.entries)}}
		case "conflicts":
			var cl []interface{}
			for _, c := range res.conflicts {
				cl = append(cl, yaml.MapSlice{{Key: "manager", Value: c.manager}, {Key: "path", Value: c.path}})
			}
			ex = yaml.MapSlice{{Key: "conflicts", Value: cl}, {Key: "message", Value: res.message}}
		default:
			ex = yaml.MapSlice{{Key: "error", Value: res.errKind}, {Key: "message", Value: res.message}}
		}
		op = append(op, yaml.MapItem{Key: "expect", Value: ex})
		ops = append(ops, op)
	}
	doc := yaml.MapSlice{
		{Key: "name", Value: fmt.Sprintf("fm-random/%d/%d", seed, k)},
		{Key: "description", Value: fmt.Sprintf("%d requests on a %s (fm-oracle %d %d --case %d)", len(s.ops), s.kind.gvk.Kind, seed, k+1, k)},
	}
	if custom {
		doc = append(doc, yaml.MapItem{Key: "schema", Value: yaml.MapSlice{{Key: "crdFile", Value: s.kind.crd.path}}})
	} else {
		doc = append(doc, yaml.MapItem{Key: "schema", Value: yaml.MapSlice{{Key: "kubernetes", Value: true}}},
			yaml.MapItem{Key: "type", Value: s.kind.sc.typeName[s.kind.gvk]})
	}
	return append(doc, yaml.MapItem{Key: "fieldManager", Value: fm}, yaml.MapItem{Key: "ops", Value: ops})
}

func entriesDoc(entries []map[string]interface{}) []interface{} {
	out := []interface{}{}
	for _, e := range entries {
		m := yaml.MapSlice{}
		for _, k := range []string{"manager", "operation", "apiVersion", "time", "fieldsType", "subresource", "fieldsV1"} {
			if v, ok := e[k]; ok {
				m = append(m, yaml.MapItem{Key: k, Value: v})
			}
		}
		out = append(out, m)
	}
	return out
}
