"""report.md: the header from the env stage, a status line per stage, then each stage's section
(test counts, sanitizer summaries, accounting mismatches, the benchmark table), from whatever
stage JSONs the directory holds."""
import json
import os
import xml.sax.saxutils

from .bench import SIDES
from .bench_targets import REPORTED, bench_cases, judge, row_key
from .machine import describe_torch
from .stage_io import fmt_duration, read_json, stages_of


def fmt_time(seconds):
    if seconds is None:
        return "—"
    for unit, scale in (("s", 1), ("ms", 1e-3), ("µs", 1e-6)):
        if seconds >= scale:
            return f"{seconds / scale:.3g} {unit}"
    return f"{seconds / 1e-9:.3g} ns"


def fmt_number(v):
    for suffix, scale in (("T", 1e12), ("G", 1e9), ("M", 1e6), ("k", 1e3)):
        if abs(v) >= scale:
            return f"{v / scale:.3g}{suffix}"
    return f"{v:.3g}"


def md(text):
    return xml.sax.saxutils.escape(str(text)).replace("|", "\\|").replace("\n", " ")


def header_lines(env):
    if env is None:
        return ["- **Environment:** not recorded (the env stage has not run)"]
    f = env.get("figures") or {}
    gpu = f.get("gpu") or {}
    if gpu.get("present"):
        device = (f"{gpu['name']} (compute capability {gpu.get('compute_cap')}, "
                  f"{gpu.get('memory_mib')} MiB" + (f", {gpu['count']} GPUs" if gpu.get("count", 1) > 1 else "")
                  + ")")
        driver = f"{gpu.get('driver')} (supports CUDA {gpu.get('cuda_driver') or '?'})"
    else:
        device, driver = gpu.get("reason", "no NVIDIA GPU"), "—"
    torch = f.get("torch") or {}
    peak = torch.get("peak_bytes_per_second")
    return [f"- **Device:** {device}",
            f"- **Driver:** {driver}",
            f"- **CUDA:** nvcc {f.get('nvcc') or 'not found'}",
            f"- **torch:** {describe_torch(torch)}"
            + (f"; peak memory bandwidth {peak / 1e12:.2f} TB/s (memory clock × bus width)" if peak else ""),
            f"- **Tools:** compute-sanitizer {f.get('compute_sanitizer') or 'not found'}; "
            f"ncu {f.get('ncu') or 'not found'}",
            f"- **Host:** {f.get('cpu', '?')}",
            f"- **Date:** {f.get('date', '?')}",
            f"- **Commit:** {f.get('commit', '?')}"]


def section_test(f):
    rows = ["| part | passed | failed | skipped | total | duration |", "| --- | ---: | ---: | ---: | ---: | ---: |"]
    names = []
    for part, label in (("native", "`native.` (real GPU)"), ("rest", "rest of the suite")):
        c = f.get(part)
        if not c:
            continue
        rows.append(f"| {label} | {c['passed']} | {c['failed']} | {c['skipped']} | {c['total']} | "
                    f"{fmt_duration(c.get('duration_s'))}{' (timed out)' if c.get('timed_out') else ''} |")
        names += c.get("failed_names", [])
    out = rows if len(rows) > 2 else []
    if names:
        out += ["", f"Failing ({len(names)}):"] + [f"- `{n}`" for n in names[:60]]
        if len(names) > 60:
            out.append(f"- … {len(names) - 60} more (see test-*.log)")
    return out


def section_sanitize(f):
    runs = f.get("runs") or []
    if not runs:
        return []
    out = [f"gtest filter `{f.get('filter')}`, native configuration." if f.get("filter") else
           "Native configuration; each run's gtest filter below.", "",
           "| tool | binary | ERROR SUMMARY | tests passed / failed / skipped | duration | status |",
           "| --- | --- | ---: | --- | ---: | --- |"]
    for r in runs:
        errors = r.get("errors")
        summary = "—" if errors is None else f"{errors} errors"
        if r.get("hazards") is not None:
            summary += f" ({r['hazards']} hazards, {r.get('race_warnings', 0)} warnings)"
        tests = (f"{r.get('tests_passed', 0)} / {r.get('tests_failed', 0)} / {r.get('tests_skipped', 0)}"
                 if "tests_passed" in r else "—")
        out.append(f"| {r['tool']} | {r['binary']} | {summary} | {tests} | "
                   f"{fmt_duration(r.get('duration_s'))} | {r.get('status')} |")
    for r in runs:
        if r.get("filter") and not f.get("filter"):
            out.append(f"- {r['tool']} {r['binary']}: `{r['filter']}`")
        for finding, n in r.get("findings") or []:
            out.append(f"- {r['tool']} {r['binary']}: {n}× `{finding}`")
    return out


def counts_table(f, parts):
    """The bundle's test counts: a row per (key, label) of parts present in f."""
    rows = ["| tests | passed | failed | skipped | not run | total | duration |",
            "| --- | ---: | ---: | ---: | ---: | ---: | ---: |"]
    names, slowest = [], []
    for key, label in parts:
        c = f.get(key)
        if c:
            rows.append(f"| {label} | {c['passed']} | {c['failed']} | {c['skipped']} | "
                        f"{c.get('not_run', 0)} | {c['total']} | {fmt_duration(c.get('duration_s'))} |")
            names += c.get("failed_names", [])
            slowest += c.get("slowest", [])
    out = rows if len(rows) > 2 else []
    if names:
        out += ["", f"Failing ({len(names)}):"] + [f"- `{n}`" for n in names[:60]]
    if slowest:
        out += ["", "Slowest: " + ", ".join(f"`{s}`" for s in slowest[:5])]
    return out


def section_unpack(f):
    out = [f"Bundle {md(f.get('bundle'))} ({f.get('size_mib')} MiB, sha256 {str(f.get('sha256'))[:16]}…), "
           f"commit {f.get('bundle_commit')}; unpacked in {f.get('unpack_s')} s.",
           f"Machine: glibc {f.get('glibc')}, libstdc++ {f.get('libstdcxx')} ({f.get('libstdcxx_path')}); "
           f"the bundle needs {md(json.dumps(f.get('needs')))}."]
    for soname, where in sorted((f.get("cuda_libraries") or {}).items()):
        out.append(f"- {soname}: {where}")
    out += [f"- {soname}: **not found**" for soname in f.get("cuda_missing") or []]
    problems = (f.get("version_problems") or []) + (f.get("load_problems") or [])
    out += [f"- cannot load: {md(p)}" for p in problems[:30]]
    py = f.get("python") or {}
    out.append(f"Python {py.get('version', '?')}: headers {'present' if py.get('headers') else 'absent'} "
               f"({py.get('include', py.get('error', '?'))}).")
    return out


def section_native(f):
    return ([f"Configuration `{f.get('config')}`; logs of failures in native.log, every test's "
             "result in native_results.json.", ""] + counts_table(f, [("native", f"`{f.get('config')}.`")]))


def section_nccl(f):
    g = f.get("gtest") or {}
    return counts_table(f, [("nccl", "`mpi1_nccl.` (mpirun -n 1)")]) + (
        ["", f"gtest inside: {g.get('passed', 0)} passed, {g.get('failed', 0)} failed, "
             f"{g.get('skipped', 0)} skipped."] if g else [])


def section_train(f):
    t, d = f.get("train") or {}, f.get("demo") or {}
    out = []
    if t:
        acc = ", ".join(f"{a:.2f}%" for a in t.get("accuracy") or []) or "none printed"
        out.append(f"`tide {md(t.get('command'))}`: exit {t.get('exit')}, {t.get('seconds')} s; "
                   f"test accuracy after each epoch: {acc}.")
    if d:
        out.append(f"`tide demo`: exit {d.get('exit')}, {d.get('seconds')} s.")
    return out


def section_python(f):
    c, p = f.get("compile") or {}, f.get("pytest") or {}
    out = []
    if c:
        out.append(f"tide._C compiled against the bundle's libtide: exit {c.get('rc')}, "
                   f"{c.get('seconds')} s (beside the native tests).")
    if p:
        out.append("pytest: " + ", ".join(f"{p[k]} {k}" for k in ("passed", "failed", "skipped", "error",
                                                                   "xfailed", "xpassed") if p.get(k))
                   + f" (exit {p.get('exit')}).")
        out += [f"- `{md(n)}`" for n in p.get("failures") or []]
        fewer = p.get("needs_more_gpus") or []
        if fewer:
            out += ["", f"Failed for want of GPUs ({len(fewer)}: the tests were written for three "
                        "simulated ones):"] + [f"- `{md(n)}`" for n in fewer]
    return out


def section_accounting(f):
    if f.get("rows") is None and not f.get("mismatches"):
        return []
    out = [f"torch {f.get('torch_version')}: {f.get('rows')} rows compared with "
           f"tests/fixtures/memory/accounting_table.json, {len(f.get('mismatches') or [])} mismatches."]
    out += [f"- MISMATCH {md(m)}" for m in f.get("mismatches") or []]
    if f.get("recorded") is not None:
        out.append("torch's own figures: gpu-check/torch_accounting_record.json.")
    return out


def section_bench(f):
    cases = bench_cases(f)
    if not cases:
        return []
    out = ["Medians of the repetitions (± half the spread); ratios are tide's median time over "
           "the other side's (lower is better for tide); within 3% counts as parity.", "",
           "| case | tide | torch | raw | tide ÷ torch | tide ÷ raw | GB/s tide / torch | % of peak tide / torch | target | result |",
           "| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | --- | --- |"]
    missed = 0
    notes = []

    def cell(case, side):
        b = case.sides.get(side)
        if not b:
            return "—"
        if b.get("error"):
            return f"error: {md(b['error'])}"
        spread = b.get("spread")
        return fmt_time(b.get("median_s")) + (f" ±{spread * 100:.0f}%" if spread else "")

    for name in sorted(cases, key=row_key):
        c = cases[name]
        ratio = lambda s: f"{c.ratio(s):.3f}" if c.ratio(s) is not None else "—"
        gbs = [c.counter(s, "bytes_per_second") for s in ("tide", "torch")]
        pct = [c.pct_of_peak(s) if c.sides.get(s) else None for s in ("tide", "torch")]
        target, met, detail = judge(c, cases)
        result = ("—" if target is None else f"n/a ({detail})" if met is None else
                  f"{REPORTED} ({detail})" if met == REPORTED else
                  f"met ({detail})" if met else f"**missed** ({detail})")
        missed += met is False
        out.append(f"| {md(name)} | {cell(c, 'tide')} | {cell(c, 'torch')} | {cell(c, 'raw')} | "
                   f"{ratio('torch')} | {ratio('raw')} | "
                   + " / ".join(f"{g / 1e9:.1f}" if g else "—" for g in gbs) + " | "
                   + " / ".join(f"{p:.1f}%" if p is not None else "—" for p in pct)
                   + f" | {target or '—'} | {result} |")
        for side in SIDES:
            counters = {k: v for k, v in ((c.sides.get(side) or {}).get("counters") or {}).items()
                        if k not in ("bytes_per_second", "pct_of_peak", "peak_bytes_per_second")}
            if counters:
                notes.append(f"- {md(name)}/{side}: " + ", ".join(
                    f"{k} {fmt_number(v)}" for k, v in counters.items()))
    ctx = f.get("context") or {}
    peak = f.get("peak_bytes_per_second")
    out += ["", f"Device {ctx.get('device_name', '?')}; peak memory bandwidth "
                f"{f'{peak / 1e12:.2f} TB/s' if peak else 'unknown'}."]
    if ctx.get("torch_skipped"):
        out.append(f"torch cases skipped: {md(ctx['torch_skipped'])}.")
    judged = [judge(cases[n], cases) for n in cases]
    met = sum(1 for target, m, _ in judged if target and m is True)
    reported = sum(1 for target, m, _ in judged if target and m == REPORTED)
    unjudged = sum(1 for target, m, _ in judged if target and m is None)
    out.insert(0, f"Targets: {met} met, {missed} missed, {unjudged} not judged "
                  "(a side or a figure is missing)" + (f", {reported} reported" if reported else "") + ".")
    out.insert(1, "")
    if notes:
        out += ["", "Other counters (medians):"] + notes
    return out


def skipped_lines(f):
    return [f"- {side} side skipped: {md(why)}" for side, why in sorted((f.get("skipped") or {}).items())]


def section_bundle_bench(f):
    out = []
    build = f.get("torch_side_build") or {}
    torch = f.get("torch") or {}
    if build:
        compiles = ", ".join(f"{n} {s} s" + ("" if rc == 0 else f" ({rc})") for n, s, rc in build.get("compiles") or [])
        out.append(f"torch side compiled here against torch {torch.get('version') or '?'} (CUDA "
                   f"{torch.get('cuda') or 'none'}): {build.get('seconds')} s" + (f" ({compiles})" if compiles else "")
                   + (f"; not built: {md(build['why'])}" if build.get("why") else "") + ".")
    if f.get("rounds") is not None:
        out.append(f"{f['rounds']} rounds of {f.get('repetitions_per_round')} repetitions per side, "
                   f"rounds of {', '.join(str(s) for s in f.get('round_seconds') or [])} s"
                   + (f"; {md(f['rounds_cut'])}" if f.get("rounds_cut") else "") + ".")
    if f.get("python_build_still_running"):
        out.append("tide._C was still compiling while the cases ran: host-bound rows (TinyAdd, "
                   "MallocFreePair, MlpStep_64) shared the cpu with it.")
    out += skipped_lines(f)
    return out + ([""] if out else []) + section_bench(f)


def section_pystep(f):
    out = [f"Device {f.get('device')}; {md(f['note'])}." if f.get("note") else f"Device {f.get('device', '?')}."]
    c = f.get("compile") or {}
    if c:
        out.append(f"tide._C compiled here: exit {c.get('rc')}, {c.get('seconds')} s.")
    return out + skipped_lines(f) + [""] + section_bench(f)


def section_trainvs(f):
    out = []
    for side in ("tide", "torch"):
        r = f.get(side) or {}
        if not r:
            continue
        acc = ", ".join(f"{a:.2f}%" for a in r.get("accuracy") or []) or "none"
        seconds = r.get("seconds") if side == "tide" else r.get("process_seconds")
        out.append(f"- {side} ({r.get('device', 'cuda')}): exit {r.get('exit')}, {seconds} s for the "
                   f"process" + (f" ({r['train_seconds']:.1f} s training)" if r.get("train_seconds") else "")
                   + f"; test accuracy after each epoch: {acc}")
    if f.get("torch_skipped"):
        out.append(f"- torch skipped: {md(f['torch_skipped'])}")
    return out


def section_profile(f):
    out = []
    if f.get("host_note"):
        out.append(md(f["host_note"]) + ".")
    for p in f.get("profiles") or []:
        out.append(f"- {md(p['case'])}: " + (f"gpu-check/{p['report']} ({p.get('seconds')} s; "
                                             f"text in gpu-check/{p.get('details_log')})" if p.get("report")
                                             else md(p.get("why") or p.get("status"))))
    return out


AGAINST_TORCH = "against torch"


def against_torch(results):
    """--bench's one table: the rows of the bench, pystep and trainvs stages together."""
    merged = {"benchmarks": {}, "context": {}}
    for stage in ("bench", "pystep", "trainvs"):
        f = (results.get(stage) or {}).get("figures") or {}
        merged["benchmarks"].update(f.get("benchmarks") or {})
        if stage == "bench":
            merged["context"] = f.get("context") or {}
            merged["peak_bytes_per_second"] = f.get("peak_bytes_per_second")
    if not merged["benchmarks"]:
        return []
    return ["", f"## {AGAINST_TORCH}: issue 23's table", ""] + section_bench(merged)


SECTIONS = {"test": section_test, "sanitize": section_sanitize,
            "accounting": section_accounting, "bench": section_bench,
            "unpack": section_unpack, "native": section_native, "nccl": section_nccl,
            "train": section_train, "python": section_python,
            "pystep": section_pystep, "trainvs": section_trainvs, "profile": section_profile}


def write_report(directory, path=None):
    """Assembles report.md from the stage JSONs in directory; returns (path, any failed)."""
    stages = stages_of(directory)
    results = {s: read_json(os.path.join(directory, f"{s}.json")) for s in stages if s != "report"}
    env = results.get("env")
    commit = ((env or {}).get("figures") or {}).get("commit")
    failed = [s for s, r in results.items() if r and r.get("status") == "failed"]
    ran = [s for s, r in results.items() if r]
    lines = ["# tide GPU check", ""] + header_lines(env)
    unpacked = (results.get("unpack") or {}).get("figures") or {}
    if unpacked.get("bundle_commit"):
        lines.append(f"- **Bundle:** commit {unpacked['bundle_commit']}; machine's glibc "
                     f"{unpacked.get('glibc')}, libstdc++ {unpacked.get('libstdcxx')}")
    verdict = ("FAILED: " + ", ".join(failed)) if failed else "passed"
    lines += [f"- **Result:** {verdict} ({sum(1 for s in ran if results[s]['status'] == 'ok')} ok, "
              f"{sum(1 for s in ran if results[s]['status'] == 'skipped')} skipped, "
              f"{len(failed)} failed, {len(stages) - 1 - len(ran)} not run)", "",
              "| stage | status | duration | reason |", "| --- | --- | ---: | --- |"]
    for stage in stages[:-1]:
        r = results[stage]
        if not r:
            lines.append(f"| {stage} | not run | — | |")
            continue
        status = r["status"] if r["status"] != "failed" else "**failed**"
        lines.append(f"| {stage} | {status} | {fmt_duration(r.get('duration_s'))} | {md(r.get('reason', ''))} |")
    if "pystep" in stages:
        lines += against_torch(results)
    for stage in stages[:-1]:
        r = results[stage]
        if not r:
            continue
        lines += ["", f"## {stage}: {r['status']} ({fmt_duration(r.get('duration_s'))})", ""]
        if r.get("reason"):
            lines += [f"{'Skipped' if r['status'] == 'skipped' else 'Reason'}: {md(r['reason'])}", ""]
        if commit and r.get("commit") and r["commit"] != commit:
            lines += [f"Ran at commit {r['commit']} (the env stage's is {commit}).", ""]
        if stage == "env":
            lines.append("In the header above.")
        if stage == "build":
            f = r.get("figures") or {}
            if f.get("arch"):
                lines.append(f"{f['arch']}, {f.get('jobs')} jobs; torch benchmark: "
                             f"{md(f.get('torch_bench', '?'))}.")
            if f.get("configure"):
                lines.append(f"\n`{f['configure']}`")
        section = section_bundle_bench if stage == "bench" and "pystep" in stages else SECTIONS.get(stage)
        lines += (section or (lambda f: []))(r.get("figures") or {})
        if r.get("logs"):
            lines += ["", "Logs: " + ", ".join(f"gpu-check/{l}" for l in r["logs"])]
    path = path or os.path.join(directory, "report.md")
    with open(path, "w") as f:
        f.write("\n".join(lines).rstrip() + "\n")
    return path, bool(failed)
