package main

// Replaying one conformance case (conformance/FORMAT.md) against the reference
// library, sigs.k8s.io/structured-merge-diff/v6 (pinned by go.mod), through
// its public API only: typed.NewParser / ParseableType / AsTyped,
// merge.UpdaterBuilder and fieldpath.

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io/ioutil"
	"path/filepath"
	"sort"
	"strings"

	yaml "go.yaml.in/yaml/v2"
	"sigs.k8s.io/structured-merge-diff/v6/fieldpath"
	"sigs.k8s.io/structured-merge-diff/v6/merge"
	"sigs.k8s.io/structured-merge-diff/v6/typed"
	"sigs.k8s.io/structured-merge-diff/v6/value"
)

// failure is a failed op: conflicts, or an error of one of the FORMAT kinds.
type failure struct {
	Kind      string // "conflicts", "invalid", "schema", "parse", ...
	Message   string
	Conflicts merge.Conflicts
}

func (f *failure) String() string {
	if f.Kind == "conflicts" {
		return "conflicts: " + oneLine(f.Conflicts.Error())
	}
	return "error " + f.Kind + ": " + oneLine(f.Message)
}

func oneLine(s string) string {
	s = strings.Join(strings.Fields(s), " ")
	if len(s) > 400 {
		s = s[:400] + "..."
	}
	return s
}

func errorf(kind, format string, args ...interface{}) *failure {
	return &failure{Kind: kind, Message: fmt.Sprintf(format, args...)}
}

// ---------------------------------------------------------------------------
// Schemas

type schemaSpec struct {
	deduced  bool
	parser   *typed.Parser
	typeName string
	err      *failure // the schema could not be loaded; ops that need it fail with this
}

type parserCacheEntry struct {
	p   *typed.Parser
	err error
}

var parserCache = map[string]parserCacheEntry{}

func newParser(text string) (*typed.Parser, error) {
	if e, ok := parserCache[text]; ok {
		return e.p, e.err
	}
	p, err := typed.NewParser(typed.YAMLObject(text))
	parserCache[text] = parserCacheEntry{p, err}
	return p, err
}

// unsupportedSchemaKey returns the schema key that this oracle cannot handle.
func unsupportedSchemaKey(node interface{}) string {
	ms, ok := node.(yaml.MapSlice)
	if !ok {
		return ""
	}
	for _, k := range []string{"openapi", "crdFile"} {
		if _, ok := get(ms, k); ok {
			return k
		}
	}
	return ""
}

// loadSchema reads a `schema` mapping (smd, smdFile or deduced) and a root type.
func loadSchema(node interface{}, typeName string, hasType bool, dir string) *schemaSpec {
	ms, ok := node.(yaml.MapSlice)
	if !ok {
		return &schemaSpec{err: errorf("schema", "schema must be a mapping with one of smd, smdFile, deduced")}
	}
	var keys []string
	for _, it := range ms {
		keys = append(keys, keyString(it.Key))
	}
	if len(keys) != 1 {
		return &schemaSpec{err: errorf("schema", "schema must have exactly one key, got %v", keys)}
	}
	switch keys[0] {
	case "deduced":
		v, _ := get(ms, "deduced")
		if b, ok := v.(bool); !ok || !b {
			return &schemaSpec{err: errorf("schema", "schema.deduced must be true")}
		}
		return &schemaSpec{deduced: true}
	case "smd", "smdFile":
		var text string
		if keys[0] == "smd" {
			s, ok := getString(ms, "smd")
			if !ok {
				return &schemaSpec{err: errorf("schema", "schema.smd must be a string")}
			}
			text = s
		} else {
			f, ok := getString(ms, "smdFile")
			if !ok {
				return &schemaSpec{err: errorf("schema", "schema.smdFile must be a string")}
			}
			b, err := ioutil.ReadFile(filepath.Join(dir, f))
			if err != nil {
				return &schemaSpec{err: errorf("schema", "reading smdFile: %v", err)}
			}
			text = string(b)
		}
		if !hasType {
			return &schemaSpec{err: errorf("schema", "`type` is required with an smd schema")}
		}
		p, err := newParser(text)
		if err != nil {
			return &schemaSpec{err: errorf("schema", "%v", err)}
		}
		spec := &schemaSpec{parser: p, typeName: typeName}
		if !spec.pt().IsValid() {
			return &schemaSpec{err: errorf("schema", "type %q is not defined in the schema", typeName)}
		}
		return spec
	default:
		return &schemaSpec{err: errorf("schema", "unknown schema key %q", keys[0])}
	}
}

func (s *schemaSpec) pt() typed.ParseableType {
	if s.deduced {
		return typed.DeducedParseableType
	}
	return s.parser.Type(s.typeName)
}

// typedObject parses an object node and types it with the schema (this
// validates it, as FromYAML does).
func (s *schemaSpec) typedObject(node interface{}, present bool, opts ...typed.ValidationOptions) (*typed.TypedValue, *failure) {
	obj, err := objectValue(node, present)
	if err != nil {
		return nil, errorf("parse", "%v", err)
	}
	return s.typedValue(obj, opts...)
}

func (s *schemaSpec) typedValue(obj interface{}, opts ...typed.ValidationOptions) (*typed.TypedValue, *failure) {
	if s.err != nil {
		return nil, s.err
	}
	tv, err := s.pt().FromUnstructured(obj, opts...)
	if err != nil {
		return nil, errorf("invalid", "%v", err)
	}
	return tv, nil
}

// ---------------------------------------------------------------------------
// The converter: every version has the same type.

type identityConverter struct{}

var _ merge.Converter = identityConverter{}

func (identityConverter) Convert(v *typed.TypedValue, version fieldpath.APIVersion) (*typed.TypedValue, error) {
	if len(version) == 0 {
		return nil, fmt.Errorf("cannot convert to invalid version: %q", version)
	}
	return v, nil
}

func (identityConverter) IsMissingVersionError(error) bool { return false }

// ---------------------------------------------------------------------------
// Field sets

// fieldsV1Set parses a fieldsV1 node (a mapping, or a string of JSON) with
// SMD's own deserializer.
func fieldsV1Set(node interface{}) (*fieldpath.Set, error) {
	var b []byte
	switch t := node.(type) {
	case nil:
		return fieldpath.NewSet(), nil
	case string:
		b = []byte(t)
	default:
		var err error
		b, err = json.Marshal(canon(t))
		if err != nil {
			return nil, err
		}
	}
	set := fieldpath.NewSet()
	if err := set.FromJSON(bytes.NewReader(b)); err != nil {
		return nil, err
	}
	return set, nil
}

func setJSON(s *fieldpath.Set) string {
	b, err := s.ToJSON()
	if err != nil {
		return fmt.Sprintf("<error: %v>", err)
	}
	return string(b)
}

// pathNode parses a path written as a list of f:/k:/v:/i: elements.
func pathNode(node interface{}) (fieldpath.Path, error) {
	l, ok := node.([]interface{})
	if !ok {
		return nil, fmt.Errorf("a path must be a list of path elements, got %v", short(canon(node)))
	}
	p := make(fieldpath.Path, 0, len(l))
	for _, e := range l {
		s, ok := e.(string)
		if !ok {
			return nil, fmt.Errorf("path element %v is not a string", e)
		}
		pe, err := fieldpath.DeserializePathElement(s)
		if err != nil {
			return nil, fmt.Errorf("path element %q: %v", s, err)
		}
		p = append(p, pe)
	}
	return p, nil
}

func pathStrings(p fieldpath.Path) []string {
	out := make([]string, len(p))
	for i, pe := range p {
		s, err := fieldpath.SerializePathElement(pe)
		if err != nil {
			s = pe.String()
		}
		out[i] = s
	}
	return out
}

type managedEntry struct {
	apiVersion string
	operation  string
	set        *fieldpath.Set
}

// parseManaged reads a `managed` mapping: manager -> {apiVersion, operation, fieldsV1}.
func parseManaged(node interface{}) (map[string]managedEntry, error) {
	out := map[string]managedEntry{}
	if node == nil {
		return out, nil
	}
	ms, ok := node.(yaml.MapSlice)
	if !ok {
		return nil, fmt.Errorf("managed must be a mapping")
	}
	for _, it := range ms {
		name := keyString(it.Key)
		em, ok := it.Value.(yaml.MapSlice)
		if !ok {
			return nil, fmt.Errorf("managed.%s must be a mapping", name)
		}
		var e managedEntry
		e.apiVersion, _ = getString(em, "apiVersion")
		e.operation, _ = getString(em, "operation")
		fv, _ := get(em, "fieldsV1")
		set, err := fieldsV1Set(fv)
		if err != nil {
			return nil, fmt.Errorf("managed.%s.fieldsV1: %v", name, err)
		}
		e.set = set
		out[name] = e
	}
	return out, nil
}

func operationOf(vs fieldpath.VersionedSet) string {
	if vs.Applied() {
		return "Apply"
	}
	return "Update"
}

// ---------------------------------------------------------------------------
// Replay

type opResult struct {
	Index   int
	Op      string
	Manager string
	Fail    *failure
	// State after the op.
	Live     *typed.TypedValue
	Managers fieldpath.ManagedFields
	Notes    []string
}

type caseResult struct {
	File        string
	Name        string
	Requires    string
	Skip        string
	Unsupported []string
	InitFail    string
	Ops         []opResult
	Live        *typed.TypedValue
	Managers    fieldpath.ManagedFields
	Reasons     []string
	Hints       hints
	Mutating    bool
}

func (r *caseResult) status() string {
	switch {
	case r.Skip != "":
		return "SKIP"
	case len(r.Reasons) == 0:
		return "PASS"
	default:
		return "FAIL"
	}
}

type replayer struct {
	spec     *schemaSpec
	live     *typed.TypedValue
	managers fieldpath.ManagedFields
	updater  *merge.Updater
	dir      string
}

func copyTyped(tv *typed.TypedValue) *typed.TypedValue {
	if tv == nil {
		return nil
	}
	return typed.AsTypedUnvalidated(value.NewValueInterface(deepCopy(tv.AsValue().Unstructured())), tv.Schema(), tv.TypeRef())
}

func (r *replayer) liveOrEmpty() (*typed.TypedValue, *failure) {
	if r.live != nil {
		return copyTyped(r.live), nil
	}
	return r.spec.typedValue(nil)
}

func (r *replayer) runOp(op yaml.MapSlice) (kind, manager string, f *failure) {
	kind, _ = getString(op, "op")
	manager, _ = getString(op, "manager")
	version, _ := getString(op, "apiVersion")
	objNode, objPresent := get(op, "object")
	switch kind {
	case "apply", "forceApply":
		tv, f := r.spec.typedObject(objNode, objPresent)
		if f != nil {
			return kind, manager, f
		}
		live, f := r.liveOrEmpty()
		if f != nil {
			return kind, manager, f
		}
		newObj, managers, err := r.updater.Apply(live, tv, fieldpath.APIVersion(version), r.managers.Copy(), manager, kind == "forceApply")
		if err != nil {
			return kind, manager, classify(err)
		}
		r.managers = managers
		if newObj != nil {
			r.live = newObj
		} else {
			r.live = live
		}
	case "update":
		// An update may carry duplicate list items (upstream's fixture and
		// the apiserver accept them there, never in an apply).
		tv, f := r.spec.typedObject(objNode, objPresent, typed.AllowDuplicates)
		if f != nil {
			return kind, manager, f
		}
		live, f := r.liveOrEmpty()
		if f != nil {
			return kind, manager, f
		}
		newObj, managers, err := r.updater.Update(live, tv, fieldpath.APIVersion(version), r.managers.Copy(), manager)
		if err != nil {
			return kind, manager, classify(err)
		}
		r.live = newObj
		r.managers = managers
	case "validate":
		if _, f := r.spec.typedObject(objNode, objPresent); f != nil {
			return kind, manager, f
		}
	case "setSchema":
		sn, ok := get(op, "schema")
		if !ok {
			return kind, manager, errorf("schema", "setSchema needs a schema")
		}
		typeName, hasType := getString(op, "type")
		if !hasType && r.spec.parser != nil {
			typeName, hasType = r.spec.typeName, true
		}
		spec := loadSchema(sn, typeName, hasType, r.dir)
		if spec.err != nil {
			return kind, manager, spec.err
		}
		var live *typed.TypedValue
		if r.live != nil {
			// Re-type the live object with the new schema (this validates it);
			// managed fields are kept as they are.
			pt := spec.pt()
			tv, err := typed.AsTyped(value.NewValueInterface(deepCopy(r.live.AsValue().Unstructured())), pt.Schema, pt.TypeRef)
			if err != nil {
				return kind, manager, errorf("invalid", "live object under the new schema: %v", err)
			}
			live = tv
		}
		r.spec = spec
		r.live = live
	default:
		return kind, manager, errorf("unsupported", "op %q is not supported", kind)
	}
	return kind, manager, nil
}

func classify(err error) *failure {
	if c, ok := err.(merge.Conflicts); ok {
		return &failure{Kind: "conflicts", Message: c.Error(), Conflicts: c}
	}
	if c, ok := err.(merge.Conflict); ok {
		return &failure{Kind: "conflicts", Message: c.Error(), Conflicts: merge.Conflicts{c}}
	}
	return &failure{Kind: "invalid", Message: err.Error()}
}

// scanUnsupported lists the features of a case that SMD has no notion of.
func scanUnsupported(doc yaml.MapSlice) []string {
	var out []string
	if sn, ok := get(doc, "schema"); ok {
		if k := unsupportedSchemaKey(sn); k != "" {
			out = append(out, "schema."+k)
		}
	}
	if f, ok := get(doc, "format"); ok && fmt.Sprint(f) != "1" {
		out = append(out, fmt.Sprintf("format %v", f))
	}
	ops, _ := get(doc, "ops")
	l, _ := ops.([]interface{})
	for i, o := range l {
		om, ok := o.(yaml.MapSlice)
		if !ok {
			continue
		}
		kind, _ := getString(om, "op")
		switch kind {
		case "apply", "forceApply", "update", "validate":
		case "setSchema":
			if sn, ok := get(om, "schema"); ok {
				if k := unsupportedSchemaKey(sn); k != "" {
					out = append(out, fmt.Sprintf("op %d: setSchema with schema.%s", i, k))
				}
			}
		case "default", "immutable":
			out = append(out, fmt.Sprintf("op %d: %s (not an SMD feature)", i, kind))
		default:
			out = append(out, fmt.Sprintf("op %d: unknown op %q", i, kind))
		}
		if ex, ok := getMap(om, "expect"); ok {
			if _, ok := get(ex, "errorPaths"); ok {
				out = append(out, fmt.Sprintf("op %d: expect.errorPaths", i))
			}
		}
	}
	return out
}

func runCase(file, dir string, doc yaml.MapSlice, requires string) *caseResult {
	res := &caseResult{File: file, Requires: requires, Hints: hints{}}
	res.Name, _ = getString(doc, "name")
	res.Skip, _ = getString(doc, "skip")
	if res.Skip != "" {
		return res
	}
	res.Unsupported = scanUnsupported(doc)
	if len(res.Unsupported) > 0 {
		res.Reasons = append(res.Reasons, "unsupported by the SMD oracle: "+strings.Join(res.Unsupported, "; "))
		return res
	}

	// Key-order hints for writing objects back.
	if ex, ok := getMap(doc, "expect"); ok {
		if o, ok := get(ex, "object"); ok {
			res.Hints.walk(o, "")
		}
	}
	if in, ok := getMap(doc, "initial"); ok {
		if o, ok := get(in, "object"); ok {
			res.Hints.walk(o, "")
		}
	}
	opsNode, _ := get(doc, "ops")
	ops, ok := opsNode.([]interface{})
	if !ok && opsNode != nil {
		res.Reasons = append(res.Reasons, "ops must be a list")
		return res
	}
	for _, o := range ops {
		if om, ok := o.(yaml.MapSlice); ok {
			if ob, ok := get(om, "object"); ok {
				res.Hints.walk(ob, "")
			}
			if ex, ok := getMap(om, "expect"); ok {
				if ob, ok := get(ex, "object"); ok {
					res.Hints.walk(ob, "")
				}
			}
		}
	}

	typeName, hasType := getString(doc, "type")
	schemaNode, _ := get(doc, "schema")
	r := &replayer{
		spec:     loadSchema(schemaNode, typeName, hasType, dir),
		managers: fieldpath.ManagedFields{},
		dir:      dir,
	}
	ignored, err := parseIgnored(doc)
	if err != nil {
		res.Reasons = append(res.Reasons, "ignoredFields: "+err.Error())
		return res
	}
	// Ignored fields as per-version filters, as the apiserver passes them
	// (SMD's IgnoredFields dereferences the set of a version it lacks).
	var filters map[fieldpath.APIVersion]fieldpath.Filter
	if ignored != nil {
		filters = map[fieldpath.APIVersion]fieldpath.Filter{}
		for v, set := range ignored {
			filters[v] = fieldpath.NewExcludeSetFilter(set)
		}
	}
	builder := merge.UpdaterBuilder{Converter: identityConverter{}, IgnoreFilter: filters}
	r.updater = builder.BuildUpdater()

	if in, ok := getMap(doc, "initial"); ok {
		if f := r.loadInitial(in); f != nil {
			res.InitFail = f.String()
			res.Reasons = append(res.Reasons, "initial: "+f.String())
			return res
		}
	}

	for i, o := range ops {
		om, ok := o.(yaml.MapSlice)
		if !ok {
			res.Reasons = append(res.Reasons, fmt.Sprintf("op %d is not a mapping", i))
			return res
		}
		kind, manager, f := r.runOp(om)
		if kind == "apply" || kind == "forceApply" || kind == "update" {
			res.Mutating = true
		}
		or := opResult{Index: i, Op: kind, Manager: manager, Fail: f, Live: r.live, Managers: r.managers}
		if on, ok := get(om, "object"); ok {
			for _, d := range duplicateKeys(on) {
				or.Notes = append(or.Notes, "duplicate mapping key "+d+" in the object: yaml.v2 (as SMD's FromYAML) keeps the last value")
			}
		}
		res.Ops = append(res.Ops, or)
		where := fmt.Sprintf("op %d (%s%s)", i, kind, byManager(manager))
		ex, hasEx := get(om, "expect")
		if hasEx && ex != nil {
			exm, ok := ex.(yaml.MapSlice)
			if !ok {
				res.Reasons = append(res.Reasons, where+": expect must be a mapping")
				continue
			}
			res.Reasons = append(res.Reasons, checkExpect(where, exm, f, r.live, r.managers, false)...)
		} else if f != nil {
			res.Reasons = append(res.Reasons, where+": failed unexpectedly: "+f.String())
		}
	}
	res.Live = r.live
	res.Managers = r.managers
	if ex, ok := get(doc, "expect"); ok && ex != nil {
		exm, ok := ex.(yaml.MapSlice)
		if !ok {
			res.Reasons = append(res.Reasons, "expect must be a mapping")
		} else {
			res.Reasons = append(res.Reasons, checkExpect("final state", exm, nil, r.live, r.managers, true)...)
		}
	}
	return res
}

func byManager(m string) string {
	if m == "" {
		return ""
	}
	return " by " + m
}

func parseIgnored(doc yaml.MapSlice) (map[fieldpath.APIVersion]*fieldpath.Set, error) {
	node, ok := get(doc, "ignoredFields")
	if !ok || node == nil {
		return nil, nil
	}
	ms, ok := node.(yaml.MapSlice)
	if !ok {
		return nil, fmt.Errorf("must be a mapping apiVersion -> list of paths")
	}
	out := map[fieldpath.APIVersion]*fieldpath.Set{}
	for _, it := range ms {
		v := keyString(it.Key)
		set := fieldpath.NewSet()
		l, ok := it.Value.([]interface{})
		if !ok && it.Value != nil {
			return nil, fmt.Errorf("%s: must be a list of paths", v)
		}
		for _, pn := range l {
			p, err := pathNode(pn)
			if err != nil {
				return nil, fmt.Errorf("%s: %v", v, err)
			}
			set.Insert(p)
		}
		out[fieldpath.APIVersion(v)] = set
	}
	return out, nil
}

func (r *replayer) loadInitial(in yaml.MapSlice) *failure {
	if on, ok := get(in, "object"); ok {
		obj, err := objectValue(on, true)
		if err != nil {
			return errorf("parse", "object: %v", err)
		}
		if obj != nil {
			tv, f := r.spec.typedValue(obj)
			if f != nil {
				return f
			}
			r.live = tv
		}
	}
	if mn, ok := get(in, "managed"); ok {
		entries, err := parseManaged(mn)
		if err != nil {
			return errorf("parse", "%v", err)
		}
		for name, e := range entries {
			if e.set.Empty() {
				continue
			}
			r.managers[name] = fieldpath.NewVersionedSet(e.set, fieldpath.APIVersion(e.apiVersion), e.operation == "Apply")
		}
	}
	return nil
}

// ---------------------------------------------------------------------------
// Expectations

func checkExpect(where string, ex yaml.MapSlice, f *failure, live *typed.TypedValue, managers fieldpath.ManagedFields, caseLevel bool) []string {
	var reasons []string
	add := func(format string, args ...interface{}) {
		reasons = append(reasons, where+": "+fmt.Sprintf(format, args...))
	}
	cn, wantConflicts := get(ex, "conflicts")
	if l, ok := cn.([]interface{}); wantConflicts && (cn == nil || ok && len(l) == 0) {
		// `conflicts: []`: the op must go through without conflicts.
		wantConflicts = false
	}
	en, wantError := get(ex, "error")
	for _, it := range ex {
		switch keyString(it.Key) {
		case "object", "managed":
		case "conflicts", "error":
			if caseLevel {
				add("expect.%s is only meaningful on an op", keyString(it.Key))
			}
		case "errorPaths":
			add("expect.errorPaths is not supported by the SMD oracle")
		default:
			add("unknown expect key %q", keyString(it.Key))
		}
	}
	switch {
	case wantConflicts && !caseLevel:
		if f == nil {
			add("expected conflicts, but the op succeeded")
		} else if f.Kind != "conflicts" {
			add("expected conflicts, got %s", f.String())
		} else {
			reasons = append(reasons, compareConflicts(where, cn, f.Conflicts)...)
		}
	case wantError && !caseLevel:
		kind := fmt.Sprint(en)
		if f == nil {
			add("expected error %q, but the op succeeded", kind)
		} else if f.Kind != kind {
			add("expected error %q, got %s", kind, f.String())
		}
	default:
		if f != nil {
			add("failed unexpectedly: %s", f.String())
		}
	}
	if on, ok := get(ex, "object"); ok {
		want, err := objectValue(on, true)
		if err != nil {
			add("expect.object: %v", err)
		} else {
			var got interface{}
			if live != nil {
				got = live.AsValue().Unstructured()
			}
			if d := diffValues("", canon(want), canon(got)); d != "" {
				add("object differs %s", d)
			}
		}
	}
	if mn, ok := get(ex, "managed"); ok {
		reasons = append(reasons, compareManaged(where, mn, managers)...)
	}
	return reasons
}

func compareConflicts(where string, node interface{}, got merge.Conflicts) []string {
	l, ok := node.([]interface{})
	if !ok && node != nil {
		return []string{where + ": expect.conflicts must be a list"}
	}
	want := map[string]bool{}
	for _, e := range l {
		em, ok := e.(yaml.MapSlice)
		if !ok {
			return []string{where + ": a conflict must be a mapping {manager, path}"}
		}
		m, _ := getString(em, "manager")
		pn, _ := get(em, "path")
		p, err := pathNode(pn)
		if err != nil {
			return []string{where + ": conflict path: " + err.Error()}
		}
		want[conflictKey(m, p)] = true
	}
	have := map[string]bool{}
	for _, c := range got {
		have[conflictKey(c.Manager, c.Path)] = true
	}
	var missing, extra []string
	for k := range want {
		if !have[k] {
			missing = append(missing, k)
		}
	}
	for k := range have {
		if !want[k] {
			extra = append(extra, k)
		}
	}
	if len(missing) == 0 && len(extra) == 0 {
		return nil
	}
	sort.Strings(missing)
	sort.Strings(extra)
	return []string{fmt.Sprintf("%s: conflicts differ: missing %v, unexpected %v", where, missing, extra)}
}

func conflictKey(manager string, p fieldpath.Path) string {
	b, _ := json.Marshal(pathStrings(p))
	return manager + " " + string(b)
}

func compareManaged(where string, node interface{}, got fieldpath.ManagedFields) []string {
	want, err := parseManaged(node)
	if err != nil {
		return []string{where + ": expect.managed: " + err.Error()}
	}
	var reasons []string
	names := map[string]bool{}
	for n := range want {
		names[n] = true
	}
	for n := range got {
		names[n] = true
	}
	sorted := make([]string, 0, len(names))
	for n := range names {
		sorted = append(sorted, n)
	}
	sort.Strings(sorted)
	for _, n := range sorted {
		w, wok := want[n]
		g, gok := got[n]
		switch {
		case !wok:
			reasons = append(reasons, fmt.Sprintf("%s: unexpected manager %q (%s %s %s)", where, n, g.APIVersion(), operationOf(g), setJSON(g.Set())))
		case !gok:
			reasons = append(reasons, fmt.Sprintf("%s: missing manager %q", where, n))
		default:
			if string(g.APIVersion()) != w.apiVersion {
				reasons = append(reasons, fmt.Sprintf("%s: manager %q: apiVersion %q, expected %q", where, n, g.APIVersion(), w.apiVersion))
			}
			if operationOf(g) != w.operation {
				reasons = append(reasons, fmt.Sprintf("%s: manager %q: operation %s, expected %q", where, n, operationOf(g), w.operation))
			}
			if !g.Set().Equals(w.set) {
				reasons = append(reasons, fmt.Sprintf("%s: manager %q: fields differ: missing %s, unexpected %s", where, n,
					setJSON(w.set.Difference(g.Set())), setJSON(g.Set().Difference(w.set))))
			}
		}
	}
	return reasons
}
