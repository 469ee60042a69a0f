"""The constraint script format of `layout-bench solve`, for the Python scripts.

shared/DESIGN.md ("Constraint script format") is the contract; this module is the one Python
reader of it, imported by kiwi_crosscheck.py, kiwi_bench.py and script_fuzz.py. It holds the
tokenizer and the statement and expression parser, the number format of printed values, the
reader of printed blocks and the tolerance of value comparisons.

The parser follows Sources/ConstraintScript/ScriptParser.swift: it accepts what the binary
accepts, with messages close to the binary's, and builds each constraint's linear form with the
same float operations in the same order, so its coefficients are bit-identical to the binary's.
One known difference, kept so that script_fuzz.py classifies cases as it did: a literal that
underflows to zero (1e-400) reads as 0, where the binary refuses it. The parser also keeps each
side of a constraint as an expression tree, for a reader that drives kiwisolver the way a user
of its API would. Standard library only: script_fuzz.py runs without kiwisolver.
"""

import math
import re

# Sources/Cassowary/Strength.swift; kiwisolver's kiwi.strength values are the same numbers.
REQUIRED = 1000.0 * 1_000_000 + 1000 * 1000 + 1000
NAMED_STRENGTHS = {"required": REQUIRED, "strong": 1_000_000.0, "medium": 1000.0, "weak": 1.0}
RELATIONS = ("==", "<=", ">=")

# Values compared across solvers (kiwi against the binary) agree within CHECK_TOL: absolute up
# to 1e3 and relative above, as KiwiFixtureTests compares the fixtures.
CHECK_TOL = 1e-6
ABSOLUTE_BELOW = 1e3


class LineError(Exception):
    """A syntax error in one line; the caller adds the line number."""


class ScriptError(Exception):
    """A script that cannot be read (or that a solver refuses), at a 1-based line number."""

    def __init__(self, line, reason):
        super().__init__(f"line {line}: {reason}")
        self.line, self.reason = line, reason


# --------------------------------------------------------------------------------------------
# Numbers and values

def fmt_num(value):
    """A value as `layout-bench solve` prints it: integers without a point, and no -0."""
    if value == 0:
        return "0"  # also turns -0.0 into 0
    if float(value).is_integer() and abs(value) < 1e15:
        return str(int(value))
    return repr(float(value))


def close(expected, actual, tolerance=CHECK_TOL, absolute_below=ABSOLUTE_BELOW):
    """Whether actual is within tolerance of expected: an absolute difference while
    |expected| <= absolute_below, relative to |expected| above."""
    scale = abs(expected) if abs(expected) > absolute_below else 1.0
    return abs(actual - expected) <= tolerance * scale


def format_blocks(blocks, fix=float):
    """Print blocks ([(name, value)] lists) as `name = value` lines separated by `---`; fix
    maps each value before it is formatted."""
    return "---\n".join("".join(f"{n} = {fmt_num(fix(v))}\n" for n, v in block)
                        for block in blocks)


def parse_blocks(text):
    """Reads `name = value` blocks separated by `---`; raises ValueError on anything else."""
    blocks, current = [], []
    for line_no, line in enumerate(text.splitlines(), start=1):
        line = line.strip()
        if not line:
            continue
        if line == "---":
            blocks.append(current)
            current = []
            continue
        m = re.fullmatch(r"([A-Za-z_][A-Za-z0-9_.]*) = (\S+)", line)
        try:
            value = float(m.group(2)) if m else None
        except ValueError:
            value = None
        if value is None or math.isnan(value):
            raise ValueError(f"output line {line_no} is not `name = number`: {line!r}")
        current.append((m.group(1), value))
    blocks.append(current)
    return blocks


# --------------------------------------------------------------------------------------------
# Tokens

_NAME_START = re.compile(r"[A-Za-z_]")
_NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_.]*")
_DIGITS = re.compile(r"[0-9.]*")
_EXPONENT = re.compile(r"[eE][-+]?[0-9]+")


def tokenize(text):
    """Tokens of one line (comment already removed): (kind, text, value, start, end), kind
    'num', 'name' or 'sym'. Raises LineError where the binary's tokenizer fails."""
    tokens, i, n = [], 0, len(text)
    while i < n:
        c = text[i]
        if c in " \t":
            i += 1
        elif _NAME_START.match(c):
            j = _NAME.match(text, i).end()
            tokens.append(("name", text[i:j], None, i, j))
            i = j
        elif c.isascii() and (c.isdigit() or (c == "." and i + 1 < n and text[i + 1].isdigit())):
            # Like the binary, take the whole run of digits and points, so `1.2.3` is one
            # malformed number rather than two numbers.
            j = _DIGITS.match(text, i).end()
            m = _EXPONENT.match(text, j)
            if m:
                j = m.end()
            literal = text[i:j]
            try:
                value = float(literal)
            except ValueError:
                raise LineError(f"malformed number '{literal}'") from None
            if not math.isfinite(value):
                raise LineError(f"number '{literal}' overflows to infinity")
            tokens.append(("num", literal, value, i, j))
            i = j
        elif c in "=<>":
            if i + 1 >= n or text[i + 1] != "=":
                raise LineError(f"unexpected character '{c}' (relations are ==, <= and >=)")
            tokens.append(("sym", c + "=", None, i, i + 2))
            i += 2
        elif c in "+-*/()@:":
            tokens.append(("sym", c, None, i, i + 1))
            i += 1
        else:
            raise LineError(f"unexpected character '{c}'")
    return tokens


def code_of(line):
    """The part of a line before its comment."""
    return line.split("#", 1)[0]


# --------------------------------------------------------------------------------------------
# Linear forms and expression trees

class Form:
    """LinearForm: names in order of first appearance, coefficients, constant; the same float
    operations in the same order as the Swift type, so the coefficients are bit-identical."""

    __slots__ = ("names", "coefs", "const")

    def __init__(self, const=0.0, name=None):
        self.names = [name] if name is not None else []
        self.coefs = [1.0] if name is not None else []
        self.const = const

    def adding(self, other, k):
        r = Form(self.const)
        r.names, r.coefs = list(self.names), list(self.coefs)
        r.const += k * other.const
        for name, c in zip(other.names, other.coefs):
            if name in r.names:
                i = r.names.index(name)
                r.coefs[i] += k * c
            else:
                r.names.append(name)
                r.coefs.append(k * c)
        return r

    def scaled(self, k):
        return Form(0.0).adding(self, k)

    def divided(self, d):
        # Swift divides each coefficient rather than multiplying by 1 / d, which rounds twice.
        r = Form(self.const / d)
        r.names, r.coefs = list(self.names), [c / d for c in self.coefs]
        return r

    def is_constant(self):
        return all(c == 0 for c in self.coefs)

    def is_finite(self):
        return math.isfinite(self.const) and all(math.isfinite(c) for c in self.coefs)


# Expression trees: ('num', value), ('var', name) and ('+'|'-'|'*'|'/', left, right); a unary
# minus reads as ('-', ('num', 0.0), operand). Writers may add ('()', inner) for parentheses
# that the precedence does not need.

def expr_vars(node, out):
    """Appends the variable names of an expression in reading order."""
    if node[0] == "var":
        out.append(node[1])
    elif node[0] != "num":
        for child in node[1:]:
            expr_vars(child, out)
    return out


# --------------------------------------------------------------------------------------------
# Statements

class Statement:
    """One line of a script. kind: 'constraint' (label, lhs and rhs trees, form = lhs - rhs,
    op, strength), 'edit' (name, strength), 'suggest' (name, value), 'remove' (label) or
    'print'; line; mentioned: variable names in order of first mention on the line.

    strength is the number the solver gets (raw strengths capped at required); as_written is
    the strength as the script spells it, a name or the raw number ('required' when left out).
    A non-required equality written `@excess/shortfall` also has shortfall and
    shortfall_as_written (None otherwise): strength then weighs an excess (lhs above rhs),
    shortfall a shortfall.
    """

    def __init__(self, kind, line, mentioned, **fields):
        self.kind, self.line, self.mentioned = kind, line, mentioned
        self.label = self.name = self.form = self.op = self.value = None
        self.lhs = self.rhs = None
        self.strength, self.as_written = REQUIRED, "required"
        self.shortfall = self.shortfall_as_written = None
        self.__dict__.update(fields)

    @property
    def required(self):
        return self.strength >= REQUIRED


class _LineParser:
    """Recursive descent over one line's tokens, as LineParser in ScriptParser.swift. Each
    expression method returns (tree, form)."""

    def __init__(self, tokens):
        self.tokens, self.pos, self.mentioned = tokens, 0, []

    def peek(self):
        return self.tokens[self.pos] if self.pos < len(self.tokens) else None

    def peek_is(self, kind, text):
        t = self.peek()
        return t is not None and t[0] == kind and t[1] == text

    def mention(self, name):
        if name not in self.mentioned:
            self.mentioned.append(name)

    def statement(self, line):
        t = self.tokens
        second = t[1] if len(t) > 1 else None
        first = t[0]
        fields = {}
        # A keyword starts a statement only when followed by what the statement needs, so
        # `print == 3` constrains a variable named print, as in the binary.
        if first[:2] == ("name", "print") and second is None:
            self.pos, kind = 1, "print"
        elif first[0] == "name" and first[1] in ("edit", "suggest", "remove") and \
                second is not None and second[0] == "name":
            self.pos, kind = 2, first[1]
            if kind == "remove":
                fields["label"] = second[1]
            else:
                self.mention(second[1])
                fields["name"] = second[1]
                if kind == "edit":
                    fields["strength"], fields["as_written"] = self.strength()
                else:
                    fields["value"] = self.signed_number()
        elif first[0] == "name" and first[1] in ("edit", "suggest", "remove") and second is None:
            what = "label" if first[1] == "remove" else "variable name"
            raise LineError(f"expected a {what} after {first[1]}")
        else:
            kind = "constraint"
            fields = self.constraint()
        if self.pos < len(t):
            raise LineError(f"unexpected token '{t[self.pos][1]}'")
        return Statement(kind, line, self.mentioned, **fields)

    def constraint(self):
        label = None
        t = self.tokens
        if len(t) >= 2 and t[0][0] == "name" and t[1][:2] == ("sym", ":"):
            label, self.pos = t[0][1], 2
        lhs, lform = self.expression()
        nxt = self.peek()
        if nxt is None or nxt[0] != "sym" or nxt[1] not in RELATIONS:
            raise LineError("expected a relation" if nxt is None
                            else f"unexpected token '{nxt[1]}'")
        self.pos += 1
        rhs, rform = self.expression()
        form = lform.adding(rform, -1.0)
        self.check_finite(form)
        strength, as_written = (REQUIRED, "required") if self.peek() is None else self.strength()
        shortfall = shortfall_as_written = None
        if self.peek_is("sym", "/"):
            # `@excess/shortfall`: two non-required weights of an equality.
            self.pos += 1
            if self.peek() is None:
                raise LineError("expected a strength after '/'")
            shortfall, shortfall_as_written = self.strength_name()
            if nxt[1] != "==" or strength >= REQUIRED or shortfall >= REQUIRED:
                raise LineError("only a non-required equality can weigh an excess and a "
                                "shortfall apart (@excess/shortfall)")
        return {"label": label, "lhs": lhs, "rhs": rhs, "form": form, "op": nxt[1],
                "strength": strength, "as_written": as_written, "shortfall": shortfall,
                "shortfall_as_written": shortfall_as_written}

    def strength(self):
        """(the solver's strength, the strength as written) after an `@`."""
        if not self.peek_is("sym", "@"):
            raise LineError("expected a strength")
        self.pos += 1
        if self.peek() is None:
            raise LineError("expected a strength after '@'")
        return self.strength_name()

    def strength_name(self):
        """(the solver's strength, as written) at a strength's name or number."""
        t = self.peek()
        if t[0] == "name":
            if t[1] not in NAMED_STRENGTHS:
                raise LineError(f"unknown strength '{t[1]}'")
            self.pos += 1
            return NAMED_STRENGTHS[t[1]], t[1]
        if t[0] == "num":
            self.pos += 1
            if not t[2] > 0:
                raise LineError(f"bad strength '{t[1]}': must be positive")
            return min(max(t[2], 0.0), REQUIRED), t[2]
        raise LineError(f"bad strength '{t[1]}'")

    def signed_number(self):
        sign = 1.0
        if self.peek_is("sym", "-"):
            sign, self.pos = -1.0, self.pos + 1
        elif self.peek_is("sym", "+"):
            self.pos += 1
        t = self.peek()
        if t is None or t[0] != "num":
            raise LineError("expected a number")
        self.pos += 1
        return sign * t[2]

    @staticmethod
    def check_finite(form):
        if not form.is_finite():
            raise LineError("value overflows to infinity")

    def expression(self):
        node, form = self.term()
        while self.peek_is("sym", "+") or self.peek_is("sym", "-"):
            op = self.peek()[1]
            self.pos += 1
            rnode, rform = self.term()
            node, form = (op, node, rnode), form.adding(rform, 1.0 if op == "+" else -1.0)
            self.check_finite(form)
        return node, form

    def term(self):
        node, form = self.unary()
        while self.peek_is("sym", "*") or self.peek_is("sym", "/"):
            op = self.peek()[1]
            self.pos += 1
            rnode, rform = self.unary()
            # The format is linear: one side of `*` and the right of `/` must be constant.
            if op == "*":
                if form.is_constant():
                    form = rform.scaled(form.const)
                elif rform.is_constant():
                    form = form.scaled(rform.const)
                else:
                    raise LineError("non-linear term: a product of variables")
            else:
                if not rform.is_constant():
                    raise LineError("non-linear term: division by a variable")
                if rform.const == 0:
                    raise LineError("division by zero")
                form = form.divided(rform.const)
            node = (op, node, rnode)
            self.check_finite(form)
        return node, form

    def unary(self):
        if self.peek_is("sym", "-"):
            self.pos += 1
            node, form = self.unary()
            return ("-", ("num", 0.0), node), form.scaled(-1.0)
        if self.peek_is("sym", "+"):
            self.pos += 1
            return self.unary()
        t = self.peek()
        if t is None:
            raise LineError("unexpected end of line: expected an expression")
        self.pos += 1
        if t[0] == "num":
            return ("num", t[2]), Form(t[2])
        if t[0] == "name":
            self.mention(t[1])
            return ("var", t[1]), Form(0.0, t[1])
        if t[1] == "(":
            inner = self.expression()
            if not self.peek_is("sym", ")"):
                raise LineError("missing ')'")
            self.pos += 1
            return inner
        raise LineError(f"unexpected token '{t[1]}'")


def parse_line(text, line_no):
    """The statement of one line, or None for a blank or comment line; raises LineError."""
    tokens = tokenize(code_of(text))
    return _LineParser(tokens).statement(line_no) if tokens else None


def parse_script(text):
    """All statements, with the binary's static checks; raises ScriptError(line, reason)."""
    lines = text.split("\n")
    if lines and lines[0].startswith("\ufeff"):
        lines[0] = lines[0][1:]
    statements, live = [], set()
    for number, raw in enumerate(lines, start=1):
        raw = raw[:-1] if raw.endswith("\r") else raw
        try:
            st = parse_line(raw, number)
            if st is None:
                continue
            # Labels are checked before anything runs, as in the binary: a label names a
            # live constraint and is free for reuse once removed.
            if st.kind == "constraint" and st.label is not None:
                if st.label in live:
                    raise LineError(f"duplicate label {st.label}")
                live.add(st.label)
            elif st.kind == "remove":
                if st.label not in live:
                    raise LineError(f"unknown label {st.label}")
                live.discard(st.label)
            elif st.kind == "edit" and st.required:
                raise LineError(f"edit variable {st.name} cannot have required strength")
        except LineError as exc:
            raise ScriptError(number, str(exc)) from None
        statements.append(st)
    return statements
