package main

// Random objects of a built-in kind, walked from its SMD schema: values from
// small pools (so that managers meet on the same fields and items), keyed
// lists with distinct keys (a key with a default is now and then left out),
// and a controlled metadata (name, labels, annotations, finalizers).

import (
	"fmt"
	"math/rand"
	"sort"

	smdschema "sigs.k8s.io/structured-merge-diff/v6/schema"
)

const (
	objectMetaType = "io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta"
	timeType       = "io.k8s.apimachinery.pkg.apis.meta.v1.Time"
	microTimeType  = "io.k8s.apimachinery.pkg.apis.meta.v1.MicroTime"
	quantityType   = "io.k8s.apimachinery.pkg.api.resource.Quantity"
	maxDepth       = 7
)

var (
	stringPool   = []string{"a", "b", "c"}
	numberPool   = []int64{1, 2, 80}
	quantityPool = []string{"1", "2Gi", "500m"}
	timePool     = []string{"2025-01-01T00:00:00Z", "2025-06-01T12:00:00Z"}
	mapKeyPool   = []string{"a", "b", "c", "example.com/d"}
)

type generator struct {
	r  *rand.Rand
	sc *builtinSchema
}

func (g *generator) coin(p float64) bool { return g.r.Float64() < p }

func typeName(tr smdschema.TypeRef) string {
	if tr.NamedType != nil {
		return *tr.NamedType
	}
	return ""
}

// value makes a random value of the type.
func (g *generator) value(tr smdschema.TypeRef, depth int) interface{} {
	switch typeName(tr) {
	case timeType:
		return timePool[g.r.Intn(len(timePool))]
	case microTimeType:
		return "2025-01-01T00:00:00.000001Z"
	case quantityType:
		return quantityPool[g.r.Intn(len(quantityPool))]
	case objectMetaType:
		return g.meta()
	}
	a := g.sc.resolve(tr)
	switch {
	case a.Scalar != nil:
		return g.scalar(*a.Scalar)
	case a.List != nil:
		return g.list(a.List, depth)
	case a.Map != nil:
		return g.mapValue(a.Map, depth)
	}
	return "a"
}

func (g *generator) scalar(s smdschema.Scalar) interface{} {
	switch s {
	case smdschema.Numeric:
		return numberPool[g.r.Intn(len(numberPool))]
	case smdschema.Boolean:
		return g.coin(0.5)
	case smdschema.Untyped:
		if g.coin(0.5) {
			return numberPool[g.r.Intn(len(numberPool))]
		}
	}
	return stringPool[g.r.Intn(len(stringPool))]
}

// meta is an ObjectMeta without the name (the sequence sets it). Its maps
// are never empty: the apiserver's decoders drop an empty labels or
// annotations map (ObjectMeta's omitempty) before a custom resource's
// field manager sees it but after a built-in kind's has, which is the
// real-apiserver corpus's business, not the field manager's.
func (g *generator) meta() map[string]interface{} {
	m := map[string]interface{}{}
	if g.coin(0.5) {
		if l := g.stringMap(); len(l) > 0 {
			m["labels"] = l
		}
	}
	if g.coin(0.3) {
		if a := g.stringMap(); len(a) > 0 {
			m["annotations"] = a
		}
	}
	if g.coin(0.2) {
		var f []interface{}
		for _, i := range g.r.Perm(3)[:1+g.r.Intn(2)] {
			f = append(f, "example.com/f"+stringPool[i])
		}
		m["finalizers"] = f
	}
	return m
}

func (g *generator) stringMap() map[string]interface{} {
	m := map[string]interface{}{}
	for _, k := range mapKeyPool {
		if g.coin(0.4) {
			m[k] = stringPool[g.r.Intn(len(stringPool))]
		}
	}
	return m
}

func (g *generator) list(l *smdschema.List, depth int) interface{} {
	out := []interface{}{}
	if depth >= maxDepth {
		return out
	}
	switch l.ElementRelationship {
	case smdschema.Associative:
		elem := g.sc.resolve(l.ElementType)
		if elem.Map != nil && len(l.Keys) == 0 {
			return out // such a list cannot hold maps
		}
		if elem.Map == nil {
			// A set: distinct scalars.
			seen := map[interface{}]bool{}
			for i := g.r.Intn(3); i > 0; i-- {
				v := g.value(l.ElementType, depth+1)
				if !seen[v] {
					seen[v] = true
					out = append(out, v)
				}
			}
			return out
		}
		used := map[string]bool{}
		for i := g.r.Intn(3); i > 0; i-- {
			if item := g.keyedItem(l, elem.Map, depth, used); item != nil {
				out = append(out, item)
			}
		}
		return out
	default:
		for i := g.r.Intn(3); i > 0; i-- {
			out = append(out, g.value(l.ElementType, depth+1))
		}
		return out
	}
}

// keyedItem makes an item of a keyed list with a key not in `used`, or nil.
func (g *generator) keyedItem(l *smdschema.List, m *smdschema.Map, depth int, used map[string]bool) map[string]interface{} {
	for try := 0; try < 4; try++ {
		item := g.fields(m, depth+1, l.Keys)
		id := ""
		for _, k := range l.Keys {
			f, _ := m.FindField(k)
			var v interface{}
			switch {
			case f.Default != nil && !isZero(f.Default) && g.coin(0.3):
				// Left out: the schema's default fills it. A key whose
				// default is its type's zero value ("" or 0, which
				// openapi-gen writes for the required keys of built-in
				// types: a container's name) is always given: the
				// apiserver's validation refuses an item without it.
				v = f.Default
			case f.Default != nil && g.coin(0.5):
				v = f.Default
				item[k] = v
			default:
				v = g.value(f.Type, depth+2)
				item[k] = v
			}
			id += "|" + jsonText(v)
		}
		if !used[id] {
			used[id] = true
			return item
		}
	}
	return nil
}

func isZero(v interface{}) bool {
	switch t := v.(type) {
	case string:
		return t == ""
	case bool:
		return !t
	case int, int64, float64:
		return fmt.Sprint(t) == "0"
	}
	return false
}

func (g *generator) mapValue(m *smdschema.Map, depth int) interface{} {
	if len(m.Fields) > 0 {
		return g.fields(m, depth, nil)
	}
	out := map[string]interface{}{}
	if depth >= maxDepth {
		return out
	}
	for _, k := range mapKeyPool {
		if g.coin(0.35) {
			out[k] = g.value(m.ElementType, depth+1)
		}
	}
	return out
}

// body is what the sequence's requests draw from: metadata (labels,
// annotations, finalizers) and the root's other fields (always spec, with
// more of its fields than deeper structs get), never status.
func (g *generator) body(root smdschema.TypeRef) map[string]interface{} {
	out := map[string]interface{}{"metadata": g.meta()}
	a := g.sc.resolve(root)
	if a.Map == nil {
		return out
	}
	fields := append([]smdschema.StructField(nil), a.Map.Fields...)
	sort.Slice(fields, func(i, j int) bool { return fields[i].Name < fields[j].Name })
	for _, f := range fields {
		switch f.Name {
		case "apiVersion", "kind", "metadata", "status":
			continue
		case "spec":
			sa := g.sc.resolve(f.Type)
			if sa.Map != nil && len(sa.Map.Fields) > 0 {
				spec := map[string]interface{}{}
				for i := 0; i < 3; i++ {
					for k, v := range g.fields(sa.Map, 1, nil) {
						spec[k] = v
					}
				}
				out["spec"] = spec
				continue
			}
		}
		if f.Name == "spec" || g.coin(0.6) {
			out[f.Name] = g.value(f.Type, 1)
		}
	}
	return out
}

// fields picks a few of a struct's fields (never those in `skip`).
func (g *generator) fields(m *smdschema.Map, depth int, skip []string) map[string]interface{} {
	out := map[string]interface{}{}
	if depth >= maxDepth {
		return out
	}
	var names []string
	for _, f := range m.Fields {
		if f.Name == "apiVersion" || f.Name == "kind" || contains(skip, f.Name) {
			continue
		}
		names = append(names, f.Name)
	}
	// By name: the order of a custom resource's fields in the converted
	// schema varies from run to run, and a case must not.
	sort.Strings(names)
	if len(names) == 0 {
		return out
	}
	n := 1 + g.r.Intn(3)
	if depth > 3 {
		n = 1 + g.r.Intn(2)
	}
	for _, i := range g.r.Perm(len(names)) {
		if n == 0 {
			break
		}
		f, _ := m.FindField(names[i])
		out[names[i]] = g.value(f.Type, depth+1)
		n--
	}
	return out
}

func contains(l []string, s string) bool {
	for _, e := range l {
		if e == s {
			return true
		}
	}
	return false
}

// derive makes a variant of v: entries and items dropped with probability
// 1-keep, scalars changed with probability `change`, now and then a new
// field or item. Key fields of keyed lists are kept as they are.
func (g *generator) derive(v interface{}, tr smdschema.TypeRef, depth int, keep, change float64) interface{} {
	switch typeName(tr) {
	case timeType, microTimeType, quantityType:
		if g.coin(change) {
			return g.value(tr, depth)
		}
		return v
	case objectMetaType:
		m, _ := v.(map[string]interface{})
		out := map[string]interface{}{}
		for _, k := range sortedKeys(m) {
			if g.coin(keep) {
				d := deriveLoose(g, m[k], keep, change)
				if dm, ok := d.(map[string]interface{}); ok && len(dm) == 0 {
					continue // no empty metadata maps (see meta)
				}
				out[k] = d
			}
		}
		return out
	}
	a := g.sc.resolve(tr)
	switch {
	case a.Scalar != nil:
		if _, isMap := v.(map[string]interface{}); isMap {
			return v
		}
		if _, isList := v.([]interface{}); isList {
			return v
		}
		if g.coin(change) {
			return g.scalar(*a.Scalar)
		}
		return v
	case a.List != nil:
		l, _ := v.([]interface{})
		if a.List.ElementRelationship != smdschema.Associative || len(a.List.Keys) == 0 {
			if g.coin(change) {
				return g.list(a.List, depth)
			}
			return copyValue(v)
		}
		elem := g.sc.resolve(a.List.ElementType)
		out := []interface{}{}
		used := map[string]bool{}
		for _, item := range l {
			im, _ := item.(map[string]interface{})
			if im == nil || !g.coin(keep) {
				continue
			}
			nm := map[string]interface{}{}
			id := ""
			for _, k := range sortedKeys(im) {
				if contains(a.List.Keys, k) {
					nm[k] = im[k]
					continue
				}
				f, ok := elem.Map.FindField(k)
				if ok && g.coin(keep) {
					nm[k] = g.derive(im[k], f.Type, depth+1, keep, change)
				}
			}
			for _, k := range a.List.Keys {
				f, _ := elem.Map.FindField(k)
				kv, ok := im[k]
				if !ok {
					kv = f.Default
				}
				id += "|" + jsonText(kv)
			}
			used[id] = true
			out = append(out, nm)
		}
		if g.coin(change) && elem.Map != nil {
			if item := g.keyedItem(a.List, elem.Map, depth, used); item != nil {
				out = append(out, item)
			}
		}
		return out
	case a.Map != nil:
		m, _ := v.(map[string]interface{})
		out := map[string]interface{}{}
		for _, k := range sortedKeys(m) {
			if !g.coin(keep) {
				continue
			}
			et := a.Map.ElementType
			if f, ok := a.Map.FindField(k); ok {
				et = f.Type
			}
			out[k] = g.derive(m[k], et, depth+1, keep, change)
		}
		if g.coin(change) {
			for k, nv := range g.mapValue(a.Map, depth).(map[string]interface{}) {
				if _, ok := out[k]; !ok {
					out[k] = nv
				}
			}
		}
		return out
	}
	return copyValue(v)
}

// deriveLoose varies a value without a schema (metadata's maps and lists).
func deriveLoose(g *generator, v interface{}, keep, change float64) interface{} {
	switch t := v.(type) {
	case map[string]interface{}:
		out := map[string]interface{}{}
		for _, k := range sortedKeys(t) {
			if g.coin(keep) {
				out[k] = deriveLoose(g, t[k], keep, change)
			}
		}
		return out
	case []interface{}:
		return copyValue(t)
	case string:
		if g.coin(change) {
			return stringPool[g.r.Intn(len(stringPool))]
		}
	}
	return v
}

func sortedKeys(m map[string]interface{}) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}
