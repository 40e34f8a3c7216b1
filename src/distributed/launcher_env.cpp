#include "distributed/launcher_env.h"

#include <charconv>
#include <cstdlib>
#include <optional>
#include <string>
#include <string_view>
#include <tuple>
#include <utility>

#include "tide/error.h"

namespace tide::distributed::detail {
namespace {

std::optional<int> read_int(const char* name) {
  const char* text = std::getenv(name);
  if (text == nullptr) return std::nullopt;
  std::string_view view(text);
  int value = -1;
  auto [end, ec] = std::from_chars(view.data(), view.data() + view.size(), value);
  TIDE_CHECK(ec == std::errc() && end == view.data() + view.size() && value >= 0,
             "[init_process_group] expected the environment variable ", name,
             " to be a non-negative integer, found \"", view,
             "\"; correct or unset it (mpirun and tide launch set the rank variables "
             "themselves)");
  return value;
}

/// The local rank and the variable it came from (Note [Launcher environment]).
std::pair<int, std::string> read_local_rank(int rank) {
  for (const char* name : {"LOCAL_RANK", "OMPI_COMM_WORLD_LOCAL_RANK", "SLURM_LOCALID"}) {
    if (std::optional<int> local = read_int(name)) return {*local, name};
  }
  return {rank, "the rank"};
}

}  // namespace

LauncherEnv read_launcher_env() {
  LauncherEnv env;
  std::optional<int> rank = read_int("OMPI_COMM_WORLD_RANK");
  std::optional<int> size = read_int("OMPI_COMM_WORLD_SIZE");
  env.source = "mpirun (OMPI_COMM_WORLD_RANK/SIZE)";
  if (!rank || !size) {
    rank = read_int("RANK");
    size = read_int("WORLD_SIZE");
    env.source = "RANK/WORLD_SIZE";
  }
  TIDE_CHECK(rank && size,
             "[init_process_group] expected the launcher's rank and world size in the "
             "environment (OMPI_COMM_WORLD_RANK and OMPI_COMM_WORLD_SIZE from mpirun, or RANK "
             "and WORLD_SIZE), found neither; start the program with `mpirun -np N ...` or "
             "`tide launch -n N -- ...`");
  TIDE_CHECK(*size >= 1 && *rank < *size, "[init_process_group] expected a rank in [0, ", *size,
             ") for world size ", *size, " from ", env.source, ", found rank ", *rank,
             "; check the launcher's variables");
  env.rank = *rank;
  env.world_size = *size;
  std::tie(env.local_rank, env.local_rank_source) = read_local_rank(env.rank);
  TIDE_CHECK(env.local_rank < env.world_size, "[init_process_group] expected a local rank in [0, ",
             env.world_size, ") for world size ", env.world_size, ", found ", env.local_rank,
             " in ", env.local_rank_source, "; unset ", env.local_rank_source,
             " unless the launcher sets it (a LOCAL_RANK exported before mpirun reaches every "
             "process)");
  return env;
}

}  // namespace tide::distributed::detail
