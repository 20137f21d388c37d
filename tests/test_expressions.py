"""The safe target-expression grammar: parsing, limits, hostile text, typing, and compiled
SQL evaluated on SQLite and PostgreSQL against values computed here in Python."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import datetime

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from sqlalchemy import Column, DateTime, Float, Integer, MetaData, Table, Text, create_engine, select

from adamm.stores.expressions import (
    MAX_CHARS,
    BinOp,
    Call,
    Col,
    Expr,
    ExpressionError,
    Neg,
    Num,
    columns_of,
    compile_expression,
    expression_type,
    parse_expression,
)

# -- parsing ---------------------------------------------------------------------------------------


def test_precedence_associativity_and_unary_minus() -> None:
    assert parse_expression("a + b * c") == BinOp("+", Col("a"), BinOp("*", Col("b"), Col("c")))
    assert parse_expression("(a + b) * c") == BinOp("*", BinOp("+", Col("a"), Col("b")), Col("c"))
    assert parse_expression("a - b - c") == BinOp("-", BinOp("-", Col("a"), Col("b")), Col("c"))
    assert parse_expression("a / b / 2") == BinOp("/", BinOp("/", Col("a"), Col("b")), Num(2))
    assert parse_expression("-a * 2") == BinOp("*", Neg(Col("a")), Num(2))
    assert parse_expression("-(a + 1)") == Neg(BinOp("+", Col("a"), Num(1)))
    assert parse_expression("3 - -2.5") == BinOp("-", Num(3), Num(-2.5))
    assert parse_expression("deep_sleep / total_sleep * 100") == BinOp(
        "*", BinOp("/", Col("deep_sleep"), Col("total_sleep")), Num(100))


def test_functions_and_canonical_text() -> None:
    assert parse_expression("round(x, 1)") == Call("round", (Col("x"), Num(1)))
    assert parse_expression("ROUND( x )") == Call("round", (Col("x"),))
    assert parse_expression("abs(a - b)") == Call("abs", (BinOp("-", Col("a"), Col("b")),))
    assert parse_expression("month(date)") == Call("month", (Col("date"),))
    # a column may be named like a function: it is a function only when "(" follows
    assert parse_expression("day + 1") == BinOp("+", Col("day"), Num(1))
    e = parse_expression("round((deep_sleep)/total_sleep*100 ,1)")
    assert str(e) == "round(deep_sleep / total_sleep * 100, 1)"
    assert str(parse_expression("a - (b - c)")) == "a - (b - c)"
    assert str(parse_expression("(a - b) - c")) == "a - b - c"
    assert str(parse_expression("0.00001 * a")) == "0.00001 * a"


def test_columns_of() -> None:
    assert columns_of(parse_expression("round(deep / total * 100, 1) + year(date) - 3")) == {"deep", "total", "date"}
    assert columns_of(parse_expression("1 + 2")) == set()


@pytest.mark.parametrize(
    ("text", "token"),
    [
        ("a; DROP TABLE adamm_rounds", "';'"),
        ("x'; --", "\"'\""),
        ('"total"', "'\"'"),
        ("a -- b", "'--'"),
        ("a--b", "'--'"),
        ("__import__('os')", "'__import__'"),
        ("_x + 1", "'_x'"),
        ("eval(a)", "'eval'"),
        ("sqrt(a)", "'sqrt'"),
        ("a.b", "'.'"),
        ("a ** 2", "'**'"),
        ("a % 2", "'%'"),
        ("a // 2", "'//'"),
        ("a \u2212 b", "'\u2212'"),  # unicode minus
        ("\u0430bs(x)", "'\u0430'"),  # Cyrillic a
        ("ａ + 1", "'ａ'"),  # full-width a
        ("a = 1", "'='"),
        ("a b", "'b'"),
        ("a +", "end of expression"),
        ("(a", "end of expression"),
        ("a)", "')'"),
        ("abs()", "')'"),
        ("1e5", "'1e5'"),
        ("12abc", "'12abc'"),
        ("a, b", "','"),
    ],
)
def test_rejected_text_names_token_and_position(text: str, token: str) -> None:
    with pytest.raises(ExpressionError) as err:
        parse_expression(text)
    msg = str(err.value)
    assert token in msg and "position" in msg


@pytest.mark.parametrize(
    "text",
    ["", "   ", "round(a, b)", "round(a, 1.5)", "round(a, 11)", "round(a, -1)", "abs(a, b)", "year(a, b)",
     "round(a, 1, 2)", "1" * 17, "x" * (MAX_CHARS + 1)],
)
def test_rejected_shapes(text: str) -> None:
    with pytest.raises(ExpressionError):
        parse_expression(text)


def test_limits() -> None:
    parse_expression("(" * 8 + "a" + ")" * 8)
    with pytest.raises(ExpressionError, match="nested too deeply"):
        parse_expression("(" * 9 + "a" + ")" * 9)
    with pytest.raises(ExpressionError, match="nested too deeply"):
        parse_expression("abs(" * 9 + "a" + ")" * 9)
    parse_expression(" + ".join(["a"] * 15))  # 29 tokens
    with pytest.raises(ExpressionError, match="tokens"):
        parse_expression(" + ".join(["a"] * 16))  # 31 tokens
    with pytest.raises(ExpressionError, match="characters"):
        parse_expression("a" * 201)
    with pytest.raises(ExpressionError):
        parse_expression(123)  # type: ignore[arg-type]


@settings(max_examples=400, deadline=None)
@given(st.text(alphabet="ab1.2()+-*/ ,_;'\"x$round abs month\u2212\u0430\t", max_size=40))
def test_any_text_parses_or_raises_expression_error(text: str) -> None:
    try:
        expr = parse_expression(text)
    except ExpressionError:
        return
    assert isinstance(expr, Expr)
    assert parse_expression(str(expr)) == expr  # the canonical text reads back as the same tree


# -- typing ------------------------------------------------------------------------------------------

TYPES = {"total": "float", "deep": "float", "steps": "int", "mood": "text", "nap": "bool", "bed": "datetime"}


def test_types() -> None:
    assert expression_type(parse_expression("steps + 1"), TYPES) == "int"
    assert expression_type(parse_expression("steps / 2"), TYPES) == "float"
    assert expression_type(parse_expression("steps * total"), TYPES) == "float"
    assert expression_type(parse_expression("month(bed)"), TYPES) == "int"
    assert expression_type(parse_expression("round(steps)"), TYPES) == "float"
    assert expression_type(parse_expression("abs(steps)"), TYPES) == "int"
    assert expression_type(parse_expression("mood"), TYPES) == "text"  # a bare column of any type


@pytest.mark.parametrize(
    ("text", "column"),
    [("bed + 1", "bed"), ("mood * 2", "mood"), ("-nap", "nap"), ("abs(mood)", "mood"), ("year(total)", "total"),
     ("round(bed, 1)", "bed"), ("total / bed", "bed"), ("month(steps + 1)", "steps + 1")],
)
def test_type_errors_name_the_column(text: str, column: str) -> None:
    with pytest.raises(ExpressionError) as err:
        expression_type(parse_expression(text), TYPES)
    assert repr(column) in str(err.value)


def test_unknown_column_and_custom_resolver() -> None:
    with pytest.raises(ExpressionError, match="unknown column 'nope'.*total, deep"):
        expression_type(parse_expression("nope + 1"), TYPES)

    class Refused(ValueError):
        pass

    def resolve(name: str) -> str:
        if name.lower() == "total_sleep":
            return "total"
        raise Refused(name)

    assert expression_type(parse_expression("TOTAL_SLEEP * 2"), TYPES, resolve) == "float"
    with pytest.raises(Refused):
        expression_type(parse_expression("deep * 2"), TYPES, resolve)


# -- compiled SQL on both databases ---------------------------------------------------------------------

ROWS = [
    {"id": 1, "total": 7.5, "deep": 1.5, "steps": 3, "other": 2, "bed": datetime(2025, 3, 3, 23, 15), "mood": "ok"},  # Monday
    {"id": 2, "total": 0.0, "deep": 0.0, "steps": 4, "other": 0, "bed": datetime(2025, 3, 9, 1, 5), "mood": "x"},  # Sunday
    {"id": 3, "total": 6.25, "deep": None, "steps": -7, "other": 3, "bed": datetime(2024, 12, 31, 22, 0), "mood": "y"},  # Tuesday
    {"id": 4, "total": 8.125, "deep": 2.0, "steps": 10, "other": 4, "bed": datetime(2025, 6, 7, 0, 30), "mood": "z"},  # Saturday
]
CTYPES = {"total": "float", "deep": "float", "steps": "int", "other": "int", "bed": "datetime", "mood": "text"}


@pytest.fixture
def db(db_url: str) -> Iterator[tuple[object, Table]]:
    engine = create_engine(db_url)
    meta = MetaData()
    table = Table("t", meta, Column("id", Integer, primary_key=True), Column("total", Float), Column("deep", Float),
                  Column("steps", Integer), Column("other", Integer), Column("bed", DateTime), Column("mood", Text))
    meta.create_all(engine)
    with engine.begin() as conn:
        conn.execute(table.insert(), ROWS)
    yield engine, table
    engine.dispose()


def evaluate(db: tuple[object, Table], text: str) -> dict[int, object]:
    engine, table = db
    element = compile_expression(parse_expression(text), table, CTYPES, engine.dialect.name)  # type: ignore[attr-defined]
    with engine.connect() as conn:  # type: ignore[attr-defined]
        return {row.id: row.v for row in conn.execute(select(table.c.id, element.label("v")).order_by(table.c.id))}


def approx(values: dict[int, object]) -> dict[int, object]:
    return {k: (pytest.approx(float(v)) if v is not None else None) for k, v in values.items()}


def test_arithmetic_and_division_by_zero(db: tuple[object, Table]) -> None:
    got = evaluate(db, "deep / total * 100")
    want = {r["id"]: (r["deep"] / r["total"] * 100 if r["deep"] is not None and r["total"] else None) for r in ROWS}
    assert got == approx(want)
    assert got[2] is None and got[3] is None  # 0/0 and NULL are NULL, not an error
    # integer division is true division
    assert evaluate(db, "steps / other") == approx({1: 1.5, 2: None, 3: -7 / 3, 4: 2.5})
    assert evaluate(db, "steps - other * 2 + 1") == {1: 0, 2: 5, 3: -12, 4: 3}
    assert evaluate(db, "-(steps + 1)") == {1: -4, 2: -5, 3: 6, 4: -11}
    assert evaluate(db, "abs(steps) + 0.5") == approx({1: 3.5, 2: 4.5, 3: 7.5, 4: 10.5})


def test_round(db: tuple[object, Table]) -> None:
    got = evaluate(db, "round(deep / total * 100, 1)")
    want = {r["id"]: (round(r["deep"] / r["total"] * 100, 1) if r["deep"] is not None and r["total"] else None) for r in ROWS}
    assert got == approx(want)
    assert evaluate(db, "round(total)") == approx({1: 8.0, 2: 0.0, 3: 6.0, 4: 8.0})  # half away from zero
    assert evaluate(db, "round(total, 2)") == approx({1: 7.5, 2: 0.0, 3: 6.25, 4: 8.13})


def test_date_parts(db: tuple[object, Table]) -> None:
    for part, fn in [("year", lambda d: d.year), ("month", lambda d: d.month), ("day", lambda d: d.day),
                     ("hour", lambda d: d.hour), ("weekday", lambda d: d.weekday())]:
        got = evaluate(db, f"{part}(bed)")
        assert got == {r["id"]: fn(r["bed"]) for r in ROWS}, part
    assert evaluate(db, "weekday(bed)") == {1: 0, 2: 6, 3: 1, 4: 5}  # 0 = Monday everywhere
    assert evaluate(db, "month(bed) * 100 + day(bed)") == {1: 303, 2: 309, 3: 1231, 4: 607}


def test_compile_rejects_type_errors(db: tuple[object, Table]) -> None:
    engine, table = db
    with pytest.raises(ExpressionError, match="'bed'"):
        compile_expression(parse_expression("bed * 2"), table, CTYPES, engine.dialect.name)  # type: ignore[attr-defined]
    with pytest.raises(ExpressionError, match="'mood'"):
        compile_expression(parse_expression("mood + 1"), table, CTYPES, engine.dialect.name)  # type: ignore[attr-defined]


def test_numbers_are_bound_parameters(db: tuple[object, Table]) -> None:
    engine, table = db
    element = compile_expression(parse_expression("total * 100 + 7"), table, CTYPES, engine.dialect.name)  # type: ignore[attr-defined]
    compiled = element.compile(dialect=engine.dialect)  # type: ignore[attr-defined]
    assert "100" not in str(compiled) and sorted(compiled.params.values()) == [7, 100]


def test_integer_arithmetic_is_64_bit(db: tuple[object, Table]) -> None:
    engine, table = db
    with engine.begin() as conn:  # type: ignore[attr-defined]
        conn.execute(table.update().where(table.c.id == 4).values(steps=150_000))
    assert evaluate(db, "steps * steps * 10")[4] == 225_000_000_000
    assert evaluate(db, "abs(-steps * steps)")[4] == 22_500_000_000
