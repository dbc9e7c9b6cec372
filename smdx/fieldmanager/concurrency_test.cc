// Stress tests with real sharing, run by the test command under
// ThreadSanitizer (the tsan build) as well as normally: a FieldManager is
// immutable and shared across threads; schemas intern names that readers
// look up without a lock; set nodes recycle through per-thread caches.
#include <pthread.h>

#include <atomic>
#include <cstdint>
#include <string>
#include <thread>
#include <vector>

#include "absl/strings/str_cat.h"
#include "smdx/fieldmanager/field_manager.h"
#include "smdx/fieldpath/fields_v1.h"
#include "gtest/gtest.h"
#include "smdx/schema/builtin.h"
#include "smdx/schema/schema.h"
#include "testing/test_util.h"
#include "smdx/value/emit.h"
#include "smdx/value/intern.h"

namespace smdx {
namespace {

constexpr int kThreads = 8;

std::string Deployment(int object, int step) {
  return absl::StrCat(R"(apiVersion: apps/v1
kind: Deployment
metadata:
  name: web-)",
                      object, R"(
  labels: {app: web, step: ")",
                      step, R"("}
spec:
  replicas: )",
                      1 + step % 5, R"(
  selector: {matchLabels: {app: web}}
  template:
    metadata: {labels: {app: web}}
    spec:
      containers:
      - name: web
        image: "nginx:1.)",
                      step, R"("
        ports: [{containerPort: 80}]
      - name: sidecar
        image: envoy
)");
}

// One object's life: applies by two managers, an update, a forced apply;
// the stored objects of every step, as YAML.
std::vector<std::string> Life(const FieldManager& fm, int object) {
  std::vector<std::string> out;
  Value live;
  for (int step = 0; step < 12; ++step) {
    Value config = testing::Yaml(Deployment(object, step));
    FieldManagerResult r;
    switch (step % 4) {
      case 0:
      case 1:
        r = fm.Apply(live, config, "ci", false);
        break;
      case 2:
        r = fm.Update(live, config, "editor");
        break;
      default:
        r = fm.Apply(live, config, "other", /*force=*/true);
        break;
    }
    if (!r.ok()) {
      out.push_back(absl::StrCat("error ", ErrorKindName(r.kind), ": ",
                                 r.status.message()));
      continue;
    }
    live = r.object;
    out.push_back(ToYaml(r.object));
  }
  return out;
}

TEST(ConcurrencyTest, OneFieldManagerAppliedFromEightThreadsAgreesWithOne) {
  ManualClock clock(absl::FromUnixSeconds(1800000000));
  FieldManagerOptions o;
  o.api_version = "apps/v1";
  o.kind = "Deployment";
  o.clock = &clock;
  const char* name = "io.k8s.api.apps.v1.Deployment";
  absl::StatusOr<FieldManager> fm =
      FieldManager::Create(*Type::Named(*KubernetesSchemaFor(name), name), o);
  ASSERT_TRUE(fm.ok()) << fm.status();
  constexpr int kObjects = 4;  // per thread
  std::vector<std::vector<std::string>> want;
  for (int obj = 0; obj < kThreads * kObjects; ++obj) {
    want.push_back(Life(*fm, obj));
  }
  std::vector<std::vector<std::vector<std::string>>> got(kThreads);
  std::vector<std::thread> threads;
  for (int t = 0; t < kThreads; ++t) {
    threads.emplace_back([&, t] {
      for (int k = 0; k < kObjects; ++k) {
        got[t].push_back(Life(*fm, t * kObjects + k));
      }
    });
  }
  for (std::thread& th : threads) th.join();
  for (int t = 0; t < kThreads; ++t) {
    for (int k = 0; k < kObjects; ++k) {
      EXPECT_EQ(got[t][k], want[t * kObjects + k])
          << "object " << t * kObjects + k;
    }
  }
  EXPECT_NE(want[0].back().find("managedFields"), std::string::npos);
}

TEST(ConcurrencyTest, NameLookupsWhileAnotherThreadLoadsSchemas) {
  std::atomic<bool> done{false};
  std::atomic<int> loaded{0};
  std::thread writer([&] {
    for (int s = 0; s < 60; ++s) {
      std::string yaml = "types:\n- name: t\n  map:\n    fields:\n";
      for (int f = 0; f < 40; ++f) {
        absl::StrAppend(&yaml, "    - name: concurrent_", s, "_", f,
                        "\n      type: {scalar: string}\n");
      }
      absl::StatusOr<std::shared_ptr<const Schema>> schema =
          Schema::ParseSmd(yaml);
      EXPECT_TRUE(schema.ok()) << schema.status();
      loaded.store(s + 1, std::memory_order_release);
    }
    done.store(true);
  });
  std::vector<std::thread> readers;
  std::atomic<int> found{0};
  for (int t = 0; t < 3; ++t) {
    readers.emplace_back([&] {
      // At least a few rounds each, however the threads are scheduled.
      for (int round = 0; !done.load() || round < 50; ++round) {
        int s = loaded.load(std::memory_order_acquire);
        if (s == 0) continue;
        std::string name = absl::StrCat("concurrent_", s - 1, "_7");
        if (FindInternedName(name) != nullptr) found.fetch_add(1);
        // Readers of fieldsV1 intern the names schemas declared.
        absl::StatusOr<Set> set =
            ParseFieldsV1(absl::StrCat("{\"f:", name, "\":{}}"));
        EXPECT_TRUE(set.ok());
      }
    });
  }
  writer.join();
  for (std::thread& r : readers) r.join();
  EXPECT_GT(found.load(), 0);
  EXPECT_NE(FindInternedName("concurrent_59_39"), nullptr);
}

// The built-in kinds' schemas share one growing set of types: kinds read
// in one thread while others apply through a kind's schema read earlier.
TEST(ConcurrencyTest, KindsLoadWhileOtherKindsApply) {
  const char* name = "io.k8s.api.apps.v1.Deployment";
  FieldManagerOptions o;
  o.api_version = "apps/v1";
  o.kind = "Deployment";
  absl::StatusOr<FieldManager> fm =
      FieldManager::Create(*Type::Named(*KubernetesSchemaFor(name), name), o);
  ASSERT_TRUE(fm.ok()) << fm.status();
  std::atomic<bool> done{false};
  std::thread loader([&] {
    for (const KubernetesKind& k : KubernetesKinds()) {
      absl::StatusOr<std::shared_ptr<const Schema>> s =
          KubernetesSchemaFor(k.type_name);
      EXPECT_TRUE(s.ok()) << k.type_name << ": " << s.status();
    }
    done.store(true);
  });
  std::vector<std::thread> appliers;
  for (int t = 0; t < 2; ++t) {
    appliers.emplace_back([&, t] {
      for (int round = 0; !done.load() || round < 20; ++round) {
        std::vector<std::string> life = Life(*fm, t * 1000 + round);
        EXPECT_NE(life.back().find("managedFields"), std::string::npos);
      }
    });
  }
  loader.join();
  for (std::thread& a : appliers) a.join();
}

TEST(ConcurrencyTest, SetsBuiltInOneThreadDieInAnother) {
  // Set nodes recycle through a per-thread cache: nodes built here are
  // freed by other threads, whose caches take them.
  const std::string text =
      testing::ReadTestFile(testing::SharedPath("testdata/smd/podset.json"));
  for (int round = 0; round < 20; ++round) {
    std::vector<Set> sets;
    for (int i = 0; i < kThreads; ++i) {
      absl::StatusOr<Set> s = ParseFieldsV1(text);
      ASSERT_TRUE(s.ok()) << s.status();
      sets.push_back(*std::move(s));
    }
    std::vector<std::thread> threads;
    for (int t = 0; t < kThreads; ++t) {
      threads.emplace_back([&, t] {
        Set mine = std::move(sets[t]);
        Set copy = mine;
        Set again = *ParseFieldsV1(SerializeFieldsV1(copy));
        EXPECT_EQ(again, mine);
        Set u = again.Union(mine).Difference(copy);
        EXPECT_TRUE(u.Empty());
      });
    }
    for (std::thread& th : threads) th.join();
  }
}

// An object as deep as the readers allow (Limits::max_depth): a chain of
// maps, each with a list, under an untyped spec.
Value DeepObject(int levels, int leaf) {
  Value v(int64_t{leaf});
  for (int i = 0; i < levels; ++i) {
    Map m;
    m.Append("a", std::move(v));
    Map item;
    item.Append("x", Value(int64_t{i}));
    List l;
    l.push_back(Value(std::move(item)));
    m.Append("l", Value(std::move(l)));
    v = Value(std::move(m));
  }
  Map meta;
  meta.Append("name", Value("deep"));
  Map obj;
  obj.Append("apiVersion", Value("example.com/v1"));
  obj.Append("kind", Value("Deep"));
  obj.Append("metadata", Value(std::move(meta)));
  obj.Append("spec", std::move(v));
  return Value(std::move(obj));
}

// Runs `body` on a thread with a stack of `bytes`.
void RunOnStack(size_t bytes, void (*body)(void*), void* arg) {
  struct Call {
    void (*body)(void*);
    void* arg;
  } call{body, arg};
  pthread_attr_t attr;
  ASSERT_EQ(pthread_attr_init(&attr), 0);
  ASSERT_EQ(pthread_attr_setstacksize(&attr, bytes), 0);
  pthread_t thread;
  ASSERT_EQ(pthread_create(
                &thread, &attr,
                [](void* p) -> void* {
                  auto* c = static_cast<Call*>(p);
                  c->body(c->arg);
                  return nullptr;
                },
                &call),
            0);
  pthread_join(thread, nullptr);
  pthread_attr_destroy(&attr);
}

TEST(DeepObjects, ApplyAndUpdateAtTheDepthLimitFitA1MiBStack) {
  // Sanitizers make every frame several times bigger.
#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
  constexpr size_t kStack = size_t{16} << 20;
#else
  constexpr size_t kStack = size_t{1} << 20;
#endif
  struct Outcome {
    bool applied = false, reapplied = false, updated = false, fields = false;
  } outcome;
  RunOnStack(
      kStack,
      [](void* p) {
        auto* o = static_cast<Outcome*>(p);
        // 996 maps below spec: the object's deepest list item is at level
        // 999 of 1000, and the fieldsV1 of its owner as deep.
        const int levels = 996;
        FieldManagerOptions opts;
        opts.api_version = "example.com/v1";
        opts.kind = "Deep";
        absl::StatusOr<FieldManager> fm =
            FieldManager::Create(Type::Deduced(), opts);
        if (!fm.ok()) return;
        FieldManagerResult first =
            fm->Apply(Value(), DeepObject(levels, 1), "a", false);
        o->applied = first.ok();
        if (!o->applied) return;
        FieldManagerResult second =
            fm->Apply(first.object, DeepObject(levels, 2), "b", true);
        o->reapplied = second.ok();
        if (!o->reapplied) return;
        FieldManagerResult third =
            fm->Update(second.object, DeepObject(levels, 3), "c");
        o->updated = third.ok();
        absl::StatusOr<ManagedState> state = DecodeManagedFields(third.object);
        o->fields = state.ok() && state->fields.size() == 3;
      },
      &outcome);
  EXPECT_TRUE(outcome.applied);
  EXPECT_TRUE(outcome.reapplied);
  EXPECT_TRUE(outcome.updated);
  EXPECT_TRUE(outcome.fields);
}

}  // namespace
}  // namespace smdx
