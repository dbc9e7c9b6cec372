// Command gotypes writes what the apiserver's Go types do to an object
// they decode, as data for smdx (smdx/schema/data/kubernetes-v1.37-go-types.json,
// read by smdx/kubetypes/go_types.h): for every struct type of the built-in API
// groups, named as the OpenAPI definitions name it, each JSON field's Go
// kind, whether it is omitempty or omitzero, and the value
// runtime.DefaultUnstructuredConverter gives it when the Go value is zero.
//
//	go run ./cmd/gotypes > ../../smdx/schema/data/kubernetes-v1.37-go-types.json
//	go run ./cmd/gotypes -strategic-cases > ../../testdata/strategicpatch/cases.json
//
// (The second: strategicpatch's own test cases and the answers it gives
// them, see strategic_cases.go.)
//
// The facts come from reflection over the types the client-go scheme and
// the apiextensions and aggregator schemes register, at the versions
// go.mod pins.
//
// Beside "types", "patch" holds what a strategic merge patch reads of the
// same types (strategicpatch.PatchMetaFromStruct, the apiserver's schema
// for one): for every struct type reachable from a kind, those with their
// own JSON encoding included, each JSON field as
// one string (see patchField).
package main

import (
	"encoding/json"
	"fmt"
	"os"
	"reflect"
	"strings"

	apiextensionsv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"
	apiextensionsv1beta1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1beta1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/client-go/kubernetes/scheme"
	apiregistrationv1 "k8s.io/kube-aggregator/pkg/apis/apiregistration/v1"
	apiregistrationv1beta1 "k8s.io/kube-aggregator/pkg/apis/apiregistration/v1beta1"
)

// A field, as written: [kind, flags, zero] or, for a map or slice whose
// elements' zero value is not null, [kind, flags, zero, element zero].
// kind is one of s (string), i (integer), f (float), b (bool),
// p (pointer), l (slice or array), m (map), t (struct), x (a struct with
// its own JSON encoding: Time, Quantity, IntOrString, ...), a (interface);
// flags holds e for omitempty, z for omitzero, y for a map or slice of
// byte slices, and 4 or 8 where the field, what it points to or its
// elements are int32 or int64 (the unstructured converter turns a whole
// float there into an integer and refuses any other). Go decodes a null element to the element's zero value
// (encoding/json and the unstructured converter alike): "" in a
// map[string]string, "0" in a ResourceList, a zero struct in a slice of
// structs.
type field []interface{}

var marshaler = reflect.TypeOf((*json.Marshaler)(nil)).Elem()

func main() {
	if len(os.Args) == 2 && os.Args[1] == "-strategic-cases" {
		strategicCases()
		return
	}
	s := runtime.NewScheme()
	for _, add := range []func(*runtime.Scheme) error{
		scheme.AddToScheme, apiextensionsv1.AddToScheme, apiextensionsv1beta1.AddToScheme,
		apiregistrationv1.AddToScheme, apiregistrationv1beta1.AddToScheme,
	} {
		if err := add(s); err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(1)
		}
	}
	types := map[string]map[string]field{}
	var visit func(t reflect.Type)
	visit = func(t reflect.Type) {
		for t.Kind() == reflect.Pointer || t.Kind() == reflect.Slice || t.Kind() == reflect.Array || t.Kind() == reflect.Map {
			t = t.Elem()
		}
		if t.Kind() != reflect.Struct || t.Implements(marshaler) || reflect.PointerTo(t).Implements(marshaler) {
			return
		}
		name := openAPIName(t)
		if name == "" {
			return
		}
		if _, seen := types[name]; seen {
			return
		}
		fields := map[string]field{}
		types[name] = fields
		collect(t, fields, visit)
	}
	kinds := s.AllKnownTypes()
	for gvk, t := range kinds {
		if gvk.Version == runtime.APIVersionInternal {
			continue
		}
		visit(t)
	}
	patch := map[string]map[string]string{}
	for gvk, t := range kinds {
		if gvk.Version == runtime.APIVersionInternal {
			continue
		}
		collectPatch(t, patch)
	}
	out, err := json.MarshalIndent(map[string]interface{}{
		"source": "k8s.io/api, k8s.io/apimachinery, k8s.io/apiextensions-apiserver, k8s.io/kube-aggregator v0.37.2 (Kubernetes v1.37.2)",
		"types":  types,
		"patch":  patch,
	}, "", " ")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	os.Stdout.Write(append(out, '\n'))
}

// eachJSONField calls f with each JSON field of struct t as encoding/json
// sees it (exported, not "-", inlined and embedded structs flattened): its
// name, its tag's options and the field.
func eachJSONField(t reflect.Type, f func(name string, opts []string, sf reflect.StructField)) {
	for i := 0; i < t.NumField(); i++ {
		sf := t.Field(i)
		if !sf.IsExported() {
			continue
		}
		tag := strings.Split(sf.Tag.Get("json"), ",")
		if tag[0] == "-" {
			continue
		}
		inline := false
		for _, opt := range tag[1:] {
			inline = inline || opt == "inline"
		}
		if inline || (sf.Anonymous && tag[0] == "") {
			ft := sf.Type
			if ft.Kind() == reflect.Pointer {
				ft = ft.Elem()
			}
			if ft.Kind() == reflect.Struct {
				eachJSONField(ft, f)
				continue
			}
		}
		name := tag[0]
		if name == "" {
			name = sf.Name
		}
		f(name, tag[1:], sf)
	}
}

// collect adds t's JSON fields (inlined structs flattened) to fields.
func collect(t reflect.Type, fields map[string]field, visit func(reflect.Type)) {
	eachJSONField(t, func(name string, opts []string, sf reflect.StructField) {
		flags := ""
		for _, opt := range opts {
			switch opt {
			case "omitempty":
				flags += "e"
			case "omitzero":
				flags += "z"
			}
		}
		f := field{kindOf(sf.Type), flags, zeroOf(sf.Type)}
		f[1] = flags + intFlag(sf.Type)
		if elem := elemOf(sf.Type); elem != nil {
			if elem.Kind() == reflect.Slice && elem.Elem().Kind() == reflect.Uint8 {
				f[1] = f[1].(string) + "y"
			}
			if z := zeroOf(elem); z != nil {
				f = append(f, z)
			}
		}
		fields[name] = f
		visit(sf.Type)
	})
}

// elemOf is the element type of a map or slice field (nil for any other,
// and for a []byte, which JSON writes as one base64 string).
func elemOf(t reflect.Type) reflect.Type {
	switch t.Kind() {
	case reflect.Map:
		return t.Elem()
	case reflect.Slice, reflect.Array:
		if t.Elem().Kind() == reflect.Uint8 {
			return nil
		}
		return t.Elem()
	}
	return nil
}

// intFlag is "4" or "8" when t, what it points to, or its elements
// (through a pointer) are int32 or int64.
func intFlag(t reflect.Type) string {
	if t.Kind() == reflect.Pointer {
		t = t.Elem()
	} else if elem := elemOf(t); elem != nil {
		t = elem
		if t.Kind() == reflect.Pointer {
			t = t.Elem()
		}
	}
	if t.Implements(marshaler) || reflect.PointerTo(t).Implements(marshaler) {
		return ""
	}
	switch t.Kind() {
	case reflect.Int32:
		return "4"
	case reflect.Int64:
		return "8"
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Uint, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		fmt.Fprintf(os.Stderr, "gotypes: %v: an integer type the data has no flag for\n", t)
		os.Exit(1)
	}
	return ""
}

func kindOf(t reflect.Type) string {
	if t.Implements(marshaler) || reflect.PointerTo(t).Implements(marshaler) {
		if t.Kind() == reflect.Struct {
			return "x"
		}
	}
	switch t.Kind() {
	case reflect.String:
		return "s"
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
		reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		return "i"
	case reflect.Float32, reflect.Float64:
		return "f"
	case reflect.Bool:
		return "b"
	case reflect.Pointer:
		return "p"
	case reflect.Slice, reflect.Array:
		return "l"
	case reflect.Map:
		return "m"
	case reflect.Struct:
		return "t"
	case reflect.Interface:
		return "a"
	}
	return "?"
}

// zeroOf is the unstructured value of t's zero value, as the converter
// the field manager types objects with gives it.
func zeroOf(t reflect.Type) interface{} {
	holder := reflect.StructOf([]reflect.StructField{{Name: "V", Type: t, Tag: `json:"v"`}})
	u, err := runtime.DefaultUnstructuredConverter.ToUnstructured(reflect.New(holder).Interface())
	if err != nil {
		fmt.Fprintf(os.Stderr, "gotypes: %v: %v\n", t, err)
		os.Exit(1)
	}
	return u["v"]
}

// patchTypeName names a struct type in the "patch" data: its OpenAPI name,
// or Go's text for an unnamed one.
func patchTypeName(t reflect.Type) string {
	if name := openAPIName(t); name != "" {
		return name
	}
	return t.String()
}

// openAPIName names a type as the OpenAPI definitions do: its package path
// with the domain reversed (k8s.io/api/apps/v1 -> io.k8s.api.apps.v1),
// then the type name.
func openAPIName(t reflect.Type) string {
	pkg := t.PkgPath()
	if pkg == "" || t.Name() == "" {
		return ""
	}
	parts := strings.SplitN(pkg, "/", 2)
	host := strings.Split(parts[0], ".")
	for i, j := 0, len(host)-1; i < j; i, j = i+1, j-1 {
		host[i], host[j] = host[j], host[i]
	}
	name := strings.Join(host, ".")
	if len(parts) == 2 {
		name += "." + strings.ReplaceAll(parts[1], "/", ".")
	}
	return name + "." + t.Name()
}

// collectPatch adds the patch facts of t (after a pointer) and of every
// struct its fields lead to.
func collectPatch(t reflect.Type, patch map[string]map[string]string) {
	for t.Kind() == reflect.Pointer || t.Kind() == reflect.Slice || t.Kind() == reflect.Array || t.Kind() == reflect.Map {
		t = t.Elem()
	}
	if t.Kind() != reflect.Struct {
		return
	}
	name := patchTypeName(t)
	if _, seen := patch[name]; seen {
		return
	}
	fields := map[string]string{}
	patch[name] = fields
	eachJSONField(t, func(jsonName string, _ []string, sf reflect.StructField) {
		fields[jsonName] = patchField(sf)
		collectPatch(sf.Type, patch)
	})
}

// patchField is a field as strategicpatch looks it up, in one string:
// where a patch map at the field leads (its type, through one pointer: "@"
// and a struct's OpenAPI name, or the Go kind the lookups in it refuse),
// or for a slice (or a pointer to one) "[" and where its items lead ("[!"
// for a slice of slices), "*" before it for any other pointer (a slice's
// lookup takes what it points to as the items); then "|" and its patchStrategy tag and "|" and
// its patchMergeKey tag when it has either.
func patchField(sf reflect.StructField) string {
	target := func(t reflect.Type) string {
		if t.Kind() == reflect.Pointer {
			t = t.Elem()
		}
		if t.Kind() == reflect.Struct {
			return "@" + patchTypeName(t)
		}
		return t.Kind().String()
	}
	t := sf.Type
	if t.Kind() == reflect.Pointer && (t.Elem().Kind() == reflect.Array || t.Elem().Kind() == reflect.Slice) {
		t = t.Elem()
	}
	out := target(sf.Type)
	if sf.Type.Kind() == reflect.Pointer && t == sf.Type {
		// (strategicpatch takes what a pointer points to as a slice's
		// items too.)
		out = "*" + out
	}
	if t.Kind() == reflect.Array || t.Kind() == reflect.Slice {
		if e := t.Elem(); sf.Type.Kind() != reflect.Pointer && (e.Kind() == reflect.Array || e.Kind() == reflect.Slice) {
			out = "[!"
		} else {
			out = "[" + target(e)
		}
	}
	strategy, key := sf.Tag.Get("patchStrategy"), sf.Tag.Get("patchMergeKey")
	if strategy != "" || key != "" {
		out += "|" + strategy + "|" + key
	}
	return out
}
