#pragma once
// The progress of one training epoch: a bar redrawn in place on a terminal, plain lines
// (at most one per tenth of the epoch) when stdout is a file or a pipe, so logs stay readable.

#include <chrono>
#include <cstdint>
#include <ostream>
#include <string>

namespace tide::cli {

class ProgressBar {
 public:
  /// `label` starts each line ("epoch 1/5"); `total` is the number of samples in the epoch.
  ProgressBar(std::ostream& out, bool terminal, std::string label, int64_t total);

  /// `done` samples so far; `loss` the mean loss of the batches since the last update.
  void update(int64_t done, double loss);
  /// The last line of the epoch, with the epoch's mean loss; on a terminal, ends the line.
  void finish(int64_t done, double mean_loss);

  /// Samples per second since construction.
  double samples_per_second(int64_t done) const;

 private:
  void draw(int64_t done, const std::string& loss, bool final);

  std::ostream& out_;
  bool terminal_;
  std::string label_;
  int64_t total_;
  int64_t done_ = 0;
  int last_tenth_ = 0;
  std::chrono::steady_clock::time_point start_;
};

}  // namespace tide::cli
