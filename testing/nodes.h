// The nodes of a typed object as field paths, for the fuzzers' laws.
#ifndef SMDX_TESTING_NODES_H_
#define SMDX_TESTING_NODES_H_

#include "smdx/fieldpath/path.h"
#include "smdx/fieldpath/set.h"
#include "smdx/typed/typed.h"
#include "smdx/value/value.h"

namespace smdx::testing {

// Every node of `v`: its field set, what comparing it with the empty object
// finds added (that includes empty lists and maps, which set no field of
// their own when they sit in a struct with content), and every prefix of
// those paths.
inline Set Nodes(const Type& type, const Value& v) {
  const Value empty = Value::MakeMap();
  Set out;
  ToFieldSet(type, v)
      .Union(CompareFields(type, &empty, &v).added)
      .Iterate([&](const Path& p) {
        for (size_t n = 1; n <= p.size(); ++n) {
          out.Insert(absl::MakeConstSpan(p.data(), n));
        }
      });
  return out;
}

}  // namespace smdx::testing

#endif  // SMDX_TESTING_NODES_H_
