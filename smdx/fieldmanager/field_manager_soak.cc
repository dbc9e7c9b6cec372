// The soak tool: millions of random operations through FieldManagers on
// generated schemas (testing/random_schema.h), to show that memory stays
// flat. Not a test: scripts/soak runs it.
//
//   smdx_soak [OPS] [SEED] [THREADS]      (default 1000000 1 2)
//
// Work runs in rounds: each round starts THREADS threads that apply, force,
// and update random objects of 16 schemas by four managers, then end, so
// the per-thread caches (set nodes) are built and torn down again and
// again. The resident set size is sampled after every round; the one after
// the warm-up (the first tenth of the operations) is the baseline. Exits 1
// when the last sample is more than 1% above it, or when an operation
// breaks a rule (an error other than a conflict, or a successful result
// whose managedFields do not decode).
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <memory>
#include <string>
#include <thread>
#include <vector>

#include "smdx/fieldmanager/field_manager.h"
#include "smdx/schema/schema.h"
#include "testing/random_schema.h"
#include "smdx/typed/typed.h"

namespace {

using smdx::Value;

// VmRSS of this process in KiB.
long ResidentKiB() {
  std::ifstream in("/proc/self/status");
  std::string line;
  while (std::getline(in, line)) {
    if (line.rfind("VmRSS:", 0) == 0) return std::atol(line.c_str() + 6);
  }
  return -1;
}

struct Resource {
  smdx::testing::RandomSchema random;
  std::unique_ptr<smdx::FieldManager> manager;
};

struct Counts {
  std::atomic<uint64_t> ok{0}, conflicts{0}, broken{0};
};

void Work(const std::vector<Resource>& resources, uint64_t seed, uint64_t ops,
          Counts* counts) {
  static const char* const kManagers[] = {"alice", "bob", "carol", "dave"};
  smdx::testing::SeededChoices c(seed);
  std::vector<Value> live(resources.size());
  for (uint64_t i = 0; i < ops; ++i) {
    const size_t r = c.Below(static_cast<uint32_t>(resources.size()));
    const Resource& res = resources[r];
    if (c.Below(50) == 0) live[r] = Value();  // deleted, to be created again
    const Value object = smdx::testing::MakeObject(res.random, c);
    const char* manager = kManagers[c.Below(4)];
    const uint32_t op = c.Below(20);
    smdx::FieldManagerResult result =
        op < 8 ? res.manager->Update(live[r], object, manager)
               : res.manager->Apply(live[r], object, manager, op < 11);
    if (result.kind == smdx::ErrorKind::kConflict) {
      counts->conflicts.fetch_add(1, std::memory_order_relaxed);
      continue;
    }
    if (!result.ok()) {
      std::fprintf(stderr, "soak: unexpected error: %s\n",
                   std::string(result.status.message()).c_str());
      counts->broken.fetch_add(1, std::memory_order_relaxed);
      continue;
    }
    if (!smdx::DecodeManagedFields(result.object).ok()) {
      counts->broken.fetch_add(1, std::memory_order_relaxed);
    }
    live[r] = std::move(result.object);
    counts->ok.fetch_add(1, std::memory_order_relaxed);
  }
}

}  // namespace

int main(int argc, char** argv) {
  const uint64_t total =
      argc > 1 ? std::strtoull(argv[1], nullptr, 10) : 1000000;
  const uint64_t seed = argc > 2 ? std::strtoull(argv[2], nullptr, 10) : 1;
  const unsigned threads =
      argc > 3 ? static_cast<unsigned>(std::strtoul(argv[3], nullptr, 10)) : 2;
  if (total == 0 || threads == 0) {
    std::fprintf(stderr, "usage: smdx_soak [OPS] [SEED] [THREADS]\n");
    return 2;
  }

  smdx::ManualClock clock(absl::FromUnixSeconds(1800000000));
  std::vector<Resource> resources;
  smdx::testing::SeededChoices schema_choices(seed);
  for (int i = 0; i < 16; ++i) {
    Resource res;
    res.random = smdx::testing::MakeSchema(schema_choices, /*kubernetes=*/true);
    absl::StatusOr<std::shared_ptr<const smdx::Schema>> schema =
        smdx::Schema::ParseSmd(res.random.smd_yaml);
    if (!schema.ok()) {
      std::fprintf(stderr, "soak: generated schema does not load: %s\n",
                   std::string(schema.status().message()).c_str());
      return 1;
    }
    smdx::FieldManagerOptions opts;
    opts.api_version = smdx::testing::kApiVersion;
    opts.kind = smdx::testing::kKind;
    opts.clock = &clock;
    absl::StatusOr<smdx::FieldManager> fm =
        smdx::FieldManager::Create(*smdx::Type::Named(*schema, "root"), opts);
    if (!fm.ok()) return 1;
    res.manager = std::make_unique<smdx::FieldManager>(*std::move(fm));
    resources.push_back(std::move(res));
  }

  const uint64_t per_round = std::max<uint64_t>(threads, 20000);
  const uint64_t warmup = total / 10;
  Counts counts;
  uint64_t done = 0, round = 0;
  long baseline = -1, peak = 0, last = 0;
  const auto start = std::chrono::steady_clock::now();
  while (done < total) {
    const uint64_t n = std::min(per_round, total - done);
    std::vector<std::thread> pool;
    for (unsigned t = 0; t < threads; ++t) {
      const uint64_t share = n / threads + (t < n % threads ? 1 : 0);
      pool.emplace_back(Work, std::cref(resources),
                        seed * 1000003 + round * 64 + t, share, &counts);
    }
    for (std::thread& t : pool) t.join();
    done += n;
    ++round;
    last = ResidentKiB();
    peak = std::max(peak, last);
    if (baseline < 0 && done >= warmup) baseline = last;
  }
  const double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start)
          .count();
  const double growth = baseline > 0
                            ? 100.0 * static_cast<double>(last - baseline) /
                                  static_cast<double>(baseline)
                            : 0.0;
  std::printf(
      "soak: %llu operations (%llu succeeded, %llu conflicted) in %.1f s, "
      "%.0f/s, %u threads x %llu rounds\n",
      static_cast<unsigned long long>(done),
      static_cast<unsigned long long>(counts.ok.load()),
      static_cast<unsigned long long>(counts.conflicts.load()), seconds,
      static_cast<double>(done) / seconds, threads,
      static_cast<unsigned long long>(round));
  std::printf(
      "soak: RSS after warm-up %ld KiB, at the end %ld KiB (%+.2f%%), peak "
      "%ld KiB\n",
      baseline, last, growth, peak);
  if (counts.broken.load() > 0) {
    std::printf(
        "soak: %llu operations broke a rule (see above, or "
        "managedFields that do not decode)\n",
        static_cast<unsigned long long>(counts.broken.load()));
    return 1;
  }
  if (growth > 1.0) {
    std::printf("soak: memory grew by more than 1%% after warm-up\n");
    return 1;
  }
  std::printf("soak: flat\n");
  return 0;
}
