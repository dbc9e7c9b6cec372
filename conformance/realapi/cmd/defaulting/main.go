// Command defaulting is the defaulting differential: random objects of the
// built-in kinds, decoded by kube-apiserver v1.37's own scheme and by smdx
// (`smdx default`), must come out the same.
//
//	defaulting -smdx BIN [-seed S] [-n N] [-keep DIR]
//
// For each kind of the GA groups, N objects are filled at random the way
// Kubernetes' own defaulting test fills them (pkg/api/testing
// TestDefaulting: randfill, half the pointers nil). What a request body of
// each becomes in the apiserver -- defaulted by the scheme's defaulters,
// converted to the internal version and back, as the field manager sees it
// (runtime.DefaultUnstructuredConverter) -- is compared with what
// `smdx default --json` prints for it. The differences smdx leaves on
// purpose (knownDifferences, each with its reason) are counted apart;
// any other fails the run. Ends with `N passed, N failed`.
package main

import (
	"bytes"
	"encoding/json"
	"flag"
	"fmt"
	"math/rand"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"sort"
	"strings"

	"k8s.io/apimachinery/pkg/api/apitesting/fuzzer"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/kubernetes/pkg/api/legacyscheme"
	apitesting "k8s.io/kubernetes/pkg/api/testing"
	_ "k8s.io/kubernetes/pkg/apis/admissionregistration/install"
	_ "k8s.io/kubernetes/pkg/apis/apps/install"
	_ "k8s.io/kubernetes/pkg/apis/autoscaling/install"
	_ "k8s.io/kubernetes/pkg/apis/batch/install"
	_ "k8s.io/kubernetes/pkg/apis/certificates/install"
	_ "k8s.io/kubernetes/pkg/apis/coordination/install"
	_ "k8s.io/kubernetes/pkg/apis/core/install"
	_ "k8s.io/kubernetes/pkg/apis/discovery/install"
	_ "k8s.io/kubernetes/pkg/apis/flowcontrol/install"
	_ "k8s.io/kubernetes/pkg/apis/networking/install"
	_ "k8s.io/kubernetes/pkg/apis/node/install"
	_ "k8s.io/kubernetes/pkg/apis/policy/install"
	_ "k8s.io/kubernetes/pkg/apis/rbac/install"
	_ "k8s.io/kubernetes/pkg/apis/resource/install"
	_ "k8s.io/kubernetes/pkg/apis/scheduling/install"
	_ "k8s.io/kubernetes/pkg/apis/storage/install"
	"sigs.k8s.io/randfill"
)

// Kinds that are no stored objects (requests, reviews, options) or whose
// requests go elsewhere: not written through the field manager.
var skipped = map[string]bool{
	"Binding": true, "ComponentStatus": true, "Eviction": true, "Scale": true,
	"RangeAllocation": true, "SerializedReference": true, "Status": true,
	"WatchEvent": true, "PodStatusResult": true, "PodProxyOptions": true,
	"EphemeralContainers": true, "PodAttachOptions": true, "PodExecOptions": true,
	"PodLogOptions": true, "PodPortForwardOptions": true, "NodeProxyOptions": true,
	"ServiceProxyOptions": true, "List": true, "APIGroup": true,
	"APIGroupList": true, "APIResourceList": true, "APIVersions": true,
	"TokenRequest": true, "TokenReview": true, "SelfSubjectReview": true,
	"LocalSubjectAccessReview": true, "SelfSubjectAccessReview": true,
	"SelfSubjectRulesReview": true, "SubjectAccessReview": true,
	"AdmissionReview": true, "ImageReview": true,
}

// What smdx leaves on purpose: a field path prefix (dots; list indexes
// dropped) of a kind, and why.
var knownDifferences = []struct {
	apiVersion, kind, path, why string
}{
	{"resource.k8s.io/v1", "DeviceTaintRule", "spec.taint.timeAdded",
		"the server's clock at decoding (resource/v1 defaults.go SetDefaults_DeviceTaint); smdx leaves it to the server"},
	{"resource.k8s.io/v1", "ResourceSlice", "spec.devices.taints.timeAdded",
		"the same defaulter on a ResourceSlice's device taints"},
}

// The directory the run writes to when -keep names none.
var tempDir string

func main() {
	seed := flag.Int64("seed", 1, "the random seed")
	n := flag.Int("n", 20, "objects per kind")
	smdx := flag.String("smdx", "", "the smdx binary")
	keep := flag.String("keep", "", "a directory to keep input.json and expected.json in")
	flag.Parse()
	if *smdx == "" {
		fmt.Fprintln(os.Stderr, "usage: defaulting -smdx BIN [-seed S] [-n N] [-keep DIR]")
		os.Exit(2)
	}
	scheme := legacyscheme.Scheme
	var gvks []schema.GroupVersionKind
	for gvk := range scheme.AllKnownTypes() {
		if (gvk.Version != "v1" && !(gvk.Group == "autoscaling" && gvk.Version == "v2")) ||
			strings.HasSuffix(gvk.Kind, "List") || strings.HasSuffix(gvk.Kind, "Options") ||
			skipped[gvk.Kind] {
			continue
		}
		gvks = append(gvks, gvk)
	}
	sort.Slice(gvks, func(i, j int) bool { return gvks[i].String() < gvks[j].String() })

	f := randfill.New().NilChance(.5).NumElements(1, 2).RandSource(rand.NewSource(*seed))
	f.Funcs(
		func(s *runtime.RawExtension, c randfill.Continue) {},
		func(s *metav1.LabelSelector, c randfill.Continue) {
			c.FillNoCustom(s)
			s.MatchExpressions = nil
		},
		func(s *metav1.ObjectMeta, c randfill.Continue) {
			c.FillNoCustom(s)
			s.ManagedFields = nil
			s.CreationTimestamp = metav1.Time{}
			s.DeletionTimestamp = nil
		},
	)
	// Half the objects come from Kubernetes' own fuzzer functions, which
	// fill internal objects with values its API accepts (service types,
	// pull policies, ...); converted to the kind's version.
	internal := fuzzer.FuzzerFor(apitesting.FuzzerFuncs, rand.NewSource(*seed), legacyscheme.Codecs)
	var inputs, expected []interface{}
	for _, gvk := range gvks {
		for i := 0; i < *n; i++ {
			var src runtime.Object
			if i%2 == 1 {
				in, err := scheme.New(schema.GroupVersionKind{Group: gvk.Group, Version: runtime.APIVersionInternal, Kind: gvk.Kind})
				if err != nil {
					continue // no internal kind of that name
				}
				internal.Fill(in)
				out, err := scheme.ConvertToVersion(in, gvk.GroupVersion())
				if err != nil {
					continue
				}
				src = out
			} else {
				out, err := scheme.New(gvk)
				if err != nil {
					fail(err)
				}
				f.Fill(out)
				src = out
			}
			src.GetObjectKind().SetGroupVersionKind(gvk)
			in, err := runtime.DefaultUnstructuredConverter.ToUnstructured(src)
			if err != nil {
				fail(err)
			}
			want, err := decoded(scheme, in, gvk)
			if err != nil {
				// Conversion refuses some random values (a DaemonSet's
				// template generation annotation that is no number); so
				// does the apiserver's decoding.
				continue
			}
			inputs = append(inputs, in)
			expected = append(expected, want)
		}
	}
	// Quantities as people write them: in a resource list (rounded up to a
	// thousandth) and in a Quantity field, as strings and as JSON numbers.
	quantities := []interface{}{"1000m", "0.5", ".5", "5.", "1024Mi", "1.5Gi", "1536Mi",
		"0.1Ki", "1Ki", "1023", "1024", "2048", "1e3", "1E3", "1.5e3", "1e-3", "2e-10",
		"100u", "0.0001", "1n", "1k", "+2", "-1", " 3 ", "12345678901234567", "1000000k",
		"0", "0.0", "00012", "1.000", "3000000000", "1Ei", "8Ei", "1P", "1000P", "1500E",
		int64(1), int64(1000), 0.5, 2.25, 1e3, "x", "1Z", "1..2"}
	for _, q := range quantities {
		pod := map[string]interface{}{
			"apiVersion": "v1", "kind": "Pod", "metadata": map[string]interface{}{"name": "q"},
			"spec": map[string]interface{}{
				"containers": []interface{}{map[string]interface{}{
					"name": "c", "image": "c:1",
					"resources": map[string]interface{}{"limits": map[string]interface{}{"cpu": q}},
				}},
				"volumes": []interface{}{map[string]interface{}{
					"name": "v", "emptyDir": map[string]interface{}{"sizeLimit": q},
				}},
			},
		}
		want, err := decoded(scheme, pod, schema.GroupVersionKind{Version: "v1", Kind: "Pod"})
		if err != nil {
			continue // not a quantity: the apiserver refuses the body
		}
		inputs = append(inputs, pod)
		expected = append(expected, want)
	}

	// Times as clients write them: a Time (a pod condition's) and a
	// MicroTime (a lease's renewal), with fractions and offsets.
	times := []string{"2026-01-02T03:04:05Z", "2026-01-02T03:04:05.123456789Z",
		"2026-01-02T03:04:05+01:00", "2026-01-02T03:04:05.5-07:30", "2026-01-02T03:04:05.000001Z",
		"0001-01-01T00:00:00Z", "2026-13-02T03:04:05Z", "2026-01-02 03:04:05Z", "yesterday"}
	for _, t := range times {
		pod := map[string]interface{}{
			"apiVersion": "v1", "kind": "Pod", "metadata": map[string]interface{}{"name": "t"},
			"spec": map[string]interface{}{"containers": []interface{}{map[string]interface{}{"name": "c", "image": "c:1"}}},
			"status": map[string]interface{}{"conditions": []interface{}{map[string]interface{}{
				"type": "Ready", "status": "True", "lastTransitionTime": t}}},
		}
		lease := map[string]interface{}{
			"apiVersion": "coordination.k8s.io/v1", "kind": "Lease", "metadata": map[string]interface{}{"name": "t"},
			"spec": map[string]interface{}{"holderIdentity": "h", "renewTime": t},
		}
		for _, o := range []map[string]interface{}{pod, lease} {
			av := o["apiVersion"].(string)
			gv, _ := schema.ParseGroupVersion(av)
			want, err := decoded(scheme, o, gv.WithKind(o["kind"].(string)))
			if err != nil {
				continue // not a time: the apiserver refuses the body
			}
			inputs = append(inputs, o)
			expected = append(expected, want)
		}
	}

	dir := *keep
	if dir == "" {
		d, err := os.MkdirTemp("", "smdx-defaulting-")
		if err != nil {
			fail(err)
		}
		// Removed on every way out: a return, or an exit through fail.
		tempDir = d
		defer os.RemoveAll(d)
		dir = d
	}
	input := filepath.Join(dir, "input.json")
	write(input, inputs)
	write(filepath.Join(dir, "expected.json"), expected)

	// One List holds every object: above the apiserver's request size.
	cmd := exec.Command(*smdx, "default", "--json", "--max-object-bytes", "1000000000", input)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		msg := stderr.String()
		if len(msg) > 2000 {
			msg = msg[:2000] + "..."
		}
		fail(fmt.Errorf("smdx default: %v: %s", err, msg))
	}
	var got []interface{}
	dec := json.NewDecoder(&stdout)
	for dec.More() {
		var v interface{}
		if err := dec.Decode(&v); err != nil {
			fail(fmt.Errorf("smdx default printed no JSON: %v", err))
		}
		got = append(got, v)
	}
	if len(got) != len(expected) {
		fail(fmt.Errorf("smdx default printed %d objects for %d", len(got), len(expected)))
	}
	same, known, failed := 0, 0, 0
	knownSeen := map[string]int{}
	for i := range expected {
		want := normalize(expected[i])
		have := normalize(got[i])
		var diffs []string
		diff("", want, have, &diffs)
		obj := expected[i].(map[string]interface{})
		av, kind := obj["apiVersion"].(string), obj["kind"].(string)
		var unexplained []string
		for _, d := range diffs {
			if why := explained(av, kind, d); why != "" {
				knownSeen[why]++
				continue
			}
			unexplained = append(unexplained, d)
		}
		switch {
		case len(diffs) == 0:
			same++
		case len(unexplained) == 0:
			known++
		default:
			failed++
			if failed <= 10 {
				fmt.Printf("FAIL %s %s #%d:\n  %s\n", av, kind, i, strings.Join(unexplained[:min(len(unexplained), 8)], "\n  "))
			}
		}
	}
	fmt.Printf("defaulting: %d random objects of %d kinds (seed %d): %d identical, %d differ only where smdx leaves a field to the server on purpose, %d differ\n",
		len(expected), len(gvks), *seed, same, known, failed)
	for _, k := range knownDifferences {
		if c := knownSeen[k.why]; c > 0 {
			fmt.Printf("  known (%d): %s %s %s: %s\n", c, k.apiVersion, k.kind, k.path, k.why)
		}
	}
	fmt.Printf("%d passed, %d failed\n", same+known, failed)
	if failed > 0 {
		os.RemoveAll(tempDir)
		os.Exit(1)
	}
}

// normalize makes JSON numbers comparable (float64 either way).
func normalize(v interface{}) interface{} {
	b, _ := json.Marshal(v)
	var out interface{}
	_ = json.Unmarshal(b, &out)
	return out
}

// diff lists the paths where a and b differ, as "path: go X smdx Y".
func diff(path string, a, b interface{}, out *[]string) {
	am, aok := a.(map[string]interface{})
	bm, bok := b.(map[string]interface{})
	if aok && bok {
		keys := map[string]bool{}
		for k := range am {
			keys[k] = true
		}
		for k := range bm {
			keys[k] = true
		}
		var sorted []string
		for k := range keys {
			sorted = append(sorted, k)
		}
		sort.Strings(sorted)
		for _, k := range sorted {
			av, ain := am[k]
			bv, bin := bm[k]
			p := strings.TrimPrefix(path+"."+k, ".")
			switch {
			case !bin:
				*out = append(*out, fmt.Sprintf("%s: only Go has %s", p, short(av)))
			case !ain:
				*out = append(*out, fmt.Sprintf("%s: only smdx has %s", p, short(bv)))
			default:
				diff(p, av, bv, out)
			}
		}
		return
	}
	al, alok := a.([]interface{})
	bl, blok := b.([]interface{})
	if alok && blok && len(al) == len(bl) {
		for i := range al {
			diff(fmt.Sprintf("%s[%d]", path, i), al[i], bl[i], out)
		}
		return
	}
	if !reflect.DeepEqual(a, b) {
		*out = append(*out, fmt.Sprintf("%s: Go %s, smdx %s", path, short(a), short(b)))
	}
}

func short(v interface{}) string {
	b, _ := json.Marshal(v)
	if len(b) > 80 {
		return string(b[:80]) + "..."
	}
	return string(b)
}

// explained is the reason a difference at the path of d is known, or "".
func explained(apiVersion, kind, d string) string {
	path := d[:strings.Index(d, ":")]
	var b strings.Builder
	for i := 0; i < len(path); i++ {
		if path[i] == '[' {
			for i < len(path) && path[i] != ']' {
				i++
			}
			continue
		}
		b.WriteByte(path[i])
	}
	bare := b.String()
	for _, k := range knownDifferences {
		if k.apiVersion == apiVersion && k.kind == kind &&
			(bare == k.path || strings.HasPrefix(bare, k.path+".")) {
			return k.why
		}
	}
	return ""
}

// decoded is what the apiserver's decoding makes of a request body holding
// obj: decoded from JSON into the internal version (defaulted on the way,
// the codec the handlers use), then converted to the object's version.
func decoded(scheme *runtime.Scheme, obj map[string]interface{}, gvk schema.GroupVersionKind) (map[string]interface{}, error) {
	body, err := json.Marshal(obj)
	if err != nil {
		return nil, err
	}
	decoder := legacyscheme.Codecs.UniversalDecoder(schema.GroupVersion{Group: gvk.Group, Version: runtime.APIVersionInternal})
	internal, _, err := decoder.Decode(body, nil, nil)
	if err != nil {
		return nil, err
	}
	back, err := scheme.ConvertToVersion(internal, gvk.GroupVersion())
	if err != nil {
		return nil, err
	}
	return runtime.DefaultUnstructuredConverter.ToUnstructured(back)
}

func write(path string, items []interface{}) {
	b, err := json.Marshal(map[string]interface{}{"apiVersion": "v1", "kind": "List", "items": items})
	if err != nil {
		fail(err)
	}
	if err := os.WriteFile(path, b, 0o644); err != nil {
		fail(err)
	}
}

func fail(err error) {
	fmt.Fprintf(os.Stderr, "defaulting: %v\n", err)
	os.RemoveAll(tempDir)
	os.Exit(1)
}
