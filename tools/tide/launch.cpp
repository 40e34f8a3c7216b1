#include "launch.h"

#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <string_view>
#include <thread>

#include "tide/error.h"

extern char** environ;

namespace tide::cli {
namespace {

bool forwarded(std::string_view name) {
  return name.starts_with("TIDE_") || name == "CUDA_VISIBLE_DEVICES" ||
         name == "CUDA_LAUNCH_BLOCKING";
}

/// mpirun's path: on PATH, as Debian's openmpi-bin installs it.
std::string find_mpirun() {
  const char* path = std::getenv("PATH");
  std::string_view rest = path ? path : "/usr/bin";
  while (!rest.empty()) {
    const size_t colon = rest.find(':');
    const std::filesystem::path dir(std::string(rest.substr(0, colon)));
    const std::filesystem::path candidate = dir / "mpirun";
    if (access(candidate.c_str(), X_OK) == 0) return candidate.string();
    if (colon == std::string_view::npos) break;
    rest.remove_prefix(colon + 1);
  }
  return "";
}

}  // namespace

std::vector<std::string> mpirun_command(const LaunchOptions& o) {
  std::string mpirun = find_mpirun();
  std::vector<std::string> cmd = {mpirun.empty() ? "mpirun" : mpirun, "-np",
                                  std::to_string(o.processes)};
  if (geteuid() == 0) cmd.push_back("--allow-run-as-root");
  if (o.hostfile.empty() && o.processes > static_cast<int>(std::thread::hardware_concurrency())) {
    cmd.push_back("--oversubscribe");
  }
  if (!o.hostfile.empty()) {
    cmd.push_back("--hostfile");
    cmd.push_back(o.hostfile);
  }
  for (char** entry = environ; *entry != nullptr; ++entry) {
    std::string_view kv(*entry);
    std::string_view name = kv.substr(0, kv.find('='));
    if (forwarded(name)) {
      cmd.push_back("-x");
      cmd.push_back(std::string(name));
    }
  }
  cmd.insert(cmd.end(), o.command.begin(), o.command.end());
  return cmd;
}

int run_launch(const LaunchOptions& o, std::ostream& out, std::ostream& err) {
  if (o.processes < 1) {
    err << "tide launch: -n " << o.processes << ": expected at least 1 process\n";
    return 2;
  }
  if (o.command.empty()) {
    err << "tide launch: no command; give one after --, e.g. tide launch -n 2 -- tide train "
           "--distributed\n";
    return 2;
  }
  if (!o.hostfile.empty() && !std::filesystem::is_regular_file(o.hostfile)) {
    err << "tide launch: --hostfile " << o.hostfile
        << ": no such file; write one line per machine, e.g. \"node1 slots=4\"\n";
    return 2;
  }
  std::vector<std::string> cmd = mpirun_command(o);
  if (o.dry_run) {
    for (size_t i = 0; i < cmd.size(); ++i) out << (i ? " " : "") << cmd[i];
    out << "\n";
    return 0;
  }
  if (find_mpirun().empty()) {
    err << "tide launch: mpirun is not on PATH; install Open MPI (apt-get install openmpi-bin "
           "libopenmpi-dev) or run scripts/install-deps\n";
    return 2;
  }
  out.flush();
  std::vector<char*> argv;
  for (std::string& arg : cmd) argv.push_back(arg.data());
  argv.push_back(nullptr);
  execv(argv[0], argv.data());
  err << "tide launch: cannot start " << cmd[0] << ": " << std::strerror(errno) << "\n";
  return 2;
}

}  // namespace tide::cli
