// Command smd-oracle replays conformance case files (conformance/FORMAT.md) against
// the Go reference library sigs.k8s.io/structured-merge-diff/v6 at the
// version go.mod pins (the one Kubernetes' apimachinery requires), prints what the reference does and whether that
// matches each case's own expectations, and with --fill rewrites the cases'
// expectations with the reference's outcome.
//
// Usage: smd-oracle [--fill] [-q] FILE.yaml...
package main

import (
	"fmt"
	"io/ioutil"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"

	yaml "go.yaml.in/yaml/v2"
	"sigs.k8s.io/structured-merge-diff/v6/fieldpath"
	"sigs.k8s.io/structured-merge-diff/v6/typed"
)

func usage() {
	fmt.Fprintf(os.Stderr, `usage: smd-oracle [--fill] [-q] FILE.yaml...

Replays conformance cases against sigs.k8s.io/structured-merge-diff (the version go.mod pins).

  (default)  print, per case, a YAML document with the reference's result of
             every op, the final object and managed fields, and PASS/FAIL
             against the case's own expect blocks; then "oracle: N passed, N failed"
  -q         print only one PASS/FAIL/SKIP line per case and the summary
  --fill     rewrite the files in place: every op-level and case-level expect
             becomes what the reference produced

Exit status: 0 all passed (or --fill succeeded), 1 some case failed,
2 a file could not be read, parsed or written.
`)
}

func main() {
	var fill, quiet bool
	var files []string
	for _, a := range os.Args[1:] {
		switch a {
		case "--fill", "-fill":
			fill = true
		case "-q", "--quiet":
			quiet = true
		case "-h", "--help", "-help":
			usage()
			os.Exit(0)
		default:
			if strings.HasPrefix(a, "-") && a != "-" {
				fmt.Fprintf(os.Stderr, "smd-oracle: unknown flag %s\n", a)
				usage()
				os.Exit(2)
			}
			files = append(files, a)
		}
	}
	if len(files) == 0 {
		usage()
		os.Exit(2)
	}

	passed, failed, skipped, requiresFailed := 0, 0, 0, 0
	fileErr := false
	out := os.Stdout
	for _, file := range files {
		results, err := processFile(file, fill)
		if err != nil {
			fileErr = true
			failed++
			fmt.Fprintf(os.Stderr, "smd-oracle: %s: %v\n", file, err)
			if !quiet && !fill {
				fmt.Fprintf(out, "---\nfile: %s\nresult: %s\n", scalarText(file), scalarText("FAIL: "+err.Error()))
			} else {
				fmt.Fprintf(out, "FAIL %s: %s\n", file, oneLine(err.Error()))
			}
		}
		for _, r := range results {
			switch r.status() {
			case "PASS":
				passed++
			case "SKIP":
				skipped++
			default:
				failed++
				if r.Requires != "" {
					requiresFailed++
				}
			}
			if quiet || fill {
				fmt.Fprintln(out, statusLine(r))
			} else {
				fmt.Fprint(out, "---\n"+emitDocument(resultDoc(r)))
			}
		}
	}
	if !quiet && !fill {
		fmt.Fprintln(out, "---")
	}
	if requiresFailed > 0 {
		fmt.Fprintf(out, "# %d of the failed cases are marked \"# requires:\" (behaviour newer than SMD v4.1.2)\n", requiresFailed)
	}
	summary := fmt.Sprintf("oracle: %d passed, %d failed", passed, failed)
	if skipped > 0 {
		summary += fmt.Sprintf(", %d skipped", skipped)
	}
	fmt.Fprintln(out, summary)
	switch {
	case fileErr:
		os.Exit(2)
	case fill:
		os.Exit(0)
	case failed > 0:
		os.Exit(1)
	}
}

func statusLine(r *caseResult) string {
	id := r.File + "#" + r.Name
	switch r.status() {
	case "PASS":
		return "PASS " + id
	case "SKIP":
		return "SKIP " + id + ": " + oneLine(r.Skip)
	}
	s := "FAIL " + id + ": " + oneLine(strings.Join(r.Reasons, "; "))
	if r.Requires != "" {
		s += " [requires: " + r.Requires + "]"
	}
	return s
}

// ---------------------------------------------------------------------------
// Files and documents

type chunk struct {
	sep      string // the "---" line that opened this document ("" for the first)
	text     string // the document text after the separator line
	comments string // leading comment / blank lines of the document
	body     string // the rest
	requires string
	doc      yaml.MapSlice
	isCase   bool
}

var sepRE = regexp.MustCompile(`^---(\s.*)?$`)

func splitDocuments(text string) []*chunk {
	lines := strings.SplitAfter(text, "\n")
	var chunks []*chunk
	cur := &chunk{}
	var b strings.Builder
	flush := func() {
		cur.text = b.String()
		chunks = append(chunks, cur)
		b.Reset()
	}
	for _, l := range lines {
		if l == "" {
			continue
		}
		if sepRE.MatchString(strings.TrimRight(l, "\r\n")) {
			flush()
			rest := strings.TrimSpace(strings.TrimPrefix(strings.TrimRight(l, "\r\n"), "---"))
			if rest == "" || strings.HasPrefix(rest, "#") {
				cur = &chunk{sep: l}
			} else {
				// "--- content": the content belongs to the document.
				cur = &chunk{sep: "---\n"}
				b.WriteString(rest + "\n")
			}
			continue
		}
		b.WriteString(l)
	}
	flush()
	for _, c := range chunks {
		ls := strings.SplitAfter(c.text, "\n")
		i := 0
		for ; i < len(ls); i++ {
			t := strings.TrimSpace(ls[i])
			if t != "" && !strings.HasPrefix(t, "#") {
				break
			}
		}
		c.comments = strings.Join(ls[:i], "")
		c.body = strings.Join(ls[i:], "")
		for _, l := range ls[:i] {
			t := strings.TrimSpace(l)
			if strings.HasPrefix(t, "#") {
				t = strings.TrimSpace(strings.TrimPrefix(t, "#"))
				if strings.HasPrefix(t, "requires:") {
					req := strings.TrimSpace(strings.TrimPrefix(t, "requires:"))
					if c.requires != "" {
						c.requires += "; "
					}
					c.requires += req
				}
			}
		}
	}
	return chunks
}

func processFile(file string, fill bool) ([]*caseResult, error) {
	data, err := ioutil.ReadFile(file)
	if err != nil {
		return nil, err
	}
	dir := filepath.Dir(file)
	chunks := splitDocuments(string(data))
	var results []*caseResult
	var parseErrs []string
	index := 0
	for _, c := range chunks {
		if strings.TrimSpace(c.body) == "" {
			continue
		}
		index++
		var doc yaml.MapSlice
		if err := yaml.Unmarshal([]byte(c.body), &doc); err != nil {
			parseErrs = append(parseErrs, fmt.Sprintf("document %d: %v", index, err))
			continue
		}
		if doc == nil {
			continue
		}
		c.doc = doc
		c.isCase = true
		r := runCase(file, dir, doc, c.requires)
		if r.Name == "" {
			r.Name = fmt.Sprintf("#%d", index)
		}
		results = append(results, r)
	}
	if len(parseErrs) > 0 {
		return results, fmt.Errorf("%s", strings.Join(parseErrs, "; "))
	}
	if fill {
		if err := fillFile(file, chunks, results); err != nil {
			return results, err
		}
	}
	return results, nil
}

// ---------------------------------------------------------------------------
// Output

func managedDoc(m fieldpath.ManagedFields, spaced bool) yaml.MapSlice {
	names := make([]string, 0, len(m))
	for n := range m {
		names = append(names, n)
	}
	sort.Strings(names)
	out := yaml.MapSlice{}
	for _, n := range names {
		vs := m[n]
		js := setJSON(vs.Set())
		var fv interface{} = singleQuoted(js)
		if spaced {
			fv = flowText(spacedJSON([]byte(js)))
		}
		out = append(out, yaml.MapItem{Key: n, Value: yaml.MapSlice{
			{Key: "apiVersion", Value: string(vs.APIVersion())},
			{Key: "operation", Value: operationOf(vs)},
			{Key: "fieldsV1", Value: fv},
		}})
	}
	return out
}

func liveDoc(h hints, live *typed.TypedValue) interface{} {
	if live == nil {
		return nil
	}
	return h.ordered(live.AsValue().Unstructured(), "")
}

func conflictsDoc(f *failure) []interface{} {
	type cf struct {
		m string
		p []string
		k string
	}
	var l []cf
	for _, c := range f.Conflicts {
		ps := pathStrings(c.Path)
		l = append(l, cf{c.Manager, ps, conflictKey(c.Manager, c.Path)})
	}
	sort.Slice(l, func(i, j int) bool { return l[i].k < l[j].k })
	out := []interface{}{}
	for _, c := range l {
		out = append(out, yaml.MapSlice{{Key: "manager", Value: c.m}, {Key: "path", Value: flowStrings(c.p)}})
	}
	return out
}

func resultDoc(r *caseResult) yaml.MapSlice {
	doc := yaml.MapSlice{{Key: "file", Value: r.File}, {Key: "name", Value: r.Name}}
	result := r.status()
	if result == "FAIL" {
		result = "FAIL: " + strings.Join(r.Reasons, "; ")
	} else if result == "SKIP" {
		result = "SKIP: " + r.Skip
	}
	doc = append(doc, yaml.MapItem{Key: "result", Value: result})
	if r.Requires != "" {
		doc = append(doc, yaml.MapItem{Key: "requires", Value: r.Requires})
	}
	if r.Skip != "" || len(r.Unsupported) > 0 {
		return doc
	}
	if r.InitFail != "" {
		doc = append(doc, yaml.MapItem{Key: "initial", Value: yaml.MapSlice{{Key: "error", Value: r.InitFail}}})
		return doc
	}
	ops := []interface{}{}
	for _, o := range r.Ops {
		om := yaml.MapSlice{{Key: "op", Value: o.Op}}
		if o.Manager != "" {
			om = append(om, yaml.MapItem{Key: "manager", Value: o.Manager})
		}
		switch {
		case o.Fail == nil:
			om = append(om, yaml.MapItem{Key: "result", Value: "ok"})
		case o.Fail.Kind == "conflicts":
			om = append(om, yaml.MapItem{Key: "result", Value: "conflicts"},
				yaml.MapItem{Key: "conflicts", Value: conflictsDoc(o.Fail)})
		default:
			om = append(om, yaml.MapItem{Key: "result", Value: "error"},
				yaml.MapItem{Key: "error", Value: o.Fail.Kind},
				yaml.MapItem{Key: "message", Value: o.Fail.Message})
		}
		if len(o.Notes) > 0 {
			notes := make([]interface{}, len(o.Notes))
			for i, n := range o.Notes {
				notes[i] = n
			}
			om = append(om, yaml.MapItem{Key: "notes", Value: notes})
		}
		ops = append(ops, om)
	}
	doc = append(doc, yaml.MapItem{Key: "ops", Value: ops})
	doc = append(doc, yaml.MapItem{Key: "object", Value: liveDoc(r.Hints, r.Live)})
	doc = append(doc, yaml.MapItem{Key: "managed", Value: managedDoc(r.Managers, false)})
	return doc
}
