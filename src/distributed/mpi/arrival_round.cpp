#include "distributed/mpi/arrival_round.h"

#include <thread>

#include "distributed/mpi/mpi_check.h"
#include "tide/error.h"

namespace tide::distributed::detail {
namespace {
constexpr int kArriveTag = 7;
}  // namespace

ArrivalRound::ArrivalRound(MPI_Comm comm, int rank, int size, const CollectiveHeader& mine,
                           const char* collective)
    : comm_(comm), rank_(rank), collective_(collective),
      mine_(std::make_unique<CollectiveHeader>(mine)),
      theirs_(std::make_unique<std::vector<CollectiveHeader>>(size > 0 ? size - 1 : 0)) {
  peers_.reserve(theirs_->size());
  requests_.reserve(2 * theirs_->size());
  for (int peer = 0; peer < size; ++peer) {
    if (peer == rank) continue;
    peers_.push_back(peer);
    requests_.emplace_back();
    check_mpi(MPI_Irecv(&theirs_->at(peers_.size() - 1), sizeof(CollectiveHeader), MPI_BYTE,
                        peer, kArriveTag, comm_, &requests_.back()),
              "MPI_Irecv", collective_);
  }
}

ArrivalRound::~ArrivalRound() {
  if (done_) return;  // every request finished, or abandon() gave them up
  if (sent_) {
    (void)abandon();  // an error between send() and the end of the wait
    return;
  }
  // Given up before this rank sent anything (its stream never reached the collective): a
  // cancelled receive's MPI_Wait is local, after it MPI no longer touches the buffers.
  for (MPI_Request& r : requests_) {
    if (r == MPI_REQUEST_NULL) continue;
    MPI_Cancel(&r);
    MPI_Wait(&r, MPI_STATUS_IGNORE);
  }
}

void ArrivalRound::send() {
  sent_ = true;
  for (int peer : peers_) {
    requests_.emplace_back();
    check_mpi(MPI_Isend(mine_.get(), sizeof(CollectiveHeader), MPI_BYTE, peer, kArriveTag,
                        comm_, &requests_.back()),
              "MPI_Isend", collective_);
  }
}

bool ArrivalRound::wait_until(Clock::time_point deadline) {
  // A peer in step arrives within microseconds: poll without pause for the first kSpin (each
  // yield costs about a microsecond here, and polling between yields made the round cost 3 us
  // more per collective: bench/RESULTS.md, 2026-11-26), then yield the core to the threads
  // that share it (the caller's backward, other ranks: 4 ranks on 2 cores in CI) until kYield,
  // then sleep. Ranks leave a large all-reduce milliseconds apart (the last reader of a
  // shared-memory copy finishes last), so the yield phase must outlast that gap: when it ended
  // after 2,000 polls (about 2 ms), every 64 MiB all-reduce paid 50 us sleeps and oversleeps
  // and reached 0.79 of raw MPI's bandwidth; polling by yields for 20 ms reached 0.95-1.00
  // (bench/RESULTS.md, issue 21). A yielding thread gives its core to any runnable thread, so
  // the longer phase costs the machine's other work little; past it, a peer that is seconds
  // behind (a rank still computing) is waited for asleep.
  constexpr auto kSpin = std::chrono::microseconds(50);
  constexpr auto kYield = std::chrono::milliseconds(20);
  const Clock::time_point start = Clock::now();
  const Clock::time_point spin_end = start + kSpin;
  const Clock::time_point yield_end = start + kYield;
  enum class Phase { spin, yield, sleep } phase = Phase::spin;
  for (int polls = 0;; ++polls) {
    int all_done = 0;
    check_mpi(MPI_Testall(static_cast<int>(requests_.size()), requests_.data(), &all_done,
                          MPI_STATUSES_IGNORE),
              "MPI_Testall", collective_);
    if (all_done) {
      done_ = true;
      return true;
    }
    if (phase == Phase::sleep || polls % 16 == 15) {
      const Clock::time_point now = Clock::now();
      if (now >= deadline) return false;
      phase = now < spin_end ? Phase::spin : now < yield_end ? Phase::yield : Phase::sleep;
    }
    switch (phase) {
      case Phase::spin: break;
      case Phase::yield: std::this_thread::yield(); break;
      case Phase::sleep: std::this_thread::sleep_for(std::chrono::microseconds(50)); break;
    }
  }
}

void ArrivalRound::check() const {
  for (size_t i = 0; i < peers_.size(); ++i) {
    const CollectiveHeader& theirs = (*theirs_)[i];
    if (theirs == *mine_) continue;
    throw Error(mismatch_message(collective_, rank_, *mine_, peers_[i], theirs));
  }
}

std::string ArrivalRound::abandon() {
  std::string missing;
  for (size_t i = 0; i < peers_.size(); ++i) {
    MPI_Request& r = requests_[i];
    if (r == MPI_REQUEST_NULL) continue;
    int arrived = 0;
    MPI_Test(&r, &arrived, MPI_STATUS_IGNORE);
    if (arrived) continue;
    missing += (missing.empty() ? "" : ", ") + std::to_string(peers_[i]);
    MPI_Cancel(&r);
    MPI_Request_free(&r);
  }
  for (size_t i = peers_.size(); i < requests_.size(); ++i) {
    if (requests_[i] != MPI_REQUEST_NULL) MPI_Request_free(&requests_[i]);
  }
  // A freed send may still read its header, a cancelled receive may still be written to.
  (void)mine_.release();
  (void)theirs_.release();
  done_ = true;
  return missing;
}

}  // namespace tide::distributed::detail
