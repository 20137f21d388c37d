"""A small, safe grammar for target-column expressions of the analytic tools.

    expr    := term (("+" | "-") term)*
    term    := unary (("*" | "/") unary)*
    unary   := "-" unary | primary
    primary := NUMBER | NAME | NAME "(" args ")" | "(" expr ")"
    args    := expr ("," expr)*

Names are column names (resolved by a caller-supplied resolver); a name directly followed by
``(`` is a function: ``abs(x)``, ``round(x)``, ``round(x, n)`` and the date parts ``year``,
``month``, ``day``, ``weekday`` (0 = Monday) and ``hour`` of a datetime column.

The text is read by a hand-written tokenizer and a recursive-descent parser - never ``eval``,
never Python's ``ast`` - and compiled to a SQLAlchemy column expression in which every number is
a bound parameter and every column a ``Table`` column. Anything outside the grammar (``;``,
quotes, ``--``, unknown functions, dunder names, non-ASCII look-alikes, ...) is an
``ExpressionError`` naming the offending token and its position.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from decimal import Decimal
from typing import Any

from sqlalchemy import BigInteger, Float, Integer, Numeric, Table, cast, extract, func, literal
from sqlalchemy.sql.elements import ColumnElement

MAX_CHARS = 200
MAX_TOKENS = 30
MAX_DEPTH = 8
MAX_LITERAL = 1e15
MAX_ROUND_DIGITS = 10

NUMERIC_TYPES = frozenset({"int", "float"})
DATE_PARTS = ("year", "month", "day", "weekday", "hour")
FUNCTIONS = ("abs", "round", *DATE_PARTS)


class ExpressionError(ValueError):
    """An expression outside the grammar, too large, or ill-typed."""


# -- AST ---------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Expr:
    """Base of the AST nodes. ``pos`` is the character offset in the source (not compared)."""

    def __str__(self) -> str:  # pragma: no cover - overridden
        raise NotImplementedError


@dataclass(frozen=True)
class Num(Expr):
    value: int | float
    pos: int = field(default=0, compare=False)

    def __str__(self) -> str:
        if isinstance(self.value, int):
            return str(self.value)
        text = format(Decimal(repr(self.value)), "f")  # positional, never "1e-05"
        return text if "." in text else text + ".0"


@dataclass(frozen=True)
class Col(Expr):
    name: str
    pos: int = field(default=0, compare=False)

    def __str__(self) -> str:
        return self.name


@dataclass(frozen=True)
class Neg(Expr):
    operand: Expr
    pos: int = field(default=0, compare=False)

    def __str__(self) -> str:
        inner = str(self.operand)
        if isinstance(self.operand, BinOp):
            return f"-({inner})"
        return f"- {inner}" if inner.startswith("-") else f"-{inner}"  # never "--"


@dataclass(frozen=True)
class BinOp(Expr):
    op: str
    left: Expr
    right: Expr
    pos: int = field(default=0, compare=False)

    def __str__(self) -> str:
        prec = _PREC[self.op]
        left = _wrap(self.left, prec, right_side=False)
        right = _wrap(self.right, prec, right_side=True)
        return f"{left} {self.op} {right}"


@dataclass(frozen=True)
class Call(Expr):
    func: str
    args: tuple[Expr, ...]
    pos: int = field(default=0, compare=False)

    def __str__(self) -> str:
        return f"{self.func}({', '.join(str(a) for a in self.args)})"


_PREC = {"+": 1, "-": 1, "*": 2, "/": 2}


def _wrap(node: Expr, prec: int, *, right_side: bool) -> str:
    if isinstance(node, BinOp):
        inner = _PREC[node.op]
        if inner < prec or (right_side and inner == prec):
            return f"({node})"
    return str(node)


# -- tokenizer ---------------------------------------------------------------------------------


@dataclass(frozen=True)
class _Tok:
    kind: str  # "num" | "name" | "op" | "end"
    text: str
    pos: int


_OPS = "+-*/(),"


def _tokenize(text: str) -> list[_Tok]:
    toks: list[_Tok] = []
    i, n = 0, len(text)
    while i < n:
        ch = text[i]
        if ch in " \t":
            i += 1
            continue
        if not ch.isascii():
            raise ExpressionError(f"unexpected character {ch!r} (U+{ord(ch):04X}) at position {i}: only ASCII is allowed")
        if ch.isdigit() or (ch == "." and i + 1 < n and text[i + 1].isdigit()):
            j = i
            while j < n and text[j].isdigit():
                j += 1
            if j < n and text[j] == ".":
                j += 1
                while j < n and text[j].isdigit():
                    j += 1
            if j < n and (text[j].isalnum() or text[j] in "._"):
                k = j
                while k < n and (text[k].isalnum() or text[k] in "._"):
                    k += 1
                raise ExpressionError(f"unexpected token {text[i:k]!r} at position {i}: not a number or a name")
            toks.append(_Tok("num", text[i:j], i))
            i = j
            continue
        if ch.isalpha() or ch == "_":
            j = i
            while j < n and (text[j].isalnum() or text[j] == "_") and text[j].isascii():
                j += 1
            word = text[i:j]
            if word.startswith("_"):
                raise ExpressionError(f"unexpected name {word!r} at position {i}: names start with a letter")
            toks.append(_Tok("name", word, i))
            i = j
            continue
        if ch in _OPS:
            if ch == "-" and i + 1 < n and text[i + 1] == "-":
                raise ExpressionError(f"unexpected token '--' at position {i}")
            if ch in "*/" and i + 1 < n and text[i + 1] in "*/":
                raise ExpressionError(f"unexpected token {text[i:i + 2]!r} at position {i}")
            toks.append(_Tok("op", ch, i))
            i += 1
            continue
        raise ExpressionError(f"unexpected character {ch!r} at position {i}")
    if len(toks) > MAX_TOKENS:
        raise ExpressionError(f"expression has {len(toks)} tokens, at most {MAX_TOKENS} are allowed (token {toks[MAX_TOKENS].text!r} at position {toks[MAX_TOKENS].pos})")
    toks.append(_Tok("end", "", n))
    return toks


# -- parser ------------------------------------------------------------------------------------


class _Parser:
    def __init__(self, toks: list[_Tok]) -> None:
        self.toks = toks
        self.i = 0
        self.depth = 0

    @property
    def tok(self) -> _Tok:
        return self.toks[self.i]

    def take(self) -> _Tok:
        tok = self.toks[self.i]
        self.i += 1
        return tok

    def fail(self, tok: _Tok, expected: str) -> ExpressionError:
        if tok.kind == "end":
            return ExpressionError(f"unexpected end of expression at position {tok.pos}: expected {expected}")
        return ExpressionError(f"unexpected token {tok.text!r} at position {tok.pos}: expected {expected}")

    def expect(self, text: str) -> _Tok:
        if self.tok.kind != "op" or self.tok.text != text:
            raise self.fail(self.tok, repr(text))
        return self.take()

    def enter(self, tok: _Tok) -> None:
        self.depth += 1
        if self.depth > MAX_DEPTH:
            raise ExpressionError(f"expression nested too deeply at token {tok.text!r} at position {tok.pos}: at most {MAX_DEPTH} levels")

    def parse(self) -> Expr:
        node = self.expr()
        if self.tok.kind != "end":
            raise self.fail(self.tok, "an operator (+ - * /) or the end")
        return node

    def expr(self) -> Expr:
        node = self.term()
        while self.tok.kind == "op" and self.tok.text in "+-":
            op = self.take()
            node = BinOp(op.text, node, self.term(), op.pos)
        return node

    def term(self) -> Expr:
        node = self.unary()
        while self.tok.kind == "op" and self.tok.text in "*/":
            op = self.take()
            node = BinOp(op.text, node, self.unary(), op.pos)
        return node

    def unary(self) -> Expr:
        if self.tok.kind == "op" and self.tok.text == "-":
            op = self.take()
            self.enter(op)
            operand = self.unary()
            self.depth -= 1
            if isinstance(operand, Num):
                return Num(-operand.value, op.pos)
            return Neg(operand, op.pos)
        return self.primary()

    def primary(self) -> Expr:
        tok = self.tok
        if tok.kind == "num":
            self.take()
            value: int | float = float(tok.text) if "." in tok.text else int(tok.text)
            if abs(value) > MAX_LITERAL:
                raise ExpressionError(f"number {tok.text!r} at position {tok.pos} is too large (at most {MAX_LITERAL:.0e})")
            return Num(value, tok.pos)
        if tok.kind == "name":
            self.take()
            if self.tok.kind == "op" and self.tok.text == "(":
                fname = tok.text.lower()
                if fname not in FUNCTIONS:
                    raise ExpressionError(f"unknown function {tok.text!r} at position {tok.pos} (functions: {', '.join(FUNCTIONS)})")
                self.enter(self.take())
                args = [self.expr()]
                while self.tok.kind == "op" and self.tok.text == ",":
                    self.take()
                    args.append(self.expr())
                self.expect(")")
                self.depth -= 1
                return _check_call(Call(fname, tuple(args), tok.pos), tok)
            return Col(tok.text, tok.pos)
        if tok.kind == "op" and tok.text == "(":
            self.enter(self.take())
            node = self.expr()
            self.expect(")")
            self.depth -= 1
            return node
        raise self.fail(tok, "a number, a column name, a function or '('")


def _check_call(call: Call, tok: _Tok) -> Call:
    n = len(call.args)
    if call.func == "round":
        if n not in (1, 2):
            raise ExpressionError(f"function 'round' at position {tok.pos} takes 1 or 2 arguments, got {n}")
        if n == 2:
            digits = call.args[1]
            if not isinstance(digits, Num) or not isinstance(digits.value, int) or not 0 <= digits.value <= MAX_ROUND_DIGITS:
                raise ExpressionError(
                    f"function 'round' at position {tok.pos}: the digits must be an integer 0..{MAX_ROUND_DIGITS}, got {str(digits)!r}"
                )
    elif n != 1:
        raise ExpressionError(f"function {call.func!r} at position {tok.pos} takes 1 argument, got {n}")
    return call


def parse_expression(text: str) -> Expr:
    """Parse a target expression; raise ``ExpressionError`` for anything outside the grammar."""
    if not isinstance(text, str):
        raise ExpressionError(f"expression must be a string, got {type(text).__name__}")
    if len(text) > MAX_CHARS:
        raise ExpressionError(f"expression is {len(text)} characters long, at most {MAX_CHARS} are allowed")
    if not text.strip():
        raise ExpressionError("expression is empty")
    return _Parser(_tokenize(text)).parse()


def columns_of(expr: Expr) -> set[str]:
    """The column names an expression refers to, as written."""
    if isinstance(expr, Col):
        return {expr.name}
    if isinstance(expr, Neg):
        return columns_of(expr.operand)
    if isinstance(expr, BinOp):
        return columns_of(expr.left) | columns_of(expr.right)
    if isinstance(expr, Call):
        out: set[str] = set()
        for arg in expr.args:
            out |= columns_of(arg)
        return out
    return set()


# -- typing and compilation --------------------------------------------------------------------


Resolver = Callable[[str], str]


def _default_resolver(column_types: Mapping[str, str]) -> Resolver:
    def resolve(name: str) -> str:
        if name in column_types:
            return name
        raise ExpressionError(f"unknown column {name!r} (columns: {', '.join(column_types)})")

    return resolve


def expression_type(expr: Expr, column_types: Mapping[str, str], resolve: Resolver | None = None) -> str:
    """The type of an expression's value: ``int``, ``float``, ``datetime``, ``text`` or ``bool``.

    Raises ``ExpressionError`` for arithmetic on a non-numeric column or a date part of a
    non-datetime value, naming the column.
    """
    return _Typer(column_types, resolve or _default_resolver(column_types)).type(expr)


class _Typer:
    def __init__(self, column_types: Mapping[str, str], resolve: Resolver) -> None:
        self.types = column_types
        self.resolve = resolve

    def type(self, node: Expr) -> str:
        if isinstance(node, Num):
            return "int" if isinstance(node.value, int) else "float"
        if isinstance(node, Col):
            key = self.resolve(node.name)
            if key not in self.types:
                raise ExpressionError(f"unknown column {node.name!r} (columns: {', '.join(self.types)})")
            return self.types[key]
        if isinstance(node, Neg):
            return self.numeric(node.operand, "unary '-'")
        if isinstance(node, BinOp):
            left = self.numeric(node.left, f"'{node.op}'")
            right = self.numeric(node.right, f"'{node.op}'")
            if node.op == "/":
                return "float"
            return "int" if left == right == "int" else "float"
        if isinstance(node, Call):
            if node.func in DATE_PARTS:
                arg = node.args[0]
                t = self.type(arg)
                if t != "datetime":
                    raise ExpressionError(f"{node.func}() at position {node.pos} needs a datetime column, {_describe(arg)} is {t}")
                return "int"
            t = self.numeric(node.args[0], f"{node.func}()")
            if node.func == "abs":
                return t
            return "float"  # round
        raise ExpressionError(f"unsupported expression node {type(node).__name__}")  # pragma: no cover

    def numeric(self, node: Expr, where: str) -> str:
        t = self.type(node)
        if t not in NUMERIC_TYPES:
            raise ExpressionError(f"{where} needs numeric values, {_describe(node)} is {t}")
        return t


def _describe(node: Expr) -> str:
    return f"column {node.name!r}" if isinstance(node, Col) else repr(str(node))


def compile_expression(
    expr: Expr,
    table: Table,
    column_types: Mapping[str, str],
    dialect_name: str,
    *,
    resolve: Resolver | None = None,
    columns: Mapping[str, ColumnElement[Any]] | None = None,
) -> ColumnElement[Any]:
    """Compile a parsed expression into a SQLAlchemy column expression over ``table``.

    ``column_types`` maps column keys to their types; ``resolve`` maps a name as written to a
    column key (default: exact match) and raises on unknown names; ``columns`` supplies
    column expressions for virtual keys (e.g. ``date`` = COALESCE(observed_at, time)).
    ``dialect_name`` (``engine.dialect.name``) selects the date-part functions.
    Type errors raise ``ExpressionError`` before anything is built.
    """
    resolver = resolve or _default_resolver(column_types)
    typer = _Typer(column_types, resolver)
    typer.type(expr)  # type check first
    return _Compiler(table, typer, dialect_name, resolver, columns or {}).build(expr)


class _Compiler:
    def __init__(self, table: Table, typer: _Typer, dialect: str, resolve: Resolver,
                 columns: Mapping[str, ColumnElement[Any]]) -> None:
        self.table = table
        self.typer = typer
        self.pg = dialect.startswith("postgres")
        self.resolve = resolve
        self.columns = columns

    def build(self, node: Expr) -> ColumnElement[Any]:
        if isinstance(node, Num):
            return literal(node.value, Integer if isinstance(node.value, int) else Float)
        if isinstance(node, Col):
            key = self.resolve(node.name)
            if key in self.columns:
                return self.columns[key]
            if key not in self.table.c:
                raise ExpressionError(f"unknown column {node.name!r}")
            return self.table.c[key]
        if isinstance(node, Neg):
            return -self.operand(node.operand)
        if isinstance(node, BinOp):
            left, right = self.operand(node.left), self.operand(node.right)
            if node.op == "+":
                return left + right
            if node.op == "-":
                return left - right
            if node.op == "*":
                return left * right
            # true division, NULL (not an error) when dividing by zero
            return cast(left, Float) / func.nullif(cast(right, Float), literal(0.0, Float), type_=Float)
        if isinstance(node, Call):
            if node.func == "abs":
                return func.abs(self.operand(node.args[0]))
            arg = self.build(node.args[0])
            if node.func == "round":
                digits = node.args[1].value if len(node.args) == 2 else 0  # type: ignore[attr-defined]
                if self.pg:  # PostgreSQL rounds to n digits only for numeric
                    return cast(func.round(cast(arg, Numeric), literal(digits, Integer)), Float)
                return cast(func.round(arg, literal(digits, Integer)), Float)
            return self.date_part(node.func, arg)
        raise ExpressionError(f"unsupported expression node {type(node).__name__}")  # pragma: no cover

    def operand(self, node: Expr) -> ColumnElement[Any]:
        """An operand of arithmetic. PostgreSQL integers are 32-bit and raise on overflow;
        widen them to 64 bits, as SQLite's integers already are."""
        element = self.build(node)
        if self.pg and self.typer.type(node) == "int" and not isinstance(node, Num):
            return cast(element, BigInteger)
        return element

    def date_part(self, part: str, arg: ColumnElement[Any]) -> ColumnElement[Any]:
        if self.pg:
            if part == "weekday":
                return cast(extract("isodow", arg), Integer) - 1
            return cast(extract(part, arg), Integer)
        fmt = {"year": "%Y", "month": "%m", "day": "%d", "weekday": "%w", "hour": "%H"}[part]
        value = cast(func.strftime(fmt, arg), Integer)
        if part == "weekday":  # SQLite: 0 = Sunday; make 0 = Monday
            return (value + 6) % 7
        return value
