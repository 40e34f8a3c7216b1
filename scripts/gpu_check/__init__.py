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
  report          report.md from the stage JSONs"""


