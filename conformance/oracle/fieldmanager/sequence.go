package main

// Random request sequences on one object of a built-in kind: server-side
// applies (forced or not, by kubectl and by controllers), updates that
// create the object or change it (with the managedFields a client read,
// left out, reset or edited), writes to the status subresource, kubectl's
// client-side apply (the last-applied annotation) followed by its
// server-side apply, writes to the scale subresource of the kinds that have
// one, and now and then more update managers than the cap.

import (
	"encoding/json"
	"fmt"
	"math/rand"

	"k8s.io/apimachinery/pkg/runtime/schema"
	smdschema "sigs.k8s.io/structured-merge-diff/v6/schema"
)

// The built-in kinds the sequences are drawn from.
var builtinKinds = []schema.GroupVersionKind{
	{Version: "v1", Kind: "Pod"},
	{Group: "apps", Version: "v1", Kind: "Deployment"},
	{Group: "apps", Version: "v1", Kind: "StatefulSet"},
	{Group: "apps", Version: "v1", Kind: "DaemonSet"},
	{Group: "apps", Version: "v1", Kind: "ReplicaSet"},
	{Group: "batch", Version: "v1", Kind: "Job"},
	{Group: "batch", Version: "v1", Kind: "CronJob"},
	{Version: "v1", Kind: "Service"},
	{Version: "v1", Kind: "ConfigMap"},
	{Version: "v1", Kind: "Secret"},
	{Group: "networking.k8s.io", Version: "v1", Kind: "Ingress"},
	{Group: "networking.k8s.io", Version: "v1", Kind: "NetworkPolicy"},
	{Group: "autoscaling", Version: "v2", Kind: "HorizontalPodAutoscaler"},
	{Version: "v1", Kind: "PersistentVolumeClaim"},
	{Group: "rbac.authorization.k8s.io", Version: "v1", Kind: "Role"},
	{Group: "rbac.authorization.k8s.io", Version: "v1", Kind: "RoleBinding"},
	{Version: "v1", Kind: "Node"},
	{Version: "v1", Kind: "Namespace"},
	{Version: "v1", Kind: "ServiceAccount"},
	{Group: "policy", Version: "v1", Kind: "PodDisruptionBudget"},
}

const lastAppliedAnnotation = "kubectl.kubernetes.io/last-applied-configuration"

// How an update's body carries managedFields.
const (
	mfAsRead   = iota // as the client read them
	mfLeftOut         // no managedFields key: the live ones are kept
	mfReset           // managedFields: [] resets them
	mfEmptyOne        // one empty entry: resets them too
	mfDropOne         // one entry dropped by the client
	mfRenamed         // one entry's manager renamed by the client
	mfInvalid         // an entry the apiserver cannot decode: the live ones are kept
)

type opSpec struct {
	op          string // apply, forceApply, update
	manager     string
	subresource string
	version     string // a custom resource's version, when not its first
	// For an apply, the configuration; for an update, what the client
	// writes over the live object (a map, merged into a variant of it).
	fragment map[string]interface{}
	// An update's variant of the live object is drawn from this seed.
	seed   int64
	mf     int
	csa    bool // kubectl's client-side apply: the fragment also goes into the annotation
	status bool // the fragment is the status (the main resource's other fields are kept)
	bad    int  // an apply body the apiserver refuses (badManagedFields, badAPIVersion)
}

const (
	badManagedFields = 1 + iota
	badAPIVersion
)

// kindSpec is a kind sequences are drawn for: a built-in one, or a custom
// resource (crd set) whose versions are crd.versions.
type kindSpec struct {
	gvk schema.GroupVersionKind // at its first (storage) version
	sc  *builtinSchema
	crd *crdInfo
}

// catalog: the kinds, custom resources drawn one time in four.
type catalog struct {
	builtin []kindSpec
	custom  []kindSpec
}

func (c *catalog) pick(r *rand.Rand) kindSpec {
	if len(c.custom) > 0 && r.Intn(4) == 0 {
		return c.custom[r.Intn(len(c.custom))]
	}
	return c.builtin[r.Intn(len(c.builtin))]
}

type sequence struct {
	kind kindSpec
	name string // the object's name
	ops  []opSpec
}

// gvkAt is the kind at an op's version ("" for the first).
func (s *sequence) gvkAt(version string) schema.GroupVersionKind {
	g := s.kind.gvk
	if version != "" {
		g.Version = version
	}
	return g
}

func (s *sequence) typeRef(b *builtinSchema) smdschema.TypeRef {
	n := b.typeName[s.kind.gvk]
	return smdschema.TypeRef{NamedType: &n}
}

func hasField(b *builtinSchema, tr smdschema.TypeRef, name string) (smdschema.TypeRef, bool) {
	a := b.resolve(tr)
	if a.Map == nil {
		return smdschema.TypeRef{}, false
	}
	f, ok := a.Map.FindField(name)
	return f.Type, ok
}

func makeSequence(c *catalog, seed, index int64) (*sequence, error) {
	r := rand.New(rand.NewSource(seed*1000003 + index))
	k := c.pick(r)
	b := k.sc
	g := &generator{r: r, sc: b}
	s := &sequence{kind: k, name: "obj"}
	if _, ok := b.typeName[k.gvk]; !ok {
		return nil, fmt.Errorf("the schema has no type for %v", k.gvk)
	}
	root := s.typeRef(b)
	statusType, hasStatus := hasField(b, root, "status")
	if k.crd != nil {
		hasStatus = hasStatus && k.crd.status
	}
	base := g.body(root)
	managers := []string{"kubectl", "controller", "hpa", "operator"}
	manyUpdaters := r.Intn(10) == 0
	n := 2 + r.Intn(9)
	if manyUpdaters {
		n = 20 + r.Intn(10)
	}
	for i := 0; i < n; i++ {
		var o opSpec
		roll := r.Intn(100)
		switch {
		case manyUpdaters && roll < 90:
			o = opSpec{op: "update", manager: fmt.Sprintf("updater-%d", r.Intn(20)), seed: r.Int63()}
			o.fragment = g.derive(base, root, 0, 0.5, 0.3).(map[string]interface{})
		case hasScale(k) && roll < 12:
			o = scaleOp(r, managers)
		case roll < 35:
			o = opSpec{op: "apply", manager: managers[r.Intn(len(managers))]}
			o.fragment = g.derive(base, root, 0, 0.8, 0.15).(map[string]interface{})
		case roll < 45:
			o = opSpec{op: "forceApply", manager: managers[r.Intn(len(managers))]}
			o.fragment = g.derive(base, root, 0, 0.7, 0.2).(map[string]interface{})
		case roll < 75:
			o = opSpec{op: "update", manager: managers[r.Intn(len(managers))], seed: r.Int63(), mf: updateManagedFieldsMode(r, k.crd != nil)}
			o.fragment = g.derive(base, root, 0, 0.4, 0.3).(map[string]interface{})
		case roll < 88 && hasStatus:
			o = opSpec{manager: managers[1+r.Intn(len(managers)-1)], subresource: "status", status: true, seed: r.Int63()}
			if r.Intn(2) == 0 {
				o.op = "update"
			} else {
				o.op = "apply"
			}
			o.fragment = map[string]interface{}{"status": g.value(statusType, 1)}
		case roll < 94:
			o = opSpec{op: "update", manager: "kubectl-client-side-apply", csa: true, seed: r.Int63()}
			o.fragment = g.derive(base, root, 0, 0.8, 0.1).(map[string]interface{})
		default:
			o = opSpec{op: "apply", manager: "kubectl"}
			o.fragment = g.derive(base, root, 0, 0.8, 0.1).(map[string]interface{})
		}
		if k.crd != nil && len(k.crd.versions) > 1 && r.Intn(3) == 0 {
			o.version = k.crd.versions[1+r.Intn(len(k.crd.versions)-1)]
		}
		if o.op != "update" || o.csa {
			if md, ok := o.fragment["metadata"].(map[string]interface{}); ok {
				delete(md, "annotations") // an applied last-applied annotation is kubectl's business
			}
		}
		// Now and then an apply the apiserver refuses: one that carries
		// managedFields, or one of another apiVersion than the resource's.
		if o.op != "update" && r.Intn(50) == 0 {
			if r.Intn(2) == 0 {
				o.bad = badManagedFields
			} else {
				o.bad = badAPIVersion
			}
		}
		s.ops = append(s.ops, o)
	}
	s.dropEarlySubresourceOps()
	return s, nil
}

// scaleOp is a write to the scale subresource: an apply of a Scale, or an
// update of the Scale a client read, with replicas 0 to 3 or none.
func scaleOp(r *rand.Rand, managers []string) opSpec {
	o := opSpec{manager: managers[r.Intn(len(managers))], subresource: "scale"}
	o.op = []string{"update", "apply", "forceApply"}[r.Intn(3)]
	spec := map[string]interface{}{}
	if r.Intn(6) != 0 {
		spec["replicas"] = int64(r.Intn(4))
	}
	o.fragment = map[string]interface{}{"spec": spec}
	return o
}

func updateManagedFieldsMode(r *rand.Rand, custom bool) int {
	switch x := r.Intn(100); {
	case x < 70:
		return mfAsRead
	case x < 80:
		return mfLeftOut
	case x < 84:
		if custom {
			// A custom resource's decoder drops an empty managedFields
			// list (ObjectMeta's omitempty) before its field manager sees
			// the body: the real-apiserver corpus's business.
			return mfEmptyOne
		}
		return mfReset
	case x < 87:
		return mfEmptyOne
	case x < 93:
		return mfDropOne
	case x < 97:
		return mfRenamed
	default:
		return mfInvalid
	}
}

// header sets apiVersion, kind and metadata.name of a request body.
func (s *sequence) header(obj map[string]interface{}, version string) map[string]interface{} {
	gvk := s.gvkAt(version)
	obj["apiVersion"] = gvk.GroupVersion().String()
	obj["kind"] = gvk.Kind
	md, _ := obj["metadata"].(map[string]interface{})
	if md == nil {
		md = map[string]interface{}{}
	}
	md["name"] = s.name
	obj["metadata"] = md
	return obj
}

// statusWithSpec gives one status write in three (by its seed) a changed
// spec too, which the status endpoint drops: its field manager ignores it
// at every version with the subresource (the apiextensions-apiserver's
// getStatusResetFields), so the spec's owners at other versions keep it.
// It draws from a generator of the op's own seed, so the sequence stays
// the same.
func (s *sequence) statusWithSpec(b *builtinSchema, o opSpec, live, obj map[string]interface{}) {
	if !o.status || live == nil || o.seed%3 != 0 {
		return
	}
	g := &generator{r: rand.New(rand.NewSource(o.seed / 3)), sc: b}
	v, _ := g.derive(live, s.typeRef(b), 0, 0.7, 0.4).(map[string]interface{})
	if spec, ok := v["spec"]; ok {
		obj["spec"] = spec
	}
}

// body is the request body of op i on the live object (nil: none yet).
func (s *sequence) body(b *builtinSchema, o opSpec, live map[string]interface{}) map[string]interface{} {
	if o.subresource == "scale" {
		return s.scaleBody(o, live)
	}
	if o.op != "update" {
		obj := s.header(copyValue(o.fragment).(map[string]interface{}), o.version)
		s.statusWithSpec(b, o, live, obj)
		switch o.bad {
		case badManagedFields:
			obj["metadata"].(map[string]interface{})["managedFields"] = []interface{}{}
		case badAPIVersion:
			obj["apiVersion"] = schema.GroupVersion{Group: s.kind.gvk.Group, Version: "v1alpha9"}.String()
		}
		return obj
	}
	g := &generator{r: rand.New(rand.NewSource(o.seed)), sc: b}
	var obj map[string]interface{}
	switch {
	case live == nil:
		obj = map[string]interface{}{}
	case o.status:
		obj = copyValue(live).(map[string]interface{})
		s.statusWithSpec(b, o, live, obj)
	default:
		obj = g.derive(live, s.typeRef(b), 0, 0.9, 0.1).(map[string]interface{})
		// The variant keeps the live metadata the apiserver reads back.
		if md, ok := live["metadata"].(map[string]interface{}); ok {
			nm := copyValue(md).(map[string]interface{})
			if dm, ok := obj["metadata"].(map[string]interface{}); ok {
				for _, k := range []string{"labels", "annotations", "finalizers"} {
					if v, ok := dm[k]; ok {
						nm[k] = v
					} else {
						delete(nm, k)
					}
				}
			}
			obj["metadata"] = nm
		}
	}
	overlay(obj, o.fragment)
	s.header(obj, o.version)
	md := obj["metadata"].(map[string]interface{})
	if o.csa {
		cfg := s.header(copyValue(o.fragment).(map[string]interface{}), o.version)
		if cm, ok := cfg["metadata"].(map[string]interface{}); ok {
			delete(cm, "annotations")
		}
		text, _ := json.Marshal(cfg)
		ann, _ := md["annotations"].(map[string]interface{})
		if ann == nil {
			ann = map[string]interface{}{}
		}
		ann[lastAppliedAnnotation] = string(text)
		md["annotations"] = ann
	}
	entries, _ := md["managedFields"].([]interface{})
	switch o.mf {
	case mfLeftOut:
		delete(md, "managedFields")
	case mfReset:
		md["managedFields"] = []interface{}{}
	case mfEmptyOne:
		md["managedFields"] = []interface{}{map[string]interface{}{}}
	case mfDropOne:
		if len(entries) > 0 {
			k := g.r.Intn(len(entries))
			md["managedFields"] = append(append([]interface{}{}, entries[:k]...), entries[k+1:]...)
		}
	case mfRenamed:
		if len(entries) > 0 {
			e := entries[g.r.Intn(len(entries))].(map[string]interface{})
			e["manager"] = "renamed-by-client"
		}
	case mfInvalid:
		if len(entries) > 0 {
			e := entries[g.r.Intn(len(entries))].(map[string]interface{})
			e["operation"] = "Bogus"
		}
	}
	if l, ok := md["managedFields"].([]interface{}); ok && len(l) == 0 && s.kind.crd != nil {
		// A custom resource's decoder drops an empty list (see
		// updateManagedFieldsMode): the body leaves the key out.
		delete(md, "managedFields")
	}
	return obj
}

// overlay writes `over` into `obj`: maps merge, anything else replaces.
func overlay(obj, over map[string]interface{}) {
	for k, v := range over {
		if vm, ok := v.(map[string]interface{}); ok {
			if om, ok := obj[k].(map[string]interface{}); ok {
				overlay(om, vm)
				continue
			}
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

func jsonText(v interface{}) string {
	b, _ := json.Marshal(v)
	return string(b)
}

// dropEntries removes the map entries whose running number (depth first,
// over the fragments of the ops in order) is in `drop`.
func dropEntries(v interface{}, drop map[int]bool, counter *int) interface{} {
	switch t := v.(type) {
	case map[string]interface{}:
		out := map[string]interface{}{}
		for _, k := range sortedKeys(t) {
			n := *counter
			*counter++
			child := dropEntries(t[k], drop, counter)
			if !drop[n] {
				out[k] = child
			}
		}
		return out
	case []interface{}:
		out := make([]interface{}, len(t))
		for i, e := range t {
			out[i] = dropEntries(e, drop, counter)
		}
		return out
	}
	return v
}

// dropEarlySubresourceOps removes the subresource writes before the first
// write that creates the object (any but a refused apply): the apiserver
// answers those 404 before any field manager runs.
func (s *sequence) dropEarlySubresourceOps() {
	var kept []opSpec
	created := false
	for _, o := range s.ops {
		if o.subresource != "" && !created {
			continue
		}
		if o.bad == 0 {
			created = true
		}
		kept = append(kept, o)
	}
	s.ops = kept
}
