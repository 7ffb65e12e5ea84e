"""emit_list / emit_object under ``-o table``: color, width, footer, pager."""

from __future__ import annotations

import os
import select
import shlex
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from leadctl.output import Column, emit_list, emit_object
from tests.unit.test_output import COLUMNS, LEADS, SECRET, make_ctx, stderr_of, stdout_of

TAGS = [
    {"id": "t1", "name": "hot", "color": "#22aa88", "count": 12},
    {"id": "t2", "name": "cold", "color": "navy", "count": 3},
]
TAG_COLUMNS = [
    Column("name", "NAME"),
    Column("color", "COLOR", "color"),
    Column("count", "N", "number"),
]


def test_piped_table_is_plain_text_with_readable_values() -> None:
    ctx = make_ctx("table")

    count = emit_list(ctx, iter(LEADS), columns=COLUMNS)

    out = stdout_of(ctx)
    assert "\x1b[" not in out
    lines = out.splitlines()
    assert lines[0].split() == ["ID", "NAME", "OWNER", "ENABLED", "CREATED", "KEY"]
    assert lines[1].startswith("lead_1")
    assert "2026-11-21 14:03 UTC" in lines[1]
    assert "2026-01-02 01:04 UTC" in lines[2]
    assert " yes " in lines[1]
    assert " no " in lines[2]
    assert all(line == line.rstrip() for line in lines)
    assert count == 2
    assert stderr_of(ctx) == ""


def test_table_keeps_each_row_on_one_line() -> None:
    ctx = make_ctx("table")

    emit_list(ctx, iter(LEADS), columns=COLUMNS)

    assert len(stdout_of(ctx).splitlines()) == 3
    assert 'Smith, "Jr" second line' in stdout_of(ctx)


def test_table_on_a_color_terminal_is_colored() -> None:
    ctx = make_ctx("table", tty=True)

    emit_list(ctx, iter(LEADS), columns=COLUMNS)

    assert "\x1b[" in stdout_of(ctx)


@pytest.mark.parametrize("env", [{"NO_COLOR": "1"}, {"TERM": "dumb"}])
def test_table_on_a_terminal_without_color_has_no_escape_codes(env: dict[str, str]) -> None:
    ctx = make_ctx("table", tty=True, env=env)

    emit_list(ctx, iter(TAGS), columns=TAG_COLUMNS)
    emit_object(ctx, TAGS[0], columns=TAG_COLUMNS)

    out = stdout_of(ctx)
    assert "\x1b[" not in out
    assert "#22aa88" in out


def test_no_color_flag_turns_color_off_on_a_terminal() -> None:
    ctx = make_ctx("table", tty=True)
    ctx.ios.no_color = True

    emit_list(ctx, iter(LEADS), columns=COLUMNS)

    assert "\x1b[" not in stdout_of(ctx)


def test_color_column_shows_a_swatch_only_with_color() -> None:
    colored = make_ctx("table", tty=True)
    plain = make_ctx("table")

    emit_list(colored, iter(TAGS), columns=TAG_COLUMNS)
    emit_list(plain, iter(TAGS), columns=TAG_COLUMNS)

    assert "■" in stdout_of(colored)
    assert "#22aa88" in stdout_of(colored)
    assert "■" not in stdout_of(plain)
    assert "#22aa88" in stdout_of(plain)


def test_number_columns_are_right_aligned() -> None:
    ctx = make_ctx("table")

    emit_list(ctx, iter(TAGS), columns=TAG_COLUMNS)

    lines = stdout_of(ctx).splitlines()
    assert [line[-2:] for line in lines] == [" N", "12", " 3"]


def test_control_characters_in_data_never_reach_the_terminal() -> None:
    hostile = [{"id": "x", "name": "evil\x1b]0;owned\x07\x1b[2Jname"}]
    for tty in (False, True):
        ctx = make_ctx("table", tty=tty)

        emit_list(ctx, iter(hostile), columns=[Column("id"), Column("name")])
        emit_object(ctx, hostile[0], columns=[Column("name")])

        out = stdout_of(ctx)
        assert "\x1b]" not in out
        assert "\x1b[2J" not in out
        assert "\x07" not in out
        assert "\\x1b]0;owned" in out


def test_terminal_width_is_respected() -> None:
    long_name = {"id": "lead_1", "name": "N" * 300, "email": "e" * 200}
    ctx = make_ctx("table", tty=True, env={"COLUMNS": "60", "NO_COLOR": "1"})

    emit_list(ctx, iter([long_name]), columns=[Column("id"), Column("name"), Column("email")])

    lines = stdout_of(ctx).splitlines()
    assert len(lines) == 2
    assert max(len(line) for line in lines) <= 60
    assert "…" in lines[1]


def test_piped_table_is_not_cut_to_a_terminal_width() -> None:
    ctx = make_ctx("table", env={"COLUMNS": "60"})

    emit_list(
        ctx, iter([{"id": "lead_1", "name": "N" * 300}]), columns=[Column("id"), Column("name")]
    )

    assert "N" * 300 in stdout_of(ctx)


@pytest.mark.parametrize("tty", [False, True], ids=["piped", "tty"])
def test_empty_table_says_so_on_stderr_only(tty: bool) -> None:
    ctx = make_ctx("table", tty=tty)

    assert emit_list(ctx, iter([]), columns=COLUMNS) == 0

    assert stdout_of(ctx) == ""
    assert stderr_of(ctx) == "no results\n"


def test_quiet_silences_the_no_results_message() -> None:
    ctx = make_ctx("table", tty=True)
    ctx.ios.quiet = True

    emit_list(ctx, iter([]), columns=COLUMNS, footer="more results: --cursor abc")

    assert stderr_of(ctx) == ""


def test_footer_goes_to_stderr_under_a_table_on_a_terminal() -> None:
    ctx = make_ctx("table", tty=True)

    emit_list(ctx, iter(LEADS), columns=COLUMNS, footer="more results: --cursor abc")

    assert stderr_of(ctx) == "more results: --cursor abc\n"
    assert "--cursor" not in stdout_of(ctx)


@pytest.mark.parametrize(
    ("fmt", "tty"), [("table", False), ("json", True), ("csv", True), ("value", True)]
)
def test_no_footer_for_scripts(fmt: str, tty: bool) -> None:
    ctx = make_ctx(fmt, tty=tty)

    emit_list(ctx, iter(LEADS), columns=COLUMNS, footer="more results: --cursor abc")

    assert "--cursor" not in stderr_of(ctx) + stdout_of(ctx)


def test_footer_is_read_after_the_last_item() -> None:
    state: dict[str, str | None] = {"next_cursor": None}

    def pages() -> Iterator[dict[str, Any]]:
        yield from LEADS
        state["next_cursor"] = "tok_2"

    def footer() -> str | None:
        return f"more results: --cursor {state['next_cursor']}" if state["next_cursor"] else None

    ctx = make_ctx("table", tty=True)

    emit_list(ctx, pages(), columns=COLUMNS, footer=footer)

    assert stderr_of(ctx) == "more results: --cursor tok_2\n"


def test_an_empty_footer_prints_nothing() -> None:
    ctx = make_ctx("table", tty=True)

    emit_list(ctx, iter(LEADS), columns=COLUMNS, footer=lambda: None)

    assert stderr_of(ctx) == ""


# -- one object ------------------------------------------------------------------------


def test_object_table_is_a_field_value_view() -> None:
    ctx = make_ctx("table")

    emit_object(ctx, LEADS[0], columns=COLUMNS)

    rows = [line.split(None, 1) for line in stdout_of(ctx).splitlines()]
    assert rows == [
        ["ID", "lead_1"],
        ["NAME", "José Müller"],
        ["OWNER", "Ana"],
        ["ENABLED", "yes"],
        ["CREATED", "2026-11-21 14:03 UTC"],
        ["KEY", "sk_…4f2a"],
    ]
    assert SECRET not in stdout_of(ctx)


def test_object_table_shows_multi_line_values_in_full() -> None:
    ctx = make_ctx("table", columns=["id", "name"])

    emit_object(ctx, LEADS[1], columns=COLUMNS)

    assert stdout_of(ctx).splitlines() == ["ID    lead_2", 'NAME  Smith, "Jr"', "      second line"]


def test_object_table_on_a_color_terminal_is_colored() -> None:
    ctx = make_ctx("table", tty=True)

    emit_object(ctx, LEADS[0], columns=COLUMNS)

    assert "\x1b[" in stdout_of(ctx)


# -- pager -----------------------------------------------------------------------------


def capture_pager(target: Path) -> str:
    script = "import sys; open(sys.argv[1], 'w', encoding='utf-8').write(sys.stdin.read())"
    return shlex.join([sys.executable, "-c", script, str(target)])


def many_rows(count: int) -> list[dict[str, Any]]:
    return [{"id": f"lead_{n}", "name": f"Name {n}"} for n in range(count)]


def test_a_table_taller_than_the_terminal_goes_through_the_pager(tmp_path: Path) -> None:
    paged = tmp_path / "paged.txt"
    ctx = make_ctx("table", tty=True, env={"LINES": "10"})
    ctx.ios.pager_override = capture_pager(paged)

    emit_list(ctx, iter(many_rows(30)), columns=[Column("id"), Column("name")])

    assert stdout_of(ctx) == ""
    text = paged.read_text(encoding="utf-8")
    assert "lead_0" in text
    assert "lead_29" in text


def test_a_table_that_fits_is_not_paged(tmp_path: Path) -> None:
    paged = tmp_path / "paged.txt"
    ctx = make_ctx("table", tty=True, env={"LINES": "40"})
    ctx.ios.pager_override = capture_pager(paged)

    emit_list(ctx, iter(many_rows(5)), columns=[Column("id"), Column("name")])

    assert not paged.exists()
    assert "lead_4" in stdout_of(ctx)


@pytest.mark.parametrize("fmt", ["table", "json", "csv"])
def test_piped_output_never_uses_the_pager(tmp_path: Path, fmt: str) -> None:
    paged = tmp_path / "paged.txt"
    ctx = make_ctx(fmt, tty=False, env={"LINES": "10"})
    ctx.ios.pager_override = capture_pager(paged)

    emit_list(ctx, iter(many_rows(30)), columns=[Column("id"), Column("name")])

    assert not paged.exists()
    assert "lead_29" in stdout_of(ctx)


def test_json_on_a_terminal_is_not_paged(tmp_path: Path) -> None:
    paged = tmp_path / "paged.txt"
    ctx = make_ctx("json", tty=True, env={"LINES": "10"})
    ctx.ios.pager_override = capture_pager(paged)

    emit_list(ctx, iter(many_rows(30)), columns=[Column("id")])

    assert not paged.exists()
    assert "lead_29" in stdout_of(ctx)


def test_an_unknown_color_is_shown_without_a_swatch() -> None:
    ctx = make_ctx("table", tty=True)

    emit_list(ctx, iter([{"color": "not-a-color"}]), columns=[Column("color", kind="color")])

    assert "■" not in stdout_of(ctx)
    assert "not-a-color" in stdout_of(ctx)


@pytest.mark.skipif(not hasattr(os, "openpty"), reason="needs a pseudo-terminal")
def test_a_terminal_that_reports_no_size_still_gets_the_table() -> None:
    controller, terminal = os.openpty()  # a fresh pty reports 0 columns and 0 rows
    try:
        with open(terminal, "w", encoding="utf-8", closefd=False) as stream:
            ctx = make_ctx("table", tty=True, env={"NO_COLOR": "1"})
            ctx.ios.env = {"NO_COLOR": "1"}
            ctx.ios.stdout = stream

            emit_list(ctx, iter(TAGS), columns=TAG_COLUMNS)

        # A read with nothing written would block forever; an empty result fails instead.
        ready, _, _ = select.select([controller], [], [], 5)
        written = os.read(controller, 65536).decode("utf-8") if ready else ""
    finally:
        os.close(controller)
        os.close(terminal)

    assert "hot" in written
    assert "cold" in written


# -- fitting the terminal: ids whole, requested columns kept ----------------------------

WIDE_LEADS = [
    {
        "id": f"28249c04-240c-4db0-9b47-35e18d0000{n:02d}",
        "firstName": "Ada",
        "lastName": "Lovelace-Byron",
        "phone": f"+1512555{n:04d}",
        "state": "TX",
        "status": {"name": "Contacted"},
        "note": "called twice, asked to call back next week about the roof estimate",
        "createdAt": "2026-11-21T14:03:12Z",
    }
    for n in range(3)
]
WIDE_COLUMNS = [
    Column("id"),
    Column("note"),
    Column("phone"),
    Column("state"),
    Column("status.name", header="status"),
    Column("lastName"),
    Column("createdAt", kind="datetime"),
]


@pytest.mark.parametrize("width", ["80", "120"])
def test_a_terminal_table_never_cuts_ids_phones_or_codes(width: str) -> None:
    ctx = make_ctx("table", tty=True, env={"COLUMNS": width, "NO_COLOR": "1"})

    emit_list(ctx, iter(WIDE_LEADS), columns=WIDE_COLUMNS)

    lines = stdout_of(ctx).splitlines()
    assert all(len(line) <= int(width) for line in lines)
    for lead, line in zip(WIDE_LEADS, lines[1:], strict=True):
        assert lead["id"] in line and lead["phone"] in line and "TX" in line.split()
    # The free text gave way, shortened with an ellipsis, instead.
    assert "…" in lines[1] and WIDE_LEADS[0]["note"] not in stdout_of(ctx)


def test_default_columns_that_do_not_fit_are_named_on_stderr() -> None:
    ctx = make_ctx("table", tty=True, env={"COLUMNS": "80", "NO_COLOR": "1"})

    emit_list(ctx, iter(WIDE_LEADS), columns=WIDE_COLUMNS)

    header = stdout_of(ctx).splitlines()[0].split()
    assert header[:4] == ["id", "note", "phone", "state"]
    assert "createdAt" not in header
    note = stderr_of(ctx).strip()
    assert note.startswith("not shown at 80 columns: ")
    assert "createdAt" in note and all(name not in note for name in header)


def test_requested_columns_are_never_left_out() -> None:
    wanted = ["id", "firstName", "lastName", "phone", "state", "status.name"]
    ctx = make_ctx("table", tty=True, env={"COLUMNS": "120", "NO_COLOR": "1"}, columns=wanted)

    emit_list(ctx, iter(WIDE_LEADS), columns=WIDE_COLUMNS)

    lines = stdout_of(ctx).splitlines()
    assert lines[0].split() == ["id", "firstName", "lastName", "phone", "state", "status"]
    assert lines[1].split() == [
        WIDE_LEADS[0]["id"], "Ada", "Lovelace-Byron", WIDE_LEADS[0]["phone"], "TX", "Contacted"
    ]  # fmt: skip
    assert stderr_of(ctx) == ""


def test_requested_columns_wider_than_the_terminal_become_records() -> None:
    wanted = ["id", "phone", "lastName", "createdAt", "status.name"]
    ctx = make_ctx("table", tty=True, env={"COLUMNS": "60", "NO_COLOR": "1"}, columns=wanted)

    emit_list(ctx, iter(WIDE_LEADS), columns=WIDE_COLUMNS)

    out = stdout_of(ctx)
    blocks = out.strip().split("\n\n")
    assert len(blocks) == 3
    for lead, block in zip(WIDE_LEADS, blocks, strict=True):
        fields = [line.split(None, 1) for line in block.splitlines()]
        assert [name for name, _ in fields] == ["id", "phone", "lastName", "createdAt", "status"]
        assert fields[0][1] == lead["id"] and fields[1][1] == lead["phone"]


def test_short_labels_with_spaces_stay_whole_and_long_text_gives_way() -> None:
    items = [{**lead, "status": {"name": "Appointment set by phone"}} for lead in WIDE_LEADS]
    wanted = ["id", "status.name", "note"]
    ctx = make_ctx("table", tty=True, env={"COLUMNS": "80", "NO_COLOR": "1"}, columns=wanted)

    emit_list(ctx, iter(items), columns=WIDE_COLUMNS)

    rows = stdout_of(ctx).splitlines()[1:]
    assert all("Appointment set by phone" in row for row in rows)
    assert all(row.endswith("…") for row in rows)  # the note was shortened instead
