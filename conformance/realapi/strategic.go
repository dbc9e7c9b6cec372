package main

// Strategic merge patches: as a controller or `kubectl patch` sends one,
// and as client-side `kubectl apply` makes one (kubectl's patcher.go for a
// kind its scheme registers: strategicpatch.CreateThreeWayMergePatch of the
// last-applied annotation, the manifest with its new annotation, and the
// live object, with the Go type's tags, overwriting). smdx answers both
// with `smdx patch --type strategic`; the three-way patch, the client's
// work, is made here.

import (
	"encoding/json"
	"errors"
	"fmt"

	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/util/strategicpatch"
	"k8s.io/client-go/kubernetes/scheme"
)

const strategicPatch = "application/strategic-merge-patch+json"

// errNoPatch: kubectl cannot make the three-way patch (a list item without
// its merge key), so it sends nothing.
var errNoPatch = errors.New("client-side kubectl apply makes no patch")

// registered reports whether kubectl's scheme knows the kind (else
// client-side apply sends a JSON merge patch, which is not made here).
func registered(k *kindFile) bool {
	gv, err := schema.ParseGroupVersion(k.APIVersion)
	if err != nil || k.CRD != "" {
		return false
	}
	return scheme.Scheme.Recognizes(gv.WithKind(k.Kind))
}

// clientSideApplyPatch is the strategic merge patch client-side `kubectl
// apply` sends to make `live` (nil: none) the manifest.
func clientSideApplyPatch(k *kindFile, live, manifest map[string]interface{}) (map[string]interface{}, error) {
	gv, err := schema.ParseGroupVersion(k.APIVersion)
	if err != nil {
		return nil, err
	}
	typed, err := scheme.Scheme.New(gv.WithKind(k.Kind))
	if err != nil {
		return nil, err
	}
	meta, err := strategicpatch.NewPatchMetaFromStruct(typed)
	if err != nil {
		return nil, err
	}
	modifiedObj := copyValue(manifest).(map[string]interface{})
	withLastApplied(modifiedObj, manifest)
	modified, err := json.Marshal(modifiedObj)
	if err != nil {
		return nil, err
	}
	var original []byte
	if md, ok := live["metadata"].(map[string]interface{}); ok {
		if ann, ok := md["annotations"].(map[string]interface{}); ok {
			if text, ok := ann[lastAppliedKey].(string); ok {
				original = []byte(text)
			}
		}
	}
	if live == nil {
		live = map[string]interface{}{} // (the server answers 404)
	}
	current, err := json.Marshal(live)
	if err != nil {
		return nil, err
	}
	patch, err := strategicpatch.CreateThreeWayMergePatch(original, modified, current, meta, true)
	if err != nil {
		return nil, fmt.Errorf("%w: %v", errNoPatch, err)
	}
	var out map[string]interface{}
	if err := decodeJSON(patch, &out); err != nil {
		return nil, err
	}
	return out, nil
}
