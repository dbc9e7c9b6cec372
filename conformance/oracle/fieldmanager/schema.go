package main

// The built-in schema as the apiserver's field manager sees it: the OpenAPI
// definitions smdx embeds (smdx/schema/data: v1.37's v3 schemas, with their
// defaults; for a v2 document, the defaults smdx adds to it),
// turned into a TypeConverter by apimachinery's own NewTypeConverter, and
// the same definitions turned into an SMD schema by kube-openapi (which is
// what NewTypeConverter does inside) for the generator to walk.

import (
	"encoding/json"
	"fmt"
	"os"

	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/util/managedfields"
	"k8s.io/kube-openapi/pkg/schemaconv"
	"k8s.io/kube-openapi/pkg/validation/spec"
	smdschema "sigs.k8s.io/structured-merge-diff/v6/schema"
)

type builtinSchema struct {
	converter managedfields.TypeConverter
	smd       *smdschema.Schema
	// The definition name of each group/version/kind.
	typeName map[schema.GroupVersionKind]string
}

// defaultsFile is smdx/schema/data/kubernetes-*-defaults.json.
type defaultsFile struct {
	Defaults []struct {
		Definition string      `json:"definition"`
		Property   string      `json:"property"`
		Default    interface{} `json:"default"`
	} `json:"defaults"`
}

func loadBuiltinSchema(swaggerPath, defaultsPath string) (*builtinSchema, map[string]*spec.Schema, error) {
	raw, err := os.ReadFile(swaggerPath)
	if err != nil {
		return nil, nil, err
	}
	// An OpenAPI v2 document (definitions) or v3 (components.schemas): the
	// apiserver builds its type converter from the v3 definitions, with
	// every default they carry.
	var doc struct {
		Definitions map[string]spec.Schema `json:"definitions"`
		Components  struct {
			Schemas map[string]spec.Schema `json:"schemas"`
		} `json:"components"`
	}
	if err := json.Unmarshal(raw, &doc); err != nil {
		return nil, nil, fmt.Errorf("%s: %v", swaggerPath, err)
	}
	defs := doc.Definitions
	if len(defs) == 0 {
		defs = doc.Components.Schemas
	}
	models := map[string]*spec.Schema{}
	for name := range defs {
		s := defs[name]
		models[name] = &s
	}
	if defaultsPath != "" {
		raw, err := os.ReadFile(defaultsPath)
		if err != nil {
			return nil, nil, err
		}
		var d defaultsFile
		if err := json.Unmarshal(raw, &d); err != nil {
			return nil, nil, fmt.Errorf("%s: %v", defaultsPath, err)
		}
		for _, e := range d.Defaults {
			m, ok := models[e.Definition]
			if !ok {
				return nil, nil, fmt.Errorf("%s: no definition %s", defaultsPath, e.Definition)
			}
			p, ok := m.Properties[e.Property]
			if !ok {
				return nil, nil, fmt.Errorf("%s: %s has no property %s", defaultsPath, e.Definition, e.Property)
			}
			p.Default = e.Default
			m.Properties[e.Property] = p
		}
	}
	tc, err := managedfields.NewTypeConverter(models, false)
	if err != nil {
		return nil, nil, err
	}
	smd, err := schemaconv.ToSchemaFromOpenAPI(models, false)
	if err != nil {
		return nil, nil, err
	}
	out := &builtinSchema{converter: tc, smd: smd, typeName: map[schema.GroupVersionKind]string{}}
	out.indexKinds(models)
	return out, models, nil
}

// resolve gives the atom a type reference stands for, with a map's element
// relationship overridden as the reference says.
func (b *builtinSchema) resolve(tr smdschema.TypeRef) smdschema.Atom {
	a, ok := b.smd.Resolve(tr)
	if !ok {
		return smdschema.Atom{}
	}
	return a
}
