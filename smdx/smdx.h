// smdx: Kubernetes server-side apply and structured merge diff in C++.
//
// The common path in one include: read objects (value/parse.h), find their
// type and a field manager from apiVersion and kind, with the Kubernetes
// built-in schema embedded or with schema documents and CRDs added
// (embed/catalog.h), apply and update as the apiserver does
// (fieldmanager/field_manager.h), read who owns what from managedFields
// (fieldmanager/managed_fields.h) and write the result (value/emit.h).
// Every public header lies under smdx/ by layer and may be included on its
// own; the C API is <smdx/c.h>.
//
// Example:
//   absl::StatusOr<smdx::Value> manifest = smdx::ParseYamlOrJson(text);
//   smdx::Catalog catalog = smdx::Catalog::Builtin();
//   smdx::ResourceOptions r;
//   r.api_version = "apps/v1";
//   r.kind = "Deployment";
//   absl::StatusOr<smdx::FieldManager> fm = catalog.NewFieldManager(r);
//   smdx::FieldManagerResult applied =
//       fm->Apply(smdx::Value(), *manifest, "my-controller", /*force=*/false);
//   if (applied.ok()) std::cout << smdx::ToYaml(applied.object);
#ifndef SMDX_SMDX_H_
#define SMDX_SMDX_H_

#include "smdx/embed/catalog.h"
#include "smdx/fieldmanager/field_manager.h"
#include "smdx/fieldmanager/managed_fields.h"
#include "smdx/schema/builtin.h"
#include "smdx/value/emit.h"
#include "smdx/value/parse.h"
#include "smdx/value/value.h"

#endif  // SMDX_SMDX_H_
