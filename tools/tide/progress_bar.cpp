#include "progress_bar.h"

#include <fmt/format.h>

#include <algorithm>
#include <string>
#include <utility>

namespace tide::cli {
namespace {

constexpr int kBarWidth = 30;

std::string rate(double per_second) {
  if (per_second >= 1e6) return fmt::format("{:.2f}M", per_second / 1e6);
  if (per_second >= 1e3) return fmt::format("{:.1f}k", per_second / 1e3);
  return fmt::format("{:.0f}", per_second);
}

}  // namespace

ProgressBar::ProgressBar(std::ostream& out, bool terminal, std::string label, int64_t total)
    : out_(out),
      terminal_(terminal),
      label_(std::move(label)),
      total_(std::max<int64_t>(total, 1)),
      start_(std::chrono::steady_clock::now()) {}

double ProgressBar::samples_per_second(int64_t done) const {
  const double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start_).count();
  return seconds > 0 ? static_cast<double>(done) / seconds : 0.0;
}

void ProgressBar::update(int64_t done, double loss) {
  done_ = done;
  if (terminal_) {
    draw(done, fmt::format("loss {:.4f}", loss), false);
    return;
  }
  // Plain lines: one each time another tenth of the epoch is done.
  const int tenth = static_cast<int>(done * 10 / total_);
  if (tenth > last_tenth_ && done < total_) {
    last_tenth_ = tenth;
    draw(done, fmt::format("loss {:.4f}", loss), false);
  }
}

void ProgressBar::finish(int64_t done, double mean_loss) {
  done_ = done;
  draw(done, fmt::format("loss {:.4f} (epoch mean)", mean_loss), true);
}

void ProgressBar::draw(int64_t done, const std::string& loss, bool final) {
  const int filled = static_cast<int>(std::min<int64_t>(done, total_) * kBarWidth / total_);
  const std::string line =
      fmt::format("{} [{}{}] {:>6}/{} {:>7} samples/s  {}", label_,
                  std::string(filled, '#'), std::string(kBarWidth - filled, '.'), done, total_,
                  rate(samples_per_second(done)), loss);
  if (terminal_) {
    out_ << "\r" << line << "\033[K" << (final ? "\n" : "") << std::flush;
  } else {
    out_ << line << "\n" << std::flush;
  }
}

}  // namespace tide::cli
