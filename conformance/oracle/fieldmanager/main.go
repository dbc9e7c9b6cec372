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
	"strconv"
	"strings"

	yaml "go.yaml.in/yaml/v2"
)

func main() {
	swagger := flag.String("swagger", "", "the OpenAPI v2 document of the built-in kinds (schema/data/kubernetes-*-swagger.json)")
	defaults := flag.String("defaults", "", "the defaults smdx adds to it (schema/data/kubernetes-*-defaults.json)")
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
	b, err := loadBuiltinSchema(*swagger, *defaults)
	if err != nil {
		fmt.Fprintln(os.Stderr, "fm-oracle:", err)
		os.Exit(2)
	}
	r := newRunner(b)
	for k := from; k < count; k++ {
		if only >= 0 && k != only {
			continue
		}
		s, err := makeSequence(b, seed, k)
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
		text, err := yaml.Marshal(caseDocument(b, s, seed, k, outcomes))
		if err != nil {
			fmt.Fprintln(os.Stderr, "fm-oracle:", err)
			os.Exit(2)
		}
		fmt.Print("---\n", string(text))
	}
}

func usage() {
	fmt.Fprintln(os.Stderr, "usage: fm-oracle -swagger FILE [-defaults FILE] SEED COUNT [--from N] [--case K [--ops I,J,...] [--drop N,M,...]]")
	os.Exit(2)
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
func caseDocument(b *builtinSchema, s *sequence, seed, k int64, outcomes []opOutcome) yaml.MapSlice {
	fm := yaml.MapSlice{
		{Key: "apiVersion", Value: s.gvk.GroupVersion().String()},
		{Key: "kind", Value: s.gvk.Kind},
		{Key: "defaults", Value: false},
		{Key: "exactFieldsV1", Value: true},
	}
	var ops []interface{}
	for i, o := range s.ops {
		res := outcomes[i]
		op := yaml.MapSlice{{Key: "op", Value: o.op}, {Key: "manager", Value: o.manager}}
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
	return yaml.MapSlice{
		{Key: "name", Value: fmt.Sprintf("fm-random/%d/%d", seed, k)},
		{Key: "description", Value: fmt.Sprintf("%d requests on a %s (fm-oracle %d %d --case %d)", len(s.ops), s.gvk.Kind, seed, k+1, k)},
		{Key: "schema", Value: yaml.MapSlice{{Key: "kubernetes", Value: true}}},
		{Key: "type", Value: b.typeName[s.gvk]},
		{Key: "fieldManager", Value: fm},
		{Key: "ops", Value: ops},
	}
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
