package main

// kubectl's server-side apply as kubectl sends it: the apply, and after it
// the requests of k8s.io/kubectl v0.37.2's apply.go that move a
// client-side applier's fields to the manager (saveLastApplyAnnotation-
// IfNecessary, migrateToSSAIfNecessary, then the apply again), the moved
// managedFields made by client-go's own csaupgrade. smdx answers the whole
// with `smdx apply --as-kubectl`.

import (
	"encoding/json"
	"fmt"
	"net/url"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/util/sets"
	"k8s.io/client-go/util/csaupgrade"
	"sigs.k8s.io/structured-merge-diff/v6/fieldpath"
)

const (
	applyPatch     = "application/apply-patch+yaml"
	jsonPatch      = "application/json-patch+json"
	kubectlManager = "kubectl"
	// kubectl's manager of the annotation it keeps (apply.go's
	// fieldManagerLastAppliedAnnotation).
	kubectlLastApplied = "kubectl-last-applied"
)

var lastAppliedPath = fieldpath.NewSet(fieldpath.MakePathOrDie("metadata", "annotations", lastAppliedKey))

// kubectlApply sends step st (verb kubectlApply) to path as kubectl
// apply --server-side --field-manager=st.manager does. It answers the
// apply's response when that fails, else the response of the last request
// that succeeded (kubectl only warns when a later one fails, as smdx
// does), but a later request's refusal as invalid or forbidden: the apply
// again, say, removed a field validation requires, which smdx does not
// check (random scenarios count such a step apart, as a refused request).
func (c *cluster) kubectlApply(path string, st step) (_ *response, err error) {
	// The requests' managedFields times must be one second's, as smdx
	// stamps one time for the whole: they start at least 300 ms before
	// the next second (on 2 CPUs the four took 7 ms, at most 55 ms).
	if ns := time.Now().Nanosecond(); ns > 700*int(time.Millisecond) {
		time.Sleep(time.Second - time.Duration(ns) + 5*time.Millisecond)
	}
	start := time.Now().Truncate(time.Second)
	defer func() {
		if end := time.Now(); err == nil && end.Truncate(time.Second) != start {
			err = fmt.Errorf("kubectl's requests ran from %s to %s, into another second than smdx stamps", start.Format(time.RFC3339), end.Format(time.RFC3339Nano))
		}
	}()
	q := url.Values{"fieldManager": {st.manager}}
	applyQuery := url.Values{"fieldManager": {st.manager}}
	if st.verb == "forceKubectlApply" {
		applyQuery.Set("force", "true")
	}
	first, err := c.do("PATCH", path, applyPatch, applyQuery, st.body)
	if err != nil || first.code >= 300 {
		return first, err
	}
	last := first
	obj := &unstructured.Unstructured{Object: first.obj}

	if st.manager == kubectlManager {
		ann, has := obj.GetAnnotations()[lastAppliedKey]
		owners := csaupgrade.FindFieldsOwners(obj.GetManagedFields(), metav1.ManagedFieldsOperationApply, lastAppliedPath)
		if has && len(owners) == 0 {
			just := &unstructured.Unstructured{Object: map[string]interface{}{}}
			if av, ok := st.body["apiVersion"].(string); ok {
				just.SetAPIVersion(av)
			}
			if k, ok := st.body["kind"].(string); ok {
				just.SetKind(k)
			}
			just.SetName(obj.GetName())
			just.SetNamespace(obj.GetNamespace())
			just.SetAnnotations(map[string]string{lastAppliedKey: ann})
			r, err := c.do("PATCH", path, applyPatch, url.Values{"fieldManager": {kubectlLastApplied}}, just.Object)
			if err != nil {
				return nil, err
			}
			if r.code >= 300 {
				return later(last, r), nil
			}
			last = r
			obj = &unstructured.Unstructured{Object: r.obj}
		}
	}

	names := sets.New[string]()
	for _, e := range csaupgrade.FindFieldsOwners(obj.GetManagedFields(), metav1.ManagedFieldsOperationUpdate, lastAppliedPath) {
		names.Insert(e.Manager)
	}
	patch, err := csaupgrade.UpgradeManagedFieldsPatch(obj, names, st.manager)
	if err != nil || patch == nil {
		return last, err
	}
	r, err := c.do("PATCH", path, jsonPatch, q, json.RawMessage(patch))
	if err != nil {
		return nil, err
	}
	if r.code >= 300 {
		return later(last, r), nil
	}
	last = r
	r, err = c.do("PATCH", path, applyPatch, applyQuery, st.body)
	if err != nil {
		return nil, err
	}
	if r.code >= 300 {
		return later(last, r), nil
	}
	return r, nil
}

// later is the answer of kubectl's steps when a request after the first
// failed with `refused`, `last` the last one that succeeded.
func later(last, refused *response) *response {
	if refused.code == 422 || refused.code == 403 {
		return refused
	}
	return last
}
