// smdx_case_gen: random conformance cases for the differential check
// against the Go reference (conformance/oracle/differential).
//
//   smdx_case_gen SEED COUNT [--from N]
//       COUNT cases from SEED (or those from the N-th on), one YAML document
//       each, named random/SEED/K; case K depends only on SEED and K.
//   smdx_case_gen SEED COUNT --case K [--ops I,J,...] [--drop N,M,...]
//       only case K, with only the ops listed (by position) and without the
//       map entries numbered N, M, ... (counted over the ops' objects in
//       order, depth first): the shrinking steps of a minimization.
//
// Each case has a random SMD schema (testing/random_schema.h: structs,
// atomic and granular maps, atomic lists, sets, keyed lists, nested), now
// and then fields ignored at one or both apiVersions, and 2 to 8 applies,
// forced applies and updates by three managers at two apiVersions
// (identity conversion) of random objects of that schema, empty maps and
// lists included. Every op carries an empty `expect`, for
// `oracle/run --fill` to write what the reference did. Objects are written
// as JSON strings, so that no YAML 1.1 rule changes them on either side.
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <iostream>
#include <set>
#include <string>
#include <vector>

#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "absl/strings/str_split.h"
#include "testing/random_schema.h"
#include "smdx/value/emit.h"
#include "smdx/value/value.h"

namespace {

using smdx::Map;
using smdx::Value;

struct Op {
  std::string kind;  // apply, forceApply, update
  std::string manager;
  std::string version;
  Value object;
};

// A path of fields, as ignoredFields lists it (["f:a", "f:b"]).
using FieldPath = std::vector<std::string>;

struct Case {
  std::string smd;
  std::vector<std::pair<std::string, std::vector<FieldPath>>> ignored;
  std::vector<Op> ops;
};

// A random path of one or two struct fields below the root.
FieldPath RandomFieldPath(const smdx::testing::TypeModel& root,
                          smdx::testing::Choices& c) {
  using K = smdx::testing::TypeModel::Kind;
  const auto& f = root.fields[c.Below(root.fields.size())];
  FieldPath out = {"f:" + f.first};
  const smdx::testing::TypeModel& t = *f.second;
  if (t.kind == K::kStruct && !t.fields.empty() && c.Coin()) {
    out.push_back("f:" + t.fields[c.Below(t.fields.size())].first);
  }
  return out;
}

Case MakeCase(uint64_t seed, uint64_t index) {
  smdx::testing::SeededChoices c(seed * 1000003 + index);
  Case out;
  smdx::testing::RandomSchema schema = smdx::testing::MakeSchema(c);
  out.smd = schema.smd_yaml;
  // One case in four ignores a field or two, at v1, at v2 or at both.
  if (c.Below(4) == 0 && !schema.root->fields.empty()) {
    const uint32_t which = c.Below(3);
    for (const char* version : {"v1", "v2"}) {
      if (which != 2 && version != std::string(which == 0 ? "v1" : "v2")) continue;
      std::vector<FieldPath> paths;
      const uint32_t n = 1 + c.Below(2);
      for (uint32_t i = 0; i < n; ++i) paths.push_back(RandomFieldPath(*schema.root, c));
      out.ignored.emplace_back(version, std::move(paths));
    }
  }
  static const char* const kKinds[] = {"apply", "apply", "apply", "forceApply",
                                       "update"};
  const uint32_t n = 2 + c.Below(7);
  for (uint32_t i = 0; i < n; ++i) {
    Op op;
    op.kind = kKinds[c.Below(5)];
    op.manager = absl::StrCat("m", c.Below(3));
    op.version = c.Below(3) == 0 ? "v2" : "v1";
    op.object = smdx::testing::MakeObject(schema, c);
    out.ops.push_back(std::move(op));
  }
  return out;
}

// Removes the map entries whose running number (depth first, over every
// op's object in order) is in `drop`.
void DropEntries(Value& v, const std::set<int>& drop, int* counter) {
  if (v.IsList()) {
    for (Value& item : v.list()) DropEntries(item, drop, counter);
    return;
  }
  if (!v.IsMap()) return;
  Map kept;
  for (const smdx::MapEntry& e : v.map()) {
    int number = (*counter)++;
    Value child = e.value;
    DropEntries(child, drop, counter);
    if (drop.count(number) == 0) kept.Append(e.key, std::move(child));
  }
  v = Value(std::move(kept));
}

std::string Quoted(const std::string& s) {
  std::string out = "'";
  for (char ch : s) {
    if (ch == '\'') out += '\'';
    out += ch;
  }
  return out + "'";
}

void Print(uint64_t seed, uint64_t index, const Case& c) {
  std::string doc = absl::StrCat("name: random/", seed, "/", index, "\n");
  absl::StrAppend(&doc, "schema:\n  smd: |\n");
  for (absl::string_view line : absl::StrSplit(c.smd, '\n')) {
    if (!line.empty()) absl::StrAppend(&doc, "    ", line, "\n");
  }
  absl::StrAppend(&doc, "type: root\n");
  if (!c.ignored.empty()) {
    absl::StrAppend(&doc, "ignoredFields:\n");
    for (const auto& [version, paths] : c.ignored) {
      absl::StrAppend(&doc, "  ", version, ":\n");
      for (const FieldPath& p : paths) {
        absl::StrAppend(&doc, "  - [", absl::StrJoin(p, ", ", [](std::string* o, const std::string& e) {
          absl::StrAppend(o, "\"", e, "\"");
        }), "]\n");
      }
    }
  }
  absl::StrAppend(&doc, "ops:\n");
  for (const Op& op : c.ops) {
    absl::StrAppend(&doc, "- op: ", op.kind, "\n  manager: ", op.manager,
                    "\n  apiVersion: ", op.version,
                    "\n  object: ", Quoted(smdx::ToJson(op.object)),
                    "\n  expect: {}\n");
  }
  std::cout << "---\n" << doc;
}

bool ParseList(const char* text, std::set<int>* out) {
  for (absl::string_view part : absl::StrSplit(text, ',', absl::SkipEmpty())) {
    int n;
    if (!absl::SimpleAtoi(part, &n) || n < 0) return false;
    out->insert(n);
  }
  return true;
}

int Usage() {
  std::cerr << "usage: smdx_case_gen SEED COUNT [--from N] [--case K "
               "[--ops I,J,...] [--drop N,M,...]]\n";
  return 2;
}

}  // namespace

int main(int argc, char** argv) {
  uint64_t seed, count;
  if (argc < 3 || !absl::SimpleAtoi(argv[1], &seed) ||
      !absl::SimpleAtoi(argv[2], &count)) {
    return Usage();
  }
  bool one = false;
  uint64_t only = 0;
  uint64_t from = 0;
  bool some_ops = false;
  std::set<int> ops, drop;
  for (int i = 3; i < argc; i += 2) {
    std::string flag = argv[i];
    if (i + 1 >= argc) return Usage();
    if (flag == "--case" && absl::SimpleAtoi(argv[i + 1], &only)) {
      one = true;
    } else if (flag == "--ops" && ParseList(argv[i + 1], &ops)) {
      some_ops = true;
    } else if (flag == "--from" && absl::SimpleAtoi(argv[i + 1], &from)) {
    } else if (flag == "--drop" && ParseList(argv[i + 1], &drop)) {
    } else {
      return Usage();
    }
  }
  for (uint64_t k = 0; k < count; ++k) {
    if ((one && k != only) || k < from) continue;
    Case c = MakeCase(seed, k);
    if (some_ops) {
      std::vector<Op> kept;
      for (size_t i = 0; i < c.ops.size(); ++i) {
        if (ops.count(static_cast<int>(i)) != 0) kept.push_back(c.ops[i]);
      }
      c.ops = std::move(kept);
    }
    int counter = 0;
    for (Op& op : c.ops) DropEntries(op.object, drop, &counter);
    Print(seed, k, c);
  }
  return 0;
}
