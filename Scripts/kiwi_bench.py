#!/usr/bin/env python3
"""Time kiwisolver (the Python binding of the C++ kiwi solver) on the `solver-bench` workloads.

Run it through Scripts/kiwi-bench.sh, which provides a venv with kiwisolver.

    run --workload W --size N [--ticks T]     one measurement of kiwi, as JSON shaped like
                                              `layout-bench solver-bench --json -`
    compare [--binary PATH] [--set S]         both solvers on a set of cases, side by side
            [--markdown] [--timeout SEC]      (sets: quick, default, full)
    values --workload W --size N [--ticks K]  kiwi's values after the build and after each of
                                              the first K ticks, in `layout-bench solve` format
    script --workload W --size N [--ticks K]  the same system as a constraint script
    check [--binary PATH] [--size N]          run that script through `layout-bench solve` for
                                              every workload and compare with kiwi's values

The workloads are the contract of shared/DESIGN.md section 9 and mirror
Sources/SolverBench/SolverWorkload.swift statement for statement: the same variable creation
order, the edit variable added (strong) and suggested before the constraints, the same
constraint order and strengths, the same tick values. The enaml system is read from
Sources/SolverBench/enaml.cass, the constraint script that SolverBench embeds, so there is one
copy of it.

Timing follows Sources/SolverBench/SolverBench.swift: when the system is small (N <= 200,
or enaml) one untimed warm-up build, then buildNs = the median of 7 builds (a single build of
a millisecond moves by 2x between runs on a shared machine); otherwise buildNs = one build
(create the solver and the variables, add the edit variable and every constraint,
updateVariables). Then ticks until 200
ticks or 1 s have passed, whichever comes first, but at least 6 (one full cycle of values);
tickNs is the median tick. Then tickMeanNs, the mean tick timed in batches: the median over
up to 101 batches of whole six-tick cycles, each batch sized from an untimed trial batch to
last 100 us or longer, of the batch's time per tick, so that a short tick is not the clock's (batches_go_on says how many: 21 or more
when they fit in 1 s, fewer for ticks of a millisecond and more, at least one).
The comparison table uses tickMeanNs on both sides. Clocks: time.perf_counter_ns. As timeit
does, the cyclic garbage collector is switched off while timing.
"""

import argparse
import gc
import json
import math
import os
import platform
import resource
import statistics
import subprocess
import sys
import tempfile
import textwrap
import time
import timeit

import kiwisolver as kiwi

from constraint_script import (ScriptError, close, fmt_num, format_blocks, parse_blocks,
                               parse_script)

REPO_ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
ENAML_SCRIPT = os.path.join(REPO_ROOT, "Sources", "SolverBench", "enaml.cass")
DEFAULT_BINARY = os.path.join(REPO_ROOT, ".build", "release", "layout-bench")

WORKLOADS = ("chain", "wide", "deep", "enaml", "churn", "churn-link")
MINIMUM_SIZE = {"churn-link": 2}  # every other workload accepts N >= 1

REQUIRED = kiwi.strength.required
STRONG = kiwi.strength.strong
MEDIUM = kiwi.strength.medium
WEAK = kiwi.strength.weak

# Tick values (DESIGN.md section 9), indexed by t mod 6.
CHAIN_OFFSETS = (120, -60, 300, -25, 10, -140)
WIDE_WIDTHS = (800, 1000, 600, 1200, 400, 900)
DEEP_OFFSETS = (100, 400, 250, 1000, 50, 700)


# ------------------------------------------------------------------------------------------------
# The enaml system, read from enaml.cass as SolverWorkload+Enaml.swift reads it (ScriptedSystem),
# once, so that building does not time parsing.

def load_enaml():
    """(variable names in creation order, [(name, strength)] edit variables, [(Form, op,
    strength)] constraints, [(width, height)] window sizes, one per tick)."""
    try:
        with open(ENAML_SCRIPT, encoding="utf-8") as f:
            statements = parse_script(f.read())
    except (OSError, ScriptError) as error:
        sys.exit(f"kiwi_bench: cannot read {ENAML_SCRIPT}: {error}")
    # Labelled constraints taken back by a `remove` only fix the variable order.
    removed = {st.label for st in statements if st.kind == "remove"}
    variables = list(dict.fromkeys(name for st in statements for name in st.mentioned))
    edits = [(st.name, st.strength) for st in statements if st.kind == "edit"]
    for st in statements:
        if st.kind == "constraint" and st.shortfall is not None:
            # kiwi has no equality that weighs its two directions apart: the same work
            # cannot be timed in both solvers.
            sys.exit(f"kiwi_bench: {ENAML_SCRIPT}:{st.line}: a split equality "
                     "(@excess/shortfall) has no kiwi counterpart")
    constraints = [(st.form, st.op, st.strength) for st in statements
                   if st.kind == "constraint" and st.label not in removed]
    sizes, pending = [], []
    for st in statements:
        if st.kind == "suggest":
            pending.append((st.name, st.value))
        elif st.kind == "print":
            if [name for name, _ in pending] != ["width", "height"]:
                sys.exit(f"kiwi_bench: {ENAML_SCRIPT}:{st.line}: a tick suggests width, height")
            sizes.append((pending[0][1], pending[1][1]))
            pending = []
    return variables, edits, constraints, sizes


# ------------------------------------------------------------------------------------------------
# The workloads. Each builder takes the solver to drive (a kiwi.Solver, or a ScriptRecorder that
# forwards to one), builds the system as the Swift code does, calls updateVariables, and returns
# a System. Everything inside a builder is inside the timed build region.

class System:
    def __init__(self, solver, variables, tick_body):
        self.solver = solver
        self.variables = variables  # in creation order, for read-out
        self.tick_body = tick_body

    def tick(self, t):
        """Tick t: suggestions, or a remove + re-add for churn; then updateVariables."""
        self.tick_body(t)
        self.solver.updateVariables()


def build_chain(solver, n, churn=None):
    s = solver
    width = kiwi.Variable("W")
    variables = [width]
    s.addEditVariable(width, STRONG)
    initial = 58.0 * n + 8
    s.suggestValue(width, initial)
    x, w, links, preferences = [], [], [], []
    for i in range(n):
        xi, wi = kiwi.Variable(f"x{i}"), kiwi.Variable(f"w{i}")
        x.append(xi)
        w.append(wi)
        variables += (xi, wi)
        link = (xi == 8) if i == 0 else (xi == x[i - 1] + w[i - 1] + 8)
        s.addConstraint(link)
        s.addConstraint(xi >= 0)
        s.addConstraint(wi >= 10)
        preference = (wi == 50) | WEAK
        s.addConstraint(preference)
        links.append(link)
        preferences.append(preference)
    s.addConstraint(x[n - 1] + w[n - 1] + 8 == width)

    if churn is None:
        def tick(t):
            s.suggestValue(width, initial + CHAIN_OFFSETS[t % 6])
    elif churn == "preference":
        def tick(t):
            c = preferences[(379 * t) % n]
            s.removeConstraint(c)
            s.addConstraint(c)
    else:  # "link": never box 0, whose link pins it to x = 8
        def tick(t):
            c = links[1 + (379 * t) % (n - 1)]
            s.removeConstraint(c)
            s.addConstraint(c)
    s.updateVariables()
    return System(s, variables, tick)


def build_wide(solver, n):
    s = solver
    rx, rw = kiwi.Variable("Rx"), kiwi.Variable("Rw")
    variables = [rx, rw]
    s.addEditVariable(rw, STRONG)
    s.suggestValue(rw, 640)
    s.addConstraint(rx == 0)
    s.addConstraint(rw >= 0)
    for i in range(n):
        x, w = kiwi.Variable(f"x{i}"), kiwi.Variable(f"w{i}")
        variables += (x, w)
        s.addConstraint(x == rx + float(i % 17))
        s.addConstraint(w >= 10)
        s.addConstraint((w == 0.5 * rw) | MEDIUM)
        s.addConstraint(x + w <= rx + rw)
        s.addConstraint((w == 100) | WEAK)

    def tick(t):
        s.suggestValue(rw, WIDE_WIDTHS[t % 6])
    s.updateVariables()
    return System(s, variables, tick)


def build_deep(solver, d):
    s = solver
    x, w = [kiwi.Variable("x0")], [kiwi.Variable("w0")]
    variables = [x[0], w[0]]
    s.addEditVariable(w[0], STRONG)
    s.suggestValue(w[0], 2.0 * d + 500)
    s.addConstraint(x[0] == 0)
    s.addConstraint(w[0] >= 0)
    for j in range(1, d + 1):
        x.append(kiwi.Variable(f"x{j}"))
        w.append(kiwi.Variable(f"w{j}"))
        variables += (x[j], w[j])
        s.addConstraint(x[j] == x[j - 1] + 1)
        s.addConstraint(x[j] + w[j] == x[j - 1] + w[j - 1] - 1)
        s.addConstraint(w[j] >= 0)
    root = w[0]

    def tick(t):
        s.suggestValue(root, 2.0 * d + DEEP_OFFSETS[t % 6])
    s.updateVariables()
    return System(s, variables, tick)


ENAML = None  # load_enaml(), loaded on first use, outside any timed region


def build_enaml(solver):
    names, edits, constraints, sizes = ENAML
    s = solver
    by_name = {}
    variables = []
    for name in names:
        by_name[name] = kiwi.Variable(name)
        variables.append(by_name[name])
    width, height = by_name["width"], by_name["height"]
    # As kiwi's enaml_like_benchmark.cpp: two strong edit variables, no suggestion before the
    # constraints (the Swift workload does the same).
    for name, strength in edits:
        s.addEditVariable(by_name[name], strength)
    for form, op, strength in constraints:
        terms = [kiwi.Term(by_name[n], c) for n, c in zip(form.names, form.coefs) if c != 0]
        s.addConstraint(kiwi.Constraint(kiwi.Expression(terms, form.const), op, strength))

    def tick(t):
        w, h = sizes[t % len(sizes)]
        s.suggestValue(width, w)
        s.suggestValue(height, h)
    s.updateVariables()
    return System(s, variables, tick)


def build(workload, size, solver=None):
    """Builds `workload` of size `size` (enaml ignores it) on `solver` or a new kiwi.Solver."""
    s = kiwi.Solver() if solver is None else solver
    if workload == "chain":
        return build_chain(s, size)
    if workload == "churn":
        return build_chain(s, size, churn="preference")
    if workload == "churn-link":
        return build_chain(s, size, churn="link")
    if workload == "wide":
        return build_wide(s, size)
    if workload == "deep":
        return build_deep(s, size)
    if workload == "enaml":
        return build_enaml(s)
    raise ValueError(workload)


def prepare(workload, size):
    """Checks arguments and loads what a build needs, before anything is timed."""
    global ENAML
    if workload not in WORKLOADS:
        sys.exit(f"kiwi_bench: unknown workload {workload!r} (one of {', '.join(WORKLOADS)})")
    if size < MINIMUM_SIZE.get(workload, 1):
        sys.exit(f"kiwi_bench: {workload} needs --size >= {MINIMUM_SIZE.get(workload, 1)}")
    if workload == "enaml" and ENAML is None:
        ENAML = load_enaml()


# ------------------------------------------------------------------------------------------------
# Measurement (mirrors SolverWorkload.measure in SolverBench.swift).

# Builds timed (median taken) for small systems; as SolverBench.swift's smallBuildRepeats.
SMALL_BUILD_REPEATS = 7


# Batches of ticks for tickMeanNs; as SolverBench.swift's batchTargetNs, minimumBatches,
# maximumBatches and batchLimitNs.
BATCH_TARGET_NS = 100_000
MINIMUM_BATCHES = 21
MAXIMUM_BATCHES = 101
BATCH_LIMIT_NS = 250_000_000
BATCH_PATIENCE_NS = 1_000_000_000


def batches_go_on(count, elapsed_ns):
    """Whether another batch is timed after `count` batches that took `elapsed_ns` (their own
    time): up to MINIMUM_BATCHES for as long as BATCH_PATIENCE_NS, more up to
    MAXIMUM_BATCHES under BATCH_LIMIT_NS; as SolverBench.swift's batchesGoOn(count:elapsedNs:)
    (the caller times at least one)."""
    if count >= MAXIMUM_BATCHES:
        return False
    return elapsed_ns < BATCH_LIMIT_NS or (count < MINIMUM_BATCHES
                                           and elapsed_ns < BATCH_PATIENCE_NS)


def ticks_per_batch(mean_tick_ns):
    """Whole cycles of the six tick values, as few as make a batch of BATCH_TARGET_NS or
    longer; as SolverBench.swift's ticksPerBatch(meanTickNs:)."""
    if not mean_tick_ns > 0:
        return 6 * 1000
    cycles = math.ceil(BATCH_TARGET_NS / (6 * mean_tick_ns))
    return 6 * min(max(cycles, 1), 1000)


def measure(workload, size, minimum_ticks=200, time_limit_ns=1_000_000_000):
    prepare(workload, size)
    clock = time.perf_counter_ns
    gc.collect()
    gc.disable()
    try:
        small = size <= 200 or workload == "enaml"
        if small:
            build(workload, size)  # warm-up, not timed
        builds = []
        for _ in range(SMALL_BUILD_REPEATS if small else 1):
            start = clock()
            system = build(workload, size)
            builds.append(clock() - start)
        build_ns = round(statistics.median(builds))

        samples = []
        ticks_start = clock()
        t = 0
        while t < 6 or (t < minimum_ticks and clock() - ticks_start < time_limit_ns):
            before = clock()
            system.tick(t)
            samples.append(clock() - before)
            t += 1
        ticks = t

        # The mean tick in batches of whole cycles, as SolverBench.swift's tickMeanNs.
        # Sized again from one untimed trial batch (a single tick's time holds two clock
        # reads), as SolverBench.swift does.
        per_batch = ticks_per_batch(sum(samples) / len(samples))
        trial_start = clock()
        for u in range(t, t + per_batch):
            system.tick(u)
        t += per_batch
        per_batch = ticks_per_batch((clock() - trial_start) / per_batch)
        means = []
        batches_ns = 0
        while not means or batches_go_on(len(means), batches_ns):
            before = clock()
            for u in range(t, t + per_batch):
                system.tick(u)
            elapsed = clock() - before
            batches_ns += elapsed
            means.append(elapsed / per_batch)
            t += per_batch
    finally:
        gc.enable()
    return {
        "workload": workload, "size": size, "buildNs": build_ns,
        "tickNs": round(statistics.median(samples)), "ticks": ticks,
        "tickMeanNs": round(statistics.median(means), 1), "ticksPerBatch": per_batch,
        "batches": len(means),
        # kiwi counts no work; the keys are kept so that both reports read alike.
        "pivotsPerTick": None, "buildCounters": None, "tickCounters": None,
        "solver": f"kiwisolver {kiwi.__version__}",
    }


# ------------------------------------------------------------------------------------------------
# Values and constraint scripts, to check that kiwi and our solver solve the same systems.

def fmt_strength(value):
    named = {REQUIRED: "required", STRONG: "strong", MEDIUM: "medium", WEAK: "weak"}
    return named.get(value, fmt_num(value))


def render_expression(expression):
    parts = []
    for term in expression.terms():
        c, name = term.coefficient(), term.variable().name()
        parts.append(name if c == 1 else f"-{name}" if c == -1 else f"{fmt_num(c)} * {name}")
    if expression.constant() != 0 or not parts:
        parts.append(fmt_num(expression.constant()))
    return " + ".join(parts)


class ScriptRecorder:
    """Stands in for a kiwi.Solver in a builder: forwards every call to a real kiwi.Solver and
    writes the same call as a constraint script line (DESIGN.md, "Constraint script format").
    Every constraint gets a label, so that churn's remove + re-add can be written."""

    def __init__(self):
        self.solver = kiwi.Solver()
        self.lines = []
        self.labels = {}  # id(constraint) -> label
        self.keep = []  # the constraints, so that ids stay unique
        self.active = {}  # label -> constraint, for the objective
        self.edits = {}  # variable name -> [strength, suggested value]

    def addEditVariable(self, variable, strength):
        self.solver.addEditVariable(variable, strength)
        self.edits[variable.name()] = [strength, 0.0]  # kiwi starts an edit at 0
        self.lines.append(f"edit {variable.name()} @{fmt_strength(strength)}")

    def suggestValue(self, variable, value):
        self.solver.suggestValue(variable, value)
        self.edits[variable.name()][1] = float(value)
        self.lines.append(f"suggest {variable.name()} {fmt_num(value)}")

    def addConstraint(self, constraint):
        self.solver.addConstraint(constraint)
        label = self.labels.get(id(constraint))
        if label is None:
            label = self.labels[id(constraint)] = f"c{len(self.labels)}"
            self.keep.append(constraint)
        self.active[label] = constraint
        self.lines.append(
            f"{label}: {render_expression(constraint.expression())} {constraint.op()} 0"
            f" @{fmt_strength(constraint.strength())}")

    def removeConstraint(self, constraint):
        self.solver.removeConstraint(constraint)
        label = self.labels[id(constraint)]
        del self.active[label]
        self.lines.append(f"remove {label}")

    def updateVariables(self):
        self.solver.updateVariables()

    def print(self):
        self.lines.append("print")

    def objective(self, values):
        """(largest required violation, sum of strength * violation of the others, edits
        included) for a solution given as {name: value}: two optima of one system have the
        same objective even where a degenerate optimum lets their values differ."""
        required_violation, weighted = 0.0, 0.0
        for constraint in self.active.values():
            e = constraint.expression()
            r = e.constant() + sum(t.coefficient() * values[t.variable().name()]
                                   for t in e.terms())
            op = constraint.op()
            violation = abs(r) if op == "==" else max(0.0, r) if op == "<=" else max(0.0, -r)
            if constraint.strength() >= REQUIRED:
                required_violation = max(required_violation, violation)
            else:
                weighted += constraint.strength() * violation
        for name, (strength, suggested) in self.edits.items():
            weighted += strength * abs(values[name] - suggested)
        return required_violation, weighted


def record(workload, size, ticks):
    """Builds the workload on a ScriptRecorder and runs `ticks` ticks, printing after the build
    and after each tick. Returns (recorder, system, kiwi's blocks: [[(name, value)]])."""
    prepare(workload, size)
    recorder = ScriptRecorder()
    blocks = []

    def snapshot():
        recorder.print()
        blocks.append([(v.name(), v.value()) for v in system.variables])

    system = build(workload, size, solver=recorder)
    snapshot()
    for t in range(ticks):
        system.tick(t)
        snapshot()
    return recorder, system, blocks


def script_text(workload, size, ticks, recorded=None):
    """The recorded calls as a script. Its first two lines mention every variable in the
    Swift workload's creation order (a throw-away weak constraint, added and removed), since a
    script creates variables in order of first mention and the order names the symbols."""
    recorder, system, _ = recorded or record(workload, size, ticks)
    names = [v.name() for v in system.variables]
    header = [
        f"# layout-bench solver-bench --workload {workload} --size {size}: the build, then"
        f" {ticks} tick(s); written by Scripts/kiwi_bench.py",
        f"_order: {' + '.join(names)} == 0 @weak",
        "remove _order",
    ]
    return "\n".join(header + recorder.lines) + "\n"


# ------------------------------------------------------------------------------------------------
# Running our binary.

def wait_for_binary(path, patience=120):
    """The binary may be mid-rebuild: wait for it to reappear rather than fail at once."""
    deadline = time.monotonic() + patience
    while not os.access(path, os.X_OK):
        if time.monotonic() > deadline:
            sys.exit(f"kiwi_bench: no executable at {path} (build with `swift build -c release`"
                     " or pass --binary)")
        print(f"kiwi_bench: waiting for {path} ...", file=sys.stderr)
        time.sleep(5)


def run_json(command, timeout, memory_limit=None):
    """Runs a command that prints one JSON object; returns (object or None, error or None)."""
    def limit():
        if memory_limit:
            resource.setrlimit(resource.RLIMIT_AS, (memory_limit, memory_limit))
    try:
        done = subprocess.run(command, capture_output=True, text=True, timeout=timeout,
                              preexec_fn=limit if memory_limit else None)
    except subprocess.TimeoutExpired:
        return None, "timeout"
    except OSError as error:
        return None, f"failed ({error.strerror})"
    if done.returncode != 0:
        last = (done.stderr.strip().splitlines() or ["?"])[-1]
        return None, f"failed (exit {done.returncode}: {last[:80]})"
    try:
        return json.loads(done.stdout), None
    except json.JSONDecodeError:
        return None, "failed (bad JSON)"


def run_ours(binary, workload, size, ticks, timeout):
    wait_for_binary(binary)
    command = [binary, "solver-bench", "--workload", workload, "--size", str(size),
               "--ticks", str(ticks), "--json", "-"]
    result, error = run_json(command, timeout)
    if error and error.startswith("failed") and not os.access(binary, os.X_OK):
        wait_for_binary(binary)  # rebuilt under us: try once more
        result, error = run_json(command, timeout)
    return result, error


def run_kiwi(workload, size, ticks, timeout):
    """One kiwi case in its own process: a clean heap, and a timeout that really stops it."""
    command = [sys.executable, os.path.abspath(__file__), "run", "--workload", workload,
               "--size", str(size), "--ticks", str(ticks)]
    return run_json(command, timeout, memory_limit=memory_limit())


def memory_limit():
    """Three quarters of the physical memory: a runaway kiwi case fails instead of swapping."""
    try:
        return int(os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES") * 3 // 4)
    except (ValueError, OSError, AttributeError):
        return None


# ------------------------------------------------------------------------------------------------
# compare: the side-by-side table.

SETS = {
    "quick": [("enaml", 1)] + [(w, 100) for w in ("chain", "wide", "deep")],
    "default": [("enaml", 1)]
    + [(w, n) for w in ("chain", "wide", "deep", "churn") for n in (100, 1000)]
    + [("wide", 3000)],
}
SETS["full"] = SETS["default"] + [(w, 10000) for w in ("chain", "wide", "deep")] \
    + [("churn-link", 1000)]
# The sizes the speed goals are stated at (tick / floor at 1,000 to 10,000, and enaml).
SETS["floor"] = [("enaml", 1)] + [(w, n) for w in ("chain", "wide", "deep")
                                  for n in (1000, 3000, 10000)]


def fmt_ns(ns):
    """`850 ns`, `12.30 µs`, `4.56 ms`, `2.50 s` (as layout-bench prints durations)."""
    if ns >= 1e9:
        return f"{ns / 1e9:.2f} s"
    if ns >= 1e8:
        return f"{ns / 1e6:.1f} ms"
    if ns >= 1e6:
        return f"{ns / 1e6:.2f} ms"
    if ns >= 1e3:
        return f"{ns / 1e3:.2f} \u00b5s"
    return f"{ns:.0f} ns"


def fmt_ratio(ours, kiwi_ns):
    if ours is None or kiwi_ns is None or kiwi_ns <= 0:
        return "-"
    ratio = ours / kiwi_ns
    return f"{ratio:.0f}x" if ratio >= 100 else f"{ratio:#.3g}x"  # 0.417x, 3.50x, 12.0x, 250x


def machine_description():
    cpu = platform.processor() or platform.machine()
    try:
        with open("/proc/cpuinfo", encoding="utf-8") as f:
            models = [line.split(":", 1)[1].strip() for line in f if line.startswith("model name")]
        if models:
            cpu = models[0]
    except OSError:
        pass
    return f"{cpu}, {os.cpu_count()} CPUs, {platform.system()} {platform.release()}"


def git_revision():
    try:
        rev = subprocess.run(["git", "-C", REPO_ROOT, "rev-parse", "--short", "HEAD"],
                             capture_output=True, text=True, timeout=10).stdout.strip()
        dirty = subprocess.run(["git", "-C", REPO_ROOT, "status", "--porcelain", "--", "Sources",
                                "Package.swift"], capture_output=True, text=True,
                               timeout=10).stdout.strip()
        return rev + (" with uncommitted changes in Sources/" if dirty else "") if rev else "?"
    except (OSError, subprocess.SubprocessError):
        return "?"


def compare(args):
    binary = os.path.abspath(args.binary)
    load = os.getloadavg()[0] if hasattr(os, "getloadavg") else None
    rows = run_cases(binary, SETS[args.set], args.ticks, args.timeout)
    print(format_table(rows, args.markdown))
    print()
    print(textwrap.fill(footnote(rows, binary, load, args), width=100, break_on_hyphens=False))


def run_cases(binary, cases, ticks, timeout):
    """[(workload, size, kiwi JSON or None, kiwi error, our JSON or None, our error)], one
    case at a time (kiwi, then ours) so that the two never compete for the CPU."""
    rows = []
    for index, (workload, size) in enumerate(cases, 1):
        label = workload if workload == "enaml" else f"{workload} N={size}"
        print(f"[{index}/{len(cases)}] {label}: kiwi ...", file=sys.stderr, end="", flush=True)
        started = time.monotonic()
        k, k_error = run_kiwi(workload, size, ticks, timeout)
        print(f" {k_error or 'done'} ({time.monotonic() - started:.1f} s); ours ...",
              file=sys.stderr, end="", flush=True)
        started = time.monotonic()
        o, o_error = run_ours(binary, workload, size, ticks, timeout)
        print(f" {o_error or 'done'} ({time.monotonic() - started:.1f} s)", file=sys.stderr)
        rows.append((workload, size, k, k_error, o, o_error))
    return rows


def mean_tick(result):
    """tickMeanNs, or the median tick of a layout-bench older than 81ca99d, which has none
    (the footnote says so)."""
    return result.get("tickMeanNs", result["tickNs"])


def format_table(rows, markdown):
    header = ["workload", "N", "kiwi build", "ours build", "ours/kiwi",
              "kiwi tick", "ours tick", "ours/kiwi"]
    table = []
    for workload, size, k, k_error, o, o_error in rows:
        kb, kt = (k["buildNs"], mean_tick(k)) if k else (None, None)
        ob, ot = (o["buildNs"], mean_tick(o)) if o else (None, None)
        table.append([
            workload, "-" if workload == "enaml" else str(size),
            fmt_ns(kb) if k else k_error, fmt_ns(ob) if o else o_error, fmt_ratio(ob, kb),
            fmt_ns(kt) if k else k_error, fmt_ns(ot) if o else o_error, fmt_ratio(ot, kt),
        ])
    if markdown:
        lines = ["| " + " | ".join(header) + " |", "|---|" + "---:|" * (len(header) - 1)]
        return "\n".join(lines + ["| " + " | ".join(row) + " |" for row in table])
    widths = [max(len(row[i]) for row in [header] + table) for i in range(len(header))]
    return "\n".join(
        "  ".join(c.ljust(widths[i]) if i == 0 else c.rjust(widths[i])
                  for i, c in enumerate(row)).rstrip()
        for row in [header] + table)


def footnote(rows, binary, load, args):
    """How it was measured, in one paragraph."""
    ticks_used = ", ".join(
        f"{w if w == 'enaml' else f'{w} {n}'} {k['ticks']}/{o['ticks']}"
        for w, n, k, _, o, _ in rows if k and o)
    shown_binary = os.path.relpath(binary, REPO_ROOT) if binary.startswith(REPO_ROOT) else binary
    call_ns, constraint_ns = python_overhead()
    return (
        f"Measured on {machine_description()}, {time.strftime('%Y-%m-%d')}"
        + (f" (1-minute load average {load:.1f} at the start)" if load is not None else "")
        + ": one run per case, kiwi first, each in its own process. kiwi = kiwisolver"
        f" {kiwi.__version__} (C++ kiwi behind CPython {platform.python_version()}) driven by"
        f" Scripts/kiwi_bench.py; ours = {shown_binary} solver-bench (git {git_revision()})."
        " Build = one build (solver, variables, edit variable, every constraint, then"
        " updateVariables); for N <= 200 and enaml the median of 7 builds after an untimed"
        " warm-up build. Tick = the mean tick timed in batches (tickMeanNs): the median over"
        " up to 101 batches (21 or more where they fit in 1 s) of whole six-value cycles,"
        " each 100 us or longer, of a batch's"
        " time per tick, after ticks timed one by one (tickNs, the median tick in the JSON,"
        f" over at least {args.ticks} ticks or 1 s, whichever comes first, but at least 6; ticks"
        f" timed one by one, kiwi/ours: {ticks_used or 'none'}). Timeout {args.timeout:g} s per"
        " case."
        + (" The binary reports no tickMeanNs (older than 81ca99d): its ticks are medians."
           if any(o and "tickMeanNs" not in o for _, _, _, _, o, _ in rows) else "")
        + " Our batches each have a sample of the floor after them (not counted in their"
        " time), kiwi's do not."
        " The kiwi column includes CPython's cost of driving kiwisolver: here a suggestValue +"
        f" updateVariables on a one-variable solver takes {fmt_ns(call_ns)} from Python and"
        f" building one constraint like `(x == y + 8) | 'weak'` {fmt_ns(constraint_ns)}. That is"
        " a large share of kiwi's time on small systems (enaml, N = 100), where kiwi's own C++"
        " benchmark is faster (DESIGN.md quotes enaml at 0.9-1.5 us per tick and 0.4 ms per"
        " build), so ratios there flatter us; on large systems the solvers' own work dominates."
    )


def python_overhead():
    """(ns of suggestValue + updateVariables on a one-variable solver, ns to build one small
    constraint), both from Python: the floor under every kiwi number in the table."""
    solver, x, y = kiwi.Solver(), kiwi.Variable("x"), kiwi.Variable("y")
    solver.addEditVariable(x, STRONG)

    def tick():
        solver.suggestValue(x, 3.0)
        solver.updateVariables()

    def constraint():
        return (x == y + 8) | WEAK

    def best(body, n=20000):
        return min(timeit.timeit(body, number=n) for _ in range(5)) / n * 1e9
    return best(tick), best(constraint)


# ------------------------------------------------------------------------------------------------
# check: kiwi's values against `layout-bench solve` on the same system.

def check(args):
    binary = os.path.abspath(args.binary)
    wait_for_binary(binary)
    workloads = args.workloads.split(",") if args.workloads else list(WORKLOADS)
    status = 0
    for workload in workloads:
        size = max(args.size, MINIMUM_SIZE.get(workload, 1))
        label = workload if workload == "enaml" else f"{workload} N={size}"
        recorded = record(workload, size, args.ticks)
        kiwi_blocks = recorded[2]
        with tempfile.NamedTemporaryFile("w", suffix=".cass", delete=False) as f:
            f.write(script_text(workload, size, args.ticks, recorded))
            path = f.name
        try:
            done = subprocess.run([binary, "solve", path], capture_output=True, text=True,
                                  timeout=args.timeout)
        finally:
            os.unlink(path)
        try:
            our_blocks = parse_blocks(done.stdout)
        except ValueError:
            our_blocks = []  # not `name = value` output: reported as a failure below
        if done.returncode != 0 or len(our_blocks) != len(kiwi_blocks):
            print(f"{label}: layout-bench solve failed or printed {len(our_blocks)} blocks"
                  f" for kiwi's {len(kiwi_blocks)}: {done.stderr.strip()}")
            status = 1
            continue
        for b, (kb, ob) in enumerate(zip(kiwi_blocks, our_blocks)):
            stage = "after build" if b == 0 else f"after tick {b - 1}"
            if [n for n, _ in kb] != [n for n, _ in ob]:
                print(f"{label} {stage}: the variables differ")
                status = 1
                continue
            kv, ov = dict(kb), dict(ob)
            diffs = [(n, kv[n], ov[n]) for n, _ in kb
                     if not close(kv[n], ov[n], args.tolerance, absolute_below=1.0)]
            # The objective of the system as it stood at this stage, for both solutions: equal
            # objectives with different values mean a degenerate optimum (say, which boxes give
            # up their weak width preference), which kiwi and we may break differently.
            stage_recorder = record(workload, size, b)[0]
            k_req, k_err = stage_recorder.objective(kv)
            o_req, o_err = stage_recorder.objective(ov)
            same_objective = abs(k_err - o_err) <= 1e-9 * max(1.0, abs(k_err))
            sample = [kb[i] for i in sorted({0, 1, 2, 3, len(kb) // 2, len(kb) - 1})
                      if i < len(kb)]
            shown = ", ".join(f"{n} {fmt_num(v)}/{fmt_num(ov[n])}" for n, v in sample)
            if not diffs:
                verdict = "identical"
            elif same_objective and o_req <= 1e-6:
                verdict = f"{len(diffs)} of {len(kb)} values differ, same objective"
            else:
                verdict = f"{len(diffs)} of {len(kb)} values differ, OBJECTIVE DIFFERS"
                status = 1
            print(f"{label} {stage}: {verdict}; objective kiwi {k_err:.10g}, ours {o_err:.10g}"
                  f" (largest required violation {k_req:.2g}, {o_req:.2g})")
            print(f"    kiwi/ours: {shown}")
            for n, k_value, o_value in diffs[:4]:
                print(f"    differs: {n} kiwi {fmt_num(k_value)}, ours {fmt_num(o_value)}")
    return status


# ------------------------------------------------------------------------------------------------

def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    sub = parser.add_subparsers(dest="mode", required=True)

    def workload_args(p, default_size=1000):
        p.add_argument("--workload", required=True, choices=WORKLOADS)
        p.add_argument("--size", type=int, default=default_size,
                       help="N: boxes, children or depth (enaml ignores it)")

    p = sub.add_parser("run", help="time kiwi on one workload, print JSON")
    workload_args(p)
    p.add_argument("--ticks", type=int, default=200, help="minimum ticks (fewer after 1 s)")

    p = sub.add_parser("compare", help="kiwi and our binary side by side")
    p.add_argument("--binary", default=DEFAULT_BINARY)
    p.add_argument("--set", default="default", choices=sorted(SETS))
    p.add_argument("--markdown", action="store_true", help="print the table as Markdown")
    p.add_argument("--timeout", type=float, default=120, help="seconds per case and solver")
    p.add_argument("--ticks", type=int, default=200, help="minimum ticks (fewer after 1 s)")

    for mode, text in (("values", "kiwi's values after the build and each tick"),
                       ("script", "the system as a constraint script")):
        p = sub.add_parser(mode, help=text)
        workload_args(p, default_size=100)
        p.add_argument("--ticks", type=int, default=1, help="ticks after the build")

    p = sub.add_parser("check", help="kiwi's values against `layout-bench solve`")
    p.add_argument("--binary", default=DEFAULT_BINARY)
    p.add_argument("--size", type=int, default=100)
    p.add_argument("--ticks", type=int, default=1, help="ticks after the build")
    p.add_argument("--workloads", help="comma-separated (default: all)")
    p.add_argument("--tolerance", type=float, default=1e-6)
    p.add_argument("--timeout", type=float, default=300)

    args = parser.parse_args()
    if args.mode == "run":
        print(json.dumps(measure(args.workload, args.size, minimum_ticks=args.ticks)))
    elif args.mode == "compare":
        compare(args)
    elif args.mode == "values":
        print(format_blocks(record(args.workload, args.size, args.ticks)[2]), end="")
    elif args.mode == "script":
        print(script_text(args.workload, args.size, args.ticks), end="")
    elif args.mode == "check":
        sys.exit(check(args))


if __name__ == "__main__":
    main()
