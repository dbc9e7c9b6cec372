package main

// Generic helpers on the values that gopkg.in/yaml.v2 produces: access to
// ordered mappings (yaml.MapSlice), conversion to the plain Go values that
// SMD's typed.ParseableType.FromUnstructured reads, canonical forms for
// comparison, and key-order hints for writing objects back out.

import (
	"fmt"
	"math"
	"sort"
	"strings"

	yaml "go.yaml.in/yaml/v2"
)

// get returns the value of key in an ordered mapping.
func get(ms yaml.MapSlice, key string) (interface{}, bool) {
	for _, it := range ms {
		if k, ok := it.Key.(string); ok && k == key {
			return it.Value, true
		}
	}
	return nil, false
}

// getString returns the value of key if it is a scalar, formatted as text.
func getString(ms yaml.MapSlice, key string) (string, bool) {
	v, ok := get(ms, key)
	if !ok || v == nil {
		return "", false
	}
	switch t := v.(type) {
	case string:
		return t, true
	case yaml.MapSlice, []interface{}:
		return "", false
	default:
		return fmt.Sprint(t), true
	}
}

func getMap(ms yaml.MapSlice, key string) (yaml.MapSlice, bool) {
	v, ok := get(ms, key)
	if !ok {
		return nil, false
	}
	m, ok := v.(yaml.MapSlice)
	return m, ok
}

// hashableKey makes a mapping key usable as a Go map key.
func hashableKey(k interface{}) interface{} {
	switch k.(type) {
	case yaml.MapSlice, []interface{}, map[interface{}]interface{}, map[string]interface{}:
		return fmt.Sprint(k)
	}
	return k
}

// toPlain turns a yaml.v2 MapSlice tree into what yaml.Unmarshal into an
// interface{} would have produced: map[interface{}]interface{} (later
// duplicate keys win, as in yaml.v2's non-strict decoding), []interface{}
// and scalars.
func toPlain(n interface{}) interface{} {
	switch t := n.(type) {
	case yaml.MapSlice:
		m := make(map[interface{}]interface{}, len(t))
		for _, it := range t {
			m[hashableKey(it.Key)] = toPlain(it.Value)
		}
		return m
	case []interface{}:
		l := make([]interface{}, len(t))
		for i := range t {
			l[i] = toPlain(t[i])
		}
		return l
	default:
		return n
	}
}

// deepCopy copies an unstructured value (as held by SMD values).
func deepCopy(v interface{}) interface{} {
	switch t := v.(type) {
	case map[string]interface{}:
		m := make(map[string]interface{}, len(t))
		for k, e := range t {
			m[k] = deepCopy(e)
		}
		return m
	case map[interface{}]interface{}:
		m := make(map[interface{}]interface{}, len(t))
		for k, e := range t {
			m[k] = deepCopy(e)
		}
		return m
	case []interface{}:
		l := make([]interface{}, len(t))
		for i := range t {
			l[i] = deepCopy(t[i])
		}
		return l
	case yaml.MapSlice:
		return deepCopy(toPlain(t))
	default:
		return v
	}
}

// parseObjectText parses an object given as YAML or JSON text exactly as
// SMD's typed.ParseableType.FromYAML does (yaml.v2 into an interface{}).
func parseObjectText(s string) (interface{}, error) {
	var v interface{}
	if err := yaml.Unmarshal([]byte(s), &v); err != nil {
		return nil, err
	}
	return v, nil
}

// objectValue returns the unstructured object for an `object`/`old`/`new`
// node: an inline mapping (or other inline value), a string holding YAML or
// JSON text, null, or absent (an empty mapping).
func objectValue(node interface{}, present bool) (interface{}, error) {
	if !present {
		return map[interface{}]interface{}{}, nil
	}
	if s, ok := node.(string); ok {
		return parseObjectText(s)
	}
	return toPlain(node), nil
}

// ---------------------------------------------------------------------------
// Canonical values and comparison by value.

// canon normalises a value: mappings become map[string]interface{}, numbers
// int64 or float64.
func canon(v interface{}) interface{} {
	switch t := v.(type) {
	case yaml.MapSlice:
		m := make(map[string]interface{}, len(t))
		for _, it := range t {
			m[keyString(it.Key)] = canon(it.Value)
		}
		return m
	case map[string]interface{}:
		m := make(map[string]interface{}, len(t))
		for k, e := range t {
			m[k] = canon(e)
		}
		return m
	case map[interface{}]interface{}:
		m := make(map[string]interface{}, len(t))
		for k, e := range t {
			m[keyString(k)] = canon(e)
		}
		return m
	case []interface{}:
		l := make([]interface{}, len(t))
		for i := range t {
			l[i] = canon(t[i])
		}
		return l
	case int:
		return int64(t)
	case int8:
		return int64(t)
	case int16:
		return int64(t)
	case int32:
		return int64(t)
	case int64:
		return t
	case uint:
		return uintCanon(uint64(t))
	case uint8:
		return int64(t)
	case uint16:
		return int64(t)
	case uint32:
		return int64(t)
	case uint64:
		return uintCanon(t)
	case float32:
		return float64(t)
	default:
		return v
	}
}

func uintCanon(u uint64) interface{} {
	if u <= math.MaxInt64 {
		return int64(u)
	}
	return float64(u)
}

func keyString(k interface{}) string {
	if s, ok := k.(string); ok {
		return s
	}
	return fmt.Sprint(k)
}

// diffValues compares two canonical values and returns "" when equal, or a
// description of the first difference (with its path).
func diffValues(path string, want, got interface{}) string {
	if path == "" {
		path = "."
	}
	switch w := want.(type) {
	case map[string]interface{}:
		g, ok := got.(map[string]interface{})
		if !ok {
			return fmt.Sprintf("at %s: expected a mapping, got %s", path, short(got))
		}
		keys := make([]string, 0, len(w)+len(g))
		for k := range w {
			keys = append(keys, k)
		}
		for k := range g {
			if _, ok := w[k]; !ok {
				keys = append(keys, k)
			}
		}
		sort.Strings(keys)
		for _, k := range keys {
			wv, wok := w[k]
			gv, gok := g[k]
			p := strings.TrimSuffix(path, ".") + "." + k
			if !wok {
				return fmt.Sprintf("at %s: unexpected key (value %s)", p, short(gv))
			}
			if !gok {
				return fmt.Sprintf("at %s: missing key (expected %s)", p, short(wv))
			}
			if d := diffValues(p, wv, gv); d != "" {
				return d
			}
		}
		return ""
	case []interface{}:
		g, ok := got.([]interface{})
		if !ok {
			return fmt.Sprintf("at %s: expected a list, got %s", path, short(got))
		}
		if len(w) != len(g) {
			return fmt.Sprintf("at %s: expected %d list items, got %d: expected %s, got %s", path, len(w), len(g), short(w), short(g))
		}
		for i := range w {
			if d := diffValues(fmt.Sprintf("%s[%d]", path, i), w[i], g[i]); d != "" {
				if _, isList := w[i].(map[string]interface{}); !isList {
					// Scalars out of place: show both lists, it is usually an order change.
					return fmt.Sprintf("at %s: expected %s, got %s", path, short(w), short(g))
				}
				return d
			}
		}
		return ""
	case int64, float64:
		if numEqual(want, got) {
			return ""
		}
	default:
		switch got.(type) {
		case map[string]interface{}, []interface{}:
		default:
			if want == got {
				return ""
			}
		}
	}
	return fmt.Sprintf("at %s: expected %s, got %s", path, short(want), short(got))
}

func numEqual(a, b interface{}) bool {
	ai, aInt := a.(int64)
	bi, bInt := b.(int64)
	if aInt && bInt {
		return ai == bi
	}
	af, aok := toFloat(a)
	bf, bok := toFloat(b)
	return aok && bok && af == bf
}

func toFloat(v interface{}) (float64, bool) {
	switch t := v.(type) {
	case int64:
		return float64(t), true
	case float64:
		return t, true
	}
	return 0, false
}

// short renders a value compactly (flow YAML) for messages.
func short(v interface{}) string {
	s := flowString(v)
	if len(s) > 300 {
		s = s[:300] + "..."
	}
	return s
}

func flowString(v interface{}) string {
	switch t := v.(type) {
	case nil:
		return "null"
	case map[string]interface{}:
		keys := make([]string, 0, len(t))
		for k := range t {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		parts := make([]string, len(keys))
		for i, k := range keys {
			parts[i] = scalarText(k) + ": " + flowString(t[k])
		}
		return "{" + strings.Join(parts, ", ") + "}"
	case []interface{}:
		parts := make([]string, len(t))
		for i := range t {
			parts[i] = flowString(t[i])
		}
		return "[" + strings.Join(parts, ", ") + "]"
	case yaml.MapSlice, map[interface{}]interface{}:
		return flowString(canon(t))
	default:
		return scalarText(t)
	}
}

// ---------------------------------------------------------------------------
// Key-order hints: objects coming out of SMD are Go maps; when they are
// written back, their keys follow the order in which the case first wrote
// them (then alphabetical).

type hints map[string]map[string]int

func (h hints) add(path, key string) {
	m := h[path]
	if m == nil {
		m = map[string]int{}
		h[path] = m
	}
	if _, ok := m[key]; !ok {
		m[key] = len(m)
	}
}

// walk records the key order of an object node (inline or text).
func (h hints) walk(node interface{}, path string) {
	switch t := node.(type) {
	case string:
		if path != "" {
			return
		}
		var ms yaml.MapSlice
		if err := yaml.Unmarshal([]byte(t), &ms); err == nil {
			h.walk(ms, "")
		}
	case yaml.MapSlice:
		for _, it := range t {
			k := keyString(it.Key)
			h.add(path, k)
			h.walkInner(it.Value, path+"/"+k)
		}
	case []interface{}:
		for _, e := range t {
			h.walkInner(e, path+"/[]")
		}
	}
}

func (h hints) walkInner(node interface{}, path string) {
	if _, ok := node.(string); ok {
		return
	}
	h.walk(node, path)
}

// ordered converts an unstructured value into a MapSlice tree for output.
func (h hints) ordered(v interface{}, path string) interface{} {
	switch t := v.(type) {
	case map[string]interface{}:
		keys := make([]string, 0, len(t))
		for k := range t {
			keys = append(keys, k)
		}
		h.sortKeys(path, keys)
		ms := make(yaml.MapSlice, 0, len(keys))
		for _, k := range keys {
			ms = append(ms, yaml.MapItem{Key: k, Value: h.ordered(t[k], path+"/"+k)})
		}
		return ms
	case map[interface{}]interface{}:
		m := make(map[string]interface{}, len(t))
		for k, e := range t {
			m[keyString(k)] = e
		}
		return h.ordered(m, path)
	case yaml.MapSlice:
		ms := make(yaml.MapSlice, len(t))
		for i, it := range t {
			ms[i] = yaml.MapItem{Key: it.Key, Value: h.ordered(it.Value, path+"/"+keyString(it.Key))}
		}
		return ms
	case []interface{}:
		l := make([]interface{}, len(t))
		for i := range t {
			l[i] = h.ordered(t[i], path+"/[]")
		}
		return l
	default:
		return v
	}
}

func (h hints) sortKeys(path string, keys []string) {
	rank := h[path]
	sort.SliceStable(keys, func(i, j int) bool {
		ri, iok := rank[keys[i]]
		rj, jok := rank[keys[j]]
		switch {
		case iok && jok:
			return ri < rj
		case iok != jok:
			return iok
		default:
			return keys[i] < keys[j]
		}
	})
}

// duplicateKeys lists the mapping keys that occur more than once in an
// object node (inline, or text). yaml.v2, and so SMD's FromYAML, silently
// keeps the last value of a duplicated key.
func duplicateKeys(node interface{}) []string {
	if s, ok := node.(string); ok {
		var ms yaml.MapSlice
		if err := yaml.Unmarshal([]byte(s), &ms); err != nil {
			return nil
		}
		node = ms
	}
	var out []string
	var walk func(n interface{}, path string)
	walk = func(n interface{}, path string) {
		switch t := n.(type) {
		case yaml.MapSlice:
			seen := map[interface{}]bool{}
			for _, it := range t {
				k := hashableKey(it.Key)
				p := path + "." + keyString(it.Key)
				if seen[k] {
					out = append(out, p)
				}
				seen[k] = true
				walk(it.Value, p)
			}
		case []interface{}:
			for i, e := range t {
				walk(e, fmt.Sprintf("%s[%d]", path, i))
			}
		}
	}
	walk(node, "")
	return out
}
