// Typed native handles (Note [Typed native handles] in src/runtime/native_handle.h): a stream
// or event handle is the backend's record and cannot be cast to a CUDA type. The compile-time
// half needs no GPU and no CUDA header: it names CUDA's handle types by their forward
// declarations, as cuda_runtime.h does (cudaStream_t is CUstream_st*, cudaEvent_t CUevent_st*).

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <type_traits>
#include <utility>

#include "backends/sim/sim_stream.h"
#include "device_test_util.h"
#include "runtime/backend.h"
#include "runtime/registry.h"
#include "tide/cuda.h"
#include "tide/error.h"

struct CUstream_st;
struct CUevent_st;

namespace {

using namespace tide;

/// Whether `static_cast<To*>(handle)` compiles for a handle of type Handle.
template <class Handle, class To>
concept StaticCastsTo = requires(Handle handle) { static_cast<To*>(handle); };

using PublicStreamHandle = decltype(std::declval<const cuda::Stream&>().native_handle());

// The check itself catches the old bug: from the void* handles used to be, the cast that
// crashed NCCL and DLPack on real GPUs compiled.
static_assert(StaticCastsTo<void*, CUstream_st>);
// From the typed handles it does not, through the runtime's types or the public Stream.
static_assert(!StaticCastsTo<runtime::StreamHandle, CUstream_st>);
static_assert(!StaticCastsTo<PublicStreamHandle, CUstream_st>);
static_assert(!StaticCastsTo<runtime::EventHandle, CUevent_st>);
static_assert(!std::is_convertible_v<runtime::StreamHandle, CUstream_st*>);
static_assert(!std::is_convertible_v<runtime::EventHandle, CUevent_st*>);
// Stream and event handles do not mix either.
static_assert(!StaticCastsTo<runtime::StreamHandle, runtime::EventRecord>);
static_assert(!StaticCastsTo<runtime::EventHandle, runtime::StreamRecord>);
// A backend does downcast its own records.
static_assert(StaticCastsTo<runtime::StreamHandle, sim::SimStream>);

TEST(NativeHandle, IsTheSimulatedBackendsOwnStreamRecord) {
  TIDE_REQUIRE_DEVICES(2);
  TIDE_REQUIRE_SIMULATED("the record checked is the simulated backend's");
  const cuda::Stream s(1, -1);
  const auto* record = static_cast<const sim::SimStream*>(s.native_handle());
  EXPECT_EQ(record->device(), 1);
  EXPECT_EQ(record->id(), s.id());
  EXPECT_EQ(record->priority(), -1);
  EXPECT_EQ(cuda::Stream(s).native_handle(), s.native_handle());
  EXPECT_NE(cuda::default_stream(1).native_handle(), s.native_handle());
}

TEST(NativeHandle, NoCudaStreamCanWaitForASimulatedStream) {
  TIDE_REQUIRE_DEVICES(1);
  TIDE_REQUIRE_SIMULATED("a simulated stream has no cudaStream_t");
  const cuda::Stream s(0);
  try {
    runtime::backend(kCUDA)->external_stream_wait(1, s.native_handle());
    ADD_FAILURE() << "external_stream_wait on a simulated stream returned";
  } catch (const Error& e) {
    EXPECT_THAT(e.what(), ::testing::HasSubstr("[external_stream_wait] expected a stream of a "
                                               "real GPU, found one of simulated cuda:0"));
  }
}

}  // namespace
