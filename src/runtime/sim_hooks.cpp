// Test-only controls of the simulated backend (tide/testing/sim_hooks.h).

#include "tide/testing/sim_hooks.h"

#include "backends/sim/sim_backend.h"
#include "runtime/registry.h"
#include "tide/error.h"

namespace tide::testing {
namespace {

void check_simulated(const char* fn) {
  TIDE_CHECK(sim_active(), "[", fn, "] holding streams works only on simulated GPUs; set "
                           "TIDE_SIM_DEVICES=N (or call set_sim_devices_for_testing first)");
}

}  // namespace

void set_sim_devices_for_testing(int n) { runtime::set_sim_devices_override(n); }

bool sim_active() {
  return dynamic_cast<sim::SimBackend*>(runtime::backend(kCUDA)) != nullptr;
}

void hold_stream(const cuda::Stream& stream) {
  check_simulated("testing::hold_stream");
  sim::SimBackend::hold(stream.native_handle());
}

void release_stream(const cuda::Stream& stream) {
  check_simulated("testing::release_stream");
  sim::SimBackend::release(stream.native_handle());
}

}  // namespace tide::testing
