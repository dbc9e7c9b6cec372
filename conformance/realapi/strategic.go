package main

// Strategic merge patches: as a controller or `kubectl patch` sends one
// (smdx answers with `smdx patch`), and client-side `kubectl apply`
// (kubectl's patcher.go: for a kind its scheme registers
// strategicpatch.CreateThreeWayMergePatch of the last-applied annotation,
// the manifest with its new annotation, and the live object, with the Go
// type's tags, overwriting; for a custom resource
// jsonmergepatch.CreateThreeWayJSONMergePatch). smdx answers that with
// `smdx apply --client-side`, which makes the request itself.

import (
	"errors"
	"fmt"

	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/util/jsonmergepatch"
	"k8s.io/apimachinery/pkg/util/mergepatch"
	"k8s.io/apimachinery/pkg/util/strategicpatch"
	"k8s.io/client-go/kubernetes/scheme"
	kubectlutil "k8s.io/kubectl/pkg/util"
)

const strategicPatch = "application/strategic-merge-patch+json"

// errNoPatch: kubectl cannot make the three-way patch (a list item without
// its merge key, say), so it fails and sends nothing.
var errNoPatch = errors.New("client-side kubectl apply makes no patch")

// registered reports whether kubectl's scheme knows the kind (else
// client-side apply sends a JSON merge patch).
func registered(k *kindFile) bool {
	gv, err := schema.ParseGroupVersion(k.APIVersion)
	if err != nil || k.CRD != "" {
		return false
	}
	return scheme.Scheme.Recognizes(gv.WithKind(k.Kind))
}

// csaRequest is what client-side `kubectl apply` of `manifest` sends when
// `live` (nil: none) is stored (k8s.io/kubectl's apply.go and patcher.go,
// with its own annotation helpers): a create of the manifest with its
// annotation (create), or a patch of `patchType` (nil: kubectl sends
// nothing, the patch is empty).
type csaRequest struct {
	create    bool
	body      map[string]interface{}
	patchType string
}

func clientSideApply(k *kindFile, live, manifest map[string]interface{}) (*csaRequest, error) {
	obj := &unstructured.Unstructured{Object: copyValue(manifest).(map[string]interface{})}
	modified, err := kubectlutil.GetModifiedConfiguration(obj, true, unstructured.UnstructuredJSONScheme)
	if err != nil {
		return nil, err
	}
	if live == nil {
		if err := kubectlutil.CreateApplyAnnotation(obj, unstructured.UnstructuredJSONScheme); err != nil {
			return nil, err
		}
		return &csaRequest{create: true, body: obj.Object}, nil
	}
	current := &unstructured.Unstructured{Object: live}
	original, err := kubectlutil.GetOriginalConfiguration(current)
	if err != nil {
		return nil, err
	}
	currentJSON, err := runtime.Encode(unstructured.UnstructuredJSONScheme, current)
	if err != nil {
		return nil, err
	}
	var patch []byte
	req := &csaRequest{patchType: strategicPatch}
	if registered(k) {
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
		patch, err = strategicpatch.CreateThreeWayMergePatch(original, modified, currentJSON, meta, true)
		if err != nil {
			return nil, fmt.Errorf("%w: %v", errNoPatch, err)
		}
	} else {
		req.patchType = "application/merge-patch+json"
		preconditions := []mergepatch.PreconditionFunc{mergepatch.RequireKeyUnchanged("apiVersion"),
			mergepatch.RequireKeyUnchanged("kind"), mergepatch.RequireMetadataKeyUnchanged("name")}
		patch, err = jsonmergepatch.CreateThreeWayJSONMergePatch(original, modified, currentJSON, preconditions...)
		if err != nil {
			return nil, fmt.Errorf("%w: %v", errNoPatch, err)
		}
	}
	if string(patch) == "{}" {
		return &csaRequest{}, nil
	}
	if err := decodeJSON(patch, &req.body); err != nil {
		return nil, err
	}
	return req, nil
}
