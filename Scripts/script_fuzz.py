#!/usr/bin/env python3
"""Mutation fuzzer for `layout-bench solve`: constraint scripts with extreme magnitudes.

Run it through Scripts/script-fuzz.sh (which builds the release binary first), or directly:

    python3 Scripts/script_fuzz.py [--count N] [--seed S] [--jobs J] [--timeout SECONDS]
        [--representation adaptive|lazy|canonical ...] [--binary PATH] [--keep DIR]
        [--minimize | --no-minimize]
    python3 Scripts/script_fuzz.py --seed S --case I     # regenerate case I, show and run it
    python3 Scripts/script_fuzz.py FILE.cass ...           # classify (and minimise) given files

Each case is a seed script (Tests/ConstraintScriptTests/Fixtures/repro/*.cass, the short
Fixtures/kiwi/*.cass, or a small generated script) with a few mutations: numbers replaced by
magnitudes from 1e-12 to 1e12 and by extremes (1e-300 ... 1.7e308, 5e-324, 0), relations and
strengths changed, lines duplicated, deleted, swapped, and `remove`, `print`, `edit`,
`suggest` and constraint lines inserted.  Case I of seed S depends on nothing but (S, I).

Every case runs as `BINARY solve FILE --json --representation R` for each representation and
is classified as
    crash            killed by a signal, or an exit status other than 0 and 1
    hang             still running after --timeout seconds
    no-message       exit status 1 without a `FILE:LINE: reason` message on stderr
    broken-required  a printed block violates a required constraint active at that print, or
                     holds a non-finite value
    bad-output       output that is not the contract's JSON, or blocks with the wrong count
                     or the wrong variable names
    unchecked        the binary accepted a script that this file's parser rejects (a
                     disagreement about the format; the output could not be checked)
    refused          exit status 1 with a proper message (e.g. unsatisfiable constraint)
    ok               exit status 0 and every block checked
`--json` prints nothing at all when a line fails (Solve.swift collects the blocks and prints
them only after the whole run succeeded), so after a refusal the case runs once more without
`--json`, where each block is printed as soon as it is ready, to check the blocks printed
before the refused line.

The exit status is 1 when any crash, hang, broken-required or bad-output case was found.

Failing cases (the first --per-group of each class and crash site) are saved under --keep
(default .build/script-fuzz-failures/CLASS/case-SEED-INDEX.cass) with SUMMARY.txt.  The first
5 are also minimised (all of them with --minimize, none with --no-minimize): lines are deleted
while the same representation still fails the same way (same class, same crash site), then
numbers are simplified; the result is saved next to the case as NAME.REPRESENTATION.min.cass.

The script format is read by Scripts/constraint_script.py, which mirrors
Sources/ConstraintScript/ScriptParser.swift (including the float operations that build each
constraint's linear form) and needs no kiwisolver: plain python3 (stdlib only) is enough.
"""

import argparse
import json
import math
import os
import random
import re
import shutil
import subprocess
import sys
import tempfile
import time
from concurrent.futures import ProcessPoolExecutor, as_completed
from fractions import Fraction

from constraint_script import (REQUIRED, LineError, ScriptError, code_of, fmt_num,
                               parse_line, parse_script, tokenize)

REPO_ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
FIXTURES = os.path.join(REPO_ROOT, "Tests", "ConstraintScriptTests", "Fixtures")
REPRO_DIR = os.path.join(FIXTURES, "repro")
KIWI_DIR = os.path.join(FIXTURES, "kiwi")
MAX_SEED_LINES = 40

REPRESENTATIONS = ("adaptive", "lazy", "canonical")
FAILING = ("crash", "hang", "broken-required", "bad-output")  # these make the exit status 1
REPORTED = FAILING + ("no-message",)                          # saved and minimised
CLASSES = ("ok", "refused", "unchecked") + REPORTED

TOLERANCE = Fraction(1, 10**7)


# --------------------------------------------------------------------------------------------
# Checking printed blocks

def violation(st, values):
    """None when the required constraint st holds for the printed values, else a description.
    Exact rational arithmetic: products such as 1e300 * 1e300 neither overflow nor round."""
    residual, scale = Fraction(st.form.const), abs(Fraction(st.form.const))
    for name, c in zip(st.form.names, st.form.coefs):
        if c == 0:
            continue  # the runner drops zero terms
        v = values.get(name)
        if v is None or isinstance(v, str):
            return f"{name} has no finite value ({v})"
        term = Fraction(c) * Fraction(v)
        residual += term
        scale += abs(term)
    tol = TOLERANCE * scale + TOLERANCE
    if st.op == "==":
        bad = abs(residual) > tol
    elif st.op == "<=":
        bad = residual > tol
    else:
        bad = residual < -tol
    if not bad:
        return None
    return f"lhs - rhs = {float(residual):.6g} (tolerance {float(tol):.3g})"


def check_blocks(statements, blocks, stop_line=None):
    """Problems in blocks printed by a run that ended before stop_line (None: a full run).
    Returns (kind, messages) with kind None, 'broken-required' or 'bad-output'."""
    seen, live_required, labels = [], {}, {}
    expected = []  # (print line, variable names, active required statements)
    has_print = any(st.kind == "print" for st in statements)
    for index, st in enumerate(statements):
        if stop_line is not None and st.line >= stop_line:
            break
        for name in st.mentioned:
            if name not in seen:
                seen.append(name)
        if st.kind == "constraint":
            if st.label is not None:
                labels[st.label] = index
            if st.required:
                live_required[index] = st
        elif st.kind == "remove":
            live_required.pop(labels.pop(st.label, None), None)
        elif st.kind == "print":
            expected.append((st.line, list(seen), list(live_required.values())))
    if not has_print and stop_line is None:
        expected.append((None, list(seen), list(live_required.values())))
    if not blocks and len(expected) == 1 and not expected[0][1] and stop_line is not None:
        blocks = [{}]  # plain output cannot show one block without variables
    if len(blocks) != len(expected):
        return "bad-output", [f"expected {len(expected)} block(s), got {len(blocks)}"]
    broken, bad = [], []
    for number, (block, (line, names, active)) in enumerate(zip(blocks, expected), start=1):
        where = f"block {number}" + (f" (print on line {line})" if line else " (final state)")
        if list(block) != names:
            bad.append(f"{where}: variables {list(block)}, expected {names}")
            continue
        for name, v in block.items():
            if v is None or isinstance(v, str) or not math.isfinite(v):
                broken.append(f"{where}: {name} = {v}")
        for st in active:
            problem = violation(st, block)
            if problem:
                broken.append(f"{where}: required constraint on line {st.line} broken: {problem}")
    if bad:
        return "bad-output", bad
    if broken:
        return "broken-required", broken
    return None, []


_NONFINITE = re.compile(r"(:\s*)(-?)(nan|inf|infinity|NaN|Infinity)\b")


def parse_json_blocks(text):
    """The blocks of `--json` output as dicts name -> number (None or 'nan'/'inf' strings for
    non-finite values); raises ValueError when the output is not the contract's JSON."""
    text = _NONFINITE.sub(lambda m: f'{m.group(1)}"{m.group(2)}{m.group(3).lower()}"', text)
    data = json.loads(text, parse_float=float, parse_constant=lambda c: c.lower())
    if not isinstance(data, dict) or set(data) != {"blocks"} \
            or not isinstance(data["blocks"], list):
        raise ValueError("not {\"blocks\": [...]}")
    for block in data["blocks"]:
        if not isinstance(block, dict):
            raise ValueError("a block is not an object")
        for v in block.values():
            if not (v is None or isinstance(v, str) or isinstance(v, (int, float))) \
                    or isinstance(v, bool):
                raise ValueError(f"bad value {v!r}")
    return data["blocks"]


def parse_text_blocks(text):
    """The blocks of plain output (`name = value`, blocks separated by `---`)."""
    blocks, current = [], {}
    lines = text.splitlines()
    for line in lines:
        if line == "---":
            blocks.append(current)
            current = {}
            continue
        m = re.fullmatch(r"([A-Za-z_][A-Za-z0-9_.]*) = (\S+)", line)
        if not m:
            raise ValueError(f"output line {line!r} is not `name = value`")
        try:
            value = float(m.group(2)) if re.fullmatch(r"[-+0-9.eE]+", m.group(2)) else m.group(2)
        except ValueError:
            value = m.group(2)
        current[m.group(1)] = value
    if lines:
        blocks.append(current)
    return blocks


# --------------------------------------------------------------------------------------------
# Running the binary

_FRAME = re.compile(r"0x[0-9a-f]+ (.+?)(?: \+ \d+)? in \S+ at \S*?([^/\s]+\.swift):(\d+)")


def crash_signature(returncode, stderr):
    """A short description of a crash: the runtime's message and the first frame in our own
    sources, e.g. 'precondition failure in Solver.erase(record:) (Solver+Constraints.swift:209)'."""
    what = f"signal {-returncode}" if returncode < 0 else f"exit status {returncode}"
    message = None
    for line in stderr.splitlines():
        m = re.match(r"\*\*\* (.+) \*\*\*$", line.strip())
        if m and not m.group(1).startswith("Signal "):
            message = re.sub(r"^(Swift runtime failure|Program crashed): ", "", m.group(1))
            message = re.sub(r" at 0x[0-9a-f]+$", "", message)
            break
        m = re.search(r"Fatal error: (.*)", line)
        if m:
            message = m.group(1)[:120]
            break
    frame = None
    for line in stderr.splitlines():
        m = _FRAME.search(line)
        if m and "/Sources/" in line:
            frame = f"{m.group(1)} ({m.group(2)}:{m.group(3)})"
            break
    parts = [message or what]
    if frame:
        parts.append(f"in {frame}")
    return " ".join(parts)


def run_binary(binary, path, representation, timeout, json_output=True):
    cmd = [binary, "solve", path, "--representation", representation]
    if json_output:
        cmd.insert(3, "--json")
    env = dict(os.environ)
    env.setdefault("SWIFT_BACKTRACE", "enable=yes,interactive=no,registers=none,images=none")
    try:
        proc = subprocess.run(cmd, capture_output=True, text=True, errors="replace",
                              timeout=timeout, env=env)
    except subprocess.TimeoutExpired:
        return None, "", ""
    return proc.returncode, proc.stdout, proc.stderr


def reproduce_command(binary, path, representation, json_output=True):
    flag = " --json" if json_output else ""
    return f"{binary} solve {path}{flag} --representation {representation}"


NO_JSON_NOTE = "(blocks from the run without --json"


def classify(binary, path, text, representation, timeout):
    """Runs one script on one representation: (class, detail lines, signature or None)."""
    rc, out, err = run_binary(binary, path, representation, timeout)
    if rc is None:
        return "hang", [f"no result after {timeout:g} s"], None
    if rc not in (0, 1):
        sig = crash_signature(rc, err)
        return "crash", [sig], sig
    try:
        statements = parse_script(text)
    except ScriptError as exc:
        statements, parse_error = None, exc
    if rc == 1:
        m = re.match(re.escape(path) + r":(\d+): (.+)", err)
        if not m:
            first = err.strip().splitlines()[0][:200] if err.strip() else "(empty stderr)"
            return "no-message", [f"stderr: {first}"], None
        line, reason = int(m.group(1)), m.group(2).strip()
        if statements is None:
            return "refused", [reason], None
        if not any(st.kind == "print" and st.line < line for st in statements):
            return "refused", [reason], None
        # --json prints nothing after a failure: run again without it, where each block is
        # printed as soon as it is ready.
        rc2, out2, err2 = run_binary(binary, path, representation, timeout, json_output=False)
        if rc2 is None:
            return "hang", [f"no result after {timeout:g} s (run without --json)"], None
        if rc2 not in (0, 1):
            sig = crash_signature(rc2, err2)
            return "crash", [sig + " (run without --json)"], sig
        try:
            blocks = parse_text_blocks(out2)
        except ValueError as exc:
            return "bad-output", [f"without --json: {exc}"], None
        if rc2 != 1 or err2 != err:
            return "bad-output", [f"without --json: exit {rc2}, stderr {err2.strip()[:200]!r}; "
                                  f"with --json: {err.strip()[:200]!r}"], None
        first_print = next(st for st in statements if st.kind == "print" and st.line < line)
        if not blocks and any(st.mentioned for st in statements if st.line < first_print.line):
            # Most likely an error found while reading the script that this file's parser
            # does not know about (the binary then prints nothing).
            return "unchecked", [f"no blocks printed before line {line}: {reason}"], None
        kind, problems = check_blocks(statements, blocks, stop_line=line)
        if kind:
            return kind, problems + [f"{NO_JSON_NOTE}, which stopped "
                                     f"at line {line}: {reason})"], None
        return "refused", [reason], None
    try:
        blocks = parse_json_blocks(out)
    except ValueError as exc:
        return "bad-output", [f"cannot read the JSON output: {exc}: {out[:200]!r}"], None
    if statements is None:
        return "unchecked", [f"the binary accepted a script rejected here: line "
                             f"{parse_error.line}: {parse_error.reason}"], None
    kind, problems = check_blocks(statements, blocks)
    if kind:
        return kind, problems, None
    return "ok", [], None


# --------------------------------------------------------------------------------------------
# Generating cases

EXTREMES = (1e-300, 1e-20, 1e20, 1e300, 1.7e308, 5e-324, 0.0)


def magnitude(rng, positive=False):
    """A log-uniform magnitude in [1e-12, 1e12], sometimes an extreme, with a random sign."""
    r = rng.random()
    if r < 0.15:
        value = rng.choice(EXTREMES)
        if positive and value == 0 and rng.random() < 0.9:
            value = rng.choice(EXTREMES[:-1])
    elif r < 0.25:
        value = float(rng.choice((1, 2, 10, 100, 1000, 0.5, 0.1)))
    else:
        value = 10 ** rng.uniform(-12, 12)
        if rng.random() < 0.7:
            value = float(f"{value:.2g}")
    if not positive and rng.random() < 0.5:
        value = -value
    return value


def num_text(rng, positive=False):
    value = magnitude(rng, positive)
    return ("-" + fmt_num(-value)) if value < 0 else fmt_num(value)


def strength_text(rng, edit=False):
    r = rng.random()
    if r < 0.5:
        names = ("strong", "medium", "weak") if edit else ("required", "strong", "medium", "weak")
        return "@" + rng.choice(names)
    if r < 0.6 and not edit:
        return ""
    text = num_text(rng, positive=True)
    if edit and float(text) >= REQUIRED:
        text = fmt_num(10 ** rng.uniform(-12, 9))
    return "@" + text


def info(lines):
    """The statement of each line (None where a line does not parse or is blank)."""
    out = []
    for number, line in enumerate(lines, start=1):
        try:
            out.append(parse_line(line, number))
        except LineError:
            out.append(None)
    return out


def variables_of(lines):
    names = []
    for st in info(lines):
        for name in (st.mentioned if st else ()):
            if name not in names:
                names.append(name)
    return names


def random_expr(rng, names, terms):
    parts = []
    for name in rng.sample(names, min(terms, len(names))):
        r = rng.random()
        if r < 0.4:
            parts.append(name)
        elif r < 0.8:
            parts.append(f"{num_text(rng)} * {name}")
        else:
            parts.append(f"{name} / {num_text(rng, positive=True)}")
    if rng.random() < 0.6 or not parts:
        parts.append(num_text(rng))
    text = parts[0]
    for p in parts[1:]:
        text += f" {rng.choice('+-')} {p}"
    return text


def random_constraint(rng, names, label=None):
    lhs = random_expr(rng, names, rng.randint(1, 3))
    rhs = random_expr(rng, names, rng.randint(0, 2))
    text = f"{lhs} {rng.choice(('==', '<=', '>='))} {rhs}"
    strength = strength_text(rng)
    if strength:
        text += " " + strength
    return f"{label}: {text}" if label else text


def generated_script(rng):
    """A small script over a few variables, numbers already of all magnitudes."""
    names = rng.sample(("x", "y", "z", "w", "a", "b", "v0", "v1", "left", "right"),
                       rng.randint(2, 5))
    lines, labels, edits = [], [], []
    for i in range(rng.randint(3, 12)):
        r = rng.random()
        if r < 0.55:
            label = f"c{i}" if rng.random() < 0.5 else None
            lines.append(random_constraint(rng, names, label))
            if label:
                labels.append(label)
        elif r < 0.65:
            name = rng.choice([n for n in names if n not in edits] or names)
            lines.append(f"edit {name} {strength_text(rng, edit=True)}")
            edits.append(name)
        elif r < 0.8 and edits:
            lines.append(f"suggest {rng.choice(edits)} {num_text(rng)}")
        elif r < 0.88 and labels:
            lines.append(f"remove {labels.pop(rng.randrange(len(labels)))}")
        else:
            lines.append("print")
    if rng.random() < 0.8:
        lines.append("print")
    return lines


def number_spans(line):
    """(start, end, context) of every number token before the comment; context is 'strength'
    after '@', 'suggest' for a suggested value, 'divisor' after '/', else 'value'."""
    try:
        tokens = tokenize(code_of(line))
    except LineError:
        return []
    spans = []
    for i, t in enumerate(tokens):
        if t[0] != "num":
            continue
        prev = tokens[i - 1][1] if i else None
        context = {"@": "strength", "/": "divisor"}.get(prev, "value")
        start = t[3]
        if tokens[0][1] == "suggest" and i >= 2:
            context = "suggest"
            if i == 3 and tokens[2][0] == "sym":
                start = tokens[2][3]  # `suggest x -5`: the sign goes with the number
        spans.append((start, t[4], context))
    return spans


_DOUBLE_MINUS = re.compile(r"(^|[=<>(*/:+\-]\s*)--(?=[\d.])")


def tidy_signs(line):
    """`== --5` is `== 5`: drops a double unary minus that a negative number put in front of
    a number (a binary minus before it, as in `x - -5`, stays)."""
    code = code_of(line)
    return _DOUBLE_MINUS.sub(r"\1", code) + line[len(code):]


def mutate_numbers(rng, lines):
    candidates = [i for i, line in enumerate(lines) if number_spans(line)]
    if not candidates:
        return False
    for i in rng.sample(candidates, min(len(candidates), rng.choice((1, 1, 2, 3, 5)))):
        spans = number_spans(lines[i])
        chosen = [s for s in spans if rng.random() < 0.5] or [rng.choice(spans)]
        line = lines[i]
        for start, end, context in sorted(chosen, reverse=True):
            if context == "strength":
                new = num_text(rng, positive=True)
            else:
                new = num_text(rng)
                if context == "divisor" and float(new) == 0 and rng.random() < 0.9:
                    new = num_text(rng, positive=True) or "1"
            line = line[:start] + new + line[end:]
        lines[i] = tidy_signs(line)
    return True


def _constraint_lines(lines):
    return [i for i, st in enumerate(info(lines)) if st is not None and st.kind == "constraint"]


def mutate_relation(rng, lines):
    cands = _constraint_lines(lines)
    if not cands:
        return False
    i = rng.choice(cands)
    code, comment = code_of(lines[i]), lines[i][len(code_of(lines[i])):]
    m = re.search(r"==|<=|>=", code)
    new = rng.choice([op for op in ("==", "<=", ">=") if op != m.group(0)])
    lines[i] = code[:m.start()] + new + code[m.end():] + comment
    return True


def mutate_strength(rng, lines):
    sts = info(lines)
    cands = [i for i, st in enumerate(sts) if st is not None and st.kind in ("constraint", "edit")]
    if not cands:
        return False
    i = rng.choice(cands)
    code = code_of(lines[i]).rstrip()
    code = re.sub(r"\s*@\s*\S+\s*$", "", code)
    strength = strength_text(rng, edit=sts[i].kind == "edit")
    lines[i] = f"{code} {strength}".rstrip()
    return True


_LABEL = re.compile(r"^(\s*)([A-Za-z_][A-Za-z0-9_.]*)\s*:\s*")


def mutate_duplicate(rng, lines):
    if not lines:
        return False
    i = rng.randrange(len(lines))
    copy = lines[i]
    m = _LABEL.match(copy)
    if m:
        copy = copy[m.end():] if rng.random() < 0.5 else f"{m.group(2)}_dup{i}: {copy[m.end():]}"
    j = i + 1 if rng.random() < 0.6 else rng.randint(0, len(lines))
    lines.insert(j, copy)
    return True


def mutate_delete(rng, lines):
    if len(lines) < 2:
        return False
    del lines[rng.randrange(len(lines))]
    return True


def mutate_swap(rng, lines):
    if len(lines) < 2:
        return False
    i = rng.randrange(len(lines) - 1)
    j = i + 1 if rng.random() < 0.7 else rng.randrange(len(lines))
    lines[i], lines[j] = lines[j], lines[i]
    return True


def mutate_remove(rng, lines):
    sts = info(lines)
    cands = [i for i, st in enumerate(sts) if st is not None and st.kind == "constraint"
             and st.label is not None]
    if not cands:
        # Label a constraint first, then remove it.
        plain = _constraint_lines(lines)
        if not plain:
            return False
        i = rng.choice(plain)
        label = f"fz{i}"
        lines[i] = f"{label}: {lines[i].lstrip()}"
    else:
        i = rng.choice(cands)
        label = sts[i].label
    j = rng.randint(i + 1, len(lines))
    lines.insert(j, f"remove {label}")
    if rng.random() < 0.5:
        lines.insert(j + 1, "print")
    return True


def mutate_print(rng, lines):
    lines.insert(rng.randint(0, len(lines)), "print")
    return True


def _edit_positions(lines):
    return {st.name: i for i, st in enumerate(info(lines)) if st is not None and st.kind == "edit"}


def mutate_suggest(rng, lines):
    names = variables_of(lines)
    if not names:
        return False
    edits = _edit_positions(lines)
    name = rng.choice(list(edits)) if edits and rng.random() < 0.7 else rng.choice(names)
    if name in edits:
        at = rng.randint(edits[name] + 1, len(lines))
    else:
        at = rng.randint(0, len(lines))
        lines.insert(at, f"edit {name} {strength_text(rng, edit=True)}")
        at += 1
    for k in range(rng.choice((1, 1, 2, 3))):
        lines.insert(at + k, f"suggest {name} {num_text(rng)}")
    if rng.random() < 0.5:
        lines.insert(at + 1, "print")
    return True


def mutate_edit(rng, lines):
    names = variables_of(lines)
    if not names:
        return False
    edits = _edit_positions(lines)
    fresh = [n for n in names if n not in edits]
    name = rng.choice(fresh or names)
    at = rng.randint(0, len(lines))
    lines.insert(at, f"edit {name} {strength_text(rng, edit=True)}")
    if rng.random() < 0.6:
        lines.insert(at + 1, f"suggest {name} {num_text(rng)}")
    return True


def mutate_constraint(rng, lines):
    names = variables_of(lines) or ["x", "y"]
    label = f"n{len(lines)}" if rng.random() < 0.4 else None
    lines.insert(rng.randint(0, len(lines)), random_constraint(rng, names, label))
    return True


MUTATIONS = (
    (mutate_numbers, 8), (mutate_relation, 1), (mutate_strength, 2), (mutate_duplicate, 1),
    (mutate_delete, 1), (mutate_swap, 1), (mutate_remove, 2), (mutate_print, 1),
    (mutate_suggest, 2), (mutate_edit, 1), (mutate_constraint, 2),
)


def repair(lines):
    """Makes a mutated script pass the static checks and not fail on a trivial runtime error:
    renames duplicate labels, drops `remove` of labels not live, drops a second `edit` of a
    variable and a `suggest` of a variable that is not (yet) an edit variable."""
    out, live, edits = [], set(), set()
    for number, line in enumerate(lines, start=1):
        try:
            st = parse_line(line, number)
        except LineError:
            out.append(line)
            continue
        if st is None:
            out.append(line)
        elif st.kind == "constraint" and st.label is not None:
            label = st.label
            while label in live:
                label += "_"
            if label != st.label:
                line = _LABEL.sub(lambda m: f"{m.group(1)}{label}: ", line, count=1)
            live.add(label)
            out.append(line)
        elif st.kind == "remove":
            if st.label in live:
                live.discard(st.label)
                out.append(line)
        elif st.kind == "edit":
            if st.name not in edits and not st.required:
                edits.add(st.name)
                out.append(line)
        elif st.kind == "suggest":
            if st.name in edits:
                out.append(line)
        else:
            out.append(line)
    return out


def load_seeds():
    """(name, lines) of every seed file, in a fixed order."""
    seeds = []
    for directory, limit in ((REPRO_DIR, None), (KIWI_DIR, MAX_SEED_LINES)):
        if not os.path.isdir(directory):
            continue
        for name in sorted(os.listdir(directory)):
            if not name.endswith(".cass"):
                continue
            with open(os.path.join(directory, name), encoding="utf-8") as f:
                lines = f.read().splitlines()
            if limit is None or len(lines) <= limit:
                seeds.append((os.path.relpath(os.path.join(directory, name), REPO_ROOT), lines))
    return seeds


def make_case(seeds, seed, index):
    """Case `index` of run `seed`: (description of its origin, script text)."""
    rng = random.Random(f"script-fuzz/{seed}/{index}")
    repro = [s for s in seeds if "/repro/" in s[0]]
    kiwi = [s for s in seeds if "/repro/" not in s[0]]
    r = rng.random()
    if r < 0.35 or not seeds:
        origin, lines = "generated", generated_script(rng)
    elif r < 0.5 and repro:
        origin, lines = rng.choice(repro)
    else:
        origin, lines = rng.choice(kiwi or repro)
    lines = [line for line in lines if line.strip() and not line.lstrip().startswith("#")]
    applied = []
    for _ in range(rng.choice((1, 1, 2, 2, 3, 4, 6))):
        fns, weights = zip(*MUTATIONS)
        fn = rng.choices(fns, weights)[0]
        if fn(rng, lines):
            applied.append(fn.__name__[len("mutate_"):])
    if rng.random() < 0.95:
        lines = repair(lines)
    header = f"# script-fuzz seed {seed} case {index}: {origin}; {', '.join(applied)}"
    return origin, header + "\n" + "\n".join(lines) + "\n"


# --------------------------------------------------------------------------------------------
# Minimising

def minimize(binary, text, representation, timeout, want, signature, workdir, budget):
    """Deletes lines (then simplifies numbers) while the script keeps failing the same way."""
    deadline = time.monotonic() + budget
    path = os.path.join(workdir, "min.cass")
    cache = {}
    runs = [0]

    def fails(lines):
        candidate = "\n".join(lines) + "\n"
        if candidate in cache:
            return cache[candidate]
        if time.monotonic() > deadline:
            return False
        with open(path, "w", encoding="utf-8") as f:
            f.write(candidate)
        runs[0] += 1
        cls, _, sig = classify(binary, path, candidate, representation, timeout)
        ok = cls == want and (signature is None or sig == signature)
        cache[candidate] = ok
        return ok

    lines = text.splitlines()
    stripped = [line for line in lines if code_of(line).strip()]
    if fails(stripped):
        lines = stripped
    n = 2
    while len(lines) >= 2 and time.monotonic() < deadline:
        chunk = math.ceil(len(lines) / n)
        for start in range(0, len(lines), chunk):
            candidate = lines[:start] + lines[start + chunk:]
            if candidate and fails(candidate):
                lines, n = candidate, max(n - 1, 2)
                break
        else:
            if n >= len(lines):
                break
            n = min(len(lines), 2 * n)
    # Simpler numbers: 1 for a coefficient or constant, then two significant digits.
    for i in range(len(lines)):
        for attempt in ("1", "round"):
            spans = number_spans(lines[i])
            for k in range(len(spans)):
                start, end, context = number_spans(lines[i])[k]
                old = lines[i][start:end]
                if attempt == "1":
                    new = "1"
                else:
                    new = fmt_num(float(f"{float(old):.2g}"))
                if new == old:
                    continue
                candidate = list(lines)
                candidate[i] = tidy_signs(lines[i][:start] + new + lines[i][end:])
                if fails(candidate):
                    lines = candidate
    # `1 * x` is `x`.
    for i in range(len(lines)):
        simpler = re.sub(r"(?<![\w.])(?<![eE][-+])1 \* ", "", lines[i])
        simpler = re.sub(r" [*/] 1(?![\w.])", "", simpler)
        if simpler != lines[i]:
            candidate = list(lines)
            candidate[i] = simpler
            if fails(candidate):
                lines = candidate
    # Labels that no `remove` needs.
    removed = {st.label for st in info(lines) if st is not None and st.kind == "remove"}
    for i, line in enumerate(lines):
        m = _LABEL.match(line)
        if m and m.group(2) not in removed and m.group(2) not in ("edit", "suggest", "remove"):
            candidate = list(lines)
            candidate[i] = line[m.end():]
            if fails(candidate):
                lines = candidate
    return "\n".join(lines) + "\n", runs[0], time.monotonic() > deadline


# --------------------------------------------------------------------------------------------
# Workers

_W = {}


def _init_worker(binary, seeds, seed, representations, timeout, tmp_root):
    tmp = os.path.join(tmp_root, str(os.getpid()))
    os.makedirs(tmp, exist_ok=True)
    _W.update(binary=binary, seeds=seeds, seed=seed, reps=representations, timeout=timeout,
              tmp=tmp)


def fuzz_case(index):
    """Runs case `index` on every representation: (index, origin, text or None, results)."""
    origin, text = make_case(_W["seeds"], _W["seed"], index)
    path = os.path.join(_W["tmp"], f"case-{index}.cass")
    with open(path, "w", encoding="utf-8") as f:
        f.write(text)
    results = {}
    for rep in _W["reps"]:
        cls, detail, sig = classify(_W["binary"], path, text, rep, _W["timeout"])
        # The temporary path in a message would only confuse the saved report.
        detail = [d.replace(path, "FILE") for d in detail]
        results[rep] = (cls, detail, sig)
    os.remove(path)
    interesting = any(r[0] in REPORTED for r in results.values())
    return index, origin, text if interesting else None, results


def check_file(path):
    with open(path, encoding="utf-8", errors="replace") as f:
        text = f.read()
    results = {}
    for rep in _W["reps"]:
        results[rep] = classify(_W["binary"], path, text, rep, _W["timeout"])
    return path, text, results


def minimize_job(key, text, rep, cls, sig, budget):
    workdir = tempfile.mkdtemp(prefix="min-", dir=_W["tmp"])
    try:
        result = minimize(_W["binary"], text, rep, _W["timeout"], cls, sig, workdir, budget)
    finally:
        shutil.rmtree(workdir, ignore_errors=True)
    return key, rep, cls, result


# --------------------------------------------------------------------------------------------
# Reporting

class Failure:
    def __init__(self, name, text, origin, regenerate):
        self.name, self.text, self.origin, self.regenerate = name, text, origin, regenerate
        self.results = {}      # rep -> (class, detail, signature)
        self.path = None
        self.minimized = {}    # rep -> (path, text, runs, out of time)


def clean_keep_dir(keep):
    """Removes what an earlier run saved (only our own file names)."""
    if not os.path.isdir(keep):
        return
    for cls in REPORTED:
        d = os.path.join(keep, cls)
        if os.path.isdir(d):
            for name in os.listdir(d):
                if re.fullmatch(r"(case-.*|file-.*)\.cass", name):
                    os.remove(os.path.join(d, name))
    summary = os.path.join(keep, "SUMMARY.txt")
    if os.path.exists(summary):
        os.remove(summary)


def save_failure(keep, failure):
    cls = failure_classes(failure)[0]
    d = os.path.join(keep, cls)
    os.makedirs(d, exist_ok=True)
    failure.path = os.path.join(d, failure.name + ".cass")
    with open(failure.path, "w", encoding="utf-8") as f:
        f.write(failure.text)


def failure_classes(failure):
    """The reported classes of a failure, most severe first (the order of REPORTED)."""
    found = {r[0] for r in failure.results.values()}
    return [cls for cls in REPORTED if cls in found]


def select_failures(failures, per_group):
    """The first `per_group` failures of every (class, signature) group, in case order."""
    groups, chosen = {}, []
    for failure in failures:
        keys = {(cls, sig) for cls, _, sig in failure.results.values() if cls in REPORTED}
        take = False
        for key in keys:
            if groups.get(key, 0) < per_group:
                groups[key] = groups.get(key, 0) + 1
                take = True
        if take:
            chosen.append(failure)
    return chosen


def minimization_targets(saved, all_of_them):
    """(failure, rep, class, signature) to minimise.  With --minimize every saved failure,
    once per (class, crash site) it shows.  By default at most 5: the first failure of each
    group (failing classes first), then more of each group in turn (hangs excepted: each
    attempt of theirs costs the whole timeout)."""
    groups = {}  # (class, signature) -> [(order, failure, rep)]
    for order, failure in enumerate(saved):
        seen_here = set()
        for rep, (cls, _, sig) in failure.results.items():
            if cls in REPORTED and (cls, sig) not in seen_here:
                seen_here.add((cls, sig))
                groups.setdefault((cls, sig), []).append((order, failure, rep))
    if all_of_them:
        targets = [(o, f, r, cls, sig) for (cls, sig), items in groups.items()
                   for o, f, r in items]
        targets.sort(key=lambda t: t[0])
        return [t[1:] for t in targets]
    keys = sorted(groups, key=lambda k: (k[0] not in FAILING, groups[k][0][0]))
    targets, used, depth = [], set(), 0
    while len(targets) < 5 and any(len(groups[k]) > depth for k in keys):
        for key in keys:
            if len(targets) >= 5:
                break
            if len(groups[key]) <= depth or (depth > 0 and key[0] == "hang"):
                continue
            order, failure, rep = groups[key][depth]
            if (id(failure), key) not in used:
                used.add((id(failure), key))
                targets.append((failure, rep) + key)
        depth += 1
    return targets


def run_minimizations(pool, targets, budget, keep, binary):
    futures = [pool.submit(minimize_job, id(f), f.text, rep, cls, sig, budget)
               for f, rep, cls, sig in targets]
    by_id = {id(f): f for f, _, _, _ in targets}
    for future in as_completed(futures):
        key, rep, cls, (text, runs, out_of_time) = future.result()
        failure = by_id[key]
        path = os.path.join(keep, cls, f"{failure.name}.{rep}.min.cass")
        with open(path, "w", encoding="utf-8") as f:
            f.write(text)
        failure.minimized[(rep, cls)] = (path, text, runs, out_of_time)


def report(failures_by_class, counts, reps, binary, keep, signatures, reasons):
    lines = []
    width = max(len(c) for c in CLASSES)
    lines.append(f"{'class':<{width}}  " + "  ".join(f"{r:>9}" for r in reps))
    for cls in CLASSES:
        lines.append(f"{cls:<{width}}  " + "  ".join(f"{counts[r].get(cls, 0):>9}" for r in reps))
    if reasons:
        top = sorted(reasons.items(), key=lambda kv: -kv[1])[:8]
        lines.append("refusals (all representations): "
                     + "; ".join(f"{n}x {reason}" for reason, n in top))
    if signatures:
        lines.append("crash sites:")
        for sig, per_rep in sorted(signatures.items(), key=lambda kv: -sum(kv[1].values())):
            lines.append(f"  {sig}: " + ", ".join(f"{r} {n}" for r, n in sorted(per_rep.items())))
    for cls in REPORTED:
        items = failures_by_class.get(cls, [])
        if not items:
            continue
        # Minimised ones first (one per crash site), then in case order.
        items = sorted(items, key=lambda f: not any(c == cls for _, c in f.minimized))
        lines.append("")
        lines.append(f"{cls}: {len(items)} case(s) saved (under {keep})")
        for failure in items[:5]:
            lines.append(f"  {failure.name} ({failure.origin})")
            for rep, (c, detail, _) in failure.results.items():
                if c == cls:
                    lines.append(f"    {rep}: {detail[0] if detail else ''}"
                                 + (f" (+{len(detail) - 1} more)" if len(detail) > 1 else ""))
            rep = next(r for r, res in failure.results.items() if res[0] == cls)
            no_json = any(NO_JSON_NOTE in d for d in failure.results[rep][1])
            command = reproduce_command(binary, failure.path, rep, not no_json)
            lines.append(f"    reproduce: {command}")
            if failure.regenerate:
                lines.append(f"    regenerate: {failure.regenerate}")
            for (mrep, mcls), (path, text, runs, out_of_time) in failure.minimized.items():
                if mcls != cls:
                    continue
                count = len(text.splitlines())
                lines.append(f"    minimised ({mrep}, {count} line(s), {runs} runs"
                             + (", stopped by the time budget" if out_of_time else "")
                             + f"): {reproduce_command(binary, path, mrep)}")
                for line in text.splitlines()[:12]:
                    lines.append(f"      | {line}")
        if len(items) > 5:
            lines.append(f"  ... and {len(items) - 5} more (see SUMMARY.txt)")
    return "\n".join(lines)


def main(argv=None):
    parser = argparse.ArgumentParser(
        description=__doc__.split("\n\n")[0],
        formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("files", nargs="*", help="classify these scripts instead of fuzzing")
    parser.add_argument("--binary", default=os.path.join(REPO_ROOT, ".build", "release",
                                                         "layout-bench"))
    parser.add_argument("--count", type=int, default=3000)
    parser.add_argument("--seed", default="1")
    parser.add_argument("--case", type=int, help="regenerate, print and run only this case")
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--timeout", type=float, default=10.0, help="seconds per run")
    parser.add_argument("--representation", action="append", choices=REPRESENTATIONS,
                        help="repeat for several; default all three")
    parser.add_argument("--keep", default=os.path.join(REPO_ROOT, ".build",
                                                       "script-fuzz-failures"))
    parser.add_argument("--per-group", type=int, default=5,
                        help="failures saved per (class, crash site) group (default 5)")
    group = parser.add_mutually_exclusive_group()
    group.add_argument("--minimize", action="store_true",
                       help="minimise every saved failure (default: the first 5)")
    group.add_argument("--no-minimize", action="store_true")
    parser.add_argument("--minimize-budget", type=float, default=120.0,
                        help="seconds per minimisation (default 120)")
    args = parser.parse_args(argv)

    binary = os.path.abspath(args.binary)
    if not (os.path.isfile(binary) and os.access(binary, os.X_OK)):
        print(f"script-fuzz: no executable at {binary}", file=sys.stderr)
        return 2
    reps = tuple(dict.fromkeys(args.representation or REPRESENTATIONS))
    keep = os.path.abspath(args.keep)
    seeds = load_seeds()
    start = time.monotonic()
    tmp_root = tempfile.mkdtemp(prefix="script-fuzz-")
    # Every run uses a copy taken now, so that a rebuild during a long run cannot mix two
    # solvers in one report (or make a minimisation chase a failure that went away).
    snapshot = os.path.join(tmp_root, os.path.basename(binary))
    shutil.copy2(binary, snapshot)
    init = (snapshot, seeds, args.seed, reps, args.timeout, tmp_root)
    try:
        return _main(args, binary, reps, keep, seeds, start, init)
    finally:
        if args.case is None:
            shutil.rmtree(tmp_root, ignore_errors=True)


def _main(args, binary, reps, keep, seeds, start, init):

    if args.case is not None:
        _init_worker(*init)
        origin, text = make_case(seeds, args.seed, args.case)
        path = os.path.join(_W["tmp"], f"case-{args.case}.cass")
        with open(path, "w", encoding="utf-8") as f:
            f.write(text)
        sys.stdout.write(text)
        print(f"# written to {path}")
        bad = False
        for rep in reps:
            cls, detail, _ = classify(_W["binary"], path, text, rep, args.timeout)
            bad |= cls in FAILING
            print(f"# {rep}: {cls}" + "".join(f"\n#   {d}" for d in detail[:10]))
        return 1 if bad else 0

    clean_keep_dir(keep)
    counts = {rep: {} for rep in reps}
    signatures, reasons, failures = {}, {}, []

    def tally(results):
        for rep, (cls, detail, sig) in results.items():
            counts[rep][cls] = counts[rep].get(cls, 0) + 1
            if cls == "crash":
                signatures.setdefault(sig, {}).setdefault(rep, 0)
                signatures[sig][rep] += 1
            if cls == "refused" and detail:
                reason = re.sub(r"\b(of|variable|label) \S+", r"\1 NAME", detail[0])
                reasons[reason] = reasons.get(reason, 0) + 1

    with ProcessPoolExecutor(max_workers=max(1, args.jobs), initializer=_init_worker,
                             initargs=init) as pool:
        if args.files:
            title = f"script-fuzz: {len(args.files)} file(s)"
            for path, text, results in pool.map(check_file, args.files):
                tally(results)
                if any(r[0] in REPORTED for r in results.values()):
                    base = re.sub(r"[^A-Za-z0-9_.-]", "_", os.path.basename(path))
                    failure = Failure("file-" + base[:-5] if base.endswith(".cass") else
                                      "file-" + base, text, path, None)
                    failure.results = results
                    failures.append(failure)
        else:
            title = f"script-fuzz: {args.count} cases, seed {args.seed}"
            done = 0
            chunk = 4
            for index, origin, text, results in pool.map(
                    fuzz_case, range(1, args.count + 1), chunksize=chunk):
                tally(results)
                if text is not None:
                    failure = Failure(f"case-{args.seed}-{index:05d}", text, origin,
                                      f"python3 Scripts/script_fuzz.py --seed {args.seed} "
                                      f"--case {index}")
                    failure.results = results
                    failures.append(failure)
                done += 1
                if done % 250 == 0:
                    print(f"  {done}/{args.count} cases, {time.monotonic() - start:.0f} s",
                          file=sys.stderr)

        saved = select_failures(failures, args.per_group)
        for failure in saved:
            save_failure(keep, failure)
        if not args.no_minimize and saved:
            targets = minimization_targets(saved, args.minimize)
            print(f"  minimising {len(targets)} failure(s)...", file=sys.stderr)
            run_minimizations(pool, targets, args.minimize_budget, keep, binary)

    by_class = {}
    for failure in saved:
        for cls in failure_classes(failure):
            by_class.setdefault(cls, []).append(failure)
    elapsed = time.monotonic() - start
    built = time.strftime("%Y-%m-%d %H:%M:%S", time.localtime(os.path.getmtime(init[0])))
    header = (f"{title}, {len(reps)} representation(s), binary {binary} (built {built}; "
              f"runs used a copy taken at the start), {elapsed:.0f} s")
    text = header + "\n" + report(by_class, counts, reps, binary, keep, signatures, reasons)
    print(text)
    if saved:
        os.makedirs(keep, exist_ok=True)
        with open(os.path.join(keep, "SUMMARY.txt"), "w", encoding="utf-8") as f:
            f.write(text + "\n")
        # The details of every saved failure, in full.
        with open(os.path.join(keep, "SUMMARY.txt"), "a", encoding="utf-8") as f:
            f.write("\nDetails\n")
            for failure in saved:
                f.write(f"\n{failure.path} ({failure.origin})\n")
                for rep, (cls, detail, _) in failure.results.items():
                    f.write(f"  {rep}: {cls}\n")
                    for d in detail[:20]:
                        f.write(f"    {d}\n")
    bad = any(counts[rep].get(cls, 0) for rep in reps for cls in FAILING)
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
