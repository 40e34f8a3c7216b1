"""One invocation of the check: its options, build and output directories, the probed GPU,
torch and commit, the deadline, and running one stage into its <stage>.json."""
import os
import shlex
import time

from . import accounting, bench, build_and_test, bundle_bench, bundle_stages, environment
from .commands import REPO, run
from .machine import git_commit, probe_gpu, probe_torch
from .stage_io import BUDGET_S, StageResult, fmt_duration, now_iso, skip, write_json

# Each stage but report: a function (check, figures) that fills figures or ends with
# skip() / fail().
STAGE_FUNCTIONS = {"env": environment.stage_env, "deps": environment.stage_deps,
                   "build": build_and_test.stage_build, "test": build_and_test.stage_test,
                   "sanitize": build_and_test.stage_sanitize,
                   "accounting": accounting.stage_accounting, "bench": bench.stage_bench}
# --bundle's (bundle_stages.py): the same env stage, and a sanitize stage over the bundle.
BUNDLE_STAGE_FUNCTIONS = dict(STAGE_FUNCTIONS, unpack=bundle_stages.stage_unpack,
                              native=bundle_stages.stage_native, nccl=bundle_stages.stage_nccl,
                              train=bundle_stages.stage_train, python=bundle_stages.stage_python,
                              sanitize=bundle_stages.stage_sanitize,
                              bench=bundle_bench.stage_bench, pystep=bundle_bench.stage_pystep,
                              trainvs=bundle_bench.stage_trainvs, profile=bundle_bench.stage_profile)


class Check:
    def __init__(self, args):
        self.args = args
        self.build_dir = os.path.abspath(args.build_dir)
        self.out_dir = os.path.join(self.build_dir, "gpu-check")
        self.deadline = (time.monotonic() + args.deadline) if args.deadline else None
        self._gpu = None
        self._torch = None
        self.env = dict(os.environ)
        self.load_deps_env()

    @property
    def gpu(self):
        if self._gpu is None:
            self._gpu = probe_gpu()
        return self._gpu

    @property
    def torch(self):
        if self._torch is None:
            self._torch = probe_torch(self.args.python)
        return self._torch

    def log(self, stage, name=None):
        return os.path.join(self.out_dir, f"{name or stage}.log")

    def need_gpu(self):
        if not self.gpu["present"] and not self.args.force:
            skip(self.gpu["reason"])

    def load_deps_env(self):
        """Loads .gpu-deps/prefix/env.sh (scripts/gpu-deps unpack) into every command's
        environment: each device call is a fresh shell."""
        env_sh = os.path.join(REPO, ".gpu-deps", "prefix", "env.sh")
        if not os.path.exists(env_sh):
            return False
        rc, out, _ = run(["bash", "-c", f"source {shlex.quote(env_sh)} && env -0"], timeout=30)
        if rc == 0:
            self.env = dict(kv.split("=", 1) for kv in out.split("\0") if "=" in kv)
        return rc == 0

    # Note [Stage JSON]: a stage writes a "did not finish" JSON before it starts, so a
    # command killed at the device's time limit still leaves a failed stage in the report.
    def run_stage(self, name):
        path = os.path.join(self.out_dir, f"{name}.json")
        result = {"stage": name, "started": now_iso(), "commit": self.commit}
        remaining = self.remaining()
        if remaining is not None and remaining < 30:
            result.update(status="skipped", duration_s=0.0, figures={},
                          reason=f"deadline: not started ({remaining:.0f} s left of "
                                 f"--deadline); run `scripts/gpu-check --stages {name}`")
            write_json(path, result)
            return result
        write_json(path, dict(result, status="failed", figures={},
                              reason="did not finish (killed at the command's time limit?)"))
        for log in os.listdir(self.out_dir):
            if log.startswith(name) and log.endswith(".log"):
                os.remove(os.path.join(self.out_dir, log))
        start = time.monotonic()
        figures = {}
        try:
            functions = BUNDLE_STAGE_FUNCTIONS if self.args.bundle else STAGE_FUNCTIONS
            functions[name](self, figures)
            status, reason = "ok", ""
        except StageResult as r:
            status, reason = r.status, r.reason
        except Exception as e:  # a bug here must not lose the other stages' results
            status, reason = "failed", f"gpu-check error: {type(e).__name__}: {e}"
        result.update(status=status, reason=reason, figures=figures,
                      duration_s=round(time.monotonic() - start, 1),
                      logs=sorted(f for f in os.listdir(self.out_dir)
                                  if f.startswith(name) and f.endswith(".log")))
        write_json(path, result)
        print(f"gpu-check: {name}: {status}{' — ' + reason if reason else ''} "
              f"({fmt_duration(result['duration_s'])})", flush=True)
        return result

    def remaining(self):
        return None if self.deadline is None else self.deadline - time.monotonic()

    def timeout(self, stage):
        """The stage's limit, cut to what the deadline leaves (20 s kept for the report)."""
        budget = BUDGET_S[stage]
        remaining = self.remaining()
        return budget if remaining is None else max(10, min(budget, remaining - 20))

    @property
    def commit(self):
        if not hasattr(self, "_commit"):
            self._commit = git_commit()
        return self._commit
