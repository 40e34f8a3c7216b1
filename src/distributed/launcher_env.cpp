#include "distributed/launcher_env.h"

#include <charconv>
#include <cstdlib>
#include <optional>
#include <string_view>

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
             "\"; set it to the process's rank (or start the job with mpirun / tide launch)");
  return value;
}

}  // namespace

LauncherEnv read_launcher_env() {
  LauncherEnv env;
  std::optional<int> rank = read_int("OMPI_COMM_WORLD_RANK");
  std::optional<int> size = read_int("OMPI_COMM_WORLD_SIZE");
  std::optional<int> local = read_int("OMPI_COMM_WORLD_LOCAL_RANK");
  env.source = "mpirun (OMPI_COMM_WORLD_RANK/SIZE/LOCAL_RANK)";
  if (!rank || !size) {
    rank = read_int("RANK");
    size = read_int("WORLD_SIZE");
    local = read_int("LOCAL_RANK");
    env.source = "RANK/WORLD_SIZE/LOCAL_RANK";
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
  env.local_rank = local.value_or(*rank);
  return env;
}

}  // namespace tide::distributed::detail
