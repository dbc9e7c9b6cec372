// Progress of a command over many objects, on standard error: one line,
// rewritten in place ("apply: 340/1200 objects"), cleared when the command
// ends and before anything else the command writes to standard error (an
// error or warning never shares the line). Shown only to a person: when
// standard error is a terminal and $CI is unset or empty, never in pipes or
// logs, for more than one object, and only once the work has taken a tenth
// of a second.
#ifndef SMDX_CLI_PROGRESS_H_
#define SMDX_CLI_PROGRESS_H_

#include <chrono>
#include <cstddef>
#include <functional>
#include <ostream>
#include <streambuf>
#include <string>

namespace smdx::cli {

class Progress {
 public:
  using Clock = std::function<std::chrono::steady_clock::time_point()>;

  // A progress line for `total` objects of command `verb`, on `err` when
  // `shown`. While it lives, what others write to `err` first clears the
  // line. `clock` (for tests) defaults to the steady clock.
  Progress(std::ostream& err, std::string verb, size_t total, bool shown,
           Clock clock = nullptr);
  // Clears the line and gives `err` its own buffer back.
  ~Progress();
  Progress(const Progress&) = delete;
  Progress& operator=(const Progress&) = delete;

  // The next object begins. The line is rewritten at most ten times a
  // second.
  void Step();
  // Clears the line, if it is drawn: before the command writes a result to
  // standard output, which may be the same terminal. The next Step draws
  // it again.
  void Clear() { buf_.Clear(); }

  // Whether progress goes to `err`: it is the process's standard error,
  // that is a terminal, and $CI is unset or empty.
  static bool ShownOn(const std::ostream& err);

 private:
  // Forwards to the stream's own buffer, clearing a drawn line first.
  class LineClearingBuf : public std::streambuf {
   public:
    explicit LineClearingBuf(std::streambuf* to) : to_(to) {}
    std::streambuf* to() const { return to_; }
    void Draw(const std::string& line);
    void Clear();

   protected:
    int_type overflow(int_type c) override;
    std::streamsize xsputn(const char* s, std::streamsize n) override;
    int sync() override { return to_->pubsync(); }

   private:
    std::streambuf* to_;
    bool drawn_ = false;
  };

  std::ostream& err_;
  std::string verb_;
  size_t total_;
  size_t done_ = 0;
  bool shown_;
  Clock clock_;
  std::chrono::steady_clock::time_point last_;
  LineClearingBuf buf_;
};

}  // namespace smdx::cli

#endif  // SMDX_CLI_PROGRESS_H_
