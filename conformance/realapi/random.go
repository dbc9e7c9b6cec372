package main

// Random scenarios (run -random SEED:COUNT): request sequences drawn from
// the same kind files as the corpus, in orders and mixes its fixed
// scenarios do not take. Each scenario picks a kind and makes an object
// (server-side apply, or kubectl create with or without the last-applied
// annotation), then sends 3 to 8 requests, each one of:
//
//   - kubectl applying the object with some of the kind's changes merged
//     in (forced one time in four);
//   - a controller (ctrl, ctrl2) applying the header with some changes:
//     co-owning, taking over or conflicting; or the header alone,
//     giving up what it applied before;
//   - a controller's PUT of the object it read with one change, or, one
//     time in six, a replace: a PUT of the kind's object with some changes,
//     as a manifest, without what the server set (withReplace);
//   - kubectl's client-side apply (a PUT with the last-applied annotation);
//   - a status controller's PUT or apply of the kind's status (a third
//     of the time with one of the kind's changes, which the status
//     strategy resets or keeps);
//   - the scale subresource: a PUT of replicas, an apply or forced apply;
//   - one of the kind file's writes to other subresources (a Pod's
//     resize), its applies forced one time in four.
//
// kubectl's applies after the first leave out some of the object's own
// fields one time in three (dropSome): fields it applied before and stops
// applying are removed, or left to their other owners. So do one in three
// of the controllers' PUTs, of the object they read: the fields go, and
// their owners with them.
//
// One in five of kubectl's writes (withDups) and one in three of the
// controllers' PUTs that leave fields out write some list items twice.
// One in five of kubectl's writes (withNulls) has some scalars null.
//
// A custom resource served at several versions (the Widget) takes one
// request in three but the scale's and client-side apply's at another
// version: its managers' entries then name several.
//
// The same seed gives the same scenarios. Mixing changes and managers can
// give an object Kubernetes' validation refuses (a required field that the
// only manager applying it gave up, say), which smdx does not check, or a
// custom resource with a null where its schema allows none (a map emptied
// by a manager giving up its last entry), which Kubernetes 1.37 refuses
// and smdx drops as KEP-1929 proposes (typed/default.h): a request the
// server refuses as invalid (422) and smdx stores is counted apart, with
// the server's causes, and compares nothing.

import (
	"encoding/json"
	"fmt"
	"math/rand"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
)

// parseRandom reads SEED:COUNT.
func parseRandom(s string) (seed int64, count int, err error) {
	a, b, ok := strings.Cut(s, ":")
	if ok {
		seed, err = strconv.ParseInt(a, 10, 64)
		if err == nil {
			count, err = strconv.Atoi(b)
		}
	}
	if !ok || err != nil || count <= 0 {
		return 0, 0, fmt.Errorf("-random takes SEED:COUNT (a positive count), not %q", s)
	}
	return seed, count, nil
}

type randomGen struct {
	rng *rand.Rand
	// Per custom resource served at several versions, the apiVersions
	// other than its kind file's.
	otherVersions map[*kindFile][]string
	// Whether dropSome drops parts of managedFields too.
	dropManaged bool
}

// otherVersionsOf is the apiVersions the CRD of `k` serves besides the
// kind file's; for a built-in kind, the other version a default apiserver
// serves it at (the HorizontalPodAutoscaler's; the others have one).
func otherVersionsOf(root string, k *kindFile) ([]string, error) {
	if k.CRD == "" {
		if k.Kind != "HorizontalPodAutoscaler" {
			return nil, nil
		}
		if k.APIVersion == "autoscaling/v1" {
			return []string{"autoscaling/v2"}, nil
		}
		return []string{"autoscaling/v1"}, nil
	}
	var crd struct {
		Spec struct {
			Group    string `json:"group"`
			Versions []struct {
				Name   string `json:"name"`
				Served bool   `json:"served"`
			} `json:"versions"`
		} `json:"spec"`
	}
	if err := readYAML(filepath.Join(root, k.CRD), &crd); err != nil {
		return nil, err
	}
	var out []string
	for _, v := range crd.Spec.Versions {
		if av := crd.Spec.Group + "/" + v.Name; v.Served && av != k.APIVersion {
			out = append(out, av)
		}
	}
	return out, nil
}

// at is `st` sent at another served version of its kind one time in
// three, when there is one and `st` has none yet: the body's apiVersion
// changed to it, and the object read at it (smdx given it as read at the
// kind file's version half of those times). A built-in kind's versions
// differ in their fields, so only its PUTs go (over the object read at the
// other version, where what the change writes of the kind file's version
// alone is dropped, as an unknown field); an apply would be refused.
func (g *randomGen) at(k *kindFile, st step) step {
	others := g.otherVersions[k]
	if len(others) == 0 || st.apiVersion != "" || (k.CRD == "" && st.verb != "update") {
		return st
	}
	if g.rng.Intn(3) != 0 {
		return st
	}
	st.apiVersion = others[g.rng.Intn(len(others))]
	// One time in two smdx gets the object as read at the kind file's
	// version, as a client that read it there passes it, where that read
	// loses nothing: any version of a custom resource (strategy None), the
	// HorizontalPodAutoscaler's autoscaling/v2, which it is stored at (its
	// v1 read turns a current metric without an averageValue into one of
	// "0").
	if g.rng.Intn(2) == 0 && (k.CRD != "" || k.APIVersion == "autoscaling/v2") {
		st.liveAt = k.APIVersion
	}
	if st.verb != "update" {
		st.body = copyValue(st.body).(map[string]interface{})
		st.body["apiVersion"] = st.apiVersion
	}
	return st
}

// someChanges is the kind's changes, each kept with probability 2/5, in
// their order, merged over `base`; `atLeastOne` keeps one when none was.
func (g *randomGen) someChanges(k *kindFile, base map[string]interface{}, atLeastOne bool) map[string]interface{} {
	out := copyValue(base).(map[string]interface{})
	took := false
	for _, ch := range k.Changes {
		if g.rng.Intn(5) < 2 {
			mergeInto(out, ch)
			took = true
		}
	}
	if atLeastOne && !took {
		mergeInto(out, k.Changes[g.rng.Intn(len(k.Changes))])
	}
	return out
}

// kubectlConfig is kubectl's configuration: the object with some of the
// kind's changes, and one time in three some of its fields left out.
func (g *randomGen) kubectlConfig(k *kindFile, obj map[string]interface{}) map[string]interface{} {
	cfg := g.someChanges(k, obj, false)
	if g.rng.Intn(3) == 0 {
		g.dropSome(cfg, 0)
	}
	return cfg
}

// The metadata dropSome keeps whole: which object it is, and what a PUT
// of an object read sends back for the write to be one (its
// resourceVersion) or to keep the managed fields as they were.
var keptMetadata = map[string]bool{"name": true, "namespace": true,
	"resourceVersion": true, "uid": true, "managedFields": true}

// retireEntry adds to the managedFields of `obj` (an update's body) a copy
// of one of its entries by manager "retired" at a version its kind is not
// served at: "v1beta1" of the kind's group (a built-in kind; core's v1beta1
// never existed), which the field manager's converter cannot reach, or
// "v0" of a custom resource's group, which its CRD does not declare.
func (g *randomGen) retireEntry(obj map[string]interface{}, k *kindFile) {
	md, _ := obj["metadata"].(map[string]interface{})
	l, _ := md["managedFields"].([]interface{})
	if len(l) == 0 {
		return
	}
	e, ok := copyValue(l[g.rng.Intn(len(l))]).(map[string]interface{})
	if !ok {
		return
	}
	group := ""
	if i := strings.Index(k.APIVersion, "/"); i >= 0 {
		group = k.APIVersion[:i+1]
	}
	version := "v1beta1"
	if k.CRD != "" {
		version = "v0"
	}
	e["manager"] = "retired"
	e["apiVersion"] = group + version
	md["managedFields"] = append(l, e)
}

// dropSome removes each field of `v` and each item of its lists with
// probability 1/10, in a fixed order (the same seed drops the same), but
// never the apiVersion, kind or keptMetadata (but for managedFields when
// g.dropManaged: then entries, their fields and fieldsV1 keys go too);
// `depth` is v's (0 for the object).
func (g *randomGen) dropSome(v interface{}, depth int) {
	switch t := v.(type) {
	case map[string]interface{}:
		for _, key := range sortedKeys(t) {
			if depth == 1 && keptMetadata[key] &&
				!(key == "managedFields" && g.dropManaged) {
				continue // kept whole
			}
			kept := depth == 0 && keptWhole[key]
			if !kept && g.rng.Intn(10) == 0 {
				delete(t, key)
				continue
			}
			if l, ok := t[key].([]interface{}); ok {
				t[key] = g.dropItems(l)
			}
			if depth == 0 && key == "metadata" {
				g.dropSome(t[key], 1)
			} else {
				g.dropSome(t[key], 2)
			}
		}
	case []interface{}:
		for _, item := range t {
			g.dropSome(item, 2)
		}
	}
}

// The fields of an object that dropSome and dupSome leave whole.
var keptWhole = map[string]bool{"apiVersion": true, "kind": true, "metadata": true}

// sortedKeys is the keys of `m` in order (so that the same seed draws the
// same for each).
func sortedKeys(m map[string]interface{}) []string {
	keys := make([]string, 0, len(m))
	for key := range m {
		keys = append(keys, key)
	}
	sort.Strings(keys)
	return keys
}

// dupSome repeats items of the lists in `v`: after each item of a list,
// with probability 1/10, a copy of it (an update may hold an item of an
// associative list or a set twice: Kubernetes' field manager tolerates
// duplicates in the objects it did not apply, and owns such an item whole).
// apiVersion, kind and metadata are left alone.
func (g *randomGen) dupSome(v interface{}, depth int) {
	switch t := v.(type) {
	case map[string]interface{}:
		for _, key := range sortedKeys(t) {
			if depth == 0 && keptWhole[key] {
				continue
			}
			if l, ok := t[key].([]interface{}); ok {
				t[key] = g.dupItems(l)
			}
			g.dupSome(t[key], depth+1)
		}
	case []interface{}:
		for _, item := range t {
			g.dupSome(item, depth+1)
		}
	}
}

// dupItems is `l` with each item followed by a copy of it with
// probability 1/10 (a new list).
func (g *randomGen) dupItems(l []interface{}) []interface{} {
	out := make([]interface{}, 0, len(l)+1)
	for _, item := range l {
		out = append(out, item)
		if g.rng.Intn(10) == 0 {
			out = append(out, copyValue(item))
		}
	}
	return out
}

// dropItems is `l` without each item with probability 1/10 (a new list:
// `l` may be shared with the kind file's).
func (g *randomGen) dropItems(l []interface{}) []interface{} {
	out := l[:0:0]
	for _, item := range l {
		if g.rng.Intn(10) != 0 {
			out = append(out, item)
		}
	}
	return out
}

func (g *randomGen) applyVerb() string {
	if g.rng.Intn(4) == 0 {
		return "forceApply"
	}
	return "apply"
}

func (g *randomGen) controller() string {
	return []string{"ctrl", "ctrl2"}[g.rng.Intn(2)]
}

// scenario is random scenario `i`.
func (g *randomGen) scenario(kinds []*kindFile, i int) *scenario {
	k := kinds[g.rng.Intn(len(kinds))]
	base := strings.TrimSuffix(filepath.Base(k.path), ".yaml")
	name := k.objectName(fmt.Sprintf("%s-r%d", strings.ReplaceAll(base, ".", "-"), i))
	s := &scenario{name: fmt.Sprintf("random/%d/%s", i, base), kind: k, obj: name}
	obj := k.named(name)
	header := k.header(name)
	csa := false
	switch g.rng.Intn(3) {
	case 0:
		s.steps = append(s.steps, g.at(k, step{verb: "apply", manager: "kubectl", body: g.someChanges(k, obj, false)}))
	case 1:
		s.steps = append(s.steps, g.at(k, step{verb: "create", manager: "kubectl-create", body: g.someChanges(k, obj, false)}))
	default:
		created := g.someChanges(k, obj, false)
		s.steps = append(s.steps, step{verb: "create", manager: "kubectl-client-side-apply", body: created, lastApplied: created})
		csa = true
	}
	for n := 3 + g.rng.Intn(6); n > 0; n-- {
		var st step
		switch r := g.rng.Intn(100); {
		case r < 25:
			st = step{verb: g.applyVerb(), manager: "kubectl", body: g.kubectlConfig(k, obj)}
		case r < 45:
			st = step{verb: g.applyVerb(), manager: g.controller(), body: g.someChanges(k, header, true)}
		case r < 52:
			st = step{verb: "apply", manager: g.controller(), body: copyValue(header).(map[string]interface{})}
		case r < 64:
			// A controller's non-apply patch: one of the kind's changes as
			// a merge patch or a strategic merge patch, or as a JSON patch
			// that adds its values or takes them back to the object's
			// (operations that may not apply, where their parents are
			// missing).
			ch := k.Changes[g.rng.Intn(len(k.Changes))]
			switch g.rng.Intn(4) {
			case 0:
				st = step{verb: "mergePatch", manager: g.controller(), body: copyValue(ch).(map[string]interface{})}
			case 3:
				st = step{verb: "strategicPatch", manager: g.controller(), body: copyValue(ch).(map[string]interface{})}
			case 1:
				st = step{verb: "jsonPatch", manager: g.controller(), ops: addOps("", ch)}
			default:
				st = step{verb: "jsonPatch", manager: g.controller(), ops: revertOps("", obj, ch)}
			}
		case r < 70:
			st = step{verb: "update", manager: g.controller(), body: k.Changes[g.rng.Intn(len(k.Changes))]}
			if g.rng.Intn(3) == 0 {
				st.dropSeed = 1 + g.rng.Int63n(1<<62)
			}
		case r < 78 && csa:
			// kubectl apply (client-side): the changes it writes are what
			// the annotation records.
			cfg := g.someChanges(k, obj, false)
			st = step{verb: "update", manager: "kubectl-client-side-apply", body: cfg, lastApplied: cfg}
			if g.rng.Intn(2) == 0 {
				// As kubectl sends it: its three-way strategic merge
				// patch, or merge patch for a custom resource
				// (strategic.go), of a manifest that may leave fields
				// out.
				st = step{verb: "csaApply", manager: "kubectl-client-side-apply", body: g.kubectlConfig(k, obj)}
			}
		case r < 89 && k.has("status") && k.Status != nil:
			status := map[string]interface{}{"status": k.Status}
			if g.rng.Intn(3) == 0 {
				// With one of the kind's changes: what the status
				// strategy resets (the spec, some metadata) or keeps.
				status = merged(k.Changes[g.rng.Intn(len(k.Changes))], status)
			}
			if g.rng.Intn(2) == 0 {
				st = step{verb: "update", manager: "status-ctrl", subresource: "status", body: status}
			} else {
				st = step{verb: g.applyVerb(), manager: "status-applier", subresource: "status", body: merged(header, status)}
			}
		case r < 95 && len(k.Writes) > 0:
			w := k.Writes[g.rng.Intn(len(k.Writes))]
			st = step{verb: w.Verb, manager: w.Manager, subresource: w.Subresource,
				apiVersion: w.APIVersion, liveAt: w.LiveAt, body: w.Body}
			if w.Verb != "update" {
				st.verb = g.applyVerb()
				st.body = merged(header, w.Body)
				if w.APIVersion != "" {
					st.body["apiVersion"] = w.APIVersion
				}
			}
		case k.has("scale"):
			replicas := 1 + g.rng.Intn(4)
			switch g.rng.Intn(3) {
			case 0:
				st = step{verb: "update", manager: "hpa", subresource: "scale", body: map[string]interface{}{
					"spec": map[string]interface{}{"replicas": json.Number(strconv.Itoa(replicas))}}}
			default:
				st = step{verb: g.applyVerb(), manager: "scaler", subresource: "scale", body: scaleConfig(k, name, replicas)}
			}
		default:
			st = step{verb: g.applyVerb(), manager: "kubectl", body: g.kubectlConfig(k, obj)}
		}
		if csa && !k.Settle && st.manager == "kubectl" && g.rng.Intn(2) == 0 {
			// Half of kubectl's server-side applies to an object it once
			// applied client-side go as kubectl sends them (kubectl.go).
			st.verb = map[string]string{"apply": "kubectlApply", "forceApply": "forceKubectlApply"}[st.verb]
		}
		// (Patches go to the kind file's version: smdx patches the live
		// object at the version it is given.)
		if st.subresource != "scale" && st.lastApplied == nil && st.verb != "mergePatch" && st.verb != "jsonPatch" && st.verb != "strategicPatch" && st.verb != "csaApply" {
			st = g.at(k, st)
		}
		s.steps = append(s.steps, st)
	}
	for n := range s.steps {
		withReplace(i, n, k, obj, &s.steps[n])
		withVersion(i, n, &s.steps[n])
	}
	for n, st := range s.steps {
		if kubectlWrites[st.manager] {
			withDups(i, n, st.body)
			withNulls(i, n, st.body)
			withWrongKinds(i, n, st.body)
		}
	}
	return s
}

// The managers that write a manifest as a user wrote it, list items twice
// included: kubectl's server-side apply (which the server refuses), its
// create and its client-side apply (which it stores).
var kubectlWrites = map[string]bool{"kubectl": true, "kubectl-create": true,
	"kubectl-client-side-apply": true}

// withReplace makes a controller's PUT of the main resource at its kind
// file's version, at one step in six, a replace: the kind's object with
// some of its changes, as a manifest is written (kubectl replace, a
// controller writing what it wants), without what the server set (uid,
// creationTimestamp, resourceVersion, managedFields, status; a custom
// resource's carries the resourceVersion read, which its PUT needs). Drawn
// from a source of step `n` of scenario `i` alone (as withDups').
func withReplace(i, n int, k *kindFile, obj map[string]interface{}, st *step) {
	if st.verb != "update" || st.subresource != "" || st.lastApplied != nil ||
		st.apiVersion != "" || (st.manager != "ctrl" && st.manager != "ctrl2") {
		return
	}
	d := &randomGen{rng: rand.New(rand.NewSource(int64(i)<<8 | int64(n) | 1<<60))}
	if d.rng.Intn(6) != 0 {
		return
	}
	st.replace = true
	st.body = d.someChanges(k, obj, false)
	st.dropSeed = 0
}

// withVersion gives the body of a PUT, an apply or a merge patch, at one
// step in twenty, a resourceVersion of its own: a stale one ("1", which
// storage refuses with a 409), or for a PUT none (an unconditional update,
// which some kinds' strategies refuse). Drawn from a source of step `n` of
// scenario `i` alone (as withDups').
func withVersion(i, n int, st *step) {
	if st.body == nil || (st.verb != "update" && st.verb != "apply" &&
		st.verb != "forceApply" && st.verb != "mergePatch") {
		return
	}
	d := rand.New(rand.NewSource(int64(i)<<8 | int64(n) | 1<<59))
	if d.Intn(20) != 0 {
		return
	}
	var version interface{} = "1"
	if st.verb == "update" && d.Intn(2) == 0 {
		version = nil
	}
	// (Set, not merged: a merge would drop the nil, which the PUT's own
	// merge over the object read needs.)
	st.body = copyValue(st.body).(map[string]interface{})
	md, _ := st.body["metadata"].(map[string]interface{})
	if md == nil {
		md = map[string]interface{}{}
		st.body["metadata"] = md
	}
	md["resourceVersion"] = version
}

// withDups repeats some of `body`'s list items (dupSome) at one step in
// five, drawn from a source of step `n` of scenario `i` alone, so that the
// scenarios' other draws stay as they were.
func withDups(i, n int, body map[string]interface{}) {
	d := &randomGen{rng: rand.New(rand.NewSource(int64(i)<<8 | int64(n)))}
	if d.rng.Intn(5) == 0 {
		d.dupSome(body, 0)
	}
}

// withNulls sets some of `body`'s scalars to null (nullSome) at one step
// in five, drawn from a source of its own (as withDups').
func withNulls(i, n int, body map[string]interface{}) {
	d := &randomGen{rng: rand.New(rand.NewSource(int64(i)<<8 | int64(n) | 1<<62))}
	if d.rng.Intn(5) == 0 {
		d.nullSome(body)
	}
}

// withWrongKinds gives one of `body`'s scalars a value of another JSON
// kind (wrongKind) at one step in ten, drawn from a source of its own (as
// withDups').
func withWrongKinds(i, n int, body map[string]interface{}) {
	d := &randomGen{rng: rand.New(rand.NewSource(int64(i)<<8 | int64(n) | 1<<61))}
	if d.rng.Intn(10) == 0 {
		d.wrongKind(body)
	}
}

// wrongKind replaces one scalar of `body` (drawn from scalarsOf's) with a
// value of another JSON kind, as a hand-written manifest may hold one
// (`replicas: "2"`, a label `7`): a string becomes a number, a number or
// a bool its text. Kubernetes refuses most (encoding/json's 400 for a
// write, the field manager's 500 for an apply); the types that decode
// themselves take some (a number for a Quantity or an IntOrString).
func (g *randomGen) wrongKind(body map[string]interface{}) {
	spots := scalarsOf(body)
	if len(spots) == 0 {
		return
	}
	s := spots[g.rng.Intn(len(spots))]
	if _, ok := s.value.(string); ok {
		s.set(json.Number("7"))
	} else {
		s.set(fmt.Sprint(s.value))
	}
}

// nullSome sets each scalar of `body` (scalarsOf's) to null with
// probability 1/10, as a templated manifest has them (a label whose value
// the template left out, an arg from an unset variable): Kubernetes
// decodes a null to the Go type's zero value, "" in a map[string]string or
// a []string.
func (g *randomGen) nullSome(body map[string]interface{}) {
	for _, s := range scalarsOf(body) {
		if g.rng.Intn(10) == 0 {
			s.set(nil)
		}
	}
}

// A scalar of a body, and how to replace it.
type scalarSpot struct {
	value interface{}
	set   func(interface{})
}

// scalarsOf is every scalar of `body` (a field's value or a list item) in
// the order a depth-first walk meets them, map keys sorted; but
// apiVersion, kind and keptMetadata.
func scalarsOf(body map[string]interface{}) []scalarSpot {
	var spots []scalarSpot
	var walk func(v interface{}, depth int)
	walk = func(v interface{}, depth int) {
		switch t := v.(type) {
		case map[string]interface{}:
			for _, key := range sortedKeys(t) {
				if (depth == 0 && keptWhole[key] && key != "metadata") ||
					(depth == 1 && keptMetadata[key]) {
					continue
				}
				k := key
				if isScalar(t[k]) {
					spots = append(spots, scalarSpot{t[k], func(x interface{}) { t[k] = x }})
					continue
				}
				if depth == 0 && key == "metadata" {
					walk(t[k], 1)
				} else {
					walk(t[k], 2)
				}
			}
		case []interface{}:
			for n, item := range t {
				n := n
				if isScalar(item) {
					spots = append(spots, scalarSpot{item, func(x interface{}) { t[n] = x }})
					continue
				}
				walk(item, 2)
			}
		}
	}
	walk(body, 0)
	return spots
}

func isScalar(v interface{}) bool {
	switch v.(type) {
	case map[string]interface{}, []interface{}, nil:
		return false
	}
	return true
}

// randomScenarios is COUNT random scenarios from SEED; `root` is the
// repository's (the kind files name their CRDs from there).
func randomScenarios(root string, kinds []*kindFile, seed int64, count int) ([]*scenario, error) {
	g := &randomGen{rng: rand.New(rand.NewSource(seed)), otherVersions: map[*kindFile][]string{}}
	for _, k := range kinds {
		others, err := otherVersionsOf(root, k)
		if err != nil {
			return nil, err
		}
		g.otherVersions[k] = others
	}
	out := make([]*scenario, 0, count)
	for i := 0; i < count; i++ {
		out = append(out, g.scenario(kinds, i))
	}
	return out, nil
}

// invalidCause is what a 422 answer says is wrong, without the object's
// name (so that the same cause counts once): its causes' fields and
// messages, else its message.
func invalidCause(status map[string]interface{}) string {
	details, _ := status["details"].(map[string]interface{})
	causes, _ := details["causes"].([]interface{})
	var out []string
	for _, c := range causes {
		m, _ := c.(map[string]interface{})
		field, _ := m["field"].(string)
		msg, _ := m["message"].(string)
		out = append(out, field+": "+msg)
	}
	if len(out) == 0 {
		msg, _ := status["message"].(string)
		return msg
	}
	sort.Strings(out)
	return strings.Join(out, "; ")
}

// knownRandom recognizes a difference of known.yaml at any step of a
// random scenario, where the corpus names one step: a write (Verb) to an
// object of Kind after which the server has given the writer the fields
// at WriterTakes (fieldsV1 names from the root, "f:spec" and so on) and
// smdx has left them with their owners. It explains a step whose objects
// are the same and whose managedFields are the server's once smdx's are
// changed so: the fields moved from every entry to the writer's entry
// of that write (made when it has none, with the apiVersion and time the
// server gave it), entries left empty dropped.
type knownRandom struct {
	Kind        string   `json:"kind"`
	Verb        string   `json:"verb"`
	WriterTakes []string `json:"writerTakes"`
	// Or the other way: smdx's writer gained the fields at WriterNotTakes,
	// which the server left where they were (unowned, or with their
	// owners): the step is explained when the server's entries are smdx's
	// with those fields out of the writer's entry.
	WriterNotTakes []string `json:"writerNotTakes"`
	// Or: the server gave the writer's Update entry the fields at
	// WriterAlsoTakes and its other entries kept them (shared): the step
	// is explained when the server's entries are smdx's with those fields
	// added to the writer's Update entry (made as for WriterTakes). Or
	// kept by the writer's Apply entry alone (the Update took them from
	// the others, and the writer's apply after it took them back).
	WriterAlsoTakes []string `json:"writerAlsoTakes"`
	// Or: any write at this apiVersion (a step's own, else the kind
	// file's) after which the server's object has a generation one more
	// than smdx's, and nothing else differs (Verb is then not looked at).
	GenerationAt string `json:"generationAt"`
}

func (k *knownRandom) describe(st step) string {
	if k.GenerationAt != "" {
		return fmt.Sprintf("the server's %s at %s counts one more generation", st.verb, k.GenerationAt)
	}
	if len(k.WriterNotTakes) > 0 {
		return fmt.Sprintf("smdx's %s gives the writer %s, the server's does not", st.verb, strings.Join(k.WriterNotTakes, "."))
	}
	if len(k.WriterAlsoTakes) > 0 {
		return fmt.Sprintf("the server's %s gives the writer's Update entry %s too", st.verb, strings.Join(k.WriterAlsoTakes, "."))
	}
	return fmt.Sprintf("the server's %s gives the writer %s", st.verb, strings.Join(k.WriterTakes, "."))
}

// explainRandom is the known difference that explains failed step `st` of
// random scenario `s`, or nil.
func explainRandom(knowns []known, s *scenario, st step, res stepResult) *known {
	at := st.apiVersion
	if at == "" {
		at = s.kind.APIVersion
	}
	st.apiVersion = at // (the writer's Update entry is the one at it)
	for i := range knowns {
		k := knowns[i].Random
		if k != nil && k.GenerationAt != "" && k.Kind == s.kind.Kind &&
			k.GenerationAt == at && res.generationOnly {
			return &knowns[i]
		}
	}
	if res.serverEntries == nil {
		return nil // the objects differ too
	}
	for i := range knowns {
		k := knowns[i].Random
		verb := st.verb
		switch verb {
		case "forceKubectlApply":
			verb = "kubectlApply" // (the same steps after a forced apply)
		case "mergePatch", "jsonPatch", "strategicPatch", "csaApply":
			verb = "update" // (a patch is the update of its result)
		}
		if k == nil || k.GenerationAt != "" || k.Kind != s.kind.Kind || k.Verb != verb {
			continue
		}
		var moved []map[string]interface{}
		switch {
		case len(k.WriterTakes) > 0:
			moved = handToWriter(res.smdxEntries, res.serverEntries, st, k.WriterTakes, keepNone)
		case len(k.WriterAlsoTakes) > 0:
			moved = handToWriter(res.smdxEntries, res.serverEntries, st, k.WriterAlsoTakes, keepAll)
			if moved == nil || !sameJSON(sortedEntries(moved), sortedEntries(res.serverEntries)) {
				applied := func(e map[string]interface{}) bool {
					return e["manager"] == st.manager && e["operation"] == "Apply"
				}
				moved = handToWriter(res.smdxEntries, res.serverEntries, st, k.WriterAlsoTakes, applied)
			}
		case len(k.WriterNotTakes) > 0:
			moved = takeFromWriter(res.smdxEntries, st, k.WriterNotTakes)
		}
		if moved != nil && sameJSON(sortedEntries(moved), sortedEntries(res.serverEntries)) {
			return &knowns[i]
		}
	}
	return nil
}

// isWriterEntry is whether `e` is the Update entry of the writer of `st`
// (its manager, subresource and apiVersion: REQUIRES st.apiVersion set).
func isWriterEntry(e map[string]interface{}, st step) bool {
	sub, _ := e["subresource"].(string)
	return e["manager"] == st.manager && e["operation"] == "Update" && sub == st.subresource &&
		e["apiVersion"] == st.apiVersion
}

func keepNone(map[string]interface{}) bool { return false }
func keepAll(map[string]interface{}) bool  { return true }

// handToWriter is `smdx` with the fields at `path` moved to the writer's
// entry (see knownRandom), or nil when the server has no entry for the
// writer; the entries `keeps` says keep them (copied to the writer's).
func handToWriter(smdx, server []map[string]interface{}, st step, path []string, keeps func(map[string]interface{}) bool) []map[string]interface{} {
	var theirs map[string]interface{}
	for _, e := range server {
		if isWriterEntry(e, st) {
			theirs = e
		}
	}
	if theirs == nil {
		return nil
	}
	var out []map[string]interface{}
	var writer map[string]interface{}
	for _, e := range smdx {
		e = copyValue(e).(map[string]interface{})
		fields, _ := e["fieldsV1"].(map[string]interface{})
		if fields == nil {
			return nil
		}
		if !keeps(e) {
			maskPath(fields, path) // (a fieldsV1 map: the same removal)
		}
		if isWriterEntry(e, st) {
			writer = e
		} else if len(fields) == 0 {
			continue
		}
		out = append(out, e)
	}
	if writer == nil {
		writer = map[string]interface{}{"manager": st.manager, "operation": "Update",
			"apiVersion": theirs["apiVersion"], "fieldsType": theirs["fieldsType"],
			"fieldsV1": map[string]interface{}{}}
		if st.subresource != "" {
			writer["subresource"] = st.subresource
		}
		out = append(out, writer)
	}
	writer["time"] = theirs["time"]
	at := writer["fieldsV1"].(map[string]interface{})
	for _, name := range path {
		next, ok := at[name].(map[string]interface{})
		if !ok {
			next = map[string]interface{}{}
			at[name] = next
		}
		at = next
	}
	return out
}

// takeFromWriter is `smdx` with the fields at `path` out of the writer's
// entry (dropped when left empty), or nil when the writer has no entry.
func takeFromWriter(smdx []map[string]interface{}, st step, path []string) []map[string]interface{} {
	var out []map[string]interface{}
	found := false
	for _, e := range smdx {
		if isWriterEntry(e, st) {
			found = true
			e = copyValue(e).(map[string]interface{})
			fields, _ := e["fieldsV1"].(map[string]interface{})
			if fields == nil {
				return nil
			}
			maskPath(fields, path)
			if len(fields) == 0 {
				continue
			}
		}
		out = append(out, e)
	}
	if !found {
		return nil
	}
	return out
}

// sortedEntries is the entries in one order whatever order they came in.
func sortedEntries(es []map[string]interface{}) []string {
	out := make([]string, 0, len(es))
	for _, e := range es {
		out = append(out, canon(e))
	}
	sort.Strings(out)
	return out
}
