package main

// One OpenAPI v3 document of the apiserver's built-in types: the schemas of
// every group document /openapi/v3 lists, merged. A schema that two group
// documents both carry must be the same in both, but for the kinds it
// lists (x-kubernetes-group-version-kind: meta/v1's WatchEvent and
// DeleteOptions name each group's versions), which are joined.

import (
	"encoding/json"
	"fmt"
	"os"
	"sort"
)

func mergedOpenAPI(c *cluster, out string) int {
	if out == "" {
		usage()
	}
	fail := func(err error) int {
		fmt.Fprintf(os.Stderr, "realapi: %v\n", err)
		return 1
	}
	index, err := c.get("/openapi/v3")
	if err != nil {
		return fail(err)
	}
	paths, _ := index["paths"].(map[string]interface{})
	var names []string
	for p := range paths {
		names = append(names, p)
	}
	sort.Strings(names)
	schemas := map[string]interface{}{}
	for _, p := range names {
		entry, _ := paths[p].(map[string]interface{})
		u, _ := entry["serverRelativeURL"].(string)
		if u == "" {
			continue
		}
		doc, err := c.get(u)
		if err != nil {
			return fail(err)
		}
		comps, _ := doc["components"].(map[string]interface{})
		ss, _ := comps["schemas"].(map[string]interface{})
		for name, s := range ss {
			prev, ok := schemas[name]
			if !ok {
				schemas[name] = s
				continue
			}
			merged, err := mergeSchema(prev, s)
			if err != nil {
				return fail(fmt.Errorf("%s: schema %s: %v", p, name, err))
			}
			schemas[name] = merged
		}
	}
	version, err := c.get("/version")
	if err != nil {
		return fail(err)
	}
	doc := map[string]interface{}{
		"openapi": "3.0.0",
		"info": map[string]interface{}{
			"title":   "Kubernetes",
			"version": version["gitVersion"],
			"description": fmt.Sprintf("The schemas of the %d /openapi/v3 group documents of kube-apiserver %v (every API version enabled), merged",
				len(names), version["gitVersion"]),
		},
		"paths":      map[string]interface{}{},
		"components": map[string]interface{}{"schemas": schemas},
	}
	b, err := json.MarshalIndent(doc, "", " ")
	if err != nil {
		return fail(err)
	}
	if err := os.WriteFile(out, append(b, '\n'), 0o644); err != nil {
		return fail(err)
	}
	fmt.Fprintf(os.Stderr, "realapi: %s: %d schemas from %d group documents\n", out, len(schemas), len(names))
	return 0
}

const gvkKey = "x-kubernetes-group-version-kind"

func mergeSchema(a, b interface{}) (interface{}, error) {
	am, aok := a.(map[string]interface{})
	bm, bok := b.(map[string]interface{})
	if !aok || !bok {
		return nil, fmt.Errorf("not an object")
	}
	strip := func(m map[string]interface{}) map[string]interface{} {
		out := map[string]interface{}{}
		for k, v := range m {
			if k != gvkKey {
				out[k] = v
			}
		}
		return out
	}
	if canon(strip(am)) != canon(strip(bm)) {
		return nil, fmt.Errorf("differs from another group's")
	}
	seen := map[string]bool{}
	var kinds []interface{}
	for _, m := range []map[string]interface{}{am, bm} {
		l, _ := m[gvkKey].([]interface{})
		for _, g := range l {
			if key := canon(g); !seen[key] {
				seen[key] = true
				kinds = append(kinds, g)
			}
		}
	}
	sort.Slice(kinds, func(i, j int) bool { return canon(kinds[i]) < canon(kinds[j]) })
	out := strip(am)
	if len(kinds) > 0 {
		out[gvkKey] = kinds
	}
	return out, nil
}
