// A CRD's schema converted from OpenAPI and the SMD schema written by hand
// for the same types must behave the same: same field sets, same applies.
#include "smdx/fieldpath/fields_v1.h"
#include "gtest/gtest.h"
#include "smdx/merge/updater.h"
#include "smdx/openapi/openapi.h"
#include "testing/test_util.h"

namespace smdx {
namespace {

using testing::Yaml;

struct Pair {
  const char* name;
  const char* openapi;
  const char* smd;
  std::vector<const char*> objects;  // applied in turn by alternating managers
};

const Pair kPairs[] = {
    {"ports-and-labels",
     R"(type: object
properties:
  spec:
    type: object
    properties:
      ports:
        type: array
        x-kubernetes-list-type: map
        x-kubernetes-list-map-keys: [port, protocol]
        items:
          type: object
          properties:
            port: {type: integer}
            protocol: {type: string, default: TCP}
            name: {type: string}
      labels:
        type: object
        additionalProperties: {type: string}
      selector:
        type: object
        x-kubernetes-map-type: atomic
        additionalProperties: {type: string}
      finalizers:
        type: array
        x-kubernetes-list-type: set
        items: {type: string}
      args:
        type: array
        items: {type: string}
)",
     R"(types:
- name: root
  map:
    fields:
    - name: spec
      type:
        map:
          fields:
          - name: args
            type:
              list:
                elementType: {scalar: string}
                elementRelationship: atomic
          - name: finalizers
            type:
              list:
                elementType: {scalar: string}
                elementRelationship: associative
          - name: labels
            type:
              map:
                elementType: {scalar: string}
          - name: ports
            type:
              list:
                elementType:
                  map:
                    fields:
                    - name: name
                      type: {scalar: string}
                    - name: port
                      type: {scalar: numeric}
                    - name: protocol
                      type: {scalar: string}
                      default: TCP
                elementRelationship: associative
                keys: [port, protocol]
          - name: selector
            type:
              map:
                elementType: {scalar: string}
                elementRelationship: atomic
)",
     {"spec: {ports: [{port: 80, name: http}], labels: {a: b}, selector: {x: "
      "v1}, finalizers: [f], args: [a]}",
      "spec: {ports: [{port: 80, name: web}, {port: 53, protocol: UDP}], "
      "labels: {c: d}, selector: {z: w}}",
      "spec: {ports: [{port: 443}], finalizers: [g], args: [b, c]}"}},
    {"nested-objects",
     R"(type: object
properties:
  a:
    type: object
    properties:
      b:
        type: array
        x-kubernetes-list-type: map
        x-kubernetes-list-map-keys: [name]
        items:
          type: object
          properties:
            name: {type: string}
            values:
              type: array
              x-kubernetes-list-type: set
              items: {type: integer}
            extra:
              type: object
              x-kubernetes-preserve-unknown-fields: true
)",
     R"(types:
- name: root
  map:
    fields:
    - name: a
      type:
        map:
          fields:
          - name: b
            type:
              list:
                elementType:
                  map:
                    fields:
                    - name: extra
                      type:
                        namedType: __untyped_deduced_
                    - name: name
                      type: {scalar: string}
                    - name: values
                      type:
                        list:
                          elementType: {scalar: numeric}
                          elementRelationship: associative
                elementRelationship: associative
                keys: [name]
- name: __untyped_atomic_
  scalar: untyped
  list:
    elementType: {namedType: __untyped_atomic_}
    elementRelationship: atomic
  map:
    elementType: {namedType: __untyped_atomic_}
    elementRelationship: atomic
- name: __untyped_deduced_
  scalar: untyped
  list:
    elementType: {namedType: __untyped_atomic_}
    elementRelationship: atomic
  map:
    elementType: {namedType: __untyped_deduced_}
    elementRelationship: separable
)",
     {"a: {b: [{name: x, values: [1, 2], extra: {any: {thing: 1}}}]}",
      "a: {b: [{name: x, values: [3]}, {name: z1}]}",
      "a: {b: [{name: z1, extra: {k: [1]}}]}"}},
};

class EquivalenceTest : public ::testing::TestWithParam<Pair> {};

TEST_P(EquivalenceTest, SameFieldSetsAndApplies) {
  const Pair& p = GetParam();
  absl::StatusOr<std::shared_ptr<const Schema>> converted =
      SchemaFromOpenApiObject(Yaml(p.openapi), "root");
  ASSERT_TRUE(converted.ok()) << converted.status();
  absl::StatusOr<std::shared_ptr<const Schema>> handwritten =
      Schema::ParseSmd(p.smd);
  ASSERT_TRUE(handwritten.ok()) << handwritten.status();
  Type a = *Type::Named(*converted, "root");
  Type b = *Type::Named(*handwritten, "root");
  Updater ua(a), ub(b);
  Value live_a, live_b;
  ManagedFields mf_a, mf_b;
  for (size_t i = 0; i < p.objects.size(); ++i) {
    Value obj = Yaml(p.objects[i]);
    EXPECT_EQ(SerializeFieldsV1(ToFieldSet(a, obj)),
              SerializeFieldsV1(ToFieldSet(b, obj)))
        << p.objects[i];
    std::string manager = i % 2 == 0 ? "one" : "two";
    OpResult ra = ua.Apply(live_a, obj, "v1", mf_a, manager, /*force=*/true);
    OpResult rb = ub.Apply(live_b, obj, "v1", mf_b, manager, /*force=*/true);
    ASSERT_TRUE(ra.ok()) << ra.status;
    ASSERT_TRUE(rb.ok()) << rb.status;
    EXPECT_EQ(ra.object, rb.object) << p.objects[i];
    ASSERT_EQ(ra.managers.size(), rb.managers.size());
    for (const auto& [name, vs] : ra.managers) {
      EXPECT_EQ(SerializeFieldsV1(vs.set()),
                SerializeFieldsV1(rb.managers.at(name).set()))
          << name;
    }
    live_a = ra.object;
    live_b = rb.object;
    mf_a = ra.managers;
    mf_b = rb.managers;
  }
}

INSTANTIATE_TEST_SUITE_P(Pairs, EquivalenceTest, ::testing::ValuesIn(kPairs),
                         [](const ::testing::TestParamInfo<Pair>& info) {
                           std::string n = info.param.name;
                           for (char& c : n) {
                             if (c == '-') c = '_';
                           }
                           return n;
                         });

}  // namespace
}  // namespace smdx
