package main

// Running each request through smdx and comparing with what the apiserver
// stored. smdx gets, for each request, the object the server held before it
// (as a GET returns it, managedFields included), the body the client sent,
// the manager, force and subresource, and as its clock the time the server
// stamped; so every step is compared on its own, and times compare exactly.
//
// A step passes when the managedFields are identical, entry for entry, and
// the stored objects are identical after masks.yaml's masks (what the server
// allocates or stamps, and what depends on the cluster's state). Built-in
// kinds included: smdx decodes and defaults them as the apiserver does. A
// refused request must be refused by both: a conflict with the apiserver's
// message, anything else with an error.

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"time"

	yamlv3 "go.yaml.in/yaml/v3"
	"sigs.k8s.io/yaml"
)

type mask struct {
	Path  []string `json:"path"`  // field names
	Kinds []string `json:"kinds"` // empty: every kind
	// Only where the object before the request had no value at the path
	// (none at all at a create): what the server allocated in this
	// request. A value it had, every later write keeps (or drops), as
	// smdx, given the live object, must.
	OnlyNew bool   `json:"onlyNew"`
	Reason  string `json:"reason"`
}

// readYAML decodes the YAML file at path into out.
func readYAML(path string, out interface{}) error {
	raw, err := os.ReadFile(path)
	if err != nil {
		return err
	}
	if err := yaml.Unmarshal(raw, out); err != nil {
		return fmt.Errorf("%s: %v", path, err)
	}
	return nil
}

func loadMasks(path string) ([]mask, error) {
	var m struct {
		Masks []mask `json:"masks"`
	}
	if err := readYAML(path, &m); err != nil {
		return nil, err
	}
	for _, e := range m.Masks {
		if len(e.Path) == 0 || e.Reason == "" {
			return nil, fmt.Errorf("%s: every mask needs a path and a reason", path)
		}
	}
	return m.Masks, nil
}

// applyMasks removes what `masks` mask from obj, a stored object of `kind`;
// `before` is the object the request wrote over (nil at a create).
func applyMasks(obj map[string]interface{}, kind string, before map[string]interface{}, masks []mask) {
	for _, m := range masks {
		if len(m.Kinds) > 0 && !contains(m.Kinds, kind) {
			continue
		}
		if m.OnlyNew {
			maskNew(obj, before, m.Path)
		} else {
			maskPath(obj, m.Path)
		}
	}
}

// maskPath removes the value at parts, and the maps that held only it (a
// masked label leaves no empty labels map behind: the encoding drops those;
// random.go removes fields from a fieldsV1 map so). A part "[]" stands for
// each item of a list (whose items stay, emptied or not).
func maskPath(at map[string]interface{}, parts []string) {
	maskNew(at, nil, parts)
}

// maskNew is maskPath where `before`, the object the request wrote over,
// walked alongside (a list's items by their index), has no value: what
// the request allocated. With `before` nil, everywhere.
func maskNew(at, before map[string]interface{}, parts []string) {
	if len(parts) == 0 {
		return
	}
	if len(parts) == 1 {
		if _, had := before[parts[0]]; !had {
			delete(at, parts[0])
		}
		return
	}
	if len(parts) > 2 && parts[1] == "[]" {
		items, _ := at[parts[0]].([]interface{})
		was, _ := before[parts[0]].([]interface{})
		for i, item := range items {
			m, ok := item.(map[string]interface{})
			if !ok {
				continue
			}
			var w map[string]interface{}
			if i < len(was) {
				w, _ = was[i].(map[string]interface{})
			}
			maskNew(m, w, parts[2:])
		}
		return
	}
	next, ok := at[parts[0]].(map[string]interface{})
	if !ok {
		return
	}
	was, _ := before[parts[0]].(map[string]interface{})
	maskNew(next, was, parts[1:])
	if len(next) == 0 {
		delete(at, parts[0])
	}
}

func contains(l []string, s string) bool {
	for _, e := range l {
		if e == s {
			return true
		}
	}
	return false
}

type outcome int

const (
	passed    outcome = iota
	explained         // a known difference (known.yaml)
	invalid           // random scenarios: refused by the server's validation (random.go)
	absent            // random scenarios: a PUT to an object the server does not hold
	unsent            // a client-side apply kubectl makes no patch for (smdx refusing it too)
	failed
)

type known struct {
	Scenario string `json:"scenario"`
	Step     int    `json:"step"`
	What     string `json:"what"`
	Why      string `json:"why"`
	Smdx     string `json:"smdx"`
	// How random scenarios (random.go) recognize the difference, which
	// they meet at steps of their own: see knownRandom. An entry whose
	// scenario is "random" (randomOnly) has no corpus step: only random
	// scenarios meet it.
	Random *knownRandom `json:"random"`
}

const randomOnly = "random"

// loadKnown reads known.yaml: the entries of corpus steps by
// "SCENARIO#STEP", and every entry (random scenarios look through all of
// them, random-only ones included). Two entries of one corpus step are an
// error: the map would keep one of them only.
func loadKnown(path string) (map[string]known, []known, error) {
	var k struct {
		Known []known `json:"known"`
	}
	if err := readYAML(path, &k); err != nil {
		return nil, nil, err
	}
	byStep := map[string]known{}
	for _, e := range k.Known {
		if e.Scenario == "" || e.Why == "" || e.Smdx == "" {
			return nil, nil, fmt.Errorf("%s: every entry needs a scenario, why and smdx", path)
		}
		if e.Scenario == randomOnly {
			if e.Random == nil {
				return nil, nil, fmt.Errorf("%s: a random-only entry needs a random rule", path)
			}
			continue
		}
		key := fmt.Sprintf("%s#%d", e.Scenario, e.Step)
		if _, dup := byStep[key]; dup {
			return nil, nil, fmt.Errorf("%s: two entries for step %d of %s", path, e.Step, e.Scenario)
		}
		byStep[key] = e
	}
	return byStep, k.Known, nil
}

type stepResult struct {
	outcome outcome
	detail  string
	// When only the managedFields differ: both sides' entries.
	serverEntries, smdxEntries []map[string]interface{}
	// Whether all that differs is the server's metadata.generation, one
	// more than smdx's.
	generationOnly bool
}

type runner struct {
	random  bool // running random scenarios (random.go)
	c       *cluster
	smdx    string
	schema  string
	root    string
	masks   []mask
	work    string
	verbose bool
	// crOpenAPI: custom resources are typed with the cluster's /openapi/v3
	// documents of their group, as a user who has no CRD at hand passes
	// them, instead of their CRD (crSchemaFiles).
	crOpenAPI bool
	crDocs    map[string][]string // by kind file: the documents fetched
	// Requests to the scale subresource of a custom resource typed so: the
	// OpenAPI does not say which field its replicas are.
	scaleUnknown int
	// Writes that deleted the object they left without finalizers (smdx
	// saying so too).
	deletions int
}

func runAll(c *cluster, smdxBin, kindsDir, schema, only, random string, crOpenAPI, verbose bool) int {
	root, err := filepath.Abs(filepath.Join(kindsDir, "..", "..", ".."))
	if err != nil {
		panic(err)
	}
	kinds, err := loadKinds(kindsDir)
	if err != nil {
		fmt.Fprintf(os.Stderr, "realapi: %v\n", err)
		return 1
	}
	masks, err := loadMasks(filepath.Join(kindsDir, "..", "masks.yaml"))
	if err != nil {
		fmt.Fprintf(os.Stderr, "realapi: %v\n", err)
		return 1
	}
	knownDiffs, knownList, err := loadKnown(filepath.Join(kindsDir, "..", "known.yaml"))
	if err != nil {
		fmt.Fprintf(os.Stderr, "realapi: %v\n", err)
		return 1
	}
	knownSeen := map[string]bool{}
	// Inside the cluster's directory, which stop removes on every path
	// (a signal included).
	work, err := os.MkdirTemp(c.dir, "work-")
	if err != nil {
		panic(err)
	}
	defer os.RemoveAll(work)
	r := &runner{c: c, smdx: smdxBin, schema: schema, root: root, masks: masks, work: work, verbose: verbose,
		crOpenAPI: crOpenAPI, crDocs: map[string][]string{}}
	scenarios := expand(kinds)
	if random != "" {
		seed, count, err := parseRandom(random)
		if err != nil {
			fmt.Fprintf(os.Stderr, "realapi: %v\n", err)
			return 2
		}
		scenarios, err = randomScenarios(root, kinds, seed, count)
		if err != nil {
			fmt.Fprintf(os.Stderr, "realapi: %v\n", err)
			return 1
		}
		r.random = true
	}
	crds := map[string]bool{}
	counts := map[outcome]int{}
	steps := 0
	// Random scenarios: the requests refused as invalid, by the server's
	// message.
	invalids := map[string]int{}
	absents, unsents := 0, 0
	kindsSeen := map[string]bool{}
	for _, s := range scenarios {
		if only != "" && !strings.Contains(s.name, only) {
			continue
		}
		if err := c.prepare(root, s.kind, crds); err != nil {
			fmt.Printf("FAIL %s: %v\n", s.name, err)
			counts[failed]++
			continue
		}
		worst := passed
		var details []string
		for i, st := range s.steps {
			st.index = i
			res := r.runStep(s, st)
			steps++
			if res.outcome == invalid {
				invalids[fmt.Sprintf("%s: %s", s.kind.Kind, res.detail)]++
				continue
			}
			if res.outcome == absent {
				absents++
				continue
			}
			if res.outcome == unsent {
				unsents++
				continue
			}
			if key := fmt.Sprintf("%s#%d", s.name, i); res.outcome == failed && knownDiffs[key].Why != "" {
				res = stepResult{outcome: explained}
				knownSeen[key] = true
				fmt.Printf("KNOWN %s step %d: %s\n", s.name, i, knownDiffs[key].What)
			}
			if res.outcome == failed && r.random {
				if k := explainRandom(knownList, s, st, res); k != nil {
					res = stepResult{outcome: explained}
					fmt.Printf("KNOWN %s step %d: %s (known.yaml)\n", s.name, i, k.Random.describe(st))
				}
			}
			if res.outcome > worst {
				worst = res.outcome
			}
			if res.outcome == failed {
				details = append(details, fmt.Sprintf("  step %d (%s): %s", i, stepLabel(st), res.detail))
			}
		}
		kindsSeen[s.kind.Kind] = true
		counts[worst]++
		switch worst {
		case failed:
			fmt.Printf("FAIL %s\n%s\n", s.name, strings.Join(details, "\n"))
		default:
			if verbose {
				fmt.Printf("ok %s\n", s.name)
			}
		}
	}
	if only == "" && random == "" {
		for key := range knownDiffs {
			if !knownSeen[key] {
				fmt.Printf("FAIL %s: known.yaml lists a difference that no longer occurs\n", key)
				counts[failed]++
			}
		}
	}
	total := counts[passed] + counts[explained] + counts[failed]
	fmt.Printf("\nrealapi: %d scenarios (%d requests) over %d kinds\n", total, steps, len(kindsSeen))
	if unsents > 0 {
		fmt.Printf("realapi: %d client-side applies kubectl makes no patch for (the manifest left a list item's merge key out, say), which smdx refuses alike, not sent\n", unsents)
	}
	if r.deletions > 0 {
		fmt.Printf("realapi: %d writes deleted the object they left without finalizers, as smdx said\n", r.deletions)
	}
	if crOpenAPI {
		fmt.Printf("realapi: custom resources typed with the cluster's /openapi/v3 documents, not their CRDs; %d requests to their scale subresource, which smdx refuses so (the OpenAPI does not say where the replicas are)\n", r.scaleUnknown)
	}
	if random != "" {
		n := 0
		var msgs []string
		for m, c := range invalids {
			n += c
			msgs = append(msgs, fmt.Sprintf("  %dx %s", c, m))
		}
		sort.Strings(msgs)
		fmt.Printf("realapi: %d requests refused by the server as invalid (or forbidden by an admission plugin's policy) and stored by smdx, not compared (smdx runs no Kubernetes validation, and drops a custom resource's non-nullable nulls as KEP-1929 proposes)\n", n)
		fmt.Printf("realapi: %d PUTs to an object the server does not hold (its create was refused), which the server answers 404, not compared (smdx's update of no live object is a create)\n", absents)
		if verbose {
			fmt.Println(strings.Join(msgs, "\n"))
		}
	}
	fmt.Printf("realapi: %d identical, %d by a known difference (known.yaml), %d differ\n",
		counts[passed], counts[explained], counts[failed])
	fmt.Printf("%d passed, %d failed\n", counts[passed]+counts[explained], counts[failed])
	if counts[failed] > 0 {
		return 1
	}
	return 0
}

// stepLabel is "verb manager[ /subresource][ at apiVersion]".
func stepLabel(st step) string {
	l := st.verb + " " + st.manager
	if st.replace {
		l = "replace " + st.manager
	}
	if st.subresource != "" {
		l += " /" + st.subresource
	}
	if st.apiVersion != "" {
		l += " at " + st.apiVersion
	}
	return l
}

// The non-apply patches, which smdx answers with `smdx patch`.
var isPatchVerb = map[string]bool{"mergePatch": true, "jsonPatch": true, "strategicPatch": true, "csaApply": true}

// The kind of error smdx names for a patch the server refused with a code
// (400 malformed, 415 a custom resource's strategic patch, 422 not
// applicable or not decodable, 500 strategicpatch's failures).
var patchRefusals = map[int]string{400: "badRequest", 415: "badRequest", 422: "invalid", 500: "internal"}

// What smdx prints when the apiserver deletes the object a write leaves
// without finalizers.
const deletedNote = "the apiserver deletes the object"

// smdxResult is what smdx said about one request.
type smdxResult struct {
	code   int // 0 stored, 2 conflict, 1 other error
	obj    map[string]interface{}
	stderr string
}

func (r *runner) runStep(s *scenario, st step) stepResult {
	path := s.kind.basePathAt(st.apiVersion) + "/" + s.obj
	if s.kind.Settle {
		if err := r.c.settle(path); err != nil {
			return stepResult{outcome: failed, detail: err.Error()}
		}
	}
	live, liveJSON, err := r.c.getRaw(path)
	if err != nil {
		return stepResult{outcome: failed, detail: err.Error()}
	}
	// What smdx is given: the object at the request's version, or as read
	// at another (liveAt), which smdx must read at the request's itself.
	smdxLive := liveJSON
	if st.liveAt != "" && live != nil {
		if _, smdxLive, err = r.c.getRaw(s.kind.basePathAt(st.liveAt) + "/" + s.obj); err != nil {
			return stepResult{outcome: failed, detail: err.Error()}
		}
	}
	before := time.Now().UTC().Truncate(time.Second)
	resp, body, err := r.c.send(s, st, live)
	if errors.Is(err, errNoPatch) {
		// kubectl fails to make its patch; smdx must fail alike.
		got, serr := r.runSmdx(s, st, smdxLive, nil, before)
		if serr != nil {
			return stepResult{outcome: failed, detail: serr.Error()}
		}
		if got.code != 1 || !strings.Contains(got.stderr, "kubectl cannot make its patch") {
			return stepResult{outcome: failed, detail: fmt.Sprintf("%v; smdx: exit %d %s", err, got.code, strings.TrimSpace(got.stderr))}
		}
		return stepResult{outcome: unsent, detail: err.Error()}
	}
	if err != nil {
		return stepResult{outcome: failed, detail: err.Error()}
	}
	if st.verb == "delete" {
		// The scenario's premise: the object stays, being deleted.
		obj, err := r.c.get(path)
		md, _ := obj["metadata"].(map[string]interface{})
		if err != nil || resp.code >= 300 || md["deletionTimestamp"] == nil {
			return stepResult{outcome: failed, detail: fmt.Sprintf("DELETE: %d %v; the object after it: %v (%v)", resp.code, resp.obj["message"], md, err)}
		}
		return stepResult{outcome: passed}
	}
	if r.random && live == nil && st.verb == "update" && resp.code == 404 {
		// A PUT creates none of these kinds; smdx's update of no live
		// object is a create, which is not the question here.
		return stepResult{outcome: absent}
	}
	var after map[string]interface{}
	if s.kind.Settle && resp.code < 300 && st.subresource != "scale" {
		after = resp.obj // (a GET may see the controllers' writes)
	} else if after, err = r.c.get(path); err != nil {
		return stepResult{outcome: failed, detail: err.Error()}
	}
	// A write that leaves an object being deleted without finalizers
	// deletes it; the server answers with the object it no longer holds.
	deleted := after == nil && live != nil && resp.code < 300
	if deleted {
		after = resp.obj
	}
	now := latestTime(after, before)
	got, err := r.runSmdx(s, st, smdxLive, body, now)
	if err != nil {
		return stepResult{outcome: failed, detail: err.Error()}
	}
	if r.verbose {
		fmt.Printf("  %s step %s: server %d, smdx %d\n", s.name, stepLabel(st), resp.code, got.code)
	}
	if r.crOpenAPI && s.kind.CRD != "" && st.subresource == "scale" && live != nil {
		// smdx must refuse it, saying why.
		if got.code == 1 && strings.Contains(got.stderr, "specReplicasPath") {
			r.scaleUnknown++
			return stepResult{outcome: passed}
		}
		return stepResult{outcome: failed, detail: fmt.Sprintf("a scale request to a custom resource typed with the OpenAPI: smdx exit %d %s", got.code, strings.TrimSpace(got.stderr))}
	}
	if resp.code >= 300 {
		msg, _ := resp.obj["message"].(string)
		reason, _ := resp.obj["reason"].(string)
		if reason == "Conflict" && resp.code == 409 {
			if got.code != 2 {
				r.keep(s, st, liveJSON, body, resp.obj)
				return stepResult{outcome: failed, detail: fmt.Sprintf("the server answered a conflict (%s); smdx: exit %d %s", msg, got.code, got.stderr)}
			}
			if !strings.Contains(got.stderr, msg) {
				r.keep(s, st, liveJSON, body, resp.obj)
				return stepResult{outcome: failed, detail: fmt.Sprintf("conflict messages differ:\n    server: %q\n    smdx:   %q", msg, got.stderr)}
			}
			return stepResult{outcome: passed}
		}
		if s.sameErrors && got.code != 0 && !strings.Contains(got.stderr, msg) {
			r.keep(s, st, liveJSON, body, resp.obj)
			return stepResult{outcome: failed, detail: fmt.Sprintf("the server refused (%d %s: %s); smdx refused otherwise: %s", resp.code, reason, msg, strings.TrimSpace(got.stderr))}
		}
		if got.code == 0 && r.random && resp.code == 422 && reason == "Invalid" {
			r.keep(s, st, liveJSON, body, resp.obj)
			return stepResult{outcome: invalid, detail: invalidCause(resp.obj)}
		}
		// An admission plugin's policy, from the cluster's state (a PVC
		// resized without an expandable storage class, a quota, a limit
		// range's maximum): validation's kin, which smdx does not run.
		if got.code == 0 && r.random && resp.code == 403 && reason == "Forbidden" {
			r.keep(s, st, liveJSON, body, resp.obj)
			return stepResult{outcome: invalid, detail: "forbidden by admission: " + msg}
		}
		if got.code == 0 {
			return stepResult{outcome: failed, detail: fmt.Sprintf("the server refused (%d %s: %s); smdx stored it", resp.code, reason, msg)}
		}
		if got.code == 2 {
			r.keep(s, st, liveJSON, body, resp.obj)
			return stepResult{outcome: failed, detail: fmt.Sprintf("the server refused (%d %s: %s); smdx reported a conflict: %s", resp.code, reason, msg, strings.TrimSpace(got.stderr))}
		}
		if want, ok := patchRefusals[resp.code]; ok && isPatchVerb[st.verb] && live != nil && !strings.Contains(got.stderr, "error ("+want+")") {
			// A patch's refusal has the handler's code (smdx names it
			// as its error's kind; with no object smdx is given none).
			return stepResult{outcome: failed, detail: fmt.Sprintf("the server refused (%d %s: %s); smdx refused otherwise: %s", resp.code, reason, msg, strings.TrimSpace(got.stderr))}
		}
		return stepResult{outcome: passed}
	}
	if got.code != 0 {
		return stepResult{outcome: failed, detail: fmt.Sprintf("the server stored it; smdx: exit %d %s", got.code, strings.TrimSpace(got.stderr))}
	}
	if smdxDeleted := strings.Contains(got.stderr, deletedNote); smdxDeleted != deleted {
		return stepResult{outcome: failed, detail: fmt.Sprintf("the server deleted the object: %v; smdx says so: %v", deleted, smdxDeleted)}
	}
	if deleted {
		r.deletions++
	}
	res := r.compare(s.kind, live, after, got.obj)
	if res.outcome == failed {
		r.keep(s, st, liveJSON, body, after)
	}
	return res
}

// keep saves what a failing step sent smdx and what the server stored into
// the directory $SMDX_REALAPI_KEEP names, if any, to rerun it by hand.
func (r *runner) keep(s *scenario, st step, liveJSON []byte, body, after map[string]interface{}) {
	dir := os.Getenv("SMDX_REALAPI_KEEP")
	if dir == "" {
		return
	}
	base := filepath.Join(dir, fmt.Sprintf("%s-%d-%s-%s", strings.ReplaceAll(s.name, "/", "_"), st.index, st.verb, st.manager))
	if liveJSON != nil {
		_ = os.WriteFile(base+"-live.json", liveJSON, 0o644)
	}
	for suffix, v := range map[string]map[string]interface{}{"body": body, "server": after} {
		if v != nil {
			_ = writeJSON(base+"-"+suffix+".json", v)
		}
	}
}

// latestTime is the newest managedFields time of obj, at least `floor`: the
// time the server stamped in this request, when it stamped one.
func latestTime(obj map[string]interface{}, floor time.Time) time.Time {
	t := floor
	for _, e := range entries(obj) {
		if s, ok := e["time"].(string); ok {
			if p, err := time.Parse(time.RFC3339, s); err == nil && p.After(t) {
				t = p
			}
		}
	}
	return t
}

func entries(obj map[string]interface{}) []map[string]interface{} {
	md, _ := obj["metadata"].(map[string]interface{})
	l, _ := md["managedFields"].([]interface{})
	var out []map[string]interface{}
	for _, e := range l {
		if m, ok := e.(map[string]interface{}); ok {
			out = append(out, m)
		}
	}
	return out
}

// runSmdx runs step `st` through smdx on the live object's JSON as the
// server sent it (nil: none yet).
func (r *runner) runSmdx(s *scenario, st step, liveJSON []byte, body map[string]interface{}, now time.Time) (*smdxResult, error) {
	args := []string{}
	switch st.verb {
	case "apply", "forceApply":
		args = append(args, "apply")
		if st.verb == "forceApply" {
			args = append(args, "--force-conflicts")
		}
	case "kubectlApply", "forceKubectlApply":
		args = append(args, "apply", "--as-kubectl")
		if st.verb == "forceKubectlApply" {
			args = append(args, "--force-conflicts")
		}
	case "mergePatch", "jsonPatch":
		args = append(args, "patch", "--type", strings.TrimSuffix(st.verb, "Patch"))
	case "strategicPatch":
		args = append(args, "patch", "--type", "strategic")
	case "csaApply":
		args = append(args, "apply", "--client-side")
	default:
		args = append(args, "update")
	}
	args = append(args, "--field-manager", st.manager, "--now", now.Format(time.RFC3339))
	if st.subresource != "" {
		args = append(args, "--subresource", st.subresource)
	}
	if s.kind.CRD != "" && r.crOpenAPI {
		docs, err := r.crSchemaFiles(s.kind)
		if err != nil {
			return nil, err
		}
		for _, d := range docs {
			args = append(args, "--schema", d)
		}
	} else if s.kind.CRD != "" {
		args = append(args, "--schema", filepath.Join(r.root, s.kind.CRD))
	} else if r.schema != "" {
		args = append(args, "--schema", r.schema)
	}
	lp := filepath.Join(r.work, "live.json")
	if liveJSON != nil {
		if err := os.WriteFile(lp, liveJSON, 0o644); err != nil {
			return nil, err
		}
	}
	bp := filepath.Join(r.work, "body.json")
	if isPatchVerb[st.verb] && st.verb != "csaApply" {
		// The patch, and the objects patched (none: nothing to patch).
		var patch interface{} = body
		if st.verb == "jsonPatch" {
			patch = st.ops
		}
		if err := writeJSON(bp, patch); err != nil {
			return nil, err
		}
		args = append(args, "--patch-file", bp)
		if liveJSON != nil {
			args = append(args, lp)
		}
	} else {
		if liveJSON != nil {
			args = append(args, "--live", lp)
		}
		if st.verb == "csaApply" {
			body = st.body // (smdx makes kubectl's request itself)
		}
		if err := writeJSON(bp, body); err != nil {
			return nil, err
		}
		args = append(args, bp)
	}
	cmd := exec.Command(r.smdx, args...)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	err := cmd.Run()
	res := &smdxResult{stderr: stderr.String()}
	if ee, ok := err.(*exec.ExitError); ok {
		res.code = ee.ExitCode()
		return res, nil
	} else if err != nil {
		return nil, err
	}
	if res.obj, err = decodeYAMLNumbers(stdout.Bytes()); err != nil {
		return nil, fmt.Errorf("smdx's output: %v", err)
	}
	return res, nil
}

// decodeYAMLNumbers decodes a YAML document holding a map, its numbers as
// json.Number with their text: `1.0` stays a float, where YAML-to-JSON
// conversion writes it back as `1`, which reads as an integer.
func decodeYAMLNumbers(b []byte) (map[string]interface{}, error) {
	var doc yamlv3.Node
	if err := yamlv3.Unmarshal(b, &doc); err != nil {
		return nil, err
	}
	if doc.Kind != yamlv3.DocumentNode || len(doc.Content) != 1 {
		return nil, fmt.Errorf("not one YAML document")
	}
	v, err := yamlNodeValue(doc.Content[0])
	if err != nil {
		return nil, err
	}
	m, ok := v.(map[string]interface{})
	if !ok {
		return nil, fmt.Errorf("not a map")
	}
	return m, nil
}

func yamlNodeValue(n *yamlv3.Node) (interface{}, error) {
	switch n.Kind {
	case yamlv3.MappingNode:
		m := make(map[string]interface{}, len(n.Content)/2)
		for i := 0; i+1 < len(n.Content); i += 2 {
			v, err := yamlNodeValue(n.Content[i+1])
			if err != nil {
				return nil, err
			}
			m[n.Content[i].Value] = v
		}
		return m, nil
	case yamlv3.SequenceNode:
		l := make([]interface{}, 0, len(n.Content))
		for _, c := range n.Content {
			v, err := yamlNodeValue(c)
			if err != nil {
				return nil, err
			}
			l = append(l, v)
		}
		return l, nil
	case yamlv3.ScalarNode:
		switch n.ShortTag() {
		case "!!int", "!!float":
			return json.Number(n.Value), nil
		case "!!bool":
			return strconv.ParseBool(n.Value)
		case "!!null":
			return nil, nil
		}
		return n.Value, nil // !!str, and !!timestamp as its text
	}
	return nil, fmt.Errorf("line %d: an alias or another node YAML-to-JSON would not take", n.Line)
}

// typedNumbers is `v` with each json.Number as the apiserver's decoder
// reads it (util/json: an integer literal that fits is an int64, any other
// number a float64), written so that kinds and values compare: an integer
// in decimal, a float in Go's shortest form with a fraction or exponent.
// `1` and `1.0` then differ, and `1e+21` and `1.0e21` do not.
func typedNumbers(v interface{}) interface{} {
	switch t := v.(type) {
	case map[string]interface{}:
		for k, e := range t {
			t[k] = typedNumbers(e)
		}
	case []interface{}:
		for i, e := range t {
			t[i] = typedNumbers(e)
		}
	case json.Number:
		s := string(t)
		if !strings.ContainsAny(s, ".eE") {
			if i, err := strconv.ParseInt(s, 10, 64); err == nil {
				return json.Number(strconv.FormatInt(i, 10))
			}
		}
		f, err := strconv.ParseFloat(s, 64)
		if err != nil {
			return t
		}
		out := strconv.FormatFloat(f, 'g', -1, 64)
		if !strings.ContainsAny(out, ".eEIN") {
			out += ".0"
		}
		return json.Number(out)
	}
	return v
}

func writeJSON(path string, v interface{}) error {
	b, err := json.Marshal(v)
	if err != nil {
		return err
	}
	return os.WriteFile(path, b, 0o600)
}

func (r *runner) compare(k *kindFile, before, server, smdx map[string]interface{}) stepResult {
	server = typedNumbers(copyValue(server)).(map[string]interface{})
	smdx = typedNumbers(copyValue(smdx)).(map[string]interface{})
	se, me := entries(server), entries(smdx)
	for _, o := range []map[string]interface{}{server, smdx} {
		if md, ok := o["metadata"].(map[string]interface{}); ok {
			delete(md, "managedFields")
		}
		applyMasks(o, k.Kind, before, r.masks)
	}
	entriesSame := sameJSON(normEntries(se), normEntries(me))
	objSame := sameJSON(server, smdx)
	if entriesSame && objSame {
		return stepResult{outcome: passed}
	}
	res := stepResult{outcome: failed}
	if objSame {
		res.serverEntries, res.smdxEntries = se, me
	}
	var onlyServer, onlySmdx, changed []string
	diffPaths("", server, smdx, &onlyServer, &onlySmdx, &changed)
	res.generationOnly = entriesSame && len(onlyServer) == 0 && len(onlySmdx) == 0 &&
		len(changed) == 1 && changed[0] == "metadata.generation" &&
		generationOf(server) == generationOf(smdx)+1
	var b strings.Builder
	if !entriesSame {
		fmt.Fprintf(&b, "managedFields differ:\n    server: %s\n    smdx:   %s\n", canon(normEntries(se)), canon(normEntries(me)))
	}
	if !objSame {
		fmt.Fprintf(&b, "    objects differ: only the server has %v; only smdx has %v; values differ at %v", onlyServer, onlySmdx, changed)
	}
	res.detail = b.String()
	return res
}

// generationOf is the object's metadata.generation (0 when it has none).
func generationOf(obj map[string]interface{}) int64 {
	md, _ := obj["metadata"].(map[string]interface{})
	switch g := md["generation"].(type) {
	case json.Number:
		n, _ := g.Int64()
		return n
	case float64:
		return int64(g)
	}
	return 0
}

// normEntries is the entries with fieldsV1 as a decoded value.
func normEntries(es []map[string]interface{}) []interface{} {
	out := []interface{}{}
	for _, e := range es {
		out = append(out, e)
	}
	return out
}

func canon(v interface{}) string {
	b, _ := json.Marshal(v)
	return string(b)
}

func sameJSON(a, b interface{}) bool {
	return canon(a) == canon(b)
}

// valueAt is the value at an object path of diffPaths.
func valueAt(obj interface{}, path string) interface{} {
	at := obj
	for _, part := range splitPath(path) {
		if strings.HasPrefix(part, "[") {
			i, _ := strconv.Atoi(strings.Trim(part, "[]"))
			l, ok := at.([]interface{})
			if !ok || i >= len(l) {
				return nil
			}
			at = l[i]
			continue
		}
		m, ok := at.(map[string]interface{})
		if !ok {
			return nil
		}
		at = m[part]
	}
	return at
}

// splitPath splits a.b[0].c into a, b, [0], c. Field names may hold dots
// (label keys): a part is taken whole when the map has it.
func splitPath(p string) []string {
	var out []string
	var cur strings.Builder
	for i := 0; i < len(p); i++ {
		switch p[i] {
		case '.':
			out = append(out, cur.String())
			cur.Reset()
		case '[':
			if cur.Len() > 0 {
				out = append(out, cur.String())
				cur.Reset()
			}
			j := strings.IndexByte(p[i:], ']')
			out = append(out, p[i:i+j+1])
			i += j
			if i+1 < len(p) && p[i+1] == '.' {
				i++
			}
		default:
			cur.WriteByte(p[i])
		}
	}
	if cur.Len() > 0 {
		out = append(out, cur.String())
	}
	return out
}

// diffPaths lists where two values differ: subtrees only in a, only in b,
// and leaves whose values differ.
func diffPaths(path string, a, b interface{}, onlyA, onlyB, changed *[]string) {
	am, aok := a.(map[string]interface{})
	bm, bok := b.(map[string]interface{})
	if aok && bok {
		for k, av := range am {
			p := join(path, k)
			if bv, ok := bm[k]; ok {
				diffPaths(p, av, bv, onlyA, onlyB, changed)
			} else {
				*onlyA = append(*onlyA, p)
			}
		}
		for k := range bm {
			if _, ok := am[k]; !ok {
				*onlyB = append(*onlyB, join(path, k))
			}
		}
		return
	}
	al, alok := a.([]interface{})
	bl, blok := b.([]interface{})
	if alok && blok && len(al) == len(bl) {
		for i := range al {
			diffPaths(path+"["+strconv.Itoa(i)+"]", al[i], bl[i], onlyA, onlyB, changed)
		}
		return
	}
	if !sameJSON(a, b) {
		*changed = append(*changed, path)
	}
}

func join(path, k string) string {
	if path == "" {
		return k
	}
	return path + "." + k
}

// crSchemaFiles fetches the cluster's /openapi/v3 documents of the custom
// resource's group (every version it serves), once the document of the
// kind's version declares the kind and the subresources the kind file
// names (the apiserver publishes them a moment after the CRD is served),
// and writes them into the work directory.
func (r *runner) crSchemaFiles(k *kindFile) ([]string, error) {
	if docs, ok := r.crDocs[k.path]; ok {
		return docs, nil
	}
	group := strings.SplitN(k.APIVersion, "/", 2)[0]
	deadline := time.Now().Add(60 * time.Second)
	for {
		index, err := r.c.get("/openapi/v3")
		if err != nil {
			return nil, err
		}
		paths, _ := index["paths"].(map[string]interface{})
		var keys []string
		for p := range paths {
			if strings.HasPrefix(p, "apis/"+group+"/") {
				keys = append(keys, p)
			}
		}
		sort.Strings(keys)
		var files []string
		ready := false
		for _, p := range keys {
			resp, err := r.c.do("GET", "/openapi/v3/"+p, "", nil, nil)
			if err != nil {
				return nil, err
			}
			if resp.code != 200 {
				break
			}
			if p == "apis/"+k.APIVersion && declares(resp.obj, k) {
				ready = true
			}
			f := filepath.Join(r.work, fmt.Sprintf("openapi-%s-%s.json", strings.TrimSuffix(filepath.Base(k.path), ".yaml"), strings.ReplaceAll(p, "/", "_")))
			if err := os.WriteFile(f, resp.raw, 0o644); err != nil {
				return nil, err
			}
			files = append(files, f)
		}
		if ready {
			r.crDocs[k.path] = files
			return files, nil
		}
		if time.Now().After(deadline) {
			return nil, fmt.Errorf("the cluster's /openapi/v3 does not declare %s %s with its subresources after 60s", k.APIVersion, k.Kind)
		}
		time.Sleep(500 * time.Millisecond)
	}
}

// declares says whether an OpenAPI v3 document has a path of the kind's
// resource, and one for each of the kind file's subresources.
func declares(doc map[string]interface{}, k *kindFile) bool {
	paths, _ := doc["paths"].(map[string]interface{})
	want := map[string]bool{"/" + k.Resource + "/{name}": false}
	for _, sub := range k.Subresources {
		want["/"+k.Resource+"/{name}/"+sub] = false
	}
	for p := range paths {
		for suffix := range want {
			if strings.HasSuffix(p, suffix) {
				want[suffix] = true
			}
		}
	}
	for _, seen := range want {
		if !seen {
			return false
		}
	}
	return true
}
