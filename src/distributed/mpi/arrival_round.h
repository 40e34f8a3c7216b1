#pragma once
// ArrivalRound: one collective's exchange of headers with every peer (Note [Arrival round]).

#include <mpi.h>

#include <chrono>
#include <memory>
#include <string>
#include <vector>

#include "distributed/collective_header.h"

namespace tide::distributed::detail {

/// Nonblocking sends and receives of CollectiveHeader on a communicator of their own, polled
/// against a deadline; used on the communication thread only. The receives are posted at
/// construction, before this rank's stream reached the collective, so the peers' headers
/// arrive while it waits; this rank's own header leaves only at send(), once its data is
/// ready, so no peer starts moving data with a rank that may still give up.
class ArrivalRound {
 public:
  using Clock = std::chrono::steady_clock;

  /// Posts a receive for every peer's header. `collective` names MPI errors.
  ArrivalRound(MPI_Comm comm, int rank, int size, const CollectiveHeader& mine,
               const char* collective);
  /// Cancels the receives still open (a round given up before send()).
  ~ArrivalRound();
  ArrivalRound(const ArrivalRound&) = delete;
  ArrivalRound& operator=(const ArrivalRound&) = delete;

  /// Sends this rank's header to every peer.
  void send();
  /// Polls (yielding, then sleeping: other ranks may share the core) until every header came
  /// and every send finished (true), or until `deadline` (false).
  bool wait_until(Clock::time_point deadline);
  /// After a successful wait: throws tide::Error naming both calls when a peer's header
  /// differs from this rank's (no data has moved: the group stays usable).
  void check() const;
  /// After a failed wait: the peers whose headers never came ("1" or "1, 3"). Gives the round
  /// up for good: open requests are cancelled or freed and the buffers they may still touch
  /// are leaked, never freed.
  std::string abandon();

 private:
  MPI_Comm comm_;
  int rank_;
  const char* collective_;
  std::vector<int> peers_;
  // On the heap so that abandon() can leak them while MPI may still write or read them.
  std::unique_ptr<CollectiveHeader> mine_;
  std::unique_ptr<std::vector<CollectiveHeader>> theirs_;  // indexed like peers_
  std::vector<MPI_Request> requests_;  // receives (one per peer), then sends once sent
  bool sent_ = false;
  bool done_ = false;
};

}  // namespace tide::distributed::detail
