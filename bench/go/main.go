// smd-bench: the benchmark workloads of bench/README.md, on the Go reference:
// sigs.k8s.io/structured-merge-diff/v6 through its public API (typed.NewParser,
// ParseableType.FromYAML / FromUnstructured, TypedValue, fieldpath.Set's JSON
// (fieldsV1) encoding and merge.Updater), and for the field-manager rows
// k8s.io/apimachinery's field manager (pkg/util/managedfields). Versions are
// pinned by go.mod.
//
// Every workload has the same name and does the same work as its twin in
// bench/smdx_bench.cc. Built by bench/go/build.
//
// Usage:
//
//	smd-bench [-data DIR] [-run REGEX] [-benchtime 1s]   one JSON line per workload:
//	    {"name":..., "ns_per_op":..., "allocs_per_op":..., "bytes_per_op":..., "iterations":...}
//	smd-bench -list                                      the workload names
//	smd-bench [-data DIR] -rss OBJECT                    peak RSS of a full apply (one JSON line)
//
// Workloads are timed with testing.Benchmark (the algorithm of `go test
// -bench`, allocations counted by the runtime).
package main

import (
	"bytes"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"regexp"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	yaml "go.yaml.in/yaml/v2"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	k8sruntime "k8s.io/apimachinery/pkg/runtime"
	k8sschema "k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/util/managedfields"
	"k8s.io/apimachinery/pkg/util/managedfields/managedfieldstest"
	"sigs.k8s.io/structured-merge-diff/v6/fieldpath"
	"sigs.k8s.io/structured-merge-diff/v6/merge"
	"sigs.k8s.io/structured-merge-diff/v6/typed"
	"sigs.k8s.io/structured-merge-diff/v6/value"
	sigsyaml "sigs.k8s.io/yaml"
)

// The manager names and the apiVersion every workload uses.
const (
	version      = fieldpath.APIVersion("v1")
	manager      = "kubectl"
	otherManager = "controller"
)

var dataDir string

func die(format string, args ...any) {
	fmt.Fprintf(os.Stderr, "smd-bench: "+format+"\n", args...)
	os.Exit(2)
}

func readFile(name string) []byte {
	b, err := os.ReadFile(filepath.Join(dataDir, name))
	if err != nil {
		die("%v", err)
	}
	return b
}

// ---------------------------------------------------------------------------
// The converter: every version is the same type (as upstream's fixture).

type identityConverter struct{}

func (identityConverter) Convert(v *typed.TypedValue, version fieldpath.APIVersion) (*typed.TypedValue, error) {
	return v, nil
}

func (identityConverter) IsMissingVersionError(error) bool { return false }

func newUpdater() *merge.Updater {
	return (&merge.UpdaterBuilder{Converter: identityConverter{}}).BuildUpdater()
}

// ---------------------------------------------------------------------------
// The real objects.

type objectSpec struct {
	name       string // workload prefix
	file       string
	schemaFile string
	typeName   string
	// The leaf changed by the "one change" workloads: map keys, and list
	// indexes written as numbers. Its string value gets "-changed" appended.
	leaf []string
}

var objects = []objectSpec{
	{"pod", "pod.yaml", "k8s-schema.yaml", "io.k8s.api.core.v1.Pod",
		[]string{"spec", "containers", "0", "image"}},
	{"node", "node.yaml", "k8s-schema.yaml", "io.k8s.api.core.v1.Node",
		[]string{"spec", "podCIDR"}},
	{"endpoints", "endpoints.yaml", "k8s-schema.yaml", "io.k8s.api.core.v1.Endpoints",
		[]string{"metadata", "labels", "app"}},
	{"k8s-deployment", "k8s-deployment.yaml", "k8s-schema.yaml", "io.k8s.api.extensions.v1beta1.Deployment",
		[]string{"spec", "template", "spec", "containers", "0", "image"}},
	{"apiresourceimport-cr", "apiresourceimport-cr.yaml", "apiresourceimport.yaml", "apiresourceimport",
		[]string{"spec", "location"}},
}

func findObject(name string) *objectSpec {
	for i := range objects {
		if objects[i].name == name {
			return &objects[i]
		}
	}
	die("unknown object %q", name)
	return nil
}

var parsers = map[string]*typed.Parser{}

func loadParser(file string) *typed.Parser {
	if p, ok := parsers[file]; ok {
		return p
	}
	p, err := typed.NewParser(typed.YAMLObject(readFile(file)))
	if err != nil {
		die("schema %s: %v", file, err)
	}
	parsers[file] = p
	return p
}

// changeLeaf appends "-changed" to the string at leaf, in a value decoded
// by either YAML library.
func changeLeaf(v any, leaf []string) {
	cur := v
	for i, step := range leaf {
		last := i == len(leaf)-1
		var next any
		var set func(any)
		switch c := cur.(type) {
		case []any:
			n, err := strconv.Atoi(step)
			if err != nil || n >= len(c) {
				die("leaf path: bad index %q", step)
			}
			next, set = c[n], func(x any) { c[n] = x }
		case map[any]any:
			x, ok := c[step]
			if !ok {
				die("leaf path: no field %q", step)
			}
			next, set = x, func(x any) { c[step] = x }
		case map[string]any:
			x, ok := c[step]
			if !ok {
				die("leaf path: no field %q", step)
			}
			next, set = x, func(x any) { c[step] = x }
		default:
			die("leaf path goes through a scalar")
		}
		if last {
			s, ok := next.(string)
			if !ok {
				die("leaf is not a string")
			}
			set(s + "-changed")
			return
		}
		cur = next
	}
}

type objectFixture struct {
	spec     *objectSpec
	yaml     []byte
	pt       typed.ParseableType
	tv       *typed.TypedValue
	changed  *typed.TypedValue // tv with the leaf changed
	set      *fieldpath.Set
	fieldsV1 []byte
	updater  *merge.Updater
	empty    *typed.TypedValue

	appliedDone bool
	live        *typed.TypedValue // tv applied onto nothing by `manager`
	managers    fieldpath.ManagedFields

	deducedTv    *typed.TypedValue
	deducedEmpty *typed.TypedValue

	fm *fieldManagerFixture
}

var objectFixtures = map[string]*objectFixture{}

func getObject(name string) *objectFixture {
	if f, ok := objectFixtures[name]; ok {
		return f
	}
	spec := findObject(name)
	f := &objectFixture{spec: spec, yaml: readFile(spec.file), updater: newUpdater()}
	f.pt = loadParser(spec.schemaFile).Type(spec.typeName)
	var err error
	if f.tv, err = f.pt.FromYAML(typed.YAMLObject(f.yaml)); err != nil {
		die("%s: %v", spec.file, err)
	}
	var raw any
	if err := yaml.Unmarshal(f.yaml, &raw); err != nil {
		die("%s: %v", spec.file, err)
	}
	changeLeaf(raw, spec.leaf)
	if f.changed, err = f.pt.FromUnstructured(raw); err != nil {
		die("%s changed: %v", spec.file, err)
	}
	if f.set, err = f.tv.ToFieldSet(); err != nil {
		die("%s: to field set: %v", spec.file, err)
	}
	if f.fieldsV1, err = f.set.ToJSON(); err != nil {
		die("%s: fieldsV1: %v", spec.file, err)
	}
	if f.empty, err = f.pt.FromUnstructured(nil); err != nil {
		die("%s: empty: %v", spec.file, err)
	}
	if f.deducedTv, err = typed.DeducedParseableType.FromYAML(typed.YAMLObject(f.yaml)); err != nil {
		die("%s: deduced: %v", spec.file, err)
	}
	if f.deducedEmpty, err = typed.DeducedParseableType.FromUnstructured(nil); err != nil {
		die("%s: deduced empty: %v", spec.file, err)
	}
	objectFixtures[name] = f
	return f
}

// applied makes the live object of the workloads that start from an applied
// object, and checks once that they do what they say.
func (f *objectFixture) applied() {
	if f.appliedDone {
		return
	}
	live, managers, err := f.updater.Apply(f.empty, f.tv, version, fieldpath.ManagedFields{}, manager, false)
	if err != nil {
		die("%s: apply: %v", f.spec.name, err)
	}
	f.live, f.managers = live, managers
	before := f.managers
	again, _, err := f.updater.Apply(f.live, f.tv, version, f.managers, manager, false)
	if err != nil || again != nil {
		die("%s: re-apply is not a no-op (%v)", f.spec.name, err)
	}
	_, _, err = f.updater.Apply(f.live, f.changed, version, f.managers, otherManager, false)
	if _, ok := err.(merge.Conflicts); !ok {
		die("%s: the second manager's apply does not conflict (%v)", f.spec.name, err)
	}
	changed, _, err := f.updater.Apply(f.live, f.changed, version, f.managers, manager, false)
	if err != nil || changed == nil {
		die("%s: the re-apply with one change fails or changes nothing (%v)", f.spec.name, err)
	}
	// SMD v6's Updater works on a copy of the managers it is given (v4 wrote
	// into them), so every iteration can pass the same map, as smdx's do.
	if !f.managers.Equals(before) {
		die("%s: the updater changed the managers it was given", f.spec.name)
	}
	f.appliedDone = true
}

// ---------------------------------------------------------------------------
// The field-manager rows: apimachinery's field manager built as the
// apiserver builds it (managedfields.NewDefaultFieldManager, through
// managedfieldstest.NewFakeFieldManager: the request's version is the
// stored one, so no conversion, and no defaulting), on unstructured
// objects, as the apiserver handles custom resources.

// smdTypeConverter types the objects of one kind with one type of an SMD
// schema, as smdx's FieldManager types them with the type it is given.
type smdTypeConverter struct {
	gvk k8sschema.GroupVersionKind
	pt  typed.ParseableType
}

func (c smdTypeConverter) ObjectToTyped(obj k8sruntime.Object, opts ...typed.ValidationOptions) (*typed.TypedValue, error) {
	if gvk := obj.GetObjectKind().GroupVersionKind(); gvk != c.gvk {
		return nil, fmt.Errorf("no type for %v", gvk)
	}
	u, ok := obj.(*unstructured.Unstructured)
	if !ok {
		return nil, fmt.Errorf("not an unstructured object: %T", obj)
	}
	// The field manager types the stored object with AllowDuplicates and the
	// applied configuration without. As in smdx's row (validate_live off),
	// the stored object is not validated again.
	if slices.Contains(opts, typed.AllowDuplicates) {
		return typed.AsTypedUnvalidated(value.NewValueInterface(u.Object), c.pt.Schema, c.pt.TypeRef), nil
	}
	return c.pt.FromUnstructured(u.Object, opts...)
}

func (c smdTypeConverter) TypedToObject(v *typed.TypedValue) (k8sruntime.Object, error) {
	m, ok := v.AsValue().Unstructured().(map[string]any)
	if !ok {
		return nil, fmt.Errorf("not an object")
	}
	return &unstructured.Unstructured{Object: m}, nil
}

// withManagedFields declares metadata.managedFields in the Kubernetes SMD
// schema, as the apiserver's schema does: Go's field manager types the
// stored object with its managedFields (smdx strips them first).
func withManagedFields(text string) string {
	const meta = "- name: io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta\n  map:\n    fields:\n"
	if !strings.Contains(text, meta) {
		die("no ObjectMeta in the schema")
	}
	return strings.Replace(text, meta, meta+`    - name: managedFields
      type:
        list:
          elementType:
            namedType: io.k8s.apimachinery.pkg.apis.meta.v1.ManagedFieldsEntry
          elementRelationship: atomic
`, 1) + `- name: io.k8s.apimachinery.pkg.apis.meta.v1.ManagedFieldsEntry
  map:
    fields:
    - name: apiVersion
      type:
        scalar: string
    - name: fieldsType
      type:
        scalar: string
    - name: fieldsV1
      type:
        namedType: __untyped_atomic_
    - name: manager
      type:
        scalar: string
    - name: operation
      type:
        scalar: string
    - name: subresource
      type:
        scalar: string
    - name: time
      type:
        namedType: io.k8s.apimachinery.pkg.apis.meta.v1.Time
`
}

type fieldManagerFixture struct {
	fm      *managedfields.FieldManager
	live    k8sruntime.Object          // the object applied onto nothing by `manager`, managedFields inside
	changed *unstructured.Unstructured // a separate parse, the leaf changed
}

func (f *objectFixture) fieldManager() *fieldManagerFixture {
	if f.fm != nil {
		return f.fm
	}
	name := f.spec.name
	// Request bodies are decoded as the apiserver decodes an apply patch.
	parse := func() *unstructured.Unstructured {
		u := &unstructured.Unstructured{}
		if err := sigsyaml.Unmarshal(f.yaml, &u.Object); err != nil {
			die("%s: %v", name, err)
		}
		return u
	}
	source, changed := parse(), parse()
	changeLeaf(changed.Object, f.spec.leaf)
	gvk := source.GroupVersionKind()
	p, err := typed.NewParser(typed.YAMLObject(withManagedFields(string(readFile(f.spec.schemaFile)))))
	if err != nil {
		die("%s: schema: %v", name, err)
	}
	fm := managedfieldstest.NewFakeFieldManager(smdTypeConverter{gvk, p.Type(f.spec.typeName)}, gvk)
	empty := &unstructured.Unstructured{}
	empty.SetGroupVersionKind(gvk)
	live, err := fm.Apply(empty, source, manager, false)
	if err != nil {
		die("%s: field manager apply: %v", name, err)
	}
	// Check once that the re-apply changes the object and leaves its inputs
	// as they were, so that every iteration does the same work.
	liveBefore, changedBefore := live.DeepCopyObject(), changed.DeepCopy()
	out, err := fm.Apply(live, changed, manager, false)
	if err != nil || out == nil {
		die("%s: field manager re-apply with one change: %v", name, err)
	}
	if !reflect.DeepEqual(live, liveBefore) || !reflect.DeepEqual(changed, changedBefore) {
		die("%s: the field manager changed its inputs", name)
	}
	f.fm = &fieldManagerFixture{fm: fm, live: live, changed: changed}
	return f.fm
}

// ---------------------------------------------------------------------------
// The scaling cases: an associative list (keyed by `name`) of N items.
// Keep this schema identical to kScaleSchema in bench/smdx_bench.cc.

const scaleSchema = `types:
- name: scaleRoot
  map:
    fields:
    - name: apiVersion
      type:
        scalar: string
    - name: kind
      type:
        scalar: string
    - name: items
      type:
        list:
          elementType:
            namedType: scaleItem
          elementRelationship: associative
          keys:
          - name
- name: scaleItem
  map:
    fields:
    - name: name
      type:
        scalar: string
    - name: value
      type:
        scalar: numeric
    - name: data
      type:
        scalar: string
`

var scaleSizes = []int{100, 1000, 10000, 100000}

// scaleObject is {apiVersion: v1, kind: Scale, items: [{name: item-000000,
// value: 0, data: payload-0}, ...]}; item n/2 gets value -1 when
// changedValue and data "payload-changed" when changedData.
func scaleObject(n int, changedValue, changedData bool) any {
	items := make([]any, 0, n)
	for i := 0; i < n; i++ {
		mid := i == n/2
		value := int64(i)
		if mid && changedValue {
			value = -1
		}
		data := fmt.Sprintf("payload-%d", i)
		if mid && changedData {
			data = "payload-changed"
		}
		items = append(items, map[string]any{
			"name":  fmt.Sprintf("item-%06d", i),
			"value": value,
			"data":  data,
		})
	}
	return map[string]any{"apiVersion": "v1", "kind": "Scale", "items": items}
}

type scaleFixture struct {
	empty, obj, changedValue, changedData *typed.TypedValue
	updater                               *merge.Updater
	live                                  *typed.TypedValue
	managers                              fieldpath.ManagedFields
}

var scaleParser *typed.Parser
var scaleFixtures = map[int]*scaleFixture{}

func getScale(n int) *scaleFixture {
	if f, ok := scaleFixtures[n]; ok {
		return f
	}
	if scaleParser == nil {
		p, err := typed.NewParser(typed.YAMLObject(scaleSchema))
		if err != nil {
			die("scale schema: %v", err)
		}
		scaleParser = p
	}
	pt := scaleParser.Type("scaleRoot")
	f := &scaleFixture{updater: newUpdater()}
	var err error
	must := func(tv *typed.TypedValue, err error) *typed.TypedValue {
		if err != nil {
			die("scale object: %v", err)
		}
		return tv
	}
	f.empty = must(pt.FromUnstructured(nil))
	f.obj = must(pt.FromUnstructured(scaleObject(n, false, false)))
	f.changedValue = must(pt.FromUnstructured(scaleObject(n, true, false)))
	f.changedData = must(pt.FromUnstructured(scaleObject(n, false, true)))
	f.live, f.managers, err = f.updater.Apply(f.empty, f.obj, version, fieldpath.ManagedFields{}, manager, false)
	if err != nil {
		die("scale apply: %v", err)
	}
	scaleFixtures[n] = f
	return f
}

// ---------------------------------------------------------------------------
// Workloads.

type workload struct {
	name string
	fn   func(b *testing.B)
}

func check(b *testing.B, err error) {
	if err != nil {
		b.Fatal(err)
	}
}

func workloads() []workload {
	var w []workload
	for i := range objects {
		spec := &objects[i]
		o := spec.name
		add := func(op string, fn func(b *testing.B, f *objectFixture)) {
			w = append(w, workload{
				name: o + "/" + op,
				fn: func(b *testing.B) {
					f := getObject(o)
					b.ReportAllocs()
					b.ResetTimer()
					fn(b, f)
				},
			})
		}
		// YAML text to a validated typed value.
		add("parse", func(b *testing.B, f *objectFixture) {
			for n := 0; n < b.N; n++ {
				_, err := f.pt.FromYAML(typed.YAMLObject(f.yaml))
				check(b, err)
			}
		})
		add("validate", func(b *testing.B, f *objectFixture) {
			for n := 0; n < b.N; n++ {
				check(b, f.tv.Validate())
			}
		})
		add("to_field_set", func(b *testing.B, f *objectFixture) {
			for n := 0; n < b.N; n++ {
				_, err := f.tv.ToFieldSet()
				check(b, err)
			}
		})
		add("fieldsv1_serialize", func(b *testing.B, f *objectFixture) {
			for n := 0; n < b.N; n++ {
				_, err := f.set.ToJSON()
				check(b, err)
			}
		})
		add("fieldsv1_deserialize", func(b *testing.B, f *objectFixture) {
			for n := 0; n < b.N; n++ {
				s := fieldpath.NewSet()
				check(b, s.FromJSON(bytes.NewReader(f.fieldsV1)))
			}
		})
		add("compare_one_leaf", func(b *testing.B, f *objectFixture) {
			for n := 0; n < b.N; n++ {
				_, err := f.tv.Compare(f.changed)
				check(b, err)
			}
		})
		add("apply_empty", func(b *testing.B, f *objectFixture) {
			for n := 0; n < b.N; n++ {
				_, _, err := f.updater.Apply(f.empty, f.tv, version, fieldpath.ManagedFields{}, manager, false)
				check(b, err)
			}
		})
		add("reapply_noop", func(b *testing.B, f *objectFixture) {
			b.StopTimer()
			f.applied()
			b.StartTimer()
			for n := 0; n < b.N; n++ {
				_, _, err := f.updater.Apply(f.live, f.tv, version, f.managers, manager, false)
				check(b, err)
			}
		})
		add("reapply_one_change", func(b *testing.B, f *objectFixture) {
			b.StopTimer()
			f.applied()
			b.StartTimer()
			for n := 0; n < b.N; n++ {
				_, _, err := f.updater.Apply(f.live, f.changed, version, f.managers, manager, false)
				check(b, err)
			}
		})
		// The same re-apply through the apiserver's field-manager layer
		// (objects of the Kubernetes schema only, as in smdx_bench.cc).
		if spec.schemaFile == "k8s-schema.yaml" {
			add("fieldmanager_reapply_one_change", func(b *testing.B, f *objectFixture) {
				b.StopTimer()
				m := f.fieldManager()
				b.StartTimer()
				for n := 0; n < b.N; n++ {
					_, err := m.fm.Apply(m.live, m.changed, manager, false)
					check(b, err)
				}
			})
		}
		add("update_second_manager", func(b *testing.B, f *objectFixture) {
			b.StopTimer()
			f.applied()
			b.StartTimer()
			for n := 0; n < b.N; n++ {
				_, _, err := f.updater.Update(f.live, f.changed, version, f.managers, otherManager)
				check(b, err)
			}
		})
		add("apply_conflict", func(b *testing.B, f *objectFixture) {
			b.StopTimer()
			f.applied()
			b.StartTimer()
			for n := 0; n < b.N; n++ {
				_, _, err := f.updater.Apply(f.live, f.changed, version, f.managers, otherManager, false)
				if _, ok := err.(merge.Conflicts); !ok {
					b.Fatalf("expected conflicts, got %v", err)
				}
			}
		})
		add("deduced_apply", func(b *testing.B, f *objectFixture) {
			for n := 0; n < b.N; n++ {
				_, _, err := f.updater.Apply(f.deducedEmpty, f.deducedTv, version, fieldpath.ManagedFields{}, manager, false)
				check(b, err)
			}
		})
	}
	for _, size := range scaleSizes {
		n := size
		suffix := "/" + strconv.Itoa(n)
		scale := func(name string, fn func(b *testing.B, f *scaleFixture)) {
			w = append(w, workload{name: name + suffix, fn: func(b *testing.B) {
				f := getScale(n)
				b.ReportAllocs()
				b.ResetTimer()
				fn(b, f)
			}})
		}
		scale("scale/apply", func(b *testing.B, f *scaleFixture) {
			for i := 0; i < b.N; i++ {
				_, _, err := f.updater.Apply(f.empty, f.obj, version, fieldpath.ManagedFields{}, manager, false)
				check(b, err)
			}
		})
		scale("scale/reapply_one_change", func(b *testing.B, f *scaleFixture) {
			for i := 0; i < b.N; i++ {
				_, _, err := f.updater.Apply(f.live, f.changedValue, version, f.managers, manager, false)
				check(b, err)
			}
		})
		scale("scale/update", func(b *testing.B, f *scaleFixture) {
			for i := 0; i < b.N; i++ {
				_, _, err := f.updater.Update(f.live, f.changedData, version, f.managers, otherManager)
				check(b, err)
			}
		})
	}
	return w
}

// ---------------------------------------------------------------------------
// -rss OBJECT: peak resident memory of a full apply (parse the object, type
// and validate it, apply it onto nothing) in a fresh process.

func statusKb(field string) int64 {
	b, err := os.ReadFile("/proc/self/status")
	if err != nil {
		return -1
	}
	for _, line := range strings.Split(string(b), "\n") {
		if strings.HasPrefix(line, field+":") {
			f := strings.Fields(line[len(field)+1:])
			if len(f) > 0 {
				n, _ := strconv.ParseInt(f[0], 10, 64)
				return n
			}
		}
	}
	return -1
}

func resetPeakRss() bool {
	return os.WriteFile("/proc/self/clear_refs", []byte("5"), 0) == nil
}

func runRss(name string) {
	spec := findObject(name)
	text := readFile(spec.file)
	pt := loadParser(spec.schemaFile).Type(spec.typeName)
	empty, err := pt.FromUnstructured(nil)
	if err != nil {
		die("%v", err)
	}
	u := newUpdater()
	setupPeak := statusKb("VmHWM")
	reset := resetPeakRss()
	before := statusKb("VmRSS")
	tv, err := pt.FromYAML(typed.YAMLObject(text))
	if err != nil {
		die("%v", err)
	}
	_, managers, err := u.Apply(empty, tv, version, fieldpath.ManagedFields{}, manager, false)
	if err != nil {
		die("apply: %v", err)
	}
	if _, err := managers[manager].Set().ToJSON(); err != nil {
		die("%v", err)
	}
	peak := statusKb("VmHWM")
	total := peak
	if setupPeak > total {
		total = setupPeak
	}
	applyPeak := int64(-1)
	if reset {
		applyPeak = peak
	}
	out, _ := json.Marshal(map[string]any{
		"side": "go", "object": name, "peak_rss_kb": total,
		"rss_before_apply_kb": before, "apply_peak_rss_kb": applyPeak,
	})
	fmt.Println(string(out))
}

// ---------------------------------------------------------------------------

func main() {
	testing.Init()
	flag.StringVar(&dataDir, "data", "", "folder of the SMD test data (k8s-schema.yaml, pod.yaml, ...)")
	run := flag.String("run", ".", "regular expression: the workloads to run (matched against the whole name)")
	benchtime := flag.Duration("benchtime", time.Second, "minimum run time of each workload")
	list := flag.Bool("list", false, "list the workloads and exit")
	rss := flag.String("rss", "", "measure the peak RSS of a full apply of this object and exit")
	flag.Parse()
	if dataDir == "" {
		dataDir = os.Getenv("SMDX_BENCH_DATA")
	}
	if dataDir == "" {
		die("-data is required")
	}
	if *rss != "" {
		runRss(*rss)
		return
	}
	ws := workloads()
	if *list {
		for _, w := range ws {
			fmt.Println(w.name)
		}
		return
	}
	re, err := regexp.Compile("^(?:" + *run + ")$")
	if err != nil {
		die("-run: %v", err)
	}
	if err := flag.Set("test.benchtime", benchtime.String()); err != nil {
		die("%v", err)
	}
	enc := json.NewEncoder(os.Stdout)
	for _, w := range ws {
		if !re.MatchString(w.name) {
			continue
		}
		runtime.GC()
		r := testing.Benchmark(w.fn)
		if r.N == 0 {
			die("%s: failed", w.name)
		}
		enc.Encode(map[string]any{
			"name":          w.name,
			"ns_per_op":     float64(r.T.Nanoseconds()) / float64(r.N),
			"allocs_per_op": r.AllocsPerOp(),
			"bytes_per_op":  r.AllocedBytesPerOp(),
			"iterations":    r.N,
		})
	}
}
