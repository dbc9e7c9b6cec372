#include "cli/progress.h"

#include <unistd.h>

#include <cstdlib>
#include <iostream>
#include <utility>

namespace smdx::cli {

namespace {
// Carriage return, then erase to the end of the line.
constexpr char kClearLine[] = "\r\x1b[K";
}  // namespace

void Progress::LineClearingBuf::Draw(const std::string& line) {
  to_->sputn(kClearLine, sizeof(kClearLine) - 1);
  to_->sputn(line.data(), static_cast<std::streamsize>(line.size()));
  to_->pubsync();
  drawn_ = true;
}

void Progress::LineClearingBuf::Clear() {
  if (!drawn_) return;
  to_->sputn(kClearLine, sizeof(kClearLine) - 1);
  to_->pubsync();
  drawn_ = false;
}

Progress::LineClearingBuf::int_type Progress::LineClearingBuf::overflow(
    int_type c) {
  Clear();
  return traits_type::eq_int_type(c, traits_type::eof())
             ? traits_type::not_eof(c)
             : to_->sputc(traits_type::to_char_type(c));
}

std::streamsize Progress::LineClearingBuf::xsputn(const char* s,
                                                  std::streamsize n) {
  Clear();
  return to_->sputn(s, n);
}

Progress::Progress(std::ostream& err, std::string verb, size_t total,
                   bool shown, Clock clock)
    : err_(err),
      verb_(std::move(verb)),
      total_(total),
      shown_(shown && total > 1),
      clock_(clock != nullptr
                 ? std::move(clock)
                 : [] { return std::chrono::steady_clock::now(); }),
      last_(clock_()),
      buf_(err.rdbuf()) {
  if (shown_) err_.rdbuf(&buf_);
}

Progress::~Progress() {
  if (!shown_) return;
  buf_.Clear();
  err_.rdbuf(buf_.to());
}

void Progress::Step() {
  ++done_;
  if (!shown_) return;
  auto now = clock_();
  if (now - last_ < std::chrono::milliseconds(100)) return;
  last_ = now;
  buf_.Draw(verb_ + ": " + std::to_string(done_) + "/" +
            std::to_string(total_) + " objects");
}

bool Progress::ShownOn(const std::ostream& err) {
  const char* ci = std::getenv("CI");
  return &err == &std::cerr && isatty(STDERR_FILENO) != 0 &&
         (ci == nullptr || *ci == '\0');
}

}  // namespace smdx::cli
