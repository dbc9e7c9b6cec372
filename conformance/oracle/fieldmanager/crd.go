package main

// Custom resources as apiextensions-apiserver serves them: the type
// converter built from the CRD's versions merged with the built-in
// definitions (its buildOpenAPIModelsForApply), structural defaulting of
// the request bodies it decodes and of apply results (its
// unstructuredDefaulter), no conversion between versions (strategy None
// only sets apiVersion), and the registry strategy's resets of status
// (registry/customresource: strategy.go, status_strategy.go).

import (
	"fmt"
	"os"
	"sort"

	apiextensionsinternal "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions"
	apiextensionsv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"
	structuralschema "k8s.io/apiextensions-apiserver/pkg/apiserver/schema"
	structuraldefaulting "k8s.io/apiextensions-apiserver/pkg/apiserver/schema/defaulting"
	schemaobjectmeta "k8s.io/apiextensions-apiserver/pkg/apiserver/schema/objectmeta"
	structuralpruning "k8s.io/apiextensions-apiserver/pkg/apiserver/schema/pruning"
	"k8s.io/apiextensions-apiserver/pkg/controller/openapi/builder"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/util/managedfields"
	"k8s.io/kube-openapi/pkg/schemaconv"
	"k8s.io/kube-openapi/pkg/spec3"
	"k8s.io/kube-openapi/pkg/validation/spec"
	"sigs.k8s.io/structured-merge-diff/v6/fieldpath"
	"sigs.k8s.io/yaml"
)

type crdInfo struct {
	path     string // absolute, for the cases' crdFile
	group    string
	kind     string
	versions []string // served, storage first
	status   bool     // a status subresource
	// The versions with the status subresource, whose resets the status
	// endpoint's field manager takes whatever its own version
	// (getStatusResetFields).
	statusVersions []string
	// The structural schema of each version, for defaulting.
	structural map[string]*structuralschema.Structural
}

// loadCRD reads a CRD manifest and builds its schemas on top of the
// built-in definitions (`static`, as the apiserver's static OpenAPI spec).
func loadCRD(path string, static map[string]*spec.Schema) (*builtinSchema, *crdInfo, error) {
	raw, err := os.ReadFile(path)
	if err != nil {
		return nil, nil, err
	}
	crd := &apiextensionsv1.CustomResourceDefinition{}
	if err := yaml.UnmarshalStrict(raw, crd); err != nil {
		return nil, nil, fmt.Errorf("%s: %v", path, err)
	}
	info := &crdInfo{path: path, group: crd.Spec.Group, kind: crd.Spec.Names.Kind,
		structural: map[string]*structuralschema.Structural{}}
	for _, v := range crd.Spec.Versions {
		// The apiserver makes storage for the versions it serves or
		// stores in.
		if (v.Served || v.Storage) && v.Subresources != nil && v.Subresources.Status != nil {
			info.statusVersions = append(info.statusVersions, crd.Spec.Group+"/"+v.Name)
		}
		if !v.Served {
			continue
		}
		if v.Storage {
			info.versions = append([]string{v.Name}, info.versions...)
		} else {
			info.versions = append(info.versions, v.Name)
		}
		if v.Subresources != nil && v.Subresources.Status != nil {
			info.status = true
		}
		internal := &apiextensionsinternal.JSONSchemaProps{}
		if err := apiextensionsv1.Convert_v1_JSONSchemaProps_To_apiextensions_JSONSchemaProps(v.Schema.OpenAPIV3Schema, internal, nil); err != nil {
			return nil, nil, fmt.Errorf("%s: version %s: %v", path, v.Name, err)
		}
		s, err := structuralschema.NewStructural(internal)
		if err != nil {
			return nil, nil, fmt.Errorf("%s: version %s: %v", path, v.Name, err)
		}
		info.structural[v.Name] = s
	}
	// The models of every version merged with the static ones, as
	// buildOpenAPIModelsForApply makes them.
	specs := []*spec3.OpenAPI{{Version: "3.0.0", Info: &spec.Info{}, Components: &spec3.Components{Schemas: static}}}
	for _, v := range crd.Spec.Versions {
		s, err := builder.BuildOpenAPIV3(crd, v.Name, builder.Options{})
		if err != nil {
			return nil, nil, fmt.Errorf("%s: version %s: %v", path, v.Name, err)
		}
		specs = append(specs, s)
	}
	merged, err := builder.MergeSpecsV3(specs...)
	if err != nil {
		return nil, nil, err
	}
	models := merged.Components.Schemas
	tc, err := managedfields.NewTypeConverter(models, crd.Spec.PreserveUnknownFields)
	if err != nil {
		return nil, nil, err
	}
	smd, err := schemaconv.ToSchemaFromOpenAPI(models, crd.Spec.PreserveUnknownFields)
	if err != nil {
		return nil, nil, err
	}
	b := &builtinSchema{converter: tc, smd: smd, typeName: map[schema.GroupVersionKind]string{}}
	b.indexKinds(models)
	return b, info, nil
}

// indexKinds records the definition name of each group/version/kind.
func (b *builtinSchema) indexKinds(models map[string]*spec.Schema) {
	names := make([]string, 0, len(models))
	for name := range models {
		names = append(names, name)
	}
	sort.Strings(names)
	for _, name := range names {
		l, _ := models[name].Extensions["x-kubernetes-group-version-kind"].([]interface{})
		for _, e := range l {
			m, _ := e.(map[string]interface{})
			g, _ := m["group"].(string)
			v, _ := m["version"].(string)
			k, _ := m["kind"].(string)
			b.typeName[schema.GroupVersionKind{Group: g, Version: v, Kind: k}] = name
		}
	}
}

// crDefaulter defaults a custom resource with its version's structural
// schema, as apiextensions' unstructuredDefaulter does.
type crDefaulter struct{ info *crdInfo }

func (d crDefaulter) Default(in runtime.Object) {
	u, ok := in.(*unstructured.Unstructured)
	if !ok {
		return
	}
	if s := d.info.structural[u.GroupVersionKind().Version]; s != nil {
		structuraldefaulting.Default(u.Object, s)
	}
}

// noneConversion converts a custom resource between versions as the None
// strategy does: the same object with another apiVersion.
type noneConversion struct{ noConversion }

func (noneConversion) ConvertToVersion(in runtime.Object, target runtime.GroupVersioner) (runtime.Object, error) {
	u, ok := in.(*unstructured.Unstructured)
	if !ok {
		return nil, fmt.Errorf("not a custom resource: %T", in)
	}
	gvk, ok := target.KindForGroupVersionKinds([]schema.GroupVersionKind{u.GroupVersionKind()})
	if !ok {
		return nil, fmt.Errorf("no version of %v in %v", u.GroupVersionKind(), target)
	}
	out := u.DeepCopy()
	out.SetAPIVersion(gvk.GroupVersion().String())
	return out, nil
}

// resetFields are what the registry strategy of the endpoint resets
// (GetResetFields): status on the main resource of a kind with a status
// subresource, metadata and spec on /status.
func (c *crdInfo) resetFields(gv schema.GroupVersion, subresource string) map[fieldpath.APIVersion]fieldpath.Filter {
	v := fieldpath.APIVersion(gv.String())
	switch {
	case subresource == "status":
		// Every version's, as the apiextensions-apiserver's
		// getStatusResetFields gives them (customresource_handler.go).
		sets := map[fieldpath.APIVersion]*fieldpath.Set{}
		for _, sv := range append([]string{string(v)}, c.statusVersions...) {
			sets[fieldpath.APIVersion(sv)] = fieldpath.NewSet(fieldpath.MakePathOrDie("metadata"), fieldpath.MakePathOrDie("spec"))
		}
		return fieldpath.NewExcludeFilterSetMap(sets)
	case c.status:
		return fieldpath.NewExcludeFilterSetMap(map[fieldpath.APIVersion]*fieldpath.Set{
			v: fieldpath.NewSet(fieldpath.MakePathOrDie("status")),
		})
	}
	return nil
}

// prepare is the registry strategy's PrepareForCreate (old nil) or
// PrepareForUpdate on what the field manager returned: with a status
// subresource the main resource keeps the old status (a create has none),
// and /status keeps everything of the old object but status and
// managedFields. (The generation it also sets is not compared.)
func (c *crdInfo) prepare(obj, old *unstructured.Unstructured, subresource string) {
	if subresource == "status" {
		status, ok := obj.Object["status"]
		managed := obj.GetManagedFields()
		obj.Object = old.DeepCopy().Object
		obj.SetManagedFields(managed)
		if ok {
			obj.Object["status"] = status
		} else {
			delete(obj.Object, "status")
		}
		return
	}
	if !c.status {
		return
	}
	if old == nil {
		delete(obj.Object, "status")
		return
	}
	if s, ok := old.Object["status"]; ok {
		obj.Object["status"] = s
	} else {
		delete(obj.Object, "status")
	}
}

// decode is what apiextensions' decoder does to a custom resource it reads
// (a request body, or the object read back from storage after a write):
// its unstructuredSchemaCoercer (unknown fields pruned, non-nullable nulls
// without a default dropped, metadata coerced through ObjectMeta), then
// the defaulter. The creationTimestamp the ObjectMeta round trip writes
// (null until the apiserver sets it) is taken out: the server stamps it.
func (c *crdInfo) decode(u *unstructured.Unstructured) error {
	s := c.structural[u.GroupVersionKind().Version]
	if s == nil {
		return fmt.Errorf("no version %s", u.GroupVersionKind().Version)
	}
	kind, apiVersion := u.GetKind(), u.GetAPIVersion()
	meta, found, err := schemaobjectmeta.GetObjectMeta(u.Object, false)
	if err != nil {
		return err
	}
	structuralpruning.Prune(u.Object, s, true)
	structuraldefaulting.PruneNonNullableNullsWithoutDefaults(u.Object, s)
	if err := schemaobjectmeta.Coerce(nil, u.Object, s, false, false); err != nil {
		return err
	}
	u.SetKind(kind)
	u.SetAPIVersion(apiVersion)
	if found {
		if err := schemaobjectmeta.SetObjectMeta(u.Object, meta); err != nil {
			return err
		}
		if md, ok := u.Object["metadata"].(map[string]interface{}); ok {
			if v, ok := md["creationTimestamp"]; ok && v == nil {
				delete(md, "creationTimestamp")
			}
		}
	}
	structuraldefaulting.Default(u.Object, s)
	return nil
}
