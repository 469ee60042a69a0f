#!/usr/bin/env python3
"""Cross-check `layout-bench solve` against kiwisolver, the Python binding of the C++ kiwi solver.

Run it through Scripts/kiwi-crosscheck.sh, which provides a venv with kiwisolver.

    generate --count N --seed S --out DIR   write NNN.cass + NNN.expected fixtures solved by kiwi
    check --binary PATH [--dir DIR]         run `PATH solve FILE` on every fixture and compare
    fresh --count N --seed S --binary PATH  generate N new scripts in a temp dir and check them
    solve FILE                              print kiwi's answer for one constraint script
    judge --binary PATH FILE...             compare kiwi's and the binary's answers (every
                                            representation); where values differ, compare
                                            the weighted errors (a tie or a missed optimum)

The constraint script format is the contract in shared/DESIGN.md ("Constraint script format").
Scripts are generated as a small syntax tree, written out as text, read back by
constraint_script.py (the reader the Python scripts share, which follows the binary's), and run
by the interpreter below, which drives kiwisolver the way a user of its API would. So every
fixture is solved from its own text.
"""

import argparse
import os
import random
import re
import shutil
import subprocess
import sys
import tempfile
from fractions import Fraction
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool

import kiwisolver as kiwi

import constraint_script
from constraint_script import (ScriptError, close, expr_vars, fmt_num, format_blocks,
                               parse_blocks)

REPO_ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
DEFAULT_FIXTURES = os.path.join(REPO_ROOT, "Tests", "ConstraintScriptTests", "Fixtures", "kiwi")

# Two solvers that both find *an* optimum agree only if the optimum is unique, so the uniqueness
# filter compares kiwi against itself much more tightly than `check` compares against the binary
# (constraint_script.CHECK_TOL).
UNIQUE_ABS_TOL = 1e-9
UNIQUE_REL_TOL = 1e-12


# --------------------------------------------------------------------------------------------
# Writing expressions: the trees of constraint_script, plus ('()', inner), which only makes the
# generator write parentheses it was not forced to.

def _prec(node):
    return {"+": 1, "-": 1, "*": 2, "/": 2}.get(node[0], 3)


def render_expr(node, tight=False):
    kind = node[0]
    if kind == "num":
        return fmt_num(node[1])
    if kind == "var":
        return node[1]
    if kind == "()":
        return "(" + render_expr(node[1], tight) + ")"
    prec = _prec(node)
    left = render_expr(node[1], tight)
    if _prec(node[1]) < prec:
        left = f"({left})"
    right = render_expr(node[2], tight)
    # `a - (b + c)` and `a / (2 * 3)` need their parentheses; `a + (b - c)` does not.
    if _prec(node[2]) < prec or (_prec(node[2]) == prec and kind in "-/"):
        right = f"({right})"
    space = "" if tight else " "
    return f"{left}{space}{kind}{space}{right}"


# --------------------------------------------------------------------------------------------
# Reading the script format (constraint_script reads it as the binary does)

class Program:
    def __init__(self, ops, variables):
        self.ops = ops              # constraint_script.Statement objects, in text order
        self.variables = variables  # every variable name, in order of first appearance


def _has_variables(node, line):
    """Whether an expression names a variable; raises ScriptError where kiwi's operators
    cannot build it: a product of two sides that name variables, or a division by one. (The
    binary accepts `(x - x) * y`, whose left side cancels out; kiwi's API does not.)"""
    kind = node[0]
    if kind in ("num", "var"):
        return kind == "var"
    left, right = _has_variables(node[1], line), _has_variables(node[2], line)
    if kind == "*" and left and right:
        raise ScriptError(line, "non-linear expression (variable times variable)")
    if kind == "/" and right:
        raise ScriptError(line, "non-linear expression (division by a variable)")
    return left or right


def parse_script(text):
    """The statements of a script, each print with the variables it shows (`visible`)."""
    ops, seen = [], {}
    for op in constraint_script.parse_script(text):
        if op.kind == "constraint":
            _has_variables(op.lhs, op.line)
            _has_variables(op.rhs, op.line)
            if not op.mentioned:
                raise ScriptError(op.line, "constraint has no variables")
        for name in op.mentioned:
            seen.setdefault(name, len(seen))
        if op.kind == "print":
            op.visible = list(seen)
        ops.append(op)
    return Program(ops, list(seen))


# --------------------------------------------------------------------------------------------
# Running a program on kiwisolver

def _to_kiwi(node, var):
    kind = node[0]
    if kind == "num":
        return node[1]
    if kind == "var":
        return var(node[1])
    if kind == "()":
        return _to_kiwi(node[1], var)
    a, b = _to_kiwi(node[1], var), _to_kiwi(node[2], var)
    if kind == "+":
        return a + b
    if kind == "-":
        return a - b
    if kind == "*":
        return a * b
    return a / b


def run_kiwi(program, order=None, probes=None):
    """Executes the program and returns its print blocks: lists of (name, value) pairs.

    order: the sequence of op indices to execute (default: text order).
    probes: {name: (target, strength)} extra constraints `name == target`, added first.
    """
    solver = kiwi.Solver()
    variables = {}
    constraints = {}  # label -> its kiwi constraints (two for a split equality)

    def var(name):
        if name not in variables:
            variables[name] = kiwi.Variable(name)
        return variables[name]

    def snapshot(names):
        solver.updateVariables()
        return [(name, var(name).value()) for name in names]

    for name, (target, strength) in (probes or {}).items():
        solver.addConstraint((var(name) == target) | strength)
    blocks = []
    for index in order if order is not None else range(len(program.ops)):
        op = program.ops[index]
        try:
            if op.kind == "constraint":
                lhs, rhs = _to_kiwi(op.lhs, var), _to_kiwi(op.rhs, var)
                if op.shortfall is not None:
                    # kiwi has no split equality: the pair of inequalities it stands for.
                    pair = [(lhs <= rhs) | op.as_written, (lhs >= rhs) | op.shortfall_as_written]
                else:
                    cn = lhs == rhs if op.op == "==" else lhs <= rhs if op.op == "<=" else lhs >= rhs
                    # The strength as written: kiwi clips a raw strength above required itself.
                    if op.as_written != "required":
                        cn = cn | op.as_written
                    pair = [cn]
                for cn in pair:
                    solver.addConstraint(cn)
                if op.label is not None:
                    constraints[op.label] = pair
            elif op.kind == "edit":
                solver.addEditVariable(var(op.name), op.as_written)
            elif op.kind == "suggest":
                solver.suggestValue(var(op.name), op.value)
            elif op.kind == "remove":
                if op.label not in constraints:
                    raise ScriptError(op.line, f"unknown label {op.label}")
                for cn in constraints.pop(op.label):
                    solver.removeConstraint(cn)
            else:
                blocks.append(snapshot(op.visible))
        except ScriptError:
            raise
        except kiwi.UnsatisfiableConstraint:
            raise ScriptError(op.line, "unsatisfiable required constraint") from None
        except Exception as exc:  # kiwi's other errors: unknown edit variable, duplicates...
            raise ScriptError(op.line, f"{type(exc).__name__}: {exc}") from None
    if not any(op.kind == "print" for op in program.ops):
        blocks.append(snapshot(program.variables))
    return blocks


def denoise(value):
    """kiwi's value with floating-point noise removed: 450.5000000000002 becomes 450.5 and
    61.66666666666664 becomes 61.666666666666664 (185/3), moving no value by more than 1e-9.
    Layout values are fractions with small denominators.  kiwi orders a constraint's terms by
    Variable address, so the last bits can change from one process to the next; the expected
    files should not."""
    nearest = float(Fraction(value).limit_denominator(1000))
    return nearest if abs(nearest - value) <= 1e-9 else value

# --------------------------------------------------------------------------------------------
# The uniqueness filter
#
# kiwi minimises the strength-weighted sum of the violations of its non-required constraints.
# When several assignments reach the same minimum, which one a simplex solver reports depends
# on its pivoting history, so a correct Swift solver could legitimately differ from kiwi.
# Fixtures must therefore have a unique optimum at every print.  Two independent tests:
#  1. Reordering: run the statements with every run of consecutive constraint/edit statements
#     permuted (they commute: an edit is just `v == 0` at its strength until a suggestion).
#     A different add order gives kiwi a different pivoting history.
#  2. Probing: add, for every variable, a tiny-strength pull `v == +-1e4`, once with random
#     signs and once with the opposite signs.  Strengths around 1e-5 cannot outweigh any real
#     trade-off, but on a tied optimal face they push every variable to opposite ends of the
#     face, so any freedom left at the optimum shows up as a difference.

def permuted_orders(program, rng, count):
    """`count` orders: each run of adjacent constraint/edit ops reversed, then shuffled."""
    runs, current = [], []
    for index, op in enumerate(program.ops):
        if op.kind in ("constraint", "edit"):
            current.append(index)
        else:
            runs.append(current)
            runs.append([index])
            current = []
    runs.append(current)
    orders = []
    for k in range(count):
        order = []
        for run in runs:
            run = list(run)
            if k == 0:
                run.reverse()
            else:
                rng.shuffle(run)
            order.extend(run)
        orders.append(order)
    return orders


def blocks_agree(a, b, abs_tol, rel_tol):
    if len(a) != len(b):
        return False
    for block_a, block_b in zip(a, b):
        if [n for n, _ in block_a] != [n for n, _ in block_b]:
            return False
        for (_, x), (_, y) in zip(block_a, block_b):
            if abs(x - y) > max(abs_tol, rel_tol * max(abs(x), abs(y))):
                return False
    return True


def has_unique_optimum(program, expected, rng, permutations=4):
    """True when every reordered run and both probe runs print what `expected` holds."""
    for order in permuted_orders(program, rng, permutations):
        if not blocks_agree(expected, run_kiwi(program, order), UNIQUE_ABS_TOL, UNIQUE_REL_TOL):
            return False
    signs = {name: rng.choice((-1.0, 1.0)) for name in program.variables}
    weights = {name: 1e-5 * (1.0 + rng.random()) for name in program.variables}
    for flip in (1.0, -1.0):
        probes = {n: (flip * signs[n] * 1e4, weights[n]) for n in program.variables}
        if not blocks_agree(expected, run_kiwi(program, probes=probes),
                            UNIQUE_ABS_TOL, UNIQUE_REL_TOL):
            return False
    return True


# --------------------------------------------------------------------------------------------
# Generating layout-like scripts

RAW_STRENGTHS = (0.5, 2, 3, 5, 20, 50, 250, 2000, 5000, 40000, 250000, 3000000)
PADS = (0, 4, 8, 10, 12, 16, 20, 24)
GAPS = (0, 4, 5, 6, 8, 10, 12, 16)
BOX_WORDS = ("box", "panel", "button", "label", "icon", "card", "item", "field", "menu", "tile",
             "cell", "tab", "pane")
ROOT_WORDS = ("window", "root", "screen", "view", "frame")
FLIP = {"==": "==", "<=": ">=", ">=": "<="}


def num(value):
    return ("num", float(value))


def var(name):
    return ("var", name)


def plus(node, constant):
    """node + constant, written with `-` for negative constants (negative literals are avoided)."""
    if constant == 0:
        return node
    return ("+", node, num(constant)) if constant > 0 else ("-", node, num(-constant))


def soft_strength(rng):
    r = rng.random()
    if r < 0.36:
        return "weak"
    if r < 0.64:
        return "medium"
    if r < 0.82:
        return "strong"
    return float(rng.choice(RAW_STRENGTHS))


def size_value(rng, low, high):
    """A layout-ish size: mostly a multiple of 5, sometimes a half."""
    value = rng.randint(low // 5, high // 5) * 5
    return value + 0.5 if rng.random() < 0.1 else value


class Span:
    """A box's extent along one axis, kept as start+size, start+end, or all three variables."""

    def __init__(self, gen, box, axis, style):
        names = gen.axis_names[axis]
        self.style = style
        self.start_name = f"{box}{gen.sep}{names[0]}"
        self.size_name = f"{box}{gen.sep}{names[1]}" if style in ("lw", "lrw") else None
        self.end_name = f"{box}{gen.sep}{names[2]}" if style in ("lr", "lrw") else None
        self.rng = gen.rng
        gen.nvars += 3 if style == "lrw" else 2

    def start(self):
        return var(self.start_name)

    def end(self):
        if self.end_name:
            return var(self.end_name)
        return ("+", var(self.start_name), var(self.size_name))

    def size(self):
        if self.size_name:
            return var(self.size_name)
        return ("-", var(self.end_name), var(self.start_name))

    def center(self):
        s, r = self.start(), self.rng.random()
        if self.style == "lw":
            half = ("/", self.size(), num(2)) if r < 0.5 else ("*", num(0.5), self.size())
            return ("+", s, half)
        both = ("+", s, self.end())
        if r < 0.4:
            return ("/", ("()", both), num(2))
        if r < 0.7:
            return ("*", num(0.5), ("()", both))
        return ("+", s, ("/", ("()", ("-", self.end(), s)), num(2)))


class ScriptGenerator:
    """Builds one random script: a tree of boxes in a window, then edits, suggestions, removals
    and additions with prints in between.  The structure (ops) is rendered to text at the end."""

    def __init__(self, rng, target_vars, header):
        self.rng = rng
        self.target = target_vars
        self.ops = [("comment", header)]
        self.nvars = 0
        self.labels = 0
        self.removable = []   # (label, kind, lhs, op, rhs) that a later `remove` may name
        self.sizes = []       # (span, parent) pairs whose size could get an edit variable
        self.sep = "." if rng.random() < 0.75 else "_"
        self.axis_names = {
            "x": rng.choice((("left", "width", "right"), ("x", "w", "right"))),
            "y": rng.choice((("top", "height", "bottom"), ("y", "h", "bottom"))),
        }
        self.words = {}
        self.tight = rng.random() < 0.2  # some scripts write `a+b*2` without spaces

    # -- statements ---------------------------------------------------------------------------

    def new_label(self, kind):
        self.labels += 1
        return f"{kind}{self.labels}"

    def add(self, lhs, op, rhs, strength="required", kind=None, removable=False, note=None):
        rng = self.rng
        if rng.random() < 0.3:
            lhs, op, rhs = rhs, FLIP[op], lhs
        label = None
        if (removable and rng.random() < 0.6) or rng.random() < 0.05:
            label = self.new_label(kind or "c")
            if removable:
                self.removable.append((label, kind, lhs, op, rhs))
        if strength == "required" and rng.random() < 0.05:
            strength = "@required"  # spelled out now and then
        self.ops.append(("constraint", label, lhs, op, rhs, strength, note))

    def box_name(self):
        word = self.rng.choice(BOX_WORDS)
        self.words[word] = self.words.get(word, 0) + 1
        return f"{word}{self.words[word]}"

    # -- layout pieces --------------------------------------------------------------------------

    def size_rules(self, span, parent, with_min=False, pref_strength=None, optional=False):
        """Minimum, maybe maximum, and a preferred size (fixed or relative to the parent).
        Only a box stretched between both sides of its parent may go without a preference:
        anywhere else its size would be free over a range, and the optimum not unique."""
        rng = self.rng
        size = span.size()
        low = size_value(rng, 5, 60)
        if rng.random() < 0.6 or with_min:
            self.add(size, ">=", num(low), kind="min", removable=rng.random() < 0.3)
        else:
            self.add(size, ">=", num(0))
        if rng.random() < 0.3:
            # A required maximum on a box that later gets children of its own often cannot hold
            # their minimums (kiwi refuses the script), the more so in big trees: there most
            # maximums are strong.
            high = low + size_value(rng, 20, 300)
            required = rng.random() < (0.5 if self.target < 20 else 0.1)
            self.add(size, "<=", num(high), "required" if required else "strong", "max", True,
                     note="max size")
        r = rng.random() * (1.0 if optional else 0.9)
        if r < 0.68:
            strength = pref_strength or soft_strength(rng)
            self.add(size, "==", num(size_value(rng, 10, 300)), strength, "pref", True,
                     note="preferred size" if rng.random() < 0.2 else None)
        elif r < 0.9:
            k = rng.random()
            if k < 0.5:
                rel = ("*", num(rng.choice((0.25, 0.5, 0.75, 1.5))), parent.size())
            elif k < 0.8:
                rel = ("/", parent.size(), num(rng.choice((2, 3, 4))))
            else:
                rel = ("*", parent.size(), num(rng.choice((0.2, 0.5, 0.6))))
            self.add(size, "==", rel, pref_strength or soft_strength(rng), "ratio", True)
        if span.size_name:
            self.sizes.append((span, parent))

    def row(self, parent, kids):
        """Siblings one after another inside parent, with spacing and a justification."""
        rng = self.rng
        pad, gap = rng.choice(PADS), rng.choice(GAPS)
        self.add(kids[0].start(), ">=", plus(parent.start(), pad))
        for a, b in zip(kids, kids[1:]):
            r = rng.random()
            if r < 0.55:
                self.add(b.start(), "==", plus(a.end(), gap), kind="gap")
            else:
                self.add(b.start(), ">=", plus(a.end(), gap))
                if r < 0.85:
                    self.add(b.start(), "==", plus(a.end(), gap + rng.choice((0, 4, 10))),
                             soft_strength(rng), "gap", True)
        self.add(kids[-1].end(), "<=", plus(parent.end(), -pad))
        # Siblings compete for the row's space; equal strengths there would tie (any split of
        # the shortfall is optimal), so their preferred sizes take distinct named strengths
        # while those last.
        named = rng.sample(("weak", "medium", "strong"), 3)
        for kid in kids:
            self.size_rules(kid, parent, pref_strength=named.pop() if named else None)
        if len(kids) > 1 and rng.random() < 0.25:
            a, b = rng.sample(kids, 2)
            self.add(a.size(), "==", b.size(), soft_strength(rng), "same", True)
        mode = rng.choice(("start", "start", "end", "center", "fill"))
        if mode in ("start", "fill"):
            self.add(kids[0].start(), "==", plus(parent.start(), pad), soft_strength(rng),
                     "align", True)
        if mode in ("end", "fill"):
            self.add(kids[-1].end(), "==", plus(parent.end(), -pad), soft_strength(rng),
                     "align", True)
        if mode == "center":
            self.add(("-", kids[0].start(), parent.start()), "==",
                     ("-", parent.end(), kids[-1].end()), soft_strength(rng), "center", True)

    def inset(self, parent, kid):
        """One box inside another, stretched, centred or pinned to a side."""
        rng = self.rng
        pad = rng.choice(PADS)
        self.add(kid.start(), ">=", plus(parent.start(), pad))
        self.add(kid.end(), "<=", plus(parent.end(), -pad))
        mode = rng.choice(("stretch", "stretch", "center", "start", "end"))
        if mode == "stretch":
            self.add(kid.start(), "==", plus(parent.start(), pad), soft_strength(rng), "fit", True)
            self.add(kid.end(), "==", plus(parent.end(), -pad), soft_strength(rng), "fit", True)
            if rng.random() < 0.5:
                self.size_rules(kid, parent, optional=True)
            else:
                self.add(kid.size(), ">=", num(0))
        else:
            if mode == "center":
                strength = rng.choice(("required", "strong", soft_strength(rng)))
                self.add(kid.center(), "==", parent.center(), strength, "center", True)
            elif mode == "start":
                self.add(kid.start(), "==", plus(parent.start(), pad), soft_strength(rng),
                         "align", True)
            else:
                self.add(kid.end(), "==", plus(parent.end(), -pad), soft_strength(rng),
                         "align", True)
            self.size_rules(kid, parent, with_min=True)

    def new_span(self, box, axis):
        span = Span(self, box, axis, self.rng.choice(("lw", "lw", "lr", "lr", "lrw")))
        if span.style == "lrw":
            # the three variables are tied together by a required equation
            s, w, e = var(span.start_name), var(span.size_name), var(span.end_name)
            form = self.rng.choice(((e, ("+", s, w)), (w, ("-", e, s)), (("+", s, w), e)))
            self.add(form[0], "==", form[1])
        return span

    def layout(self, axes):
        rng = self.rng
        root = self.rng.choice(ROOT_WORDS)
        roots = {}
        for axis in axes:
            span = Span(self, root, axis, rng.choice(("lw", "lw", "lw", "lrw", "lr")))
            roots[axis] = span
            # The window mostly starts at 0; now and then at a negative offset, written without
            # a negative literal (the contract's numbers are unsigned).
            offset = rng.choice((10, 25, 40)) if rng.random() < 0.1 else 0
            self.add(plus(span.start(), offset), "==", num(0))
            if span.style == "lrw":
                self.add(var(span.end_name), "==", ("+", span.start(), var(span.size_name)))
            if rng.random() < 0.3:
                self.add(span.size(), ">=", num(size_value(rng, 50, 200)), kind="min",
                         removable=rng.random() < 0.3)
        # Containers waiting for children: (spans by axis, main axis, depth)
        queue = [(roots, axes[0], 0)]
        leaves = []  # boxes that did not become containers, for when the queue runs dry
        while self.nvars < self.target:
            if not queue:
                if not leaves:
                    break
                queue.append(leaves.pop(rng.randrange(len(leaves))))
            parent, main, depth = queue.pop(0)
            room = max(1, (self.target - self.nvars) // (2 * len(axes)))
            count = min(room, rng.choice((1, 2, 2, 3, 3, 4)))
            kids = []
            for _ in range(count):
                box = self.box_name()
                kids.append({axis: self.new_span(box, axis) for axis in axes})
            self.ops.append(("blank",))
            if rng.random() < 0.3:
                parent_box = parent[main].start_name.split(self.sep)[0]
                self.ops.append(("comment", f"{len(kids)} box(es) in {parent_box}"))
            if count > 1 and rng.random() < 0.8:
                self.row(parent[main], [k[main] for k in kids])
            else:
                for kid in kids:
                    self.inset(parent[main], kid[main])
            for axis in axes:
                if axis != main:
                    for kid in kids:
                        self.inset(parent[axis], kid[axis])
            other = [a for a in axes if a != main]
            for kid in kids:
                entry = (kid, other[0] if other else main, depth + 1)
                (queue if depth < 3 and rng.random() < 0.5 else leaves).append(entry)
        return roots

    def timeline(self, roots):
        """Edits on the window size, then suggestions, removals and additions with prints."""
        rng = self.rng
        edits = [span.size_name or span.end_name for span in roots.values()]
        if rng.random() < 0.15:
            edits = edits[:1]
        fixed = [a for a, s in roots.items() if (s.size_name or s.end_name) not in edits]
        for axis in fixed:
            self.add(roots[axis].size(), "==", num(size_value(rng, 200, 1000)),
                     rng.choice(("required", "strong")))
        self.ops.append(("blank",))
        first_ops = []
        for name in edits:
            strength = rng.choice(("strong",) * 6 + ("medium", 5000.0, 250000.0, 2000.0))
            first_ops.append(("edit", name, strength))
        # Edits may stand anywhere among the initial constraints: the permutation test moves
        # them around anyway, and the text should not always have them last.
        for op in first_ops:
            if rng.random() < 0.2:
                self.ops.insert(rng.randint(2, len(self.ops)), op)
            else:
                self.ops.append(op)
        no_print = rng.random() < 0.05
        if not no_print and rng.random() < 0.08:
            self.ops.append(("print",))  # edit variables sit at 0 until the first suggestion
        for name in edits:
            self.ops.append(("suggest", name, self.suggestion()))
        if not no_print:
            self.ops.append(("print",))
        # Print blocks dominate the fixture size, so big scripts get fewer steps.
        if self.nvars < 20:
            steps = rng.choice((1, 1, 2, 2, 3))
        else:
            steps = rng.choice((1, 2)) if self.nvars < 40 else 1
        for _ in range(steps):
            done = True
            r = rng.random()
            if r < 0.4:
                for name in rng.sample(edits, rng.randint(1, len(edits))):
                    self.ops.append(("suggest", name, self.suggestion()))
            elif r < 0.72 and self.removable:
                item = rng.choice(self.removable)
                self.removable.remove(item)
                self.ops.append(("remove", item[0]))
                if item[1] not in ("min", "max") and rng.random() < 0.7:
                    self.replace(*item)
            elif r < 0.87 or not self.sizes:
                done = self.addition()
            else:
                span, parent = rng.choice(self.sizes)
                self.sizes = [s for s in self.sizes if s[0] is not span]
                strength = rng.choice(("medium", "strong", 20.0, 40000.0))
                self.ops.append(("edit", span.size_name, strength))
                self.ops.append(("suggest", span.size_name, size_value(rng, 10, 300)))
                edits.append(span.size_name)
            if done and not no_print and rng.random() < 0.85:
                self.ops.append(("print",))
        if not no_print and self.ops[-1] != ("print",):
            self.ops.append(("print",))

    def replace(self, label, kind, lhs, op, rhs):
        """After a preference is removed, state it again with another strength or value (a
        bare removal mostly leaves something free, which the uniqueness filter would reject)."""
        rng = self.rng
        if rhs[0] == "num":
            rhs = num(size_value(rng, 10, 300))
        elif lhs[0] == "num":
            lhs = num(size_value(rng, 10, 300))
        self.add(lhs, op, rhs, soft_strength(rng), kind, True)

    def suggestion(self):
        return size_value(self.rng, 40, 1400)

    def addition(self):
        """A constraint added after solving started; sometimes it introduces a new variable."""
        rng = self.rng
        if not self.sizes:
            return False
        span, parent = rng.choice(self.sizes)
        r = rng.random()
        if r < 0.4:
            self.add(span.size(), "<=", num(size_value(rng, 20, 400)), kind="max",
                     removable=True)
        elif r < 0.7:
            new = f"{span.start_name.split(self.sep)[0]}{self.sep}mid"
            if any(op[0] == "constraint" and new in expr_vars(op[2], []) + expr_vars(op[4], [])
                   for op in self.ops):
                return False
            self.add(var(new), "==", span.center())
        else:
            self.add(span.size(), "==", num(size_value(rng, 10, 300)), soft_strength(rng),
                     "pref", True)
        return True

    # -- rendering ------------------------------------------------------------------------------

    def render(self):
        lines = []
        for op in self.ops:
            kind = op[0]
            if kind == "comment":
                lines.append(f"# {op[1]}")
            elif kind == "blank":
                if lines and lines[-1]:
                    lines.append("")
            elif kind == "constraint":
                _, label, lhs, rel, rhs, strength, note = op
                tight = self.tight and self.rng.random() < 0.5
                text = f"{render_expr(lhs, tight)} {rel} {render_expr(rhs, tight)}"
                if label:
                    text = f"{label}: {text}"
                if strength == "@required":
                    text += " @required"
                elif strength != "required":
                    text += f" @{strength if isinstance(strength, str) else fmt_num(strength)}"
                if note:
                    text += f"  # {note}"
                lines.append(text)
            elif kind == "edit":
                s = op[2]
                lines.append(f"edit {op[1]} @{s if isinstance(s, str) else fmt_num(s)}")
            elif kind == "suggest":
                lines.append(f"suggest {op[1]} {fmt_num(op[2])}")
            elif kind == "remove":
                lines.append(f"remove {op[1]}")
            else:
                lines.append("print")
        return "\n".join(lines) + "\n"


def script_size(rng):
    """How many variables a script aims at: mostly 3-30, a few up to ~80."""
    r = rng.random()
    if r < 0.62:
        return rng.randint(3, 6)
    if r < 0.89:
        return rng.randint(6, 12)
    if r < 0.98:
        return rng.randint(12, 30)
    return rng.randint(40, 75)


def random_script(rng, header, target):
    axes = ("x", "y") if target >= 12 and rng.random() < 0.3 else ("x",)
    if rng.random() < 0.3:
        axes = axes[::-1]
    gen = ScriptGenerator(rng, target, header)
    roots = gen.layout(axes)
    gen.timeline(roots)
    return gen.render()


# A script's .cass plus .expected larger than this is skipped, to keep the fixtures small.
MAX_FIXTURE_BYTES = 9000


def evaluate_script(text, unique_seed):
    """Solves one candidate with kiwi; returns (None, expected_text) or (reason, None)."""
    program = parse_script(text)
    try:
        blocks = run_kiwi(program)
    except ScriptError:
        return "kiwi refused", None  # mostly unsatisfiable required constraints
    expected = format_blocks(blocks, denoise)
    if len(text) + len(expected) > MAX_FIXTURE_BYTES:
        return "too large", None
    if len(blocks) > 1 and all(b == blocks[0] for b in blocks):
        return "nothing moves", None  # the edits lose to stronger constraints: a dull test
    if not has_unique_optimum(program, blocks, random.Random(unique_seed)):
        return "optimum not unique", None
    return None, expected


def _quiet_worker():
    # kiwi's own crash message goes to stderr; the parent reports crashes in its summary.
    os.dup2(os.open(os.devnull, os.O_WRONLY), 2)


class KiwiWorker:
    """Runs evaluate_script in a child process.  kiwisolver 1.5.1 lets some C++ exceptions
    escape (InternalSolverError "The objective is unbounded", seen on certain add orders of
    valid scripts), which abort the whole interpreter; a child can die instead of us."""

    def __init__(self):
        self.pool = None

    def evaluate(self, text, unique_seed):
        if self.pool is None:
            self.pool = ProcessPoolExecutor(max_workers=1, initializer=_quiet_worker)
        try:
            return self.pool.submit(evaluate_script, text, unique_seed).result()
        except BrokenProcessPool:
            self.pool = None
            return "kiwi crashed", None

    def close(self):
        if self.pool is not None:
            self.pool.shutdown()


def generate_scripts(count, seed, label="script", stats=None):
    """Yields (index, text, expected_output) for `count` accepted scripts, deterministically."""
    stats = stats if stats is not None else {}
    worker = KiwiWorker()
    try:
        for index in range(1, count + 1):
            # The size is drawn once per index: bigger scripts are rejected more often, and
            # retrying at the same size keeps the accepted set as large as designed.
            target = script_size(random.Random(f"kiwi-crosscheck/{seed}/{index}/size"))
            for attempt in range(5000):
                key = f"kiwi-crosscheck/{seed}/{index}/{attempt}"
                text = random_script(random.Random(key), f"{label} {index}, seed {seed}", target)
                reason, expected = worker.evaluate(text, key + "/unique")
                if reason is None:
                    yield index, text, expected
                    break
                stats[reason] = stats.get(reason, 0) + 1
            else:
                raise RuntimeError(f"no acceptable script for index {index}")
    finally:
        worker.close()


# --------------------------------------------------------------------------------------------
# Comparing the binary's output

def compare_outputs(expected, actual):
    """Returns a list of human-readable difference lines (empty when the outputs agree)."""
    if len(expected) != len(actual):
        return [f"expected {len(expected)} print block(s), got {len(actual)}"]
    diffs = []
    for number, (exp, act) in enumerate(zip(expected, actual), start=1):
        exp_names, act_names = [n for n, _ in exp], [n for n, _ in act]
        if exp_names != act_names:
            diffs.append(f"block {number}: variable names or order differ")
            diffs.append(f"  expected: {' '.join(exp_names)}")
            diffs.append(f"  actual:   {' '.join(act_names)}")
            continue
        bad = [(n, x, y) for (n, x), (_, y) in zip(exp, act) if not close(x, y)]
        if bad:
            width = max(len(n) for n, _, _ in bad)
            diffs.append(f"block {number}: {len(bad)} of {len(exp)} value(s) differ")
            diffs.append(f"  {'name':<{width}}  {'expected':>20}  {'actual':>20}  difference")
            for n, x, y in bad:
                diffs.append(f"  {n:<{width}}  {fmt_num(x):>20}  {fmt_num(y):>20}  {y - x:+.3g}")
    return diffs


def check_dir(binary, directory):
    """Runs the binary on every NNN.cass under directory; returns the number of failures."""
    names = sorted(f for f in os.listdir(directory) if f.endswith(".cass"))
    if not names:
        print(f"crosscheck: no .cass files in {directory}", file=sys.stderr)
        return 1
    failures = 0
    for name in names:
        path = os.path.join(directory, name)
        try:
            with open(path[: -len(".cass")] + ".expected", encoding="utf-8") as f:
                expected = parse_blocks(f.read())
        except (OSError, ValueError) as exc:
            failures += 1
            print(f"FAIL {path}\n  cannot read the expected output: {exc}")
            continue
        problem = []
        try:
            proc = subprocess.run([binary, "solve", path], capture_output=True, text=True,
                                  timeout=120)
        except subprocess.TimeoutExpired:
            problem = ["timed out after 120 s"]
        else:
            if proc.returncode != 0:
                problem = [f"exit status {proc.returncode}"]
                problem += [f"  stderr: {line}" for line in proc.stderr.splitlines()[:10]]
            else:
                try:
                    problem = compare_outputs(expected, parse_blocks(proc.stdout))
                except ValueError as exc:
                    problem = [str(exc)]
        if problem:
            failures += 1
            print(f"FAIL {path}")
            for line in problem[:40]:
                print(f"  {line}")
            if len(problem) > 40:
                print(f"  ... {len(problem) - 40} more line(s)")
    if failures:
        print(f"reproduce: {binary} solve FILE; kiwi's answer: "
              f"bash Scripts/kiwi-crosscheck.sh solve FILE")
    print(f"crosscheck: {len(names) - failures} passed, {failures} failed")
    return failures


# --------------------------------------------------------------------------------------------
# Commands

def _write_scripts(count, seed, out, label):
    stats = {}
    width = max(3, len(str(count)))
    for index, text, expected in generate_scripts(count, seed, label, stats):
        stem = os.path.join(out, f"{index:0{width}d}")
        with open(stem + ".cass", "w", encoding="utf-8") as f:
            f.write(text)
        with open(stem + ".expected", "w", encoding="utf-8") as f:
            f.write(expected)
        if index % 50 == 0:
            print(f"  {index}/{count}", file=sys.stderr)
    rejected = ", ".join(f"{v} {k}" for k, v in sorted(stats.items())) or "none"
    print(f"wrote {count} scripts to {out} (rejected: {rejected})", file=sys.stderr)


def cmd_generate(args):
    os.makedirs(args.out, exist_ok=True)
    # Start clean so that a smaller --count leaves no stale fixtures behind.  Only the numbered
    # files are ours: README.md and hand-written fixtures (hand-*.cass) stay.
    for name in os.listdir(args.out):
        if re.fullmatch(r"\d+\.(cass|expected)", name):
            os.remove(os.path.join(args.out, name))
    _write_scripts(args.count, args.seed, args.out, "fixture")
    total = sum(os.path.getsize(os.path.join(args.out, n)) for n in os.listdir(args.out))
    print(f"fixture directory: {total / 1024:.1f} KiB", file=sys.stderr)
    return 0


def cmd_check(args):
    args.binary = os.path.abspath(args.binary)
    if not (os.path.isfile(args.binary) and os.access(args.binary, os.X_OK)):
        print(f"crosscheck: no executable at {args.binary}", file=sys.stderr)
        return 2
    return 1 if check_dir(args.binary, args.dir) else 0


def cmd_fresh(args):
    args.binary = os.path.abspath(args.binary)
    if not (os.path.isfile(args.binary) and os.access(args.binary, os.X_OK)):
        print(f"crosscheck: no executable at {args.binary}", file=sys.stderr)
        return 2
    directory = tempfile.mkdtemp(prefix="kiwi-fresh-")
    _write_scripts(args.count, args.seed, directory, "fresh script")
    failures = check_dir(args.binary, directory)
    if failures or args.keep:
        print(f"scripts kept in {directory}", file=sys.stderr)
    else:
        shutil.rmtree(directory)
    return 1 if failures else 0


def _judge_one(binary, representations, path):
    """kiwi's answer and the binary's for one script: a list of (outcome, detail) lines."""
    with open(path, encoding="utf-8") as f:
        text = f.read()
    worker = KiwiWorker()
    try:
        if worker.pool is None:
            worker.pool = ProcessPoolExecutor(max_workers=1, initializer=_quiet_worker)
        try:
            expected = worker.pool.submit(_kiwi_blocks, text).result()
        except BrokenProcessPool:
            expected = "kiwi crashed"
    finally:
        worker.close()
    results = []
    for representation in representations:
        try:
            proc = subprocess.run(
                [binary, "solve", path, "--representation", representation],
                capture_output=True, text=True, timeout=600)
        except subprocess.TimeoutExpired:
            results.append(("ours hung", f"{representation}: no answer in 600 s"))
            continue
        if proc.returncode != 0:
            outcome = "both refused" if isinstance(expected, str) else "ours refused"
            results.append((outcome, f"{representation}: {proc.stderr.strip()[:200]}"))
            continue
        if isinstance(expected, str):
            results.append((f"ours solved, {expected}", representation))
            continue
        actual = parse_blocks(proc.stdout)
        diffs = compare_outputs(expected, actual)
        if not diffs:
            results.append(("agree", representation))
            continue
        # Values differ: the same weighted error (to round-off on sums of 1e8-1e9) is a tied
        # optimum that the tie-breakers did not separate; a larger one is a missed optimum.
        program = parse_script(text)
        worse = []
        for number, (mine, theirs) in enumerate(
                zip(weighted_errors(program, actual), weighted_errors(program, expected)), 1):
            if mine > theirs + 1e-12 * abs(theirs) + 1e-6:
                worse.append(f"block {number}: weighted error {mine:.12g} vs kiwi {theirs:.12g}")
        if worse:
            results.append(("worse than kiwi", representation + ": " + "; ".join(worse[:3])))
        else:
            results.append(("tied optimum", representation + ": " + "; ".join(diffs[:2])))
    return results


def _evaluate(node, values, magnitude=False):
    """An expression's value at `values` (or, with magnitude, the sum of its terms' sizes)."""
    kind = node[0]
    if kind == "num":
        return abs(node[1]) if magnitude else node[1]
    if kind == "var":
        value = values.get(node[1], 0.0)
        return abs(value) if magnitude else value
    if kind == "()":
        return _evaluate(node[1], values, magnitude)
    a, b = _evaluate(node[1], values, magnitude), _evaluate(node[2], values, magnitude)
    if kind == "+":
        return a + b
    if kind == "-":
        return a + b if magnitude else a - b
    if kind == "*":
        return a * b
    return a / b


def _strength_value(strength):
    named = {"strong": kiwi.strength.strong, "medium": kiwi.strength.medium,
             "weak": kiwi.strength.weak}
    return named[strength] if isinstance(strength, str) else float(strength)


def weighted_errors(program, blocks):
    """For each print block: the sum of strength x violation over the non-required
    constraints and edit suggestions in force (violations within 1e-9 of their magnitudes
    count as round-off), the quantity both solvers minimise."""
    live, unlabelled, edits, errors = {}, [], {}, []
    for op in program.ops:
        if op.kind == "constraint":
            if op.as_written != "required":
                shortfall = (None if op.shortfall_as_written is None
                             else _strength_value(op.shortfall_as_written))
                item = (op.lhs, op.rhs, op.op, _strength_value(op.as_written), shortfall)
                if op.label is not None:
                    live[op.label] = item
                else:
                    unlabelled.append(item)
        elif op.kind == "remove":
            live.pop(op.label, None)
        elif op.kind == "edit":
            edits[op.name] = [_strength_value(op.as_written), 0.0]
        elif op.kind == "suggest":
            edits[op.name][1] = op.value
        elif op.kind == "print" and len(errors) < len(blocks):
            values = dict(blocks[len(errors)])
            total = 0.0
            for lhs, rhs, relation, weight, shortfall in list(live.values()) + unlabelled:
                d = _evaluate(lhs, values) - _evaluate(rhs, values)
                scale = _evaluate(lhs, values, True) + _evaluate(rhs, values, True)
                miss = abs(d) if relation == "==" else max(0.0, d if relation == "<=" else -d)
                if miss > 1e-9 * (scale + 1):
                    # A split equality weighs a shortfall (lhs below rhs) apart.
                    total += (shortfall if shortfall is not None and d < 0 else weight) * miss
            for name, (weight, target) in edits.items():
                miss = abs(values.get(name, 0.0) - target)
                if miss > 1e-9 * (abs(target) + miss + 1):
                    total += weight * miss
            errors.append(total)
    return errors


def _kiwi_blocks(text):
    try:
        return run_kiwi(parse_script(text))
    except ScriptError as exc:
        return f"kiwi refused ({exc})"


def cmd_judge(args):
    """Solves each script with kiwi and with the binary in every representation and compares
    the printed values; where they differ, the weighted errors tell a tied optimum from a
    missed one. Exits 1 when the binary refuses, hangs or misses kiwi's optimum."""
    representations = (["adaptive", "lazy", "canonical"] if args.representation == "all"
                       else [args.representation])
    counts = {}
    for path in args.files:
        for outcome, detail in _judge_one(args.binary, representations, path):
            counts[outcome] = counts.get(outcome, 0) + 1
            if outcome not in ("agree", "both refused", "tied optimum"):
                print(f"{outcome.upper()} {path} {detail}")
    summary = ", ".join(f"{n} {outcome}" for outcome, n in sorted(counts.items()))
    print(f"judge: {len(args.files)} script(s) x {len(representations)} representation(s): "
          f"{summary}")
    bad = sum(n for outcome, n in counts.items()
              if outcome in ("worse than kiwi", "ours refused", "ours hung"))
    return 1 if bad else 0


def cmd_solve(args):
    with open(args.file, encoding="utf-8") as f:
        text = f.read()
    try:
        program = parse_script(text)
        blocks = run_kiwi(program)
    except ScriptError as exc:
        print(f"{args.file}: {exc}", file=sys.stderr)
        return 1
    sys.stdout.write(format_blocks(blocks))
    if args.unique and not has_unique_optimum(program, blocks, random.Random(0)):
        print(f"{args.file}: warning: the optimum is not unique", file=sys.stderr)
        return 3
    return 0


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    sub = parser.add_subparsers(dest="command", required=True)
    p = sub.add_parser("generate", help="write fixtures solved by kiwi")
    p.add_argument("--count", type=int, default=300)
    p.add_argument("--seed", default="1")
    p.add_argument("--out", default=DEFAULT_FIXTURES)
    p.set_defaults(run=cmd_generate)
    p = sub.add_parser("check", help="compare `BINARY solve` with the fixtures")
    p.add_argument("--binary", required=True)
    p.add_argument("--dir", default=DEFAULT_FIXTURES)
    p.set_defaults(run=cmd_check)
    p = sub.add_parser("fresh", help="generate new scripts in a temp dir and check them")
    p.add_argument("--count", type=int, default=200)
    p.add_argument("--seed", default="fresh")
    p.add_argument("--binary", required=True)
    p.add_argument("--keep", action="store_true", help="keep the temp dir even on success")
    p.set_defaults(run=cmd_fresh)
    p = sub.add_parser("judge", help="compare kiwi and BINARY on given scripts")
    p.add_argument("--binary", required=True)
    p.add_argument("--representation", default="all",
                   choices=["all", "adaptive", "lazy", "canonical"])
    p.add_argument("files", nargs="+")
    p.set_defaults(run=cmd_judge)
    p = sub.add_parser("solve", help="print kiwi's output for one script")
    p.add_argument("file")
    p.add_argument("--unique", action="store_true", help="also test that the optimum is unique")
    p.set_defaults(run=cmd_solve)
    args = parser.parse_args(argv)
    return args.run(args)


if __name__ == "__main__":
    sys.exit(main())
