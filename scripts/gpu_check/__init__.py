"""scripts/gpu-check's stages and report, one file each (the entry point, scripts/gpu-check,
parses the arguments and runs them):
  commands        running a command: its own process group, a timeout, a log
  stage_io        stage records: the stage list and budgets, <stage>.json, skip/fail, copying out
  machine         probes of the machine: nvidia-smi, torch, CUDA tools, cpu, commit
  check           one invocation: its options, directories, probes, deadline; runs a stage
  environment     the env and deps stages
  build_and_test  the build, test and sanitize stages, with ctest's and compute-sanitizer's parsers
  accounting      the accounting stage and its parser
  bench           the bench stage and Google Benchmark's JSON (Note [Benchmark names])
  bench_targets   the issue's benchmark targets, judged per case
  report          report.md from the stage JSONs
The GPU bundle (scripts/gpu-bundle; gpu-check --bundle), Note [GPU bundle] in bundle_layout:
  bundle_layout   its layout, the libraries left to the machine, its programs' environment
  elf_deps        ELF files' libraries: readelf's needs, ldd's resolution, symbol versions
  bundle_pack     `gpu-bundle pack`: the build, libraries, Open MPI, sources, data, one .tar.xz
  bundle_tests    ctest's list rewritten to the bundle, and a runner that runs it as ctest would
  bundle_verify   `gpu-bundle verify`: the bundle proven here in a scrubbed environment
  bundle_machine  the GPU machine: its CUDA libraries, glibc, libstdc++, what cannot load
  bundle_stages   gpu-check --bundle's stages: unpack, native, nccl, train, python, sanitize
  bundle_bench    gpu-check --bundle --bench's stages (issue 23): bench, pystep, trainvs, profile
  torch_side      the GPU bench's torch side, compiled on the GPU machine against its torch"""


