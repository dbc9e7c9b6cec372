package main

// Requests to the scale subresource of a Deployment, StatefulSet or
// ReplicaSet, run as Kubernetes' registry runs them
// (scaleUpdatedObjectInfo.UpdatedObject in
// pkg/registry/apps/<kind>/storage/storage.go): the Scale is made from the
// live object as scaleFrom<Kind> makes it, managedfields.ScaleHandler
// moves the entries that own the replicas field onto it, the Scale
// endpoint's own field manager (autoscaling/v1 Scale, subresource "scale",
// no reset fields) runs the request, the replicas go back into the object
// and ScaleHandler.ToParent merges the entries back.
//
// The registry works on typed objects; here they are unstructured, so what
// the typed Scale's encoding does is done by hand: spec.replicas is left
// out when 0 (omitempty), status.replicas is always there, and an empty
// status.selector is left out. The objects are not validated, as nothing
// in this driver is (an apiserver would not have stored a selector with an
// unknown operator: here it fails the request as scaleFromDeployment's
// error would).

import (
	"fmt"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/util/managedfields"
	"sigs.k8s.io/structured-merge-diff/v6/fieldpath"
)

var scaleGVK = schema.GroupVersionKind{Group: "autoscaling", Version: "v1", Kind: "Scale"}

// replicasPaths are the registry's replicasPathIn<Kind> mappings.
var replicasPaths = func() map[string]managedfields.ResourcePathMappings {
	replicas := fieldpath.MakePathOrDie("spec", "replicas")
	all := managedfields.ResourcePathMappings{"apps/v1beta1": replicas, "apps/v1beta2": replicas, "apps/v1": replicas}
	return map[string]managedfields.ResourcePathMappings{
		"Deployment":  all,
		"StatefulSet": all,
		"ReplicaSet":  {"apps/v1beta2": replicas, "apps/v1": replicas},
	}
}()

func hasScale(k kindSpec) bool {
	_, ok := replicasPaths[k.gvk.Kind]
	return ok && k.crd == nil
}

// scaleOf is the Scale the registry makes of a live object (scaleFrom<Kind>),
// as the typed Scale encodes it.
func scaleOf(parent map[string]interface{}) (map[string]interface{}, error) {
	meta := map[string]interface{}{}
	for _, f := range []string{"name", "namespace", "uid", "resourceVersion", "creationTimestamp"} {
		if v, ok, _ := unstructured.NestedString(parent, "metadata", f); ok && v != "" {
			meta[f] = v
		}
	}
	spec := map[string]interface{}{}
	if n, ok, _ := unstructured.NestedInt64(parent, "spec", "replicas"); ok && n != 0 {
		spec["replicas"] = n
	}
	status := map[string]interface{}{"replicas": int64(0)}
	if n, ok, _ := unstructured.NestedInt64(parent, "status", "replicas"); ok {
		status["replicas"] = n
	}
	var selector *metav1.LabelSelector
	if m, ok, _ := unstructured.NestedMap(parent, "spec", "selector"); ok {
		selector = &metav1.LabelSelector{}
		if err := runtime.DefaultUnstructuredConverter.FromUnstructured(m, selector); err != nil {
			return nil, err
		}
	}
	sel, err := metav1.LabelSelectorAsSelector(selector)
	if err != nil {
		return nil, err
	}
	if text := sel.String(); text != "" {
		status["selector"] = text
	}
	return map[string]interface{}{
		"apiVersion": scaleGVK.GroupVersion().String(),
		"kind":       scaleGVK.Kind,
		"metadata":   meta,
		"spec":       spec,
		"status":     status,
	}, nil
}

// asTypedScale is a written Scale as the apiserver decodes it.
func asTypedScale(obj map[string]interface{}) {
	for _, part := range []string{"spec", "status"} {
		if _, ok := obj[part].(map[string]interface{}); !ok {
			obj[part] = map[string]interface{}{}
		}
	}
	spec := obj["spec"].(map[string]interface{})
	if n, ok := spec["replicas"].(int64); ok && n == 0 {
		delete(spec, "replicas")
	}
	status := obj["status"].(map[string]interface{})
	if _, ok := status["replicas"]; !ok {
		status["replicas"] = int64(0)
	}
	if s, ok := status["selector"].(string); ok && s == "" {
		delete(status, "selector")
	}
}

// scaleBody is the request body of a scale op: the applied Scale, or the
// Scale a client read (GET .../scale, which carries no managedFields) with
// the op's replicas.
func (s *sequence) scaleBody(o opSpec, live map[string]interface{}) map[string]interface{} {
	var obj map[string]interface{}
	if o.op == "update" {
		var err error
		if obj, err = scaleOf(live); err != nil {
			// The GET fails too; the client writes what it has.
			obj = map[string]interface{}{"apiVersion": "autoscaling/v1", "kind": "Scale",
				"metadata": map[string]interface{}{"name": s.name}}
		}
		overlay(obj, o.fragment)
		return obj
	}
	obj = copyValue(o.fragment).(map[string]interface{})
	obj["apiVersion"] = scaleGVK.GroupVersion().String()
	obj["kind"] = scaleGVK.Kind
	obj["metadata"] = map[string]interface{}{"name": s.name}
	switch o.bad {
	case badManagedFields:
		obj["metadata"].(map[string]interface{})["managedFields"] = []interface{}{}
	case badAPIVersion:
		obj["apiVersion"] = "autoscaling/v1alpha9"
	}
	return obj
}

// runScale runs a scale op on the live object: the new object, or the
// request's error.
func (r *runner) runScale(s *sequence, o opSpec, current *unstructured.Unstructured, body map[string]interface{}) (*unstructured.Unstructured, error) {
	gv := s.kind.gvk.GroupVersion()
	handler := managedfields.NewScaleHandler(current.GetManagedFields(), gv, replicasPaths[s.kind.gvk.Kind])
	old, err := scaleOf(current.Object)
	if err != nil {
		return nil, err
	}
	oldScale := &unstructured.Unstructured{Object: old}
	entries, err := handler.ToSubresource()
	if err != nil {
		return nil, err
	}
	oldScale.SetManagedFields(entries)
	fm, err := r.scaleManager(s.kind.sc)
	if err != nil {
		return nil, err
	}
	request := &unstructured.Unstructured{Object: copyValue(body).(map[string]interface{})}
	var result runtime.Object
	if o.op == "update" {
		asTypedScale(request.Object)
		result = fm.UpdateNoErrors(oldScale, request, o.manager)
	} else {
		result, err = fm.Apply(oldScale, request, o.manager, o.op == "forceApply")
		if err != nil {
			return nil, err
		}
	}
	scale, ok := result.(*unstructured.Unstructured)
	if !ok {
		return nil, fmt.Errorf("the Scale's field manager returned %T", result)
	}
	replicas, _, _ := unstructured.NestedInt64(scale.Object, "spec", "replicas")
	parent := current.DeepCopy()
	// The registry sets the typed object's field: a null spec is the typed
	// zero spec there.
	if _, ok := parent.Object["spec"].(map[string]interface{}); !ok {
		parent.Object["spec"] = map[string]interface{}{}
	}
	if err := unstructured.SetNestedField(parent.Object, replicas, "spec", "replicas"); err != nil {
		return nil, err
	}
	merged, err := handler.ToParent(scale.GetManagedFields())
	if err != nil {
		return nil, err
	}
	parent.SetManagedFields(merged)
	return parent, nil
}

// scaleManager is the Scale endpoint's field manager.
func (r *runner) scaleManager(sc *builtinSchema) (*managedfields.FieldManager, error) {
	key := scaleGVK.String() + "/scale"
	if fm, ok := r.managers[key]; ok {
		return fm, nil
	}
	fm, err := managedfields.NewDefaultFieldManager(sc.converter, noConversion{}, noDefaults{}, unstructuredCreater{},
		scaleGVK, scaleGVK.GroupVersion(), "scale", nil)
	if err != nil {
		return nil, err
	}
	r.managers[key] = fm
	return fm, nil
}
