package main

// Running a sequence through apimachinery's field manager, built as the
// apiserver builds it (managedfields.NewDefaultFieldManager: the version
// check, the last-applied updater and manager, skip-non-applied, the cap on
// update managers, manager info, the managedFields updater, strip-meta and
// the structured-merge manager), on unstructured objects. Updates go
// through UpdateNoErrors and applies through Apply, as the apiserver's
// handlers call them; a create starts from an empty object of the kind.
//
// The field manager stamps entries with the wall clock. Op i of a case runs
// at 2026-01-01T00:00:00Z + i seconds instead: after each op, every time
// later than any such time (stamped by this op) is rewritten to the op's.
// Entries are ordered by time in seconds, and the op's stamp is the newest
// either way, so the rewrite keeps their order.

import (
	"errors"
	"fmt"
	"sort"
	"strconv"
	"strings"
	"time"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/util/managedfields"
	"sigs.k8s.io/structured-merge-diff/v6/fieldpath"
)

var clockStart = time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)

// Any time after this was stamped by the field manager's wall clock (a
// case has far fewer ops than a day has seconds).
var clockHorizon = clockStart.Add(24 * time.Hour)

type noConversion struct{}

func (noConversion) Convert(in, out, context interface{}) error { return errors.New("not implemented") }
func (noConversion) ConvertToVersion(in runtime.Object, _ runtime.GroupVersioner) (runtime.Object, error) {
	return in, nil
}
func (noConversion) ConvertFieldLabel(_ schema.GroupVersionKind, _, _ string) (string, string, error) {
	return "", "", errors.New("not implemented")
}

type noDefaults struct{}

func (noDefaults) Default(runtime.Object) {}

type unstructuredCreater struct{}

func (unstructuredCreater) New(gvk schema.GroupVersionKind) (runtime.Object, error) {
	u := &unstructured.Unstructured{Object: map[string]interface{}{}}
	u.SetGroupVersionKind(gvk)
	return u, nil
}

type conflict struct {
	manager string
	path    []string
}

// opOutcome is what one request did.
type opOutcome struct {
	body      map[string]interface{}
	errKind   string // "", "conflicts", "badRequest", "invalid"
	message   string
	conflicts []conflict
	// After a successful op: the stored object (managedFields removed)
	// and its entries.
	object  map[string]interface{}
	entries []map[string]interface{}
}

type runner struct {
	managers map[string]*managedfields.FieldManager
}

// fieldManager is the apiserver's for the kind at gvk's version and the
// subresource: NewDefaultFieldManager for a built-in kind (no conversion,
// no defaulting, no resets), NewDefaultCRDFieldManager for a custom
// resource (None conversion, structural defaulting, the strategy's resets,
// its request version as the hub).
func (r *runner) fieldManager(k kindSpec, gvk schema.GroupVersionKind, subresource string) (*managedfields.FieldManager, error) {
	key := gvk.String() + "/" + subresource
	if fm, ok := r.managers[key]; ok {
		return fm, nil
	}
	var fm *managedfields.FieldManager
	var err error
	if k.crd == nil {
		fm, err = managedfields.NewDefaultFieldManager(k.sc.converter, noConversion{}, noDefaults{}, unstructuredCreater{},
			gvk, gvk.GroupVersion(), subresource, nil)
	} else {
		fm, err = managedfields.NewDefaultCRDFieldManager(k.sc.converter, noneConversion{}, crDefaulter{k.crd}, unstructuredCreater{},
			gvk, gvk.GroupVersion(), subresource, k.crd.resetFields(gvk.GroupVersion(), subresource))
	}
	if err != nil {
		return nil, err
	}
	r.managers[key] = fm
	return fm, nil
}

func (r *runner) run(s *sequence) ([]opOutcome, error) {
	var live *unstructured.Unstructured // nil: no object yet
	var out []opOutcome
	for i, o := range s.ops {
		gvk := s.gvkAt(o.version)
		// The live object as the request reads it: a custom resource at
		// the request's version, defaulted (as read from storage).
		var current *unstructured.Unstructured
		if live != nil {
			current = live.DeepCopy()
			if s.kind.crd != nil {
				current.SetAPIVersion(gvk.GroupVersion().String())
				if err := s.kind.crd.decode(current); err != nil {
					return nil, fmt.Errorf("op %d: reading the live object: %v", i, err)
				}
			}
		}
		var liveMap map[string]interface{}
		if current != nil {
			liveMap = current.Object
		}
		body := s.body(s.kind.sc, o, liveMap)
		res := opOutcome{body: copyValue(body).(map[string]interface{})}
		fm, err := r.fieldManager(s.kind, gvk, o.subresource)
		if err != nil {
			return nil, err
		}
		base := current
		if base == nil {
			obj, _ := unstructuredCreater{}.New(gvk)
			base = obj.(*unstructured.Unstructured)
		}
		request := &unstructured.Unstructured{Object: copyValue(body).(map[string]interface{})}
		var result runtime.Object
		if o.subresource == "scale" {
			result, err = r.runScale(s, o, current, body)
		} else if o.op == "update" {
			if s.kind.crd != nil {
				if err := s.kind.crd.decode(request); err != nil {
					return nil, fmt.Errorf("op %d: decoding the body: %v", i, err)
				}
			}
			result = fm.UpdateNoErrors(base.DeepCopy(), request, o.manager)
		} else {
			result, err = fm.Apply(base.DeepCopy(), request, o.manager, o.op == "forceApply")
		}
		if err != nil {
			if e := describeError(err, s.kind.sc, request, base, &res); e != nil {
				return nil, e
			}
			out = append(out, res)
			continue
		}
		u, ok := result.(*unstructured.Unstructured)
		if !ok {
			return nil, fmt.Errorf("op %d: the field manager returned %T", i, result)
		}
		if s.kind.crd != nil {
			// The registry strategy, then the write and the read back.
			s.kind.crd.prepare(u, current, o.subresource)
			if err := s.kind.crd.decode(u); err != nil {
				return nil, fmt.Errorf("op %d: storing: %v", i, err)
			}
		}
		restamp(u, clockStart.Add(time.Duration(i)*time.Second))
		live = u
		if err := describeState(u, &res); err != nil {
			return nil, fmt.Errorf("op %d: %v", i, err)
		}
		out = append(out, res)
	}
	return out, nil
}

// restamp gives the entries stamped by the wall clock the op's own time.
func restamp(u *unstructured.Unstructured, at time.Time) {
	entries := u.GetManagedFields()
	changed := false
	for i := range entries {
		if entries[i].Time != nil && entries[i].Time.Time.After(clockHorizon) {
			entries[i].Time = &metav1.Time{Time: at}
			changed = true
		}
	}
	if changed {
		u.SetManagedFields(entries)
	}
}

func describeState(u *unstructured.Unstructured, res *opOutcome) error {
	obj := copyValue(u.Object).(map[string]interface{})
	if md, ok := obj["metadata"].(map[string]interface{}); ok {
		delete(md, "managedFields")
	}
	res.object = obj
	for _, e := range u.GetManagedFields() {
		m := map[string]interface{}{
			"manager":    e.Manager,
			"operation":  string(e.Operation),
			"apiVersion": e.APIVersion,
		}
		if e.Time != nil {
			m["time"] = e.Time.UTC().Format(time.RFC3339)
		}
		if e.FieldsType != "" {
			m["fieldsType"] = e.FieldsType
		}
		if e.Subresource != "" {
			m["subresource"] = e.Subresource
		}
		if e.FieldsV1 != nil {
			// The bytes the apiserver stores for a built-in kind: SMD's own
			// encoding of the set.
			set := &fieldpath.Set{}
			if err := set.FromJSON(strings.NewReader(string(e.FieldsV1.Raw))); err != nil {
				return fmt.Errorf("entry %s: %v", e.Manager, err)
			}
			text, err := set.ToJSON()
			if err != nil {
				return err
			}
			m["fieldsV1"] = string(text)
		}
		res.entries = append(res.entries, m)
	}
	return nil
}

// describeError records a failed request: its kind as the apiserver's
// status reason says, its message, and for conflicts each manager and path.
func describeError(err error, sc *builtinSchema, request, live *unstructured.Unstructured, res *opOutcome) error {
	res.message = err.Error()
	var status apierrors.APIStatus
	if !errors.As(err, &status) {
		res.errKind = "internal"
		return nil
	}
	switch status.Status().Reason {
	case metav1.StatusReasonConflict:
		res.errKind = "conflicts"
	case metav1.StatusReasonBadRequest:
		res.errKind = "badRequest"
		return nil
	case metav1.StatusReasonInvalid:
		res.errKind = "invalid"
		return nil
	default:
		res.errKind = "internal"
		return nil
	}
	// Conflict paths are printed with Path.String(): find them among the
	// paths of the configuration and of the live object.
	paths := map[string][]string{}
	for _, obj := range []*unstructured.Unstructured{request, live} {
		tv, err := sc.converter.ObjectToTyped(obj)
		if err != nil {
			continue
		}
		set, err := tv.ToFieldSet()
		if err != nil {
			continue
		}
		set.Iterate(func(p fieldpath.Path) {
			var elems []string
			for i, pe := range p {
				t, _ := fieldpath.SerializePathElement(pe)
				elems = append(elems, t)
				paths[p[:i+1].String()] = append([]string(nil), elems...)
			}
		})
	}
	// A conflict can also name a field that no set holds (an empty list):
	// every chain of map keys from the root, too.
	var walk func(v interface{}, prefix fieldpath.Path, elems []string)
	walk = func(v interface{}, prefix fieldpath.Path, elems []string) {
		m, ok := v.(map[string]interface{})
		if !ok {
			return
		}
		for k, child := range m {
			name := k
			p := append(append(fieldpath.Path{}, prefix...), fieldpath.PathElement{FieldName: &name})
			e := append(append([]string{}, elems...), "f:"+k)
			if _, seen := paths[p.String()]; !seen {
				paths[p.String()] = e
			}
			walk(child, p, e)
		}
	}
	walk(request.Object, nil, nil)
	walk(live.Object, nil, nil)
	if d := status.Status().Details; d != nil {
		for _, c := range d.Causes {
			msg := strings.TrimPrefix(c.Message, "conflict with ")
			q, qerr := strconv.QuotedPrefix(msg)
			name, uerr := strconv.Unquote(q)
			elems, ok := paths[c.Field]
			if qerr != nil || uerr != nil || !ok {
				return fmt.Errorf("cannot read the conflict %q at %q", c.Message, c.Field)
			}
			res.conflicts = append(res.conflicts, conflict{manager: name, path: elems})
		}
	}
	// The field manager lists them in no fixed order; a case does.
	sort.Slice(res.conflicts, func(i, j int) bool {
		a, b := res.conflicts[i], res.conflicts[j]
		if a.manager != b.manager {
			return a.manager < b.manager
		}
		return strings.Join(a.path, "\x00") < strings.Join(b.path, "\x00")
	})
	return nil
}

func newRunner() *runner {
	return &runner{managers: map[string]*managedfields.FieldManager{}}
}
