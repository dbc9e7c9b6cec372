// smdx_process_bench: the `smdx` command as its users run it, one process
// a call, next to /bin/true in the same run (bench/README.md, "The whole
// process"). Each benchmark starts the command (posix_spawn, standard
// output to /dev/null) and waits for it; the time is the wall-clock time of
// both. The counter peak_rss_kib is the command's peak resident set, from
// one more run after the timed ones (TracedPeakRss).
//
//   process/true             /bin/true: what any process costs here
//   process/smdx_version     smdx --version
//   process/smdx_apply_one   smdx apply of one Deployment
//                            (examples/deployment.yaml)
//   process/smdx_apply_100   smdx apply of 100 objects in one stream
//   process/smdx_apply_dir_28
//                            smdx apply -R of a directory of 28 objects
//
// The 100 objects are the built-in manifests of testdata/manifests, each
// renamed so that all differ, round after round; the directory holds
// examples/deployment.yaml and the first 27 of them. Both are written to a
// temporary directory at start and removed at exit. A command that fails
// stops its benchmark with its standard error.
//
// bench/compare runs it with repetitions in random interleaving and keeps
// the medians; by hand:
//   smdx_process_bench --benchmark_repetitions=9
//       --benchmark_enable_random_interleaving=true
#include <benchmark/benchmark.h>
#include <fcntl.h>
#include <spawn.h>
#include <sys/ptrace.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <csignal>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "smdx/value/emit.h"
#include "smdx/value/parse.h"
#include "smdx/value/value.h"

extern char** environ;

namespace smdx {
namespace bench {
namespace {

namespace fs = std::filesystem;

[[noreturn]] void Die(const std::string& what) {
  std::fprintf(stderr, "smdx_process_bench: %s\n", what.c_str());
  std::exit(2);
}

std::string ReadFile(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) Die("cannot read " + path.string());
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

void WriteFile(const fs::path& path, const std::string& text) {
  std::ofstream out(path, std::ios::binary);
  out << text;
  if (!out.flush()) Die("cannot write " + path.string());
}

// The inputs, written once to a temporary directory removed at exit.
struct Inputs {
  fs::path dir;
  std::string deployment;  // examples/deployment.yaml
  std::string hundred;     // one file, 100 objects
  std::string dir28;       // a directory, 28 files of one object each
};

Inputs* inputs = nullptr;

void RemoveInputs() {
  if (inputs != nullptr) {
    std::error_code ignored;
    fs::remove_all(inputs->dir, ignored);
  }
}

// The manifests of testdata/manifests whose kinds the built-in schema has
// (not the CRD and its custom resources), sorted by file name.
std::vector<std::pair<std::string, Value>> BuiltinManifests() {
  fs::path dir = fs::path(SMDX_SOURCE_DIR) / "testdata" / "manifests";
  std::vector<fs::path> files;
  for (const auto& e : fs::directory_iterator(dir)) {
    std::string name = e.path().filename().string();
    if (e.path().extension() != ".yaml" || name.rfind("crd-", 0) == 0 ||
        name.rfind("widget-", 0) == 0) {
      continue;
    }
    files.push_back(e.path());
  }
  std::sort(files.begin(), files.end());
  std::vector<std::pair<std::string, Value>> out;
  for (const fs::path& f : files) {
    absl::StatusOr<Value> v = ParseYaml(ReadFile(f));
    if (!v.ok()) Die(f.string() + ": " + v.status().ToString());
    out.emplace_back(f.filename().string(), *std::move(v));
  }
  if (out.size() < 27)
    Die("fewer than 27 built-in manifests in " + dir.string());
  return out;
}

void MakeInputs() {
  inputs = new Inputs;
  std::string tmpl =
      (fs::temp_directory_path() / "smdx-process.XXXXXX").string();
  if (mkdtemp(tmpl.data()) == nullptr)
    Die("mkdtemp: " + std::string(std::strerror(errno)));
  inputs->dir = tmpl;
  std::atexit(RemoveInputs);

  inputs->deployment =
      (fs::path(SMDX_SOURCE_DIR) / "examples" / "deployment.yaml").string();
  std::vector<std::pair<std::string, Value>> manifests = BuiltinManifests();

  std::string stream;
  for (int i = 0; i < 100; ++i) {
    Value obj = manifests[i % manifests.size()].second;
    Value* name = obj.map().Find("metadata")->map().Find("name");
    *name = Value(absl::StrCat(name->AsString(), "-", i));
    absl::StrAppend(&stream, "---\n", ToYaml(obj));
  }
  inputs->hundred = (inputs->dir / "hundred.yaml").string();
  WriteFile(inputs->hundred, stream);

  fs::path dir28 = inputs->dir / "dir28";
  fs::create_directory(dir28);
  fs::copy_file(inputs->deployment, dir28 / "deployment.yaml");
  for (int i = 0; i < 27; ++i) {
    fs::copy_file(fs::path(SMDX_SOURCE_DIR) / "testdata" / "manifests" /
                      manifests[i].first,
                  dir28 / manifests[i].first);
  }
  inputs->dir28 = dir28.string();
}

// The null-terminated argument vector of `args` (which must outlive it).
std::vector<char*> Argv(const std::vector<std::string>& args) {
  std::vector<char*> argv;
  for (const std::string& a : args)
    argv.push_back(const_cast<char*>(a.c_str()));
  argv.push_back(nullptr);
  return argv;
}

// Runs `argv` to its end; its standard output goes to /dev/null, its
// standard error to `err_path`. Returns 0, or -1 and the reason in *error.
long RunOnce(const std::vector<std::string>& args, const std::string& err_path,
             std::string* error) {
  std::vector<char*> argv = Argv(args);
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0);
  posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0);
  posix_spawn_file_actions_addopen(&actions, 2, err_path.c_str(),
                                   O_WRONLY | O_CREAT | O_TRUNC, 0600);
  pid_t pid;
  int rc = posix_spawn(&pid, argv[0], &actions, nullptr, argv.data(), environ);
  posix_spawn_file_actions_destroy(&actions);
  if (rc != 0) {
    *error = absl::StrCat("cannot start ", args[0], ": ", std::strerror(rc));
    return -1;
  }
  int status = 0;
  while (waitpid(pid, &status, 0) < 0) {
    if (errno != EINTR) {
      *error = absl::StrCat("waitpid: ", std::strerror(errno));
      return -1;
    }
  }
  if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) {
    std::string err = ReadFile(err_path);
    *error = absl::StrCat(args[0], " exited with status ", status, ": ",
                          err.substr(0, 300));
    return -1;
  }
  return 0;
}

// The peak resident set of the command alone, in KiB, or -1 when it cannot
// be read. (wait4's ru_maxrss also counts the memory of the process that
// started it, which the child shares until its exec.) The child is traced:
// it stops as it exits, while its memory is still there, and its VmHWM,
// which counts only what it mapped after the exec, is read then.
long TracedPeakRss(const std::vector<std::string>& args) {
  std::vector<char*> argv = Argv(args);
  pid_t pid = fork();
  if (pid < 0) return -1;
  if (pid == 0) {
    int null = open("/dev/null", O_RDWR);
    dup2(null, 0);
    dup2(null, 1);
    dup2(null, 2);
    ptrace(PTRACE_TRACEME, 0, nullptr, nullptr);
    execve(argv[0], argv.data(), environ);
    _exit(127);
  }
  long peak = -1;
  int status = 0;
  while (waitpid(pid, &status, 0) == pid && WIFSTOPPED(status)) {
    int signal = WSTOPSIG(status);
    if (signal == SIGTRAP && (status >> 16) == PTRACE_EVENT_EXIT) {
      std::ifstream in("/proc/" + std::to_string(pid) + "/status");
      for (std::string line; std::getline(in, line);) {
        if (line.rfind("VmHWM:", 0) == 0)
          peak = std::strtol(line.c_str() + 6, nullptr, 10);
      }
      signal = 0;
    } else if (signal == SIGTRAP) {  // the exec
      ptrace(PTRACE_SETOPTIONS, pid, nullptr, PTRACE_O_TRACEEXIT);
      signal = 0;
    }
    ptrace(PTRACE_CONT, pid, nullptr,
           reinterpret_cast<void*>(static_cast<intptr_t>(signal)));
  }
  if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) return -1;
  return peak;
}

void RunCommand(benchmark::State& state, const std::vector<std::string>& args) {
  std::string err_path = (inputs->dir / "stderr").string();
  std::string error;
  for (auto _ : state) {
    if (RunOnce(args, err_path, &error) < 0) {
      state.SkipWithError(error.c_str());
      return;
    }
  }
  state.counters["peak_rss_kib"] = static_cast<double>(TracedPeakRss(args));
}

std::vector<std::string> Apply(std::vector<std::string> files) {
  std::vector<std::string> args = {SMDX_CLI, "apply", "--field-manager",
                                   "bench",  "--now", "2026-11-27T00:00:00Z"};
  args.insert(args.end(), files.begin(), files.end());
  return args;
}

void RegisterAll() {
  auto reg = [](const char* name, std::vector<std::string> args) {
    benchmark::RegisterBenchmark(
        name, [args](benchmark::State& s) { RunCommand(s, args); })
        ->UseRealTime()
        ->Unit(benchmark::kMillisecond);
  };
  reg("process/true", {"/bin/true"});
  reg("process/smdx_version", {SMDX_CLI, "--version"});
  reg("process/smdx_apply_one", Apply({inputs->deployment}));
  reg("process/smdx_apply_100", Apply({inputs->hundred}));
  reg("process/smdx_apply_dir_28", Apply({"-R", inputs->dir28}));
}

}  // namespace
}  // namespace bench
}  // namespace smdx

int main(int argc, char** argv) {
  smdx::bench::MakeInputs();
  smdx::bench::RegisterAll();
  benchmark::Initialize(&argc, argv);
  if (benchmark::ReportUnrecognizedArguments(argc, argv)) return 1;
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}
