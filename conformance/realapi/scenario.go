package main

// The scenarios. Each kind file (testdata/realapi/kinds/README.md) gives a valid object, a
// few valid edits ("changes"), a status and the subresources its kind
// serves; every change expands into three scenarios, each a few requests
// as kubectl and controllers send them:
//
//   apply:   kubectl creates by server-side apply, applies the change; a
//            controller applies the changed fields too (co-owning them);
//            kubectl applies the original (a conflict when the change set
//            values), forces it, and the controller applies nothing.
//   update:  kubectl create (POST), a controller's PUT of the object it read
//            with the change, kubectl's server-side apply of the changed
//            object, another controller's PUT, then the status subresource
//            (PUT, then apply) and the scale subresource (PUT, apply,
//            forced apply) when the kind serves them, then the kind file's
//            writes to other subresources.
//   csa:     kubectl's client-side apply (POST, then PUT with the
//            last-applied annotation), then its server-side apply of the
//            same (the upgrade), then of the original (removing fields).
//   csa-kubectl, csa-manager: the same client-side history, then kubectl's
//            server-side apply as kubectl sends it (kubectl.go).

import (
	"bytes"
	"crypto/sha256"
	"encoding/json"
	"fmt"
	"io"
	"math/rand"
	"net/http"
	"net/netip"
	"net/url"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"time"

	"sigs.k8s.io/yaml"
)

type kindFile struct {
	path         string
	APIVersion   string                   `json:"apiVersion"`
	Kind         string                   `json:"kind"`
	Resource     string                   `json:"resource"`
	Namespaced   bool                     `json:"namespaced"`
	Subresources []string                 `json:"subresources"`
	Object       map[string]interface{}   `json:"object"`
	Changes      []map[string]interface{} `json:"changes"`
	Status       map[string]interface{}   `json:"status"`
	CRD          string                   `json:"crd"`
	// Settle: the apiserver's own controllers write the kind's status
	// after each write (a CustomResourceDefinition's naming and
	// establishing controllers, an APIService's availability controller,
	// API Priority and Fairness's for a FlowSchema). Each step waits until the object stays
	// unchanged before it reads it, and takes what its request stored from
	// the response, before the controllers come.
	Settle bool `json:"settle"`
	// Writes to subresources beyond status and scale (a Pod's resize,
	// say), appended to each update scenario in order.
	Writes []write `json:"writes"`
}

// write is one request to a subresource: an update's body is merged over
// the object read (the PUT's body), an apply's over the kind's header (the
// configuration).
type write struct {
	Subresource string `json:"subresource"`
	Verb        string `json:"verb"` // update, apply or forceApply
	Manager     string `json:"manager"`
	// The request's apiVersion when not the kind file's (another version
	// the kind is served at): its URL, the version the object is read at,
	// and an apply's configuration's.
	APIVersion string `json:"apiVersion"`
	// LiveAt: smdx is given the object read at this version (as a client
	// that read it there passes it), not at the request's, which the
	// server reads it at.
	LiveAt string                 `json:"liveAt"`
	Body   map[string]interface{} `json:"body"`
	// BodyJSON: the body as JSON text instead, where numbers keep their
	// text (a YAML `1.0` comes out of the conversion to JSON as `1`).
	BodyJSON string `json:"bodyJSON"`
}

func (k *kindFile) has(sub string) bool {
	for _, s := range k.Subresources {
		if s == sub {
			return true
		}
	}
	return false
}

// namespace is where the kind's objects go: a namespace of its own, so
// that one kind's admission (a LimitRange's defaults) touches no other's.
func (k *kindFile) namespace() string {
	base := strings.TrimSuffix(filepath.Base(k.path), ".yaml")
	return "k-" + strings.ToLower(strings.ReplaceAll(base, ".", "-"))
}

// basePath is the URL path of the kind's collection.
func (k *kindFile) basePath() string { return k.basePathAt("") }

// basePathAt is the URL path of the kind's collection at apiVersion (empty:
// the kind file's).
func (k *kindFile) basePathAt(apiVersion string) string {
	if apiVersion == "" {
		apiVersion = k.APIVersion
	}
	var p string
	if strings.Contains(apiVersion, "/") {
		p = "/apis/" + apiVersion
	} else {
		p = "/api/" + apiVersion
	}
	if k.Namespaced {
		p += "/namespaces/" + k.namespace()
	}
	return p + "/" + k.Resource
}

func loadKinds(dir string) ([]*kindFile, error) {
	files, err := filepath.Glob(filepath.Join(dir, "*.yaml"))
	if err != nil {
		return nil, err
	}
	sort.Strings(files)
	var out []*kindFile
	for _, f := range files {
		raw, err := os.ReadFile(f)
		if err != nil {
			return nil, err
		}
		k := &kindFile{path: f}
		if err := yaml.Unmarshal(raw, k); err != nil {
			return nil, fmt.Errorf("%s: %v", f, err)
		}
		if err := reparse(&k.Object); err != nil {
			return nil, fmt.Errorf("%s: %v", f, err)
		}
		for i := range k.Changes {
			if err := reparse(&k.Changes[i]); err != nil {
				return nil, fmt.Errorf("%s: %v", f, err)
			}
		}
		for i := range k.Writes {
			w := &k.Writes[i]
			if w.BodyJSON == "" {
				continue
			}
			if w.Body != nil {
				return nil, fmt.Errorf("%s: writes[%d] has both body and bodyJSON", f, i)
			}
			if err := decodeJSON([]byte(w.BodyJSON), &w.Body); err != nil {
				return nil, fmt.Errorf("%s: writes[%d].bodyJSON: %v", f, i, err)
			}
		}
		if k.Kind == "" || k.Resource == "" || k.Object == nil || len(k.Changes) == 0 {
			return nil, fmt.Errorf("%s: kind, resource, object and changes are required", f)
		}
		out = append(out, k)
	}
	return out, nil
}

// reparse decodes a map again with json.Number for numbers, so that
// integers keep their text.
func reparse(m *map[string]interface{}) error {
	b, err := json.Marshal(*m)
	if err != nil {
		return err
	}
	return decodeJSON(b, m)
}

func decodeJSON(b []byte, out interface{}) error {
	d := json.NewDecoder(bytes.NewReader(b))
	d.UseNumber()
	return d.Decode(out)
}

// step is one request.
type step struct {
	index       int    // (its place in the scenario, set as it runs)
	verb        string // apply, forceApply, create, update, kubectlApply (kubectl.go), mergePatch, jsonPatch, strategicPatch, csaApply (strategic.go), delete (the driver's own: smdx models no DELETE)
	manager     string
	subresource string
	// The request's apiVersion when not the kind file's (random scenarios
	// of a custom resource served at several versions): its URL, and the
	// version the live object is read at.
	apiVersion string
	// The version smdx is given the live object at, when not apiVersion
	// (a kind file's write's liveAt).
	liveAt string
	// For apply: the configuration. For create: the object. For update:
	// the change written over the object the client read. For csaApply:
	// the manifest client-side `kubectl apply` is given.
	body map[string]interface{}
	// A client-side apply: the annotation holds this (the configuration).
	lastApplied map[string]interface{}
	// For update (random scenarios): when not 0, the seed of the fields
	// the client leaves out of the object it read (dropSome); an even
	// seed leaves out parts of its managedFields too.
	dropSeed int64
	// For update (random scenarios): the body is the whole object, not a
	// change to the one read (see withReplace).
	replace bool
	// For jsonPatch: the operations (body is unused).
	ops []interface{}
}

type scenario struct {
	name  string
	kind  *kindFile
	obj   string // the object's name
	steps []step
	// Where the server refuses a request, smdx must refuse it with the
	// server's message (elsewhere, refusing is enough but for conflicts).
	sameErrors bool
}

const lastAppliedKey = "kubectl.kubernetes.io/last-applied-configuration"

func expand(kinds []*kindFile) []*scenario {
	var out []*scenario
	for _, k := range kinds {
		base := strings.TrimSuffix(filepath.Base(k.path), ".yaml")
		for i, ch := range k.Changes {
			tag := fmt.Sprintf("%s/%d", base, i)
			name := fmt.Sprintf("%s-%d", strings.ReplaceAll(base, ".", "-"), i)
			an, un, cn := k.objectName(name+"-a"), k.objectName(name+"-u"), k.objectName(name+"-c")
			obj := k.named(an)
			changed := merged(obj, ch)
			out = append(out, &scenario{name: tag + "/apply", kind: k, obj: an, steps: []step{
				{verb: "apply", manager: "kubectl", body: obj},
				{verb: "apply", manager: "kubectl", body: changed},
				{verb: "apply", manager: "ctrl", body: merged(k.header(an), ch)},
				{verb: "apply", manager: "kubectl", body: obj},
				{verb: "forceApply", manager: "kubectl", body: obj},
				{verb: "apply", manager: "ctrl", body: k.header(an)},
			}})

			obj = k.named(un)
			changed = merged(obj, ch)
			s := &scenario{name: tag + "/update", kind: k, obj: un, steps: []step{
				{verb: "create", manager: "kubectl-create", body: obj},
				{verb: "update", manager: "ctrl", body: ch},
				{verb: "apply", manager: "kubectl", body: changed},
				{verb: "update", manager: "ctrl2", body: map[string]interface{}{
					"metadata": map[string]interface{}{"annotations": map[string]interface{}{"smdx.dev/step": "4"}}}},
			}}
			if k.has("status") && k.Status != nil {
				st := map[string]interface{}{"status": k.Status}
				// The status through the main resource first, whose
				// strategy keeps the live one.
				s.steps = append(s.steps,
					step{verb: "update", manager: "main-status", body: st},
					step{verb: "apply", manager: "main-status-applier", body: merged(k.header(un), st)})
				s.steps = append(s.steps,
					step{verb: "update", manager: "status-ctrl", subresource: "status", body: st},
					step{verb: "apply", manager: "status-applier", subresource: "status", body: merged(k.header(un), st)})
				// Writes to the status that also change what the status
				// strategy resets (the metadata's labels and annotations,
				// and the spec back to the original object's).
				meta := map[string]interface{}{"metadata": map[string]interface{}{
					"labels":      map[string]interface{}{"smdx.dev/status-write": "1"},
					"annotations": map[string]interface{}{"smdx.dev/status-write": "1"}}}
				over := merged(meta, st)
				if spec, ok := k.Object["spec"]; ok {
					over["spec"] = copyValue(spec)
				}
				s.steps = append(s.steps,
					step{verb: "update", manager: "status-meta", subresource: "status", body: over},
					step{verb: "apply", manager: "status-meta-applier", subresource: "status", body: merged(k.header(un), over)})
			}
			if k.has("scale") {
				s.steps = append(s.steps,
					step{verb: "update", manager: "hpa", subresource: "scale", body: map[string]interface{}{
						"spec": map[string]interface{}{"replicas": json.Number("5")}}},
					step{verb: "apply", manager: "scaler", subresource: "scale", body: scaleConfig(k, un, 2)},
					step{verb: "forceApply", manager: "scaler", subresource: "scale", body: scaleConfig(k, un, 2)})
			}
			for _, w := range k.Writes {
				body := w.Body
				if w.Verb != "update" {
					body = merged(k.header(un), w.Body)
					if w.APIVersion != "" {
						body["apiVersion"] = w.APIVersion
					}
				}
				s.steps = append(s.steps, step{verb: w.Verb, manager: w.Manager, subresource: w.Subresource,
					apiVersion: w.APIVersion, liveAt: w.LiveAt, body: body})
			}
			out = append(out, s)

			obj = k.named(cn)
			changed = merged(obj, ch)
			out = append(out, &scenario{name: tag + "/csa", kind: k, obj: cn, steps: append(csaHistory(obj, ch),
				step{verb: "apply", manager: "kubectl", body: changed},
				step{verb: "apply", manager: "kubectl", body: obj})})
			if !k.Settle {
				// The same history, then kubectl's server-side apply as
				// kubectl sends it (kubectl.go): of the original, which
				// after the move removes what the change added, and of
				// the changed object again.
				kn := k.objectName(name + "-k")
				obj = k.named(kn)
				changed = merged(obj, ch)
				out = append(out, &scenario{name: tag + "/csa-kubectl", kind: k, obj: kn, steps: append(csaHistory(obj, ch),
					step{verb: "kubectlApply", manager: "kubectl", body: obj},
					step{verb: "kubectlApply", manager: "kubectl", body: changed})})
			}
			// Non-apply patches: the change as a merge patch, labels and
			// annotations set by one and changed by a JSON patch (test,
			// remove, replace, copy), the change reverted by a JSON patch,
			// then kubectl's apply of the original (taking back what the
			// patches took).
			pn := k.objectName(name + "-p")
			obj = k.named(pn)
			changed = merged(obj, ch)
			marks := map[string]interface{}{"metadata": map[string]interface{}{
				"labels":      map[string]interface{}{"smdx.dev/patched": "1"},
				"annotations": map[string]interface{}{"smdx.dev/patched": "1"}}}
			out = append(out, &scenario{name: tag + "/patch", kind: k, obj: pn, steps: []step{
				{verb: "apply", manager: "kubectl", body: obj},
				{verb: "mergePatch", manager: "patcher", body: copyValue(ch).(map[string]interface{})},
				{verb: "mergePatch", manager: "patcher", body: marks},
				{verb: "jsonPatch", manager: "json-patcher", ops: []interface{}{
					map[string]interface{}{"op": "test", "path": "/metadata/labels/smdx.dev~1patched", "value": "1"},
					map[string]interface{}{"op": "remove", "path": "/metadata/labels/smdx.dev~1patched"},
					map[string]interface{}{"op": "replace", "path": "/metadata/annotations/smdx.dev~1patched", "value": "2"},
					map[string]interface{}{"op": "copy", "from": "/metadata/annotations/smdx.dev~1patched",
						"path": "/metadata/annotations/smdx.dev~1copied"}}},
				{verb: "jsonPatch", manager: "json-reverter", ops: revertOps("", obj, ch)},
				{verb: "apply", manager: "kubectl", body: obj},
			}})
			ps := out[len(out)-1]
			if k.has("scale") {
				// The Scale by a merge patch and a JSON patch (as
				// `kubectl scale` and an autoscaler's patch write it).
				ps.steps = append(ps.steps,
					step{verb: "mergePatch", manager: "scale-patcher", subresource: "scale",
						body: map[string]interface{}{"spec": map[string]interface{}{"replicas": json.Number("3")}}},
					step{verb: "jsonPatch", manager: "scale-json-patcher", subresource: "scale", ops: []interface{}{
						map[string]interface{}{"op": "test", "path": "/spec/replicas", "value": json.Number("3")},
						map[string]interface{}{"op": "replace", "path": "/spec/replicas", "value": json.Number("4")}}})
			}
			if k.has("status") && k.Status != nil {
				// The status by a merge patch, and labels with it, which
				// the status strategy resets.
				ps.steps = append(ps.steps, step{verb: "mergePatch", manager: "status-patcher", subresource: "status",
					body: merged(map[string]interface{}{"metadata": map[string]interface{}{
						"labels": map[string]interface{}{"smdx.dev/status-patch": "1"}}},
						map[string]interface{}{"status": k.Status})})
			}
			// Strategic merge patches: client-side kubectl apply of the
			// object (a create), the changed object and back (three-way
			// patches: deletions, $setElementOrder, $retainKeys; for a
			// custom resource, merge patches, and not back, to keep CI
			// within its budget), the change as a controller's patch, and for each kind's first change a label and a
			// finalizer added and taken away again
			// ($deleteFromPrimitiveList), the Scale and the status. A
			// custom resource takes none (the server's 415).
			sn := k.objectName(name + "-s")
			obj = k.named(sn)
			changed = merged(obj, ch)
			smp := &scenario{name: tag + "/strategic", kind: k, obj: sn}
			smp.steps = []step{
				{verb: "csaApply", manager: "kubectl-client-side-apply", body: obj},
				{verb: "csaApply", manager: "kubectl-client-side-apply", body: changed},
			}
			if registered(k) {
				smp.steps = append(smp.steps, step{verb: "csaApply", manager: "kubectl-client-side-apply", body: obj})
			}
			smp.steps = append(smp.steps,
				step{verb: "strategicPatch", manager: "smp-patcher", body: copyValue(ch).(map[string]interface{})})
			if i == 0 {
				smp.steps = append(smp.steps,
					step{verb: "strategicPatch", manager: "smp-patcher", body: map[string]interface{}{
						"metadata": map[string]interface{}{
							"labels":     map[string]interface{}{"smdx.dev/smp": "1"},
							"finalizers": []interface{}{"smdx.dev/smp"}}}},
					step{verb: "strategicPatch", manager: "smp-remover", body: map[string]interface{}{
						"metadata": map[string]interface{}{
							"labels":                              map[string]interface{}{"smdx.dev/smp": nil},
							"$deleteFromPrimitiveList/finalizers": []interface{}{"smdx.dev/smp"}}}})
				if k.has("scale") {
					smp.steps = append(smp.steps, step{verb: "strategicPatch", manager: "scale-smp", subresource: "scale",
						body: map[string]interface{}{"spec": map[string]interface{}{"replicas": json.Number("3")}}})
				}
				if k.has("status") && k.Status != nil {
					smp.steps = append(smp.steps, step{verb: "strategicPatch", manager: "status-smp", subresource: "status",
						body: map[string]interface{}{"status": k.Status}})
				}
			}
			out = append(out, smp)
			if !k.Settle && i == 0 {
				// With a manager of its own, kubectl keeps no annotation.
				gn := k.objectName(name + "-g")
				obj = k.named(gn)
				changed = merged(obj, ch)
				out = append(out, &scenario{name: tag + "/csa-manager", kind: k, obj: gn, steps: append(csaHistory(obj, ch),
					step{verb: "kubectlApply", manager: "gitops", body: changed},
					step{verb: "forceKubectlApply", manager: "gitops", body: obj})})
			}
		}
		if k.has("status") && k.Status != nil {
			// An apply to the status of an object the server does not
			// hold creates it (the status store's create-on-update), then
			// the main resource and the status are applied to as usual.
			sn := k.objectName(strings.ReplaceAll(base, ".", "-") + "-s")
			st := map[string]interface{}{"status": k.Status}
			out = append(out, &scenario{name: base + "/status-create", kind: k, obj: sn, steps: []step{
				{verb: "apply", manager: "status-applier", subresource: "status", body: merged(k.named(sn), st)},
				{verb: "apply", manager: "kubectl", body: k.named(sn)},
				{verb: "apply", manager: "status-applier", subresource: "status", body: merged(k.header(sn), st)},
			}})
			// The same with a PUT of the whole object to the status.
			pn := k.objectName(strings.ReplaceAll(base, ".", "-") + "-p")
			out = append(out, &scenario{name: base + "/status-create-put", kind: k, obj: pn, steps: []step{
				{verb: "update", manager: "status-ctrl", subresource: "status", replace: true, body: merged(k.named(pn), st)},
				{verb: "apply", manager: "kubectl", body: k.named(pn)},
				{verb: "update", manager: "status-ctrl", subresource: "status", body: st},
			}})
		}
		out = append(out, preconditions(k, base))
		if !k.Settle {
			out = append(out, finalizers(k, base))
		}
	}
	return out
}

// finalizers is a scenario of writes to an object being deleted: applied
// with a finalizer of kubectl's and deleted (its finalizer keeps it), a
// merge patch adding a finalizer (which ObjectMeta's validation refuses),
// a controller's PUT, then kubectl's apply without its finalizer, which
// leaves none and so deletes the object (the server answers with the
// object it no longer holds). (Not for kinds that settle: their
// controllers write finalizers of their own.)
func finalizers(k *kindFile, base string) *scenario {
	name := k.objectName(strings.ReplaceAll(base, ".", "-") + "-fin")
	held := k.named(name)
	held["metadata"].(map[string]interface{})["finalizers"] = []interface{}{"smdx.dev/hold"}
	return &scenario{name: base + "/finalizers", kind: k, obj: name, sameErrors: true, steps: []step{
		{verb: "apply", manager: "kubectl", body: held},
		{verb: "delete", manager: "kubectl"},
		{verb: "mergePatch", manager: "patcher", body: map[string]interface{}{"metadata": map[string]interface{}{
			"finalizers": []interface{}{"smdx.dev/hold", "smdx.dev/late"}}}},
		{verb: "update", manager: "ctrl", body: map[string]interface{}{"metadata": map[string]interface{}{
			"annotations": map[string]interface{}{"smdx.dev/terminating": "1"}}}},
		{verb: "apply", manager: "kubectl", body: k.named(name)},
	}}
}

// preconditions is a scenario of the writes storage refuses, with the
// server's messages: an apply that creates naming a uid, a create naming a
// resourceVersion, and over the object then applied, PUTs with a stale
// resourceVersion, with another uid and without a resourceVersion (an
// unconditional update, which a custom resource's strategy refuses), an
// apply with a stale resourceVersion, patches changing the uid and setting
// a resourceVersion that is no number, and a Scale with a stale one.
func preconditions(k *kindFile, base string) *scenario {
	const otherUID = "00000000-0000-4000-8000-000000000000"
	name := k.objectName(strings.ReplaceAll(base, ".", "-") + "-pre")
	meta := func(field string, value interface{}) map[string]interface{} {
		return map[string]interface{}{"metadata": map[string]interface{}{field: value}}
	}
	s := &scenario{name: base + "/preconditions", kind: k, obj: name, sameErrors: true, steps: []step{
		{verb: "apply", manager: "kubectl", body: merged(k.named(name), meta("uid", otherUID))},
		{verb: "create", manager: "kubectl-create", body: merged(k.named(name), meta("resourceVersion", "5"))},
		{verb: "apply", manager: "kubectl", body: k.named(name)},
		{verb: "update", manager: "ctrl", body: meta("resourceVersion", "1")},
		{verb: "update", manager: "ctrl", body: meta("uid", otherUID)},
		{verb: "update", manager: "ctrl", body: merged(meta("resourceVersion", nil),
			meta("annotations", map[string]interface{}{"smdx.dev/unconditional": "1"}))},
		{verb: "apply", manager: "kubectl", body: merged(k.named(name), meta("resourceVersion", "1"))},
		{verb: "mergePatch", manager: "patcher", body: meta("uid", otherUID)},
		{verb: "mergePatch", manager: "patcher", body: meta("resourceVersion", "abc")},
	}}
	if k.has("scale") {
		s.steps = append(s.steps, step{verb: "update", manager: "hpa", subresource: "scale",
			body: merged(meta("resourceVersion", "1"), map[string]interface{}{
				"spec": map[string]interface{}{"replicas": json.Number("3")}})})
	}
	return s
}

// pointerTo is JSON pointer `at` and one key more ('~' and '/' escaped).
func pointerTo(at, key string) string {
	return at + "/" + strings.NewReplacer("~", "~0", "/", "~1").Replace(key)
}

// csaHistory is kubectl's client-side apply of `obj`, then of the object
// with change `ch` (a POST, then a PUT, each with the annotation).
func csaHistory(obj, ch map[string]interface{}) []step {
	return []step{
		{verb: "create", manager: "kubectl-client-side-apply", body: obj, lastApplied: obj},
		{verb: "update", manager: "kubectl-client-side-apply", body: ch, lastApplied: merged(obj, ch)},
	}
}

// revertOps is a JSON patch that takes the fields `change` sets (below
// JSON pointer `at`) back to their values in `obj`: replaced where obj
// has them, removed where not (maps of both are gone into, anything else
// is one value), in key order.
func revertOps(at string, obj, change map[string]interface{}) []interface{} {
	var ops []interface{}
	for _, key := range sortedKeys(change) {
		p := pointerTo(at, key)
		was, has := obj[key]
		wasMap, wasIsMap := was.(map[string]interface{})
		if chMap, ok := change[key].(map[string]interface{}); ok && wasIsMap {
			ops = append(ops, revertOps(p, wasMap, chMap)...)
		} else if has {
			ops = append(ops, map[string]interface{}{"op": "replace", "path": p, "value": copyValue(was)})
		} else {
			ops = append(ops, map[string]interface{}{"op": "remove", "path": p})
		}
	}
	return ops
}

// addOps is a JSON patch that adds the values `change` sets (below JSON
// pointer `at`): an add of each value that is not a map, in key order.
func addOps(at string, change map[string]interface{}) []interface{} {
	var ops []interface{}
	for _, key := range sortedKeys(change) {
		p := pointerTo(at, key)
		if m, ok := change[key].(map[string]interface{}); ok {
			ops = append(ops, addOps(p, m)...)
		} else {
			ops = append(ops, map[string]interface{}{"op": "add", "path": p, "value": copyValue(change[key])})
		}
	}
	return ops
}

func scaleConfig(k *kindFile, name string, replicas int) map[string]interface{} {
	return map[string]interface{}{
		"apiVersion": "autoscaling/v1", "kind": "Scale",
		"metadata": map[string]interface{}{"name": name, "namespace": k.namespace()},
		"spec":     map[string]interface{}{"replicas": json.Number(fmt.Sprint(replicas))},
	}
}

// objectName is the name of the object of the scenario `base`: `base`,
// but for the kinds whose name says what they serve (groupNamed), which
// get a group of their own (CRDs of one group compete for their names):
// PREFIX.BASE.GROUP; and an IPAddress, whose name is its address.
func (k *kindFile) objectName(base string) string {
	if k.Kind == "IPAddress" {
		return addressFor(base)
	}
	prefix, group, ok := k.groupNamed()
	if !ok {
		return base
	}
	return prefix + "." + base + "." + group
}

// groupNamed is what the name of the kind file's object is made of when
// the name must say what it serves: a CustomResourceDefinition's is
// PLURAL.GROUP, an APIService's VERSION.GROUP.
func (k *kindFile) groupNamed() (prefix, group string, ok bool) {
	spec, _ := k.Object["spec"].(map[string]interface{})
	group, _ = spec["group"].(string)
	switch k.Kind {
	case "CustomResourceDefinition":
		names, _ := spec["names"].(map[string]interface{})
		prefix, _ = names["plural"].(string)
	case "APIService":
		prefix, _ = spec["version"].(string)
	default:
		return "", "", false
	}
	return prefix, group, true
}

// addressFor is an IPv6 address of the documentation prefix
// (2001:db8::/32) for the name `base`, in the canonical form an IPAddress's
// name must have: the prefix, then the first 12 bytes of base's SHA-256.
func addressFor(base string) string {
	var b [16]byte
	b[0], b[1], b[2], b[3] = 0x20, 0x01, 0x0d, 0xb8
	sum := sha256.Sum256([]byte(base))
	copy(b[4:], sum[:12])
	return netip.AddrFrom16(b).String()
}

// named is the kind's object under another name (objectName's), in the
// namespace; a CustomResourceDefinition or APIService in the group its
// name holds.
func (k *kindFile) named(name string) map[string]interface{} {
	obj := copyValue(k.Object).(map[string]interface{})
	md := obj["metadata"].(map[string]interface{})
	md["name"] = name
	if k.Namespaced {
		md["namespace"] = k.namespace()
	}
	if prefix, _, ok := k.groupNamed(); ok {
		if spec, ok := obj["spec"].(map[string]interface{}); ok {
			spec["group"] = strings.TrimPrefix(name, prefix+".")
		}
	}
	return obj
}

// header is the smallest configuration: apiVersion, kind, name.
func (k *kindFile) header(name string) map[string]interface{} {
	md := map[string]interface{}{"name": name}
	if k.Namespaced {
		md["namespace"] = k.namespace()
	}
	return map[string]interface{}{"apiVersion": k.APIVersion, "kind": k.Kind, "metadata": md}
}

// merged is `over` merged into a copy of `obj` with JSON merge patch rules.
func merged(obj, over map[string]interface{}) map[string]interface{} {
	out := copyValue(obj).(map[string]interface{})
	mergeInto(out, over)
	return out
}

func mergeInto(obj, over map[string]interface{}) {
	for k, v := range over {
		if v == nil {
			delete(obj, k)
			continue
		}
		if vm, ok := v.(map[string]interface{}); ok {
			if om, ok := obj[k].(map[string]interface{}); ok {
				mergeInto(om, vm)
				continue
			}
			nm := map[string]interface{}{}
			mergeInto(nm, vm)
			obj[k] = nm
			continue
		}
		obj[k] = copyValue(v)
	}
}

func copyValue(v interface{}) interface{} {
	switch t := v.(type) {
	case map[string]interface{}:
		out := make(map[string]interface{}, len(t))
		for k, e := range t {
			out[k] = copyValue(e)
		}
		return out
	case []interface{}:
		out := make([]interface{}, len(t))
		for i, e := range t {
			out[i] = copyValue(e)
		}
		return out
	}
	return v
}

// response is what the server answered.
type response struct {
	code int
	obj  map[string]interface{}
	raw  []byte // the body as the server sent it
}

func (c *cluster) do(method, path, contentType string, query url.Values, body interface{}) (*response, error) {
	var rd io.Reader
	if body != nil {
		b, err := json.Marshal(body)
		if err != nil {
			return nil, err
		}
		rd = bytes.NewReader(b)
	}
	u := c.url + path
	if len(query) > 0 {
		u += "?" + query.Encode()
	}
	req, err := http.NewRequest(method, u, rd)
	if err != nil {
		return nil, err
	}
	if contentType != "" {
		req.Header.Set("Content-Type", contentType)
	}
	req.Header.Set("Accept", "application/json")
	resp, err := c.client.Do(req)
	if err != nil {
		return nil, err
	}
	defer resp.Body.Close()
	raw, err := io.ReadAll(resp.Body)
	if err != nil {
		return nil, err
	}
	r := &response{code: resp.StatusCode, raw: raw}
	if len(raw) > 0 {
		if err := decodeJSON(raw, &r.obj); err != nil {
			return nil, fmt.Errorf("%s %s: %s: %v", method, path, resp.Status, err)
		}
	}
	return r, nil
}

func (c *cluster) get(path string) (map[string]interface{}, error) {
	obj, _, err := c.getRaw(path)
	return obj, err
}

// getRaw is get, and the object's JSON as the server sent it: its
// managedFields' fieldsV1 keys in the order the server stored them, which
// decoding into a map loses (and which the server's no-op check compares:
// scale.h).
func (c *cluster) getRaw(path string) (map[string]interface{}, []byte, error) {
	r, err := c.do("GET", path, "", nil, nil)
	if err != nil {
		return nil, nil, err
	}
	switch r.code {
	case 200:
		return r.obj, r.raw, nil
	case 404:
		return nil, nil, nil
	}
	return nil, nil, fmt.Errorf("GET %s: %d %v", path, r.code, r.obj["message"])
}

// settle waits until the object at path (or its absence) stays unchanged
// for settleQuiet, at most settleMax (kindFile.Settle).
func (c *cluster) settle(path string) error {
	const settleQuiet, settleMax = 500 * time.Millisecond, 20 * time.Second
	version := func() (string, error) {
		obj, err := c.get(path)
		if obj == nil || err != nil {
			return "", err
		}
		md, _ := obj["metadata"].(map[string]interface{})
		rv, _ := md["resourceVersion"].(string)
		return rv, nil
	}
	deadline := time.Now().Add(settleMax)
	last, err := version()
	for err == nil {
		time.Sleep(settleQuiet)
		var now string
		if now, err = version(); err == nil && now == last {
			return nil
		}
		if time.Now().After(deadline) {
			return fmt.Errorf("%s did not settle in %v", path, settleMax)
		}
		last = now
	}
	return err
}

// send makes the request of step st on the object `live` (nil: none yet)
// and returns the server's answer and the body it sent.
func (c *cluster) send(s *scenario, st step, live map[string]interface{}) (*response, map[string]interface{}, error) {
	k := s.kind
	path := k.basePathAt(st.apiVersion)
	q := url.Values{"fieldManager": {st.manager}}
	var body map[string]interface{}
	switch st.verb {
	case "apply", "forceApply":
		body = st.body
		if st.verb == "forceApply" {
			q.Set("force", "true")
		}
		path += "/" + s.obj
		if st.subresource != "" {
			path += "/" + st.subresource
		}
		r, err := c.do("PATCH", path, "application/apply-patch+yaml", q, body)
		return r, body, err
	case "mergePatch", "jsonPatch", "strategicPatch", "csaApply":
		path += "/" + s.obj
		if st.subresource != "" {
			path += "/" + st.subresource
		}
		switch st.verb {
		case "jsonPatch":
			r, err := c.do("PATCH", path, jsonPatch, q, st.ops)
			return r, nil, err
		case "strategicPatch":
			r, err := c.do("PATCH", path, strategicPatch, q, st.body)
			return r, st.body, err
		case "csaApply":
			req, err := clientSideApply(k, live, st.body)
			if err != nil {
				return nil, nil, err
			}
			if req.create {
				r, err := c.do("POST", k.basePathAt(st.apiVersion), "application/json", q, req.body)
				return r, req.body, err
			}
			if req.body == nil {
				// kubectl sends nothing: the object stays as it is.
				return &response{code: 200, obj: live}, nil, nil
			}
			r, err := c.do("PATCH", path, req.patchType, q, req.body)
			return r, req.body, err
		}
		r, err := c.do("PATCH", path, "application/merge-patch+json", q, st.body)
		return r, st.body, err
	case "delete":
		// (The object's finalizers keep it, being deleted.)
		r, err := c.do("DELETE", path+"/"+s.obj, "", nil, nil)
		return r, nil, err
	case "kubectlApply", "forceKubectlApply":
		path += "/" + s.obj
		if st.subresource != "" {
			path += "/" + st.subresource
		}
		r, err := c.kubectlApply(path, st)
		return r, st.body, err
	case "create":
		body = copyValue(st.body).(map[string]interface{})
		withLastApplied(body, st.lastApplied)
		r, err := c.do("POST", path, "application/json", q, body)
		return r, body, err
	case "update":
		path += "/" + s.obj
		if st.subresource == "scale" {
			// The client reads the Scale and writes it with new replicas.
			// A custom resource without its replicas field has no Scale to
			// read (500, "the spec replicas field ... does not exist"):
			// the client then writes a Scale of its own, without a
			// resourceVersion.
			r, err := c.do("GET", path+"/scale", "", nil, nil)
			switch {
			case err != nil:
				return nil, nil, err
			case r.code == 200:
				body = r.obj
			case r.code == 404 && live == nil:
				return r, nil, nil // no object: nothing to write
			case r.code == 500 && k.CRD != "":
				md, _ := live["metadata"].(map[string]interface{})
				meta := map[string]interface{}{"name": md["name"]}
				if ns, ok := md["namespace"]; ok {
					meta["namespace"] = ns
				}
				body = map[string]interface{}{"apiVersion": "autoscaling/v1",
					"kind": "Scale", "metadata": meta}
			default:
				return nil, nil, fmt.Errorf("GET %s/scale: %d %v", path, r.code, r.obj["message"])
			}
		} else if st.replace {
			body = copyValue(st.body).(map[string]interface{})
			if k.CRD != "" {
				// A custom resource's PUT needs the resourceVersion.
				md, _ := live["metadata"].(map[string]interface{})
				if rv, ok := md["resourceVersion"]; ok {
					body["metadata"].(map[string]interface{})["resourceVersion"] = rv
				}
			}
		} else {
			body = copyValue(live).(map[string]interface{})
		}
		if !st.replace {
			mergeInto(body, st.body)
		}
		if st.dropSeed != 0 {
			// Every other such PUT leaves out parts of the managedFields
			// it read too: entries, their fields, fieldsV1 keys. One in
			// three then repeats some list items too.
			g := &randomGen{rng: rand.New(rand.NewSource(st.dropSeed)),
				dropManaged: st.dropSeed%2 == 0}
			g.dropSome(body, 0)
			if st.dropSeed%3 == 0 {
				g.dupSome(body, 0)
			}
			// One in five also carries an entry of a version the kind is
			// not served at, as an upgraded cluster's objects do.
			if st.dropSeed%5 == 0 {
				g.retireEntry(body, k)
			}
		}
		withLastApplied(body, st.lastApplied)
		if st.subresource != "" {
			path += "/" + st.subresource
		}
		r, err := c.do("PUT", path, "application/json", q, body)
		return r, body, err
	}
	return nil, nil, fmt.Errorf("unknown verb %q", st.verb)
}

func withLastApplied(obj, cfg map[string]interface{}) {
	if cfg == nil {
		return
	}
	text, _ := json.Marshal(cfg)
	// (A PUT to an object whose create the server refused has no metadata
	// of its own.)
	md, _ := obj["metadata"].(map[string]interface{})
	if md == nil {
		md = map[string]interface{}{}
		obj["metadata"] = md
	}
	ann, _ := md["annotations"].(map[string]interface{})
	if ann == nil {
		ann = map[string]interface{}{}
	}
	ann[lastAppliedKey] = string(text)
	md["annotations"] = ann
}

// prepare creates what the kind's scenarios need, once: its namespace and
// its CRD (waiting until it is served).
func (c *cluster) prepare(root string, k *kindFile, done map[string]bool) error {
	if k.Namespaced && !done[k.namespace()] {
		ns := map[string]interface{}{"apiVersion": "v1", "kind": "Namespace",
			"metadata": map[string]interface{}{"name": k.namespace()}}
		r, err := c.do("POST", "/api/v1/namespaces", "application/json", nil, ns)
		if err != nil {
			return err
		}
		if r.code != 201 && r.code != 409 {
			return fmt.Errorf("creating namespace %s: %d %v", k.namespace(), r.code, r.obj["message"])
		}
		done[k.namespace()] = true
	}
	if k.CRD == "" || done[k.CRD] {
		return nil
	}
	raw, err := os.ReadFile(filepath.Join(root, k.CRD))
	if err != nil {
		return err
	}
	var crd map[string]interface{}
	if err := yaml.Unmarshal(raw, &crd); err != nil {
		return fmt.Errorf("%s: %v", k.CRD, err)
	}
	r, err := c.do("POST", "/apis/apiextensions.k8s.io/v1/customresourcedefinitions", "application/json", nil, crd)
	if err != nil {
		return err
	}
	if r.code != 201 && r.code != 409 {
		return fmt.Errorf("creating %s: %d %v", k.CRD, r.code, r.obj["message"])
	}
	deadline := time.Now().Add(30 * time.Second)
	for {
		resp, err := c.do("GET", k.basePath(), "", nil, nil)
		if err == nil && resp.code == 200 {
			break
		}
		if time.Now().After(deadline) {
			return fmt.Errorf("%s is not served after 30s", k.CRD)
		}
		time.Sleep(200 * time.Millisecond)
	}
	done[k.CRD] = true
	return nil
}
