package main

// --fill: rewrite the expectations of case files with the reference's outcome.

import (
	"fmt"
	"io/ioutil"
	"os"
	"strings"

	yaml "go.yaml.in/yaml/v2"
)

var caseKeyOrder = []string{"name", "description", "skip", "format", "schema", "type", "ignoredFields", "initial", "ops", "expect"}

func fillFile(file string, chunks []*chunk, results []*caseResult) error {
	var out strings.Builder
	ri := 0
	changed := false
	for _, c := range chunks {
		out.WriteString(c.sep)
		if !c.isCase {
			out.WriteString(c.text)
			continue
		}
		r := results[ri]
		ri++
		if r.Skip != "" || len(r.Unsupported) > 0 || r.InitFail != "" {
			fmt.Fprintf(os.Stderr, "smd-oracle: %s#%s: left as it is (%s)\n", file, r.Name, oneLine(strings.Join(append([]string{r.Skip}, r.Reasons...), " ")))
			out.WriteString(c.text)
			continue
		}
		nd := rebuildCase(c.doc, r)
		body := emitDocument(nd)
		var back yaml.MapSlice
		if err := yaml.Unmarshal([]byte(body), &back); err != nil {
			return fmt.Errorf("case %s: internal error, rewritten case does not parse: %v\n%s", r.Name, err, body)
		}
		if d := diffValues("", canon(resolveFlow(nd)), canon(back)); d != "" {
			return fmt.Errorf("case %s: internal error, rewritten case does not read back as written: %s", r.Name, d)
		}
		if diffValues("", canon(c.doc), canon(back)) == "" {
			out.WriteString(c.text) // nothing to change: keep the text as it was
			continue
		}
		changed = true
		out.WriteString(c.comments)
		out.WriteString(body)
	}
	if !changed {
		return nil
	}
	st, err := os.Stat(file)
	if err != nil {
		return err
	}
	return ioutil.WriteFile(file, []byte(out.String()), st.Mode().Perm())
}

// resolveFlow replaces flow text and quoted strings by the values they stand for.
func resolveFlow(n interface{}) interface{} {
	switch t := n.(type) {
	case flowText:
		var v interface{}
		if err := yaml.Unmarshal([]byte(t), &v); err != nil {
			return fmt.Sprintf("<bad flow text %q: %v>", string(t), err)
		}
		return v
	case singleQuoted:
		return string(t)
	case yaml.MapSlice:
		out := make(yaml.MapSlice, len(t))
		for i, it := range t {
			out[i] = yaml.MapItem{Key: it.Key, Value: resolveFlow(it.Value)}
		}
		return out
	case []interface{}:
		out := make([]interface{}, len(t))
		for i := range t {
			out[i] = resolveFlow(t[i])
		}
		return out
	}
	return n
}

func rebuildCase(doc yaml.MapSlice, r *caseResult) yaml.MapSlice {
	out := yaml.MapSlice{}
	known := map[string]bool{}
	for _, k := range caseKeyOrder {
		known[k] = true
		v, present := get(doc, k)
		switch k {
		case "ops":
			if present {
				out = append(out, yaml.MapItem{Key: k, Value: rebuildOps(v, r)})
			}
		case "expect":
			if present || r.Mutating {
				out = append(out, yaml.MapItem{Key: k, Value: yaml.MapSlice{
					{Key: "object", Value: liveDoc(r.Hints, r.Live)},
					{Key: "managed", Value: managedDoc(r.Managers, true)},
				}})
			}
		case "ignoredFields":
			if present {
				out = append(out, yaml.MapItem{Key: k, Value: flowIgnored(v)})
			}
		case "initial":
			if present {
				out = append(out, yaml.MapItem{Key: k, Value: flowInitial(v)})
			}
		default:
			if present {
				out = append(out, yaml.MapItem{Key: k, Value: v})
			}
		}
	}
	for _, it := range doc {
		if !known[keyString(it.Key)] {
			out = append(out, it)
		}
	}
	return out
}

func rebuildOps(v interface{}, r *caseResult) interface{} {
	l, ok := v.([]interface{})
	if !ok {
		return v
	}
	out := make([]interface{}, len(l))
	for i, o := range l {
		om, ok := o.(yaml.MapSlice)
		if !ok || i >= len(r.Ops) {
			out[i] = o
			continue
		}
		res := r.Ops[i]
		nm := yaml.MapSlice{}
		_, hadExpect := get(om, "expect")
		for _, it := range om {
			if keyString(it.Key) == "expect" {
				continue
			}
			nm = append(nm, it)
		}
		var ex yaml.MapSlice
		switch {
		case res.Fail != nil && res.Fail.Kind == "conflicts":
			ex = yaml.MapSlice{{Key: "conflicts", Value: conflictsDoc(res.Fail)}}
		case res.Fail != nil:
			ex = yaml.MapSlice{{Key: "error", Value: res.Fail.Kind}}
		case hadExpect && res.Op != "validate":
			ex = yaml.MapSlice{
				{Key: "object", Value: liveDoc(r.Hints, res.Live)},
				{Key: "managed", Value: managedDoc(res.Managers, true)},
			}
		}
		if ex != nil {
			nm = append(nm, yaml.MapItem{Key: "expect", Value: ex})
		}
		out[i] = nm
	}
	return out
}

// flowIgnored writes the paths of ignoredFields as flow lists.
func flowIgnored(v interface{}) interface{} {
	ms, ok := v.(yaml.MapSlice)
	if !ok {
		return v
	}
	out := yaml.MapSlice{}
	for _, it := range ms {
		l, ok := it.Value.([]interface{})
		if !ok {
			out = append(out, it)
			continue
		}
		nl := make([]interface{}, len(l))
		for i, p := range l {
			nl[i] = flowPath(p)
		}
		out = append(out, yaml.MapItem{Key: it.Key, Value: nl})
	}
	return out
}

func flowPath(p interface{}) interface{} {
	l, ok := p.([]interface{})
	if !ok {
		return p
	}
	ss := make([]string, len(l))
	for i, e := range l {
		s, ok := e.(string)
		if !ok {
			return p
		}
		ss[i] = s
	}
	return flowStrings(ss)
}

// flowInitial writes initial.managed[*].fieldsV1 as flow JSON.
func flowInitial(v interface{}) interface{} {
	ms, ok := v.(yaml.MapSlice)
	if !ok {
		return v
	}
	out := yaml.MapSlice{}
	for _, it := range ms {
		if keyString(it.Key) != "managed" {
			out = append(out, it)
			continue
		}
		mm, ok := it.Value.(yaml.MapSlice)
		if !ok {
			out = append(out, it)
			continue
		}
		nm := yaml.MapSlice{}
		for _, m := range mm {
			em, ok := m.Value.(yaml.MapSlice)
			if !ok {
				nm = append(nm, m)
				continue
			}
			ne := yaml.MapSlice{}
			for _, f := range em {
				if keyString(f.Key) == "fieldsV1" {
					if set, err := fieldsV1Set(f.Value); err == nil {
						f = yaml.MapItem{Key: f.Key, Value: flowText(spacedJSON([]byte(setJSON(set))))}
					}
				}
				ne = append(ne, f)
			}
			nm = append(nm, yaml.MapItem{Key: m.Key, Value: ne})
		}
		out = append(out, yaml.MapItem{Key: it.Key, Value: nm})
	}
	return out
}
