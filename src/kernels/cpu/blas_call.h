#pragma once
// BlasCall: the scope of one call into OpenBLAS, one at a time when the linked build is not
// reentrant (Note [Serial OpenBLAS is not reentrant]).

#include <functional>
#include <optional>

namespace tide::kernels {

// Note [Serial OpenBLAS is not reentrant]: cpu kernels run on many host threads at once — the
// worker of each simulated stream (one per stream, so DataParallel's replicas run their GEMMs
// side by side), DataLoader workers, user threads. OpenBLAS's threaded builds lock the table of
// work buffers every GEMM packs its operands into; its sequential build (Debian's
// libopenblas0-serial, which the tsan preset links, and which libopenblas.so.0 resolves to
// where the alternative points there) does not, so two concurrent sgemm calls can pack into the
// same buffer and one returns the other's product. With equal weights and different inputs —
// DataParallel's replicas — that is exactly the other replica's rows: the tsan stage once saw
// replica 1's output equal replica 0's (tsan cannot see it: OpenBLAS is not instrumented).
// Measured with OpenBLAS 0.3.21: two threads each calling a 3x16x6 sgemm in a loop get a wrong
// result once in 1,000 to 40,000 calls, nearly always the other thread's, on the serial build,
// and never on the pthreads build. So every BLAS call runs inside a BlasCall, which makes the
// calls take turns when the library reports a sequential build (openblas_get_parallel() == 0);
// threaded builds keep their concurrency and pay one predictable branch. A sequential build
// made with USE_LOCKING=1 would be safe without this but reports the same; taking turns costs
// it only the overlap between threads, as it never splits one GEMM across cores. The turns are
// hidden from ThreadSanitizer: they order nothing a program may rely on, and taken for
// synchronization they would hide from the tsan stage a missing event between two simulated
// streams whose tasks both multiply matrices.
class BlasCall {
 public:
  BlasCall();
  ~BlasCall();
  BlasCall(const BlasCall&) = delete;
  BlasCall& operator=(const BlasCall&) = delete;

 private:
  bool serialized_;
};

/// Whether BLAS calls run one at a time: the linked OpenBLAS is a sequential build, unless a
/// test said otherwise (set_blas_calls_serialized_for_testing).
bool blas_calls_serialized();

/// Tests: serialize BLAS calls (true) or not (false) whatever the library is; nullopt goes
/// back to what the library reports.
void set_blas_calls_serialized_for_testing(std::optional<bool> serialized);
/// Tests: `hook` runs inside every BlasCall scope, after the call got its turn and before
/// BLAS runs; an empty function removes it. Set it while no BLAS call runs.
void set_blas_call_hook_for_testing(std::function<void()> hook);
/// Tests: how many threads wait for another's BLAS call to end before starting theirs.
int blas_calls_waiting_for_testing();

}  // namespace tide::kernels
