#include "smdx/schema/markers.h"

#include <set>
#include <string>
#include <utility>

#include "absl/strings/str_cat.h"

namespace smdx {

namespace {

bool IsSet(const Atom& atom) {
  return atom.list && atom.IsAssociativeList() && atom.list->keys.empty();
}

bool IsKeyedList(const Atom& atom) {
  return atom.list && atom.IsAssociativeList() && !atom.list->keys.empty();
}

class MarkerChecker {
 public:
  absl::Status Ref(const TypeRef& ref, const std::string& where,
                   bool in_metadata) {
    const Immutability& m = ref.immutability;
    const Atom* atom = ref.resolved;
    if (m.any()) {
      if (in_metadata) {
        return absl::InvalidArgumentError(absl::StrCat(
            where, ": immutability markers are not allowed inside .metadata"));
      }
      if (m.immutable && m.immutable_keys) {
        return absl::InvalidArgumentError(absl::StrCat(
            where, ": immutable and immutableKeys exclude each other"));
      }
      if ((m.addition_only || m.deletion_only) &&
          (m.immutable || m.immutable_keys)) {
        return absl::InvalidArgumentError(absl::StrCat(
            where,
            ": additionOnly/deletionOnly exclude immutable and immutableKeys"));
      }
      if (m.addition_only && m.deletion_only) {
        return absl::InvalidArgumentError(absl::StrCat(
            where, ": additionOnly and deletionOnly exclude each other"));
      }
      bool keyed_map = atom != nullptr && atom->map &&
                       atom->map->element_type && !atom->IsAtomicMap();
      bool keyed_list = atom != nullptr && IsKeyedList(*atom) && !atom->map;
      bool set = atom != nullptr && IsSet(*atom) && !atom->map;
      if (m.immutable_keys && !keyed_map && !keyed_list) {
        return absl::InvalidArgumentError(
            absl::StrCat(where,
                         ": immutableKeys is only allowed on maps with an "
                         "element type (additionalProperties) "
                         "and on lists of type map"));
      }
      if ((m.addition_only || m.deletion_only) && !keyed_map && !keyed_list &&
          !set) {
        return absl::InvalidArgumentError(
            absl::StrCat(where,
                         ": additionOnly/deletionOnly are only allowed on maps "
                         "with an element type and on "
                         "lists of type map or set"));
      }
      if ((m.immutable_keys || m.addition_only || m.deletion_only) &&
          keyed_list) {
        const Atom* elem = atom->list->element_type.resolved;
        for (const std::string& k : atom->list->keys) {
          const StructField* f =
              elem != nullptr && elem->map ? elem->map->FindField(k) : nullptr;
          if (f == nullptr || !f->type.immutability.immutable) {
            return absl::InvalidArgumentError(absl::StrCat(
                where, ": the key field \"", k,
                "\" of a list with immutable keys must be immutable"));
          }
        }
      }
    }
    return Walk(atom, where, in_metadata);
  }

  absl::Status Walk(const Atom* atom, const std::string& where,
                    bool in_metadata) {
    if (atom == nullptr || !visited_.insert({atom, in_metadata}).second)
      return absl::OkStatus();
    if (atom->list) {
      if (absl::Status st = Ref(atom->list->element_type,
                                absl::StrCat(where, "[]"), in_metadata);
          !st.ok()) {
        return st;
      }
    }
    if (atom->map) {
      for (const StructField& f : atom->map->fields) {
        bool meta = in_metadata || (where.empty() && f.name == "metadata");
        if (absl::Status st =
                Ref(f.type, absl::StrCat(where, ".", f.name), meta);
            !st.ok())
          return st;
      }
      if (atom->map->element_type) {
        if (absl::Status st = Ref(*atom->map->element_type,
                                  absl::StrCat(where, ".*"), in_metadata);
            !st.ok()) {
          return st;
        }
      }
    }
    return absl::OkStatus();
  }

 private:
  std::set<std::pair<const Atom*, bool>> visited_;
};

}  // namespace

absl::Status CheckImmutabilityMarkers(const Schema& schema, const Atom* root) {
  if (!schema.has_immutability()) return absl::OkStatus();
  return MarkerChecker().Walk(root, "", false);
}

}  // namespace smdx
