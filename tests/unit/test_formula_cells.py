"""Spreadsheet formulas in csv/tsv exports (leadctl.util.formula_cells, cli.md "Output rules").

A cell a spreadsheet would run (``= + - @``, tab or CR first) gets a leading ``'`` unless
``--allow-formulas``; ``leads import`` removes exactly that ``'``, so an export imports back
unchanged whatever the text.
"""

from __future__ import annotations

import csv
import io

import pytest
from hypothesis import given
from hypothesis import strategies as st

from leadctl.context import Context
from leadctl.global_options import GlobalOptions
from leadctl.iostreams import IOStreams
from leadctl.output import Column, emit_list
from leadctl.util.formula_cells import FORMULA_FIRST, guarded, unguarded

RISKY = ["=SUM(1+1)", "+cmd|' /C calc'!A0", "-2+3", "@SUM(A1)", "\t=1", "\r=1"]


@pytest.mark.parametrize("cell", RISKY)
def test_a_formula_cell_gets_a_leading_quote(cell: str) -> None:
    assert guarded(cell) == "'" + cell


@pytest.mark.parametrize("cell", ["+15125550123", "-12.5", "42", "Ada", "", "'quoted", "a=b"])
def test_numbers_and_plain_text_are_left_alone(cell: str) -> None:
    assert guarded(cell) == cell


def test_a_cell_that_already_looks_guarded_gets_one_more_quote() -> None:
    assert guarded("'=x") == "''=x"
    assert guarded("'+15125550123") == "''+15125550123"
    assert unguarded("''=x") == "'=x"


@given(st.text(alphabet=st.sampled_from([*FORMULA_FIRST, "'", "a", "1", ".", " "])))
def test_import_undoes_exactly_what_export_did(cell: str) -> None:
    assert unguarded(guarded(cell)) == cell


@given(st.text())
def test_a_guarded_cell_never_begins_a_formula_unless_it_is_a_plain_number(cell: str) -> None:
    out = guarded(cell)
    if out[:1] in FORMULA_FIRST:
        float(out)  # +15125550123 and -12.5 only


def make_ctx(fmt: str, *, allow_formulas: bool = False) -> Context:
    return Context(
        ios=IOStreams.for_test(env={}),
        options=GlobalOptions(output=fmt, allow_formulas=allow_formulas),
        env={},
    )


ITEMS = [{"name": name, "phone": "+15125550123"} for name in RISKY]
COLUMNS = [Column("name"), Column("phone")]


def test_csv_guards_formula_cells_by_default_and_keeps_them_with_allow_formulas() -> None:
    guarded_ctx, raw_ctx = make_ctx("csv"), make_ctx("csv", allow_formulas=True)

    emit_list(guarded_ctx, iter(ITEMS), columns=COLUMNS)
    emit_list(raw_ctx, iter(ITEMS), columns=COLUMNS)

    read = list(csv.reader(io.StringIO(guarded_ctx.ios.stdout.getvalue())))  # type: ignore[attr-defined]
    assert read[1:] == [["'" + name, "+15125550123"] for name in RISKY]
    raw = list(csv.reader(io.StringIO(raw_ctx.ios.stdout.getvalue())))  # type: ignore[attr-defined]
    assert raw[1:] == [[name, "+15125550123"] for name in RISKY]


def test_tsv_guards_too_but_value_is_for_scripts() -> None:
    tsv, value = make_ctx("tsv"), make_ctx("value")
    items = [{"name": '=HYPERLINK("http://x")'}]

    emit_list(tsv, iter(items), columns=[Column("name")])
    emit_list(value, iter(items), columns=[Column("name")])

    assert tsv.ios.stdout.getvalue() == 'name\n\'=HYPERLINK("http://x")\n'  # type: ignore[attr-defined]
    assert value.ios.stdout.getvalue() == '=HYPERLINK("http://x")\n'  # type: ignore[attr-defined]


@pytest.mark.parametrize("allow_formulas", [False, True])
def test_a_cell_holding_a_bare_cr_is_quoted_so_it_opens_no_row(allow_formulas: bool) -> None:
    ctx = make_ctx("csv", allow_formulas=allow_formulas)
    items = [{"id": "l1", "name": "=SUM(1+1)\rINJECTED", "note": 'say "hi"'}]

    emit_list(ctx, iter(items), columns=[Column("id"), Column("name"), Column("note")])

    out = ctx.ios.stdout.getvalue()  # type: ignore[attr-defined]
    name = items[0]["name"] if allow_formulas else "'" + items[0]["name"]
    assert out == f'id,name,note\nl1,"{name}","say ""hi"""\n'
    assert list(csv.reader(io.StringIO(out, newline=""))) == [
        ["id", "name", "note"],
        ["l1", name, 'say "hi"'],
    ]
