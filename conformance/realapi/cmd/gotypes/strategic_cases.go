package main

// -strategic-cases: the test cases of k8s.io/apimachinery's strategicpatch
// (pkg/util/strategicpatch/patch_test.go at the version go.mod pins, read
// as data: the YAML cases of createStrategicMergePatchTestCaseData and the
// raw cases of strategicMergePatchRawTestCases), each patch (the two-way
// one on the original, the three-way one on the current object) applied
// as the apiserver applies one (StrategicMergeMapPatch, the documents
// decoded keeping integers), with the test's Go type MergeItem; and for
// each case, the patches a client makes of its documents
// (CreateTwoWayMergePatch of original and modified,
// CreateThreeWayMergePatch of original, modified and current,
// overwriting, as client-side kubectl apply makes it); and the three-way
// merge patches of k8s.io/apimachinery's jsonmergepatch tests (its
// patch_test.go) and ours, made by CreateThreeWayJSONMergePatch (what
// client-side kubectl apply sends for a custom resource). Written
// with the types' patch data (as the "patch" section of the go-types
// file) and, for each case, every answer Go gave over 20 runs (its maps'
// order is random), for smdx/value/strategic_patch_test.cc.

import (
	"encoding/json"
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"sort"
	"strconv"
	"strings"

	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/util/jsonmergepatch"
	"k8s.io/apimachinery/pkg/util/mergepatch"
	"k8s.io/apimachinery/pkg/util/strategicpatch"
	kjson "sigs.k8s.io/json"
	"sigs.k8s.io/yaml"
)

// MergeItem and RetainKeysMergeItem are the Go types strategicpatch's tests
// patch (their fields and tags, as patch_test.go declares them).
type MergeItem struct {
	Name                  string               `json:"name,omitempty"`
	Value                 string               `json:"value,omitempty"`
	Other                 string               `json:"other,omitempty"`
	MergingList           []MergeItem          `json:"mergingList,omitempty" patchStrategy:"merge" patchMergeKey:"name"`
	NonMergingList        []MergeItem          `json:"nonMergingList,omitempty"`
	MergingIntList        []int                `json:"mergingIntList,omitempty" patchStrategy:"merge"`
	NonMergingIntList     []int                `json:"nonMergingIntList,omitempty"`
	MergeItemPtr          *MergeItem           `json:"mergeItemPtr,omitempty" patchStrategy:"merge" patchMergeKey:"name"`
	SimpleMap             map[string]string    `json:"simpleMap,omitempty"`
	ReplacingItem         runtime.RawExtension `json:"replacingItem,omitempty" patchStrategy:"replace"`
	JSONItem              struct{ Raw []byte } `json:"jsonItem,omitempty"`
	RetainKeysMap         RetainKeysMergeItem  `json:"retainKeysMap,omitempty" patchStrategy:"retainKeys"`
	RetainKeysMergingList []MergeItem          `json:"retainKeysMergingList,omitempty" patchStrategy:"merge,retainKeys" patchMergeKey:"name"`
}

type RetainKeysMergeItem struct {
	Name           string            `json:"name,omitempty"`
	Value          string            `json:"value,omitempty"`
	Other          string            `json:"other,omitempty"`
	SimpleMap      map[string]string `json:"simpleMap,omitempty"`
	MergingIntList []int             `json:"mergingIntList,omitempty" patchStrategy:"merge"`
	MergingList    []MergeItem       `json:"mergingList,omitempty" patchStrategy:"merge" patchMergeKey:"name"`
	NonMergingList []MergeItem       `json:"nonMergingList,omitempty"`
}

// diffCase: a case's documents and the patches Go made of them, every
// answer over 20 runs (a patch as the apiserver reads it, or {"error":
// message}).
type diffCase struct {
	Name     string        `json:"name"`
	Original interface{}   `json:"original"`
	Modified interface{}   `json:"modified"`
	Current  interface{}   `json:"current"`
	TwoWay   []interface{} `json:"two_way"`
	ThreeWay []interface{} `json:"three_way"`
}

type smpCase struct {
	Name  string      `json:"name"`
	Doc   interface{} `json:"doc"`
	Patch interface{} `json:"patch"`
	// Every answer: the patched document, or {"error": HTTP code}.
	Answers []interface{} `json:"answers"`
}

func strategicCases() {
	dir, err := exec.Command("go", "list", "-m", "-f", "{{.Dir}}", "k8s.io/apimachinery").Output()
	check(err)
	file := filepath.Join(strings.TrimSpace(string(dir)), "pkg", "util", "strategicpatch", "patch_test.go")
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, file, nil, 0)
	check(err)
	vars := map[string]ast.Expr{}
	for _, d := range f.Decls {
		if g, ok := d.(*ast.GenDecl); ok && g.Tok == token.VAR {
			for _, sp := range g.Specs {
				vs := sp.(*ast.ValueSpec)
				for i, n := range vs.Names {
					if i < len(vs.Values) {
						vars[n.Name] = vs.Values[i]
					}
				}
			}
		}
	}
	var cases []smpCase
	var diffs []diffCase
	addDiff := func(name string, original, modified, current []byte) {
		if len(strings.TrimSpace(string(modified))) == 0 {
			return
		}
		diffs = append(diffs, makeDiffs(name, original, modified, current))
	}
	add := func(name string, doc, patch []byte) {
		if len(strings.TrimSpace(string(patch))) == 0 {
			return
		}
		if len(strings.TrimSpace(string(doc))) == 0 {
			doc = []byte("{}")
		}
		cases = append(cases, run(name, doc, patch))
	}
	// The YAML cases.
	var tc struct {
		TestCases []struct {
			Description                                   string
			Original, Modified, TwoWay, Current, ThreeWay map[string]interface{}
		}
	}
	check(yaml.Unmarshal([]byte(rawBytes(vars["createStrategicMergePatchTestCaseData"])), &tc))
	mergeDiffs := jsonMergeDiffs(dir)
	for _, c := range tc.TestCases {
		add(c.Description+" (two-way)", jsonOf(c.Original), jsonOf(c.TwoWay))
		add(c.Description+" (three-way)", jsonOf(c.Current), jsonOf(c.ThreeWay))
		addDiff(c.Description, jsonOf(c.Original), jsonOf(c.Modified), jsonOf(c.Current))
	}
	// The raw cases: a composite literal of StrategicMergePatchRawTestCase.
	for _, e := range vars["strategicMergePatchRawTestCases"].(*ast.CompositeLit).Elts {
		fields := map[string]string{}
		var walk func(cl *ast.CompositeLit)
		walk = func(cl *ast.CompositeLit) {
			for _, el := range cl.Elts {
				kv := el.(*ast.KeyValueExpr)
				key := kv.Key.(*ast.Ident).Name
				switch v := kv.Value.(type) {
				case *ast.CompositeLit:
					walk(v)
				case *ast.BasicLit:
					s, err := strconv.Unquote(v.Value)
					check(err)
					fields[key] = s
				default:
					fields[key] = rawBytes(v)
				}
			}
		}
		walk(e.(*ast.CompositeLit))
		add(fields["Description"]+" (two-way)", yamlJSON(fields["Original"]), yamlJSON(fields["TwoWay"]))
		add(fields["Description"]+" (three-way)", yamlJSON(fields["Current"]), yamlJSON(fields["ThreeWay"]))
		addDiff(fields["Description"], yamlJSON(fields["Original"]), yamlJSON(fields["Modified"]), yamlJSON(fields["Current"]))
	}
	// Patches of our own, for the paths the tests above leave out (errors
	// above all); Go's answers decide.
	for _, c := range extraCases {
		add(c[0], yamlJSON(c[1]), yamlJSON(c[2]))
	}
	for _, c := range extraDiffCases {
		addDiff(c[0], yamlJSON(c[1]), yamlJSON(c[2]), yamlJSON(c[3]))
	}
	types := map[string]map[string]string{}
	collectPatch(reflect.TypeOf(MergeItem{}), types)
	out, err := json.MarshalIndent(map[string]interface{}{
		"source": "k8s.io/apimachinery v0.37.2, pkg/util/strategicpatch/patch_test.go: its cases, and StrategicMergeMapPatch's answers",
		"root":   patchTypeName(reflect.TypeOf(MergeItem{})),
		"types":  types,
		"cases":  cases,
		"diffs":  diffs,
		// (three_way answers only; two_way is not made)
		"merge_diffs": mergeDiffs,
	}, "", " ")
	check(err)
	os.Stdout.Write(append(out, '\n'))
}

// run applies patch to doc as the apiserver does, 20 times.
func run(name string, doc, patch []byte) smpCase {
	c := smpCase{Name: name}
	check(kjson.UnmarshalCaseSensitivePreserveInts(doc, &c.Doc))
	check(kjson.UnmarshalCaseSensitivePreserveInts(patch, &c.Patch))
	seen := map[string]bool{}
	for i := 0; i < 20; i++ {
		var d, p map[string]interface{}
		check(kjson.UnmarshalCaseSensitivePreserveInts(doc, &d))
		check(kjson.UnmarshalCaseSensitivePreserveInts(patch, &p))
		answer := apply(d, p)
		text, err := json.Marshal(answer)
		check(err)
		if !seen[string(text)] {
			seen[string(text)] = true
			c.Answers = append(c.Answers, answer)
		}
	}
	sort.Slice(c.Answers, func(i, j int) bool {
		a, _ := json.Marshal(c.Answers[i])
		b, _ := json.Marshal(c.Answers[j])
		return string(a) < string(b)
	})
	return c
}

// makeDiffs runs the two patch makers on a case's documents, 20 times.
func makeDiffs(name string, original, modified, current []byte) diffCase {
	meta, err := strategicpatch.NewPatchMetaFromStruct(&MergeItem{})
	check(err)
	c := newDiffCase(name, original, modified, current)
	c.TwoWay = answers20(func() ([]byte, error) {
		return strategicpatch.CreateTwoWayMergePatch(original, modified, &MergeItem{})
	})
	c.ThreeWay = answers20(func() (patch []byte, err error) {
		defer func() {
			if r := recover(); r != nil {
				err = fmt.Errorf("panic: %v", r)
			}
		}()
		return strategicpatch.CreateThreeWayMergePatch(original, modified, current, meta, true)
	})
	return c
}

// newDiffCase holds a case's documents, decoded as the apiserver decodes.
func newDiffCase(name string, original, modified, current []byte) diffCase {
	c := diffCase{Name: name}
	for _, d := range []struct {
		text []byte
		to   *interface{}
	}{{original, &c.Original}, {modified, &c.Modified}, {current, &c.Current}} {
		if len(strings.TrimSpace(string(d.text))) > 0 {
			check(kjson.UnmarshalCaseSensitivePreserveInts(d.text, d.to))
		}
	}
	return c
}

// answers20 is every answer `make` gives over 20 runs: a patch as the
// apiserver reads it, or {"error": message}.
func answers20(make func() ([]byte, error)) []interface{} {
	seen := map[string]bool{}
	var out []interface{}
	for i := 0; i < 20; i++ {
		var answer interface{}
		patch, err := make()
		if err != nil {
			answer = map[string]interface{}{"error": err.Error()}
		} else {
			check(kjson.UnmarshalCaseSensitivePreserveInts(patch, &answer))
		}
		text, err := json.Marshal(answer)
		check(err)
		if !seen[string(text)] {
			seen[string(text)] = true
			out = append(out, answer)
		}
	}
	return out
}

// jsonMergeDiffs: jsonmergepatch's YAML cases and extraMergeDiffCases,
// each made by CreateThreeWayJSONMergePatch 20 times.
func jsonMergeDiffs(moduleDir []byte) []diffCase {
	file := filepath.Join(strings.TrimSpace(string(moduleDir)), "pkg", "util", "jsonmergepatch", "patch_test.go")
	f, err := parser.ParseFile(token.NewFileSet(), file, nil, 0)
	check(err)
	var data string
	for _, d := range f.Decls {
		if g, ok := d.(*ast.GenDecl); ok && g.Tok == token.VAR {
			for _, sp := range g.Specs {
				vs := sp.(*ast.ValueSpec)
				if vs.Names[0].Name == "createJSONMergePatchTestCaseData" {
					data = rawBytes(vs.Values[0])
				}
			}
		}
	}
	var tc struct {
		TestCases []struct {
			Description                 string
			Original, Modified, Current map[string]interface{}
		}
	}
	check(yaml.Unmarshal([]byte(data), &tc))
	var out []diffCase
	add := func(name string, original, modified, current []byte) {
		c := newDiffCase(name, original, modified, current)
		c.ThreeWay = answers20(func() ([]byte, error) {
			return jsonmergepatch.CreateThreeWayJSONMergePatch(original, modified, current)
		})
		out = append(out, c)
	}
	for _, c := range tc.TestCases {
		add(c.Description, jsonOf(c.Original), jsonOf(c.Modified), jsonOf(c.Current))
	}
	for _, c := range extraMergeDiffCases {
		add(c[0], yamlJSON(c[1]), yamlJSON(c[2]), yamlJSON(c[3]))
	}
	return out
}

// apply is StrategicMergeMapPatch with the handler's codes for its errors
// (interpretStrategicMergePatchError; a panic is a 500).
func apply(doc, patch map[string]interface{}) (answer interface{}) {
	defer func() {
		if recover() != nil {
			answer = map[string]interface{}{"error": 500}
		}
	}()
	out, err := strategicpatch.StrategicMergeMapPatch(doc, patch, &MergeItem{})
	switch err {
	case nil:
		return out
	case mergepatch.ErrBadJSONDoc, mergepatch.ErrBadPatchFormatForPrimitiveList, mergepatch.ErrBadPatchFormatForRetainKeys,
		mergepatch.ErrBadPatchFormatForSetElementOrderList, mergepatch.ErrUnsupportedStrategicMergePatchFormat:
		return map[string]interface{}{"error": 400}
	case mergepatch.ErrNoListOfLists, mergepatch.ErrPatchContentNotMatchRetainKeys:
		return map[string]interface{}{"error": 422}
	}
	return map[string]interface{}{"error": 500}
}

// rawBytes is the text of []byte(`...`) or `...`.
func rawBytes(e ast.Expr) string {
	if call, ok := e.(*ast.CallExpr); ok && len(call.Args) == 1 {
		e = call.Args[0]
	}
	lit, ok := e.(*ast.BasicLit)
	if !ok {
		check(fmt.Errorf("not a string literal: %T", e))
	}
	s, err := strconv.Unquote(lit.Value)
	check(err)
	return s
}

func yamlJSON(text string) []byte {
	if strings.TrimSpace(text) == "" {
		return nil
	}
	b, err := yaml.YAMLToJSON([]byte(text))
	check(err)
	return b
}

func jsonOf(m map[string]interface{}) []byte {
	if m == nil {
		return nil
	}
	b, err := json.Marshal(m)
	check(err)
	return b
}

func check(err error) {
	if err != nil {
		fmt.Fprintln(os.Stderr, "gotypes:", err)
		os.Exit(1)
	}
}

// extraCases are [name, document, patch] in YAML.
var extraCases = [][3]string{
	{"unknown $patch in an object", "mergeItemPtr: {name: a}", "mergeItemPtr: {$patch: nonsense}"},
	{"$patch replace of an object keeps its nulls", "mergeItemPtr: {name: a, value: b}", "mergeItemPtr: {$patch: replace, name: c, other: null}"},
	{"$patch delete of an object empties it", "mergeItemPtr: {name: a}", "mergeItemPtr: {$patch: delete}"},
	{"$patch delete where nothing was", "name: x", "mergeItemPtr: {$patch: delete}"},
	{"$patch merge in a list", "mergingList: [{name: a}]", "mergingList: [{$patch: merge}]"},
	{"unknown $patch in a list", "mergingList: [{name: a}]", "mergingList: [{$patch: nonsense}]"},
	{"delete without its merge key", "mergingList: [{name: a}]", "mergingList: [{$patch: delete, value: x}]"},
	{"delete by a null key", "mergingList: [{name: a}, {value: b}]", "mergingList: [{$patch: delete, name: null}]"},
	{"a patch item without its merge key", "mergingList: [{name: a}]", "mergingList: [{value: x}]"},
	{"a list item without its merge key", "mergingList: [{value: a}]", "mergingList: [{name: b}]"},
	{"a list of lists", "mergingIntList: [1]", "mergingIntList: [[2]]"},
	{"a null first in a list", "mergingIntList: [1]", "mergingIntList: [null, 2]"},
	{"items of two types", "mergingIntList: [1]", "mergingIntList: [2, x]"},
	{"integers and floats", "mergingIntList: [1, 2]", "mergingIntList: [2.0, 3.5]"},
	{"objects in a merging list of scalars", "mergingIntList: [1]", "mergingIntList: [{name: a}]"},
	{"a field the type lacks, object on object", "unknown: {a: 1}", "unknown: {b: 2}"},
	{"a field the type lacks, set anew", "name: a", "unknown: {b: 2}"},
	{"case folded field name", "Name: {a: 1}", "Name: {b: 2}"},
	{"object inside a map of strings", "simpleMap: {a: {b: 1}}", "simpleMap: {a: {c: 2}}"},
	{"a scalar replaced by an object", "name: a", "name: {b: 1}"},
	{"retainKeys not a list", "retainKeysMap: {name: a, value: b}", "retainKeysMap: {$retainKeys: x, name: a}"},
	{"retainKeys missing a set key", "retainKeysMap: {name: a, value: b}", "retainKeysMap: {$retainKeys: [name], value: c}"},
	{"retainKeys clears others", "retainKeysMap: {name: a, value: b, other: c}", "retainKeysMap: {$retainKeys: [name, other], other: d, value: null}"},
	{"retainKeys with an object item", "retainKeysMap: {name: a}", "retainKeysMap: {$retainKeys: [{a: 1}]}"},
	{"retainKeys on a type without the strategy", "mergeItemPtr: {name: a, value: b}", "mergeItemPtr: {$retainKeys: [name]}"},
	{"deleteFromPrimitiveList without a slash", "mergingIntList: [1, 2]", "$deleteFromPrimitiveListmergingIntList: [1]"},
	{"deleteFromPrimitiveList", "mergingIntList: [1, 2, 3]", "$deleteFromPrimitiveList/mergingIntList: [2, 4]"},
	{"deleteFromPrimitiveList null", "mergingIntList: [1, 2, 3]", "$deleteFromPrimitiveList/mergingIntList: null"},
	{"deleteFromPrimitiveList of objects", "mergingList: [{name: a, value: b}]", "$deleteFromPrimitiveList/mergingList: [{name: a, value: c}]"},
	{"setElementOrder without a slash", "mergingIntList: [1, 2]", "$setElementOrdermergingIntList: [2, 1]"},
	{"setElementOrder not a list", "mergingIntList: [1, 2]", "$setElementOrder/mergingIntList: 1"},
	{"setElementOrder of a list not a list", "mergingIntList: 1", "$setElementOrder/mergingIntList: [1]"},
	{"setElementOrder alone", "mergingIntList: [1, 2, 3]", "$setElementOrder/mergingIntList: [3, 1]"},
	{"setElementOrder with the patch's items", "mergingList: [{name: a}, {name: b}]", "$setElementOrder/mergingList: [{name: c}, {name: b}, {name: a}]\nmergingList: [{name: c, value: x}]"},
	{"setElementOrder out of the patch's order", "mergingList: [{name: a}]", "$setElementOrder/mergingList: [{name: b}, {name: c}]\nmergingList: [{name: c}, {name: b}]"},
	{"setElementOrder of an absent list", "name: a", "$setElementOrder/mergingIntList: [2, 1]\nmergingIntList: [1, 2]"},
	{"setElementOrder of nothing", "name: a", "$setElementOrder/mergingIntList: []\nmergingIntList: []"},
	{"setElementOrder of a non-merging list", "nonMergingList: [{name: a}, {name: b}]", "$setElementOrder/nonMergingList: [{name: b}, {name: a}]\nnonMergingList: [{name: b}, {name: a}, {name: c}]"},
	{"setElementOrder of an unknown field", "foo: [1]", "$setElementOrder/foo: [1]"},
	{"merging list order", "mergingList: [{name: a}, {name: b}, {name: c}]", "mergingList: [{name: d}, {name: b, value: x}, {name: e}]"},
	{"merging int list order", "mergingIntList: [3, 1, 2]", "mergingIntList: [4, 1, 5, 3]"},
	{"duplicates in a merging int list", "mergingIntList: [1, 1, 2]", "mergingIntList: [2, 2, 3]"},
	{"two patch items with one key", "mergingList: [{name: a}]", "mergingList: [{name: b, value: x}, {name: b, other: y}]"},
	{"replace in a list and more", "mergingList: [{name: a}, {name: b}]", "mergingList: [{name: c}, {$patch: replace}, {name: d, value: null}]"},
	{"new item keeps its nulls and directives", "mergingList: [{name: a}]", "mergingList: [{name: b, value: null, mergeItemPtr: {$patch: delete}}]"},
	{"new field drops its nulls and directives", "name: a", "mergeItemPtr: {name: b, value: null, mergingList: [{name: c}, {$patch: delete, name: d}]}"},
	{"replacing strategy keeps directives", "replacingItem: {a: 1}", "replacingItem: {b: {$patch: delete}, c: null}"},
	{"raw extension object on object", "replacingItem: {a: {x: 1}}", "replacingItem: {a: {y: 2}}"},
	{"retainKeys merging list", "retainKeysMergingList: [{name: a, value: b, other: c}]", "retainKeysMergingList: [{name: a, $retainKeys: [name, value], value: d}]"},
	{"retainKeys dropping the merge key", "mergingList: [{name: a, value: b}, {name: c}]", "mergingList: [{name: a, $retainKeys: [value]}]"},
	{"null patch value deletes", "name: a\nvalue: b", "value: null\nother: null"},
	{"a pointer's list", "mergeItemPtr: {name: a, mergingList: [{name: x}]}", "mergeItemPtr: {mergingList: [{name: y}]}"},
	{"non-merging int list replaced", "nonMergingIntList: [1, 2]", "nonMergingIntList: [3]"},
}

// extraDiffCases are [name, original, modified, current] in YAML: what a
// client meets that the tests above leave out (numbers as floats, their
// text order, duplicate keys, the kinds of errors).
var extraDiffCases = [][4]string{
	{"numbers equal as floats", "name: a\nmergingIntList: [1, 2]", "name: a\nmergingIntList: [1.0, 2]\nvalue: x", "name: a\nmergingIntList: [1, 2]"},
	{"a whole float is written whole", "name: a", "name: a\nreplacingItem: {n: 2.0, m: 2.5, big: 12345678901234567890}", "name: a"},
	{"scalars sorted by their text", "mergingIntList: [3, 20, 100]", "mergingIntList: [100, 3, 1000000]", "mergingIntList: [20, 3, 100, 7]"},
	{"scalars in an unsorted order unchanged", "mergingIntList: [2, 1]", "mergingIntList: [2, 1]", "mergingIntList: [2, 1]"},
	{"merge keys sorted by their text", "mergingList: [{name: b}, {name: a10}, {name: a9}]", "mergingList: [{name: a9, value: x}, {name: c}, {name: b}]", "mergingList: [{name: a10}, {name: b}, {name: a9}, {name: z}]"},
	{"duplicate merge keys", "mergingList: [{name: a, value: 1}, {name: a, value: 2}]", "mergingList: [{name: a, value: 3}, {name: a, value: 2}, {name: b}]", "mergingList: [{name: a, value: 1}, {name: a, value: 2}]"},
	{"a merge key added twice", "mergingList: [{name: a, value: 1}]", "mergingList: [{name: a, value: 2}, {name: a, value: 3}]", "mergingList: [{name: a, value: 1}]"},
	{"numeric merge keys", "mergingList: [{name: 10}, {name: 9}]", "mergingList: [{name: 9}, {name: 1000000}]", "mergingList: [{name: 10}, {name: 9}, {name: 8}]"},
	{"a modified item without its merge key", "mergingList: [{name: a}]", "mergingList: [{value: x}]", "mergingList: [{name: a}]"},
	{"a current item without its merge key", "mergingList: [{name: a}]", "mergingList: [{name: a, value: x}]", "mergingList: [{value: y}]"},
	{"items of two types", "mergingIntList: [1]", "mergingIntList: [1, x]", "mergingIntList: [1]"},
	{"a list of lists", "mergingIntList: [1]", "mergingIntList: [[1]]", "mergingIntList: [[2]]"},
	{"a null first in a list", "mergingIntList: [1]", "mergingIntList: [null, 1]", "mergingIntList: [2]"},
	{"a field the type lacks, changed", "unknown: {a: 1}", "unknown: {a: 2}", "unknown: {a: 1}"},
	{"a field the type lacks, unchanged", "unknown: {a: 1}", "unknown: {a: 1}", "unknown: {a: 1}"},
	{"explicit null in modified", "name: a\nvalue: b", "name: a\nvalue: null\nother: null", "name: a\nvalue: b\nother: c"},
	{"retainKeys with a dropped field", "retainKeysMap: {name: a, value: b}", "retainKeysMap: {name: a}", "retainKeysMap: {name: a, value: b, other: c}"},
	{"retainKeys unchanged but current has more", "retainKeysMap: {name: a}", "retainKeysMap: {name: a}", "retainKeysMap: {name: a, other: c}"},
	{"retainKeys merging list", "retainKeysMergingList: [{name: a, value: b}]", "retainKeysMergingList: [{name: a, other: c}]", "retainKeysMergingList: [{name: a, value: b, other: d}]"},
	{"replace strategy object", "replacingItem: {a: 1}", "replacingItem: {a: 1}", "replacingItem: {a: 1, b: 2}"},
	{"patch directive in modified", "mergeItemPtr: {name: a, $patch: replace}", "mergeItemPtr: {name: b, $patch: delete}", "mergeItemPtr: {name: a}"},
	{"a scalar list emptied", "mergingIntList: [1, 2]", "mergingIntList: []", "mergingIntList: [1, 2, 3]"},
	{"an object list emptied", "mergingList: [{name: a}, {name: b}]", "mergingList: []", "mergingList: [{name: a}, {name: b}, {name: c}]"},
	{"nothing applied before", "", "name: a\nmergingList: [{name: x, value: 1}]", "name: a\nmergingList: [{name: y}]"},
	{"no live object", "", "name: a\nmergingIntList: [2, 1]", ""},
	{"deletions and order together", "mergingList: [{name: a}, {name: b}, {name: c}]", "mergingList: [{name: c}, {name: a}]", "mergingList: [{name: a}, {name: b}, {name: c}, {name: d}]"},
	{"scalar deletions repeated", "mergingIntList: [1, 2, 2, 3]", "mergingIntList: [3]", "mergingIntList: [3, 2, 1, 2]"},
	{"nested merging lists", "mergingList: [{name: a, mergingList: [{name: x}, {name: y}]}]", "mergingList: [{name: a, mergingList: [{name: y, value: 1}]}]", "mergingList: [{name: a, mergingList: [{name: x}, {name: y}, {name: z}]}]"},
}

// extraMergeDiffCases are [name, original, modified, current] in YAML.
var extraMergeDiffCases = [][4]string{
	{"numbers equal as floats", "spec: {a: 1}", "spec: {a: 1.0, b: 2.0}", "spec: {a: 1}"},
	{"a list changed is sent whole", "spec: {l: [1, 2]}", "spec: {l: [1, 3]}", "spec: {l: [1, 2, 4]}"},
	{"an empty object is a value", "spec: {a: {b: 1}}", "spec: {a: {}}", "spec: {a: {b: 1, c: 2}}"},
	{"an explicit null", "spec: {a: 1}", "spec: {a: null, b: null}", "spec: {a: 1, b: 2}"},
	{"an object replaced by a scalar", "spec: {a: {b: 1}}", "spec: {a: 5}", "spec: {a: {b: 1, c: 2}}"},
	{"a scalar replaced by an object", "spec: {a: 5}", "spec: {a: {b: null, c: 1}}", "spec: {a: 5}"},
	{"nested deletions and changes", "spec: {a: {b: 1, c: 2}, d: 3}", "spec: {a: {b: 2}}", "spec: {a: {b: 1, c: 2, e: 4}, d: 3, f: 5}"},
	{"an unchanged object is left out", "spec: {a: {b: 1}, c: 1}", "spec: {a: {b: 1}, c: 2}", "spec: {a: {b: 1}, c: 1, d: 3}"},
	{"no live object", "", "spec: {a: 1}", ""},
	{"nothing applied before", "", "spec: {a: 1}", "spec: {a: 2, b: 3}"},
}
