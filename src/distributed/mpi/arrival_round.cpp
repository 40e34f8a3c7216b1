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
  for (int polls = 0;; ++polls) {
    int all_done = 0;
    check_mpi(MPI_Testall(static_cast<int>(requests_.size()), requests_.data(), &all_done,
                          MPI_STATUSES_IGNORE),
              "MPI_Testall", collective_);
    if (all_done) {
      done_ = true;
      return true;
    }
    if (polls % 64 == 63 && Clock::now() >= deadline) return false;
    // Spin briefly (a peer usually arrives within microseconds), then stop taking a core
    // from the ranks that share it (4 ranks on 2 cores in CI).
    if (polls < 2000) {
      std::this_thread::yield();
    } else {
      std::this_thread::sleep_for(std::chrono::microseconds(50));
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
