"""emit_list / emit_object in the machine formats: json, ndjson, csv, tsv, value."""

from __future__ import annotations

import csv
import io
import json
import subprocess
import sys
import tracemalloc
from collections.abc import Iterable, Iterator, Mapping
from pathlib import Path
from typing import Any

import pytest

from leadctl.context import Context
from leadctl.errors import UsageError
from leadctl.global_options import GlobalOptions
from leadctl.iostreams import IOStreams
from leadctl.output import Column, emit_list, emit_object

SECRET = "sk_live_9f8e7d6c5b4a39281706f4f2a"

LEADS: list[dict[str, Any]] = [
    {
        "id": "lead_1",
        "zeta": "first key on purpose",
        "name": "José Müller",
        "user": {"id": "u1", "name": "Ana"},
        "defaultTags": [{"name": "hot", "color": "#22aa88"}, {"name": "web"}],
        "enabled": True,
        "score": 12,
        "createdAt": "2026-11-21T14:03:12Z",
        "apiKey": SECRET,
        "fieldFromTheFuture": {"nested": [1, 2, {"deep": None}]},
    },
    {
        "id": "lead_2",
        "name": 'Smith, "Jr"\nsecond line',
        "user": None,
        "defaultTags": [],
        "enabled": False,
        "score": 3.5,
        "createdAt": "2026-01-02T03:04:05+02:00",
        "apiKey": None,
    },
]

COLUMNS = [
    Column("id", "ID"),
    Column("name", "NAME"),
    Column("user.name", "OWNER"),
    Column("enabled", "ENABLED", "bool"),
    Column("createdAt", "CREATED", "datetime"),
    Column("apiKey", "KEY", "secret"),
]


def make_ctx(
    output: str | None,
    *,
    tty: bool = False,
    columns: list[str] | None = None,
    env: Mapping[str, str] | None = None,
) -> Context:
    merged = {"COLUMNS": "120", "LINES": "40", "TZ": "UTC", **(env or {})}
    return Context(
        ios=IOStreams.for_test(tty=tty, env=merged),
        options=GlobalOptions(output=output, columns=columns),
        env=merged,
    )


def stdout_of(ctx: Context) -> str:
    stream = ctx.ios.stdout
    assert isinstance(stream, io.StringIO)
    return stream.getvalue()


def stderr_of(ctx: Context) -> str:
    stream = ctx.ios.stderr
    assert isinstance(stream, io.StringIO)
    return stream.getvalue()


# -- json ------------------------------------------------------------------------------


def test_json_list_piped_is_one_compact_item_per_line_inside_an_array() -> None:
    ctx = make_ctx("json")

    count = emit_list(ctx, iter(LEADS), columns=COLUMNS)

    expected = (
        "[\n"
        + ",\n".join(json.dumps(item, ensure_ascii=False, separators=(",", ":")) for item in LEADS)
        + "\n]\n"
    )
    assert stdout_of(ctx) == expected
    assert count == 2


def test_json_keeps_the_services_fields_order_and_non_ascii_text() -> None:
    ctx = make_ctx("json")

    emit_list(ctx, iter(LEADS), columns=COLUMNS)

    out = stdout_of(ctx)
    parsed = json.loads(out)
    assert parsed == LEADS
    assert [list(item) for item in parsed] == [list(item) for item in LEADS]
    assert "José Müller" in out
    assert SECRET in out  # json is the service's JSON unchanged; only rendered formats mask


@pytest.mark.parametrize("tty", [False, True], ids=["piped", "tty"])
@pytest.mark.parametrize("size", [0, 1, 2, 7])
def test_json_list_parses_back_for_any_length(tty: bool, size: int) -> None:
    items = [{**LEADS[n % 2], "id": f"lead_{n}"} for n in range(size)]
    ctx = make_ctx("json", tty=tty)

    count = emit_list(ctx, (item for item in items), columns=COLUMNS)

    assert json.loads(stdout_of(ctx)) == items
    assert count == size


def test_json_list_on_a_terminal_is_indented_like_a_whole_document() -> None:
    ctx = make_ctx("json", tty=True)

    emit_list(ctx, iter(LEADS), columns=COLUMNS)

    assert stdout_of(ctx) == json.dumps(LEADS, indent=2, ensure_ascii=False) + "\n"


@pytest.mark.parametrize("tty", [False, True], ids=["piped", "tty"])
def test_json_empty_list_is_an_empty_array(tty: bool) -> None:
    ctx = make_ctx("json", tty=tty)

    assert emit_list(ctx, iter([]), columns=COLUMNS) == 0

    assert stdout_of(ctx) == "[]\n"
    assert stderr_of(ctx) == ""


def test_json_object_piped_is_compact_and_on_a_terminal_indented() -> None:
    piped = make_ctx("json")
    tty = make_ctx("json", tty=True)

    emit_object(piped, LEADS[0], columns=COLUMNS)
    emit_object(tty, LEADS[0], columns=COLUMNS)

    assert (
        stdout_of(piped) == json.dumps(LEADS[0], ensure_ascii=False, separators=(",", ":")) + "\n"
    )
    assert stdout_of(tty) == json.dumps(LEADS[0], ensure_ascii=False, indent=2) + "\n"


def test_json_columns_pick_the_fields_nested_as_the_paths_say() -> None:
    ctx = make_ctx("json", columns=["id", "user.name", "defaultTags[].name", "enabled"])

    emit_object(ctx, LEADS[0], columns=COLUMNS)

    assert json.loads(stdout_of(ctx)) == {
        "id": "lead_1",
        "user": {"name": "Ana"},
        "defaultTags": [{"name": "hot"}, {"name": "web"}],
        "enabled": True,
    }


@pytest.mark.parametrize("fmt", ["json", "ndjson"])
def test_json_list_columns_pick_the_fields_of_every_item_nulls_kept(fmt: str) -> None:
    ctx = make_ctx(fmt, columns=["id", "user.name", "defaultTags.name", "createdAt"])

    emit_list(ctx, iter(LEADS), columns=COLUMNS)

    out = stdout_of(ctx)
    items = json.loads(out) if fmt == "json" else [json.loads(line) for line in out.splitlines()]
    assert items == [
        {
            "id": "lead_1",
            "user": {"name": "Ana"},
            "defaultTags": [{"name": "hot"}, {"name": "web"}],
            "createdAt": "2026-11-21T14:03:12Z",
        },
        {"id": "lead_2", "user": None, "defaultTags": [], "createdAt": LEADS[1]["createdAt"]},
    ]


def test_json_columns_take_a_default_columns_header_as_its_path() -> None:
    ctx = make_ctx("ndjson", columns=["OWNER", "score"])

    emit_list(ctx, iter(LEADS), columns=COLUMNS)

    assert [json.loads(line) for line in stdout_of(ctx).splitlines()] == [
        {"user": {"name": "Ana"}, "score": 12},
        {"user": None, "score": 3.5},
    ]


@pytest.mark.parametrize("fmt", ["json", "ndjson"])
def test_json_unknown_columns_are_exit_2_before_anything_is_printed(fmt: str) -> None:
    ctx = make_ctx(fmt, columns=["id", "nope"])

    with pytest.raises(UsageError, match="unknown field in --columns: nope"):
        emit_list(ctx, iter(LEADS), columns=COLUMNS)

    assert stdout_of(ctx) == ""


def test_piped_default_format_is_json(tmp_path: Path) -> None:
    env = {"LEADCTL_CONFIG_DIR": str(tmp_path / "config")}
    ctx = Context(ios=IOStreams.for_test(tty=False, env=env), options=GlobalOptions(), env=env)

    emit_list(ctx, iter(LEADS), columns=COLUMNS)

    assert json.loads(stdout_of(ctx)) == LEADS


def test_json_list_cut_short_by_a_failure_does_not_parse_as_complete() -> None:
    def failing() -> Iterator[dict[str, Any]]:
        yield LEADS[0]
        raise RuntimeError("page 2 failed")

    ctx = make_ctx("json")

    with pytest.raises(RuntimeError):
        emit_list(ctx, failing(), columns=COLUMNS)

    with pytest.raises(json.JSONDecodeError):
        json.loads(stdout_of(ctx))


# -- streaming -------------------------------------------------------------------------


class WriteLog(io.StringIO):
    """Remembers how many items the producer had handed out at each write."""

    def __init__(self, consumed: list[int]) -> None:
        super().__init__()
        self.consumed = consumed
        self.log: list[tuple[int, str]] = []

    def write(self, text: str) -> int:
        self.log.append((self.consumed[0], text))
        return super().write(text)


def counted(items: Iterable[dict[str, Any]], consumed: list[int]) -> Iterator[dict[str, Any]]:
    for item in items:
        consumed[0] += 1
        yield item


@pytest.mark.parametrize("fmt", ["json", "ndjson", "csv", "tsv", "value"])
@pytest.mark.parametrize("tty", [False, True], ids=["piped", "tty"])
def test_each_item_is_written_before_the_next_is_pulled(fmt: str, tty: bool) -> None:
    items = [{"id": f"lead_{n}", "name": "x"} for n in range(500)]
    consumed = [0]
    ctx = make_ctx(fmt, tty=tty)
    stream = WriteLog(consumed)
    ctx.ios.stdout = stream

    emit_list(ctx, counted(items, consumed), columns=[Column("id")])

    first = next(pulled for pulled, text in stream.log if '"lead_0"' in text or "lead_0\n" in text)
    assert first == 1
    second = next(pulled for pulled, text in stream.log if "lead_1" in text)
    assert second == 2


class Discard(io.StringIO):
    def __init__(self) -> None:
        super().__init__()
        self.size = 0

    def write(self, text: str) -> int:
        self.size += len(text)
        return len(text)


@pytest.mark.parametrize("fmt", ["json", "ndjson", "csv"])
def test_memory_stays_flat_for_a_long_list(fmt: str) -> None:
    def produce(count: int) -> Iterator[dict[str, Any]]:
        for n in range(count):
            yield {"id": f"lead_{n:08d}", "name": "Jane Doe", "email": "jane@example.com", "n": n}

    ctx = make_ctx(fmt)
    sink = Discard()
    ctx.ios.stdout = sink

    tracemalloc.start()
    try:
        emit_list(ctx, produce(30_000), columns=[Column("id"), Column("email")])
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()

    assert sink.size > 900_000
    assert peak < 512 * 1024


# -- ndjson ----------------------------------------------------------------------------


@pytest.mark.parametrize("tty", [False, True], ids=["piped", "tty"])
def test_ndjson_is_one_compact_item_per_line(tty: bool) -> None:
    ctx = make_ctx("ndjson", tty=tty)

    count = emit_list(ctx, iter(LEADS), columns=COLUMNS)

    lines = stdout_of(ctx).split("\n")
    assert lines[-1] == ""
    assert [json.loads(line) for line in lines[:-1]] == LEADS
    assert lines[0] == json.dumps(LEADS[0], ensure_ascii=False, separators=(",", ":"))
    assert count == 2


def test_ndjson_empty_list_prints_nothing() -> None:
    ctx = make_ctx("ndjson")

    assert emit_list(ctx, iter([]), columns=COLUMNS) == 0

    assert stdout_of(ctx) == ""


def test_ndjson_object_is_one_line_even_on_a_terminal() -> None:
    ctx = make_ctx("ndjson", tty=True)

    emit_object(ctx, LEADS[1], columns=COLUMNS)

    assert stdout_of(ctx) == json.dumps(LEADS[1], ensure_ascii=False, separators=(",", ":")) + "\n"


# -- csv / tsv / value ---------------------------------------------------------------


@pytest.mark.parametrize("tty", [False, True], ids=["piped", "tty"])
def test_csv_has_a_header_and_quotes_what_needs_quoting(tty: bool) -> None:
    ctx = make_ctx("csv", tty=tty)

    emit_list(ctx, iter(LEADS), columns=COLUMNS)

    out = stdout_of(ctx)
    assert "\x1b[" not in out
    rows = list(csv.reader(io.StringIO(out)))
    assert rows == [
        ["id", "name", "user.name", "enabled", "createdAt", "apiKey"],
        ["lead_1", "José Müller", "Ana", "true", "2026-11-21T14:03:12Z", "sk_…4f2a"],
        ["lead_2", 'Smith, "Jr"\nsecond line', "", "false", "2026-01-02T03:04:05+02:00", ""],
    ]
    assert '"Smith, ""Jr""\nsecond line"' in out


def test_csv_header_is_the_path_and_objects_are_json() -> None:
    ctx = make_ctx("csv")

    emit_list(ctx, iter(LEADS), columns=[Column("id"), Column("defaultTags"), Column("score")])

    rows = list(csv.reader(io.StringIO(stdout_of(ctx))))
    assert rows[0] == ["id", "defaultTags", "score"]
    assert json.loads(rows[1][1]) == LEADS[0]["defaultTags"]
    assert rows[2] == ["lead_2", "", "3.5"]  # an empty list: an empty cell


def test_csv_of_an_empty_list_is_the_header_alone() -> None:
    ctx = make_ctx("csv")

    assert emit_list(ctx, iter([]), columns=COLUMNS) == 0

    assert stdout_of(ctx) == "id,name,user.name,enabled,createdAt,apiKey\n"


def test_tsv_escapes_tabs_newlines_and_backslashes_one_item_per_line() -> None:
    items = [{"id": "a\tb", "name": "line1\nline2\r\n", "path": "C:\\temp"}]
    ctx = make_ctx("tsv")

    emit_list(ctx, iter(items), columns=[Column("id"), Column("name"), Column("path")])

    assert stdout_of(ctx) == "id\tname\tpath\na\\tb\tline1\\nline2\\r\\n\tC:\\\\temp\n"


def test_tsv_plain_rows() -> None:
    ctx = make_ctx("tsv", tty=True)

    emit_list(ctx, iter(LEADS), columns=COLUMNS[:4])

    assert stdout_of(ctx) == (
        "id\tname\tuser.name\tenabled\n"
        "lead_1\tJosé Müller\tAna\ttrue\n"
        'lead_2\tSmith, "Jr"\\nsecond line\t\tfalse\n'
    )


@pytest.mark.parametrize("tty", [False, True], ids=["piped", "tty"])
def test_value_has_no_header(tty: bool) -> None:
    ctx = make_ctx("value", tty=tty, columns=["id"])

    emit_list(ctx, iter(LEADS), columns=COLUMNS)

    assert stdout_of(ctx) == "lead_1\nlead_2\n"


def test_value_of_one_object_is_its_selected_columns_tab_separated() -> None:
    ctx = make_ctx("value", columns=["id", "user.name"])

    emit_object(ctx, LEADS[0], columns=COLUMNS)

    assert stdout_of(ctx) == "lead_1\tAna\n"


def test_csv_of_one_object_has_header_and_one_row() -> None:
    ctx = make_ctx("csv", columns=["id", "score"])

    emit_object(ctx, LEADS[1], columns=COLUMNS)

    assert stdout_of(ctx) == "id,score\nlead_2,3.5\n"


def test_columns_option_takes_dot_paths_and_list_indexes() -> None:
    ctx = make_ctx("tsv", columns=["id", "user.name", "defaultTags.0.name", "defaultTags.-1.name"])

    emit_list(ctx, iter(LEADS), columns=COLUMNS)

    assert stdout_of(ctx) == (
        "id\tuser.name\tdefaultTags.0.name\tdefaultTags.-1.name\nlead_1\tAna\thot\tweb\nlead_2\t\t\t\n"
    )


@pytest.mark.parametrize("fmt", ["csv", "tsv", "value", "table"])
def test_unknown_columns_are_a_usage_error_naming_the_known_fields(fmt: str) -> None:
    ctx = make_ctx(fmt, columns=["id", "user.nam", "nosuchfield", "defaultTags[].name"])

    with pytest.raises(UsageError) as raised:
        emit_list(ctx, iter(LEADS), columns=COLUMNS)

    error = raised.value
    assert error.exit_code == 2
    assert error.message == "unknown fields in --columns: user.nam, nosuchfield"
    assert error.hint is not None
    for known in ("id", "user.name", "defaultTags[].name", "createdAt"):
        assert known in error.hint.split("known fields: ")[1].split(", ")
    assert stdout_of(ctx) == ""


def test_unknown_column_of_one_object_is_a_usage_error() -> None:
    ctx = make_ctx("csv", columns=["id", "nope"])

    with pytest.raises(UsageError, match="unknown field in --columns: nope"):
        emit_object(ctx, LEADS[0], columns=COLUMNS)


def test_a_field_null_in_the_data_is_still_known() -> None:
    ctx = make_ctx("csv", columns=["id", "user.name"])

    emit_list(ctx, iter(LEADS[1:]), columns=[])

    assert stdout_of(ctx) == "id,user.name\nlead_2,\n"


@pytest.mark.parametrize("path", ["defaultTags[].name", "defaultTags.name"])
def test_array_paths_take_the_field_of_every_element(path: str) -> None:
    table = make_ctx("table", columns=["id", path])
    csv_ctx = make_ctx("csv", columns=["id", path])

    emit_list(table, iter(LEADS), columns=COLUMNS)
    emit_list(csv_ctx, iter(LEADS), columns=COLUMNS)

    assert stdout_of(table).splitlines()[1].split(None, 1) == ["lead_1", "hot, web"]
    assert stdout_of(csv_ctx).splitlines()[1] == "lead_1,hot;web"  # as leads import reads it


def test_a_default_columns_header_is_accepted_by_columns() -> None:
    """A table names a column `processing`: --columns takes that name; the csv header row
    names its field path, which is what `leads import` reads."""
    columns = [Column("id"), Column("processingStatus", header="processing")]
    ctx = make_ctx("csv", columns=["id", "processing"])
    header = make_ctx("csv")
    items = [{"id": "l1", "processingStatus": "Accepted"}]

    emit_list(ctx, iter(items), columns=columns)
    emit_list(header, iter(items), columns=columns)

    assert stdout_of(ctx) == "id,processingStatus\nl1,Accepted\n"
    assert stdout_of(header).splitlines()[0].split(",") == ["id", "processingStatus"]


def test_columns_without_defaults_are_the_first_items_fields() -> None:
    ctx = make_ctx("csv")

    count = emit_list(ctx, iter([{"b": 1, "a": "x"}, {"a": "y", "c": True}]), columns=[])

    assert stdout_of(ctx) == "b,a\n1,x\n,y\n"
    assert count == 2


# -- secrets ---------------------------------------------------------------------------


@pytest.mark.parametrize("fmt", ["table", "csv", "tsv", "value"])
@pytest.mark.parametrize("tty", [False, True], ids=["piped", "tty"])
def test_secret_columns_never_show_the_value(fmt: str, tty: bool) -> None:
    for columns in (None, ["id", "apiKey"]):
        ctx = make_ctx(fmt, tty=tty, columns=columns)

        emit_list(ctx, iter(LEADS), columns=COLUMNS)
        emit_object(ctx, LEADS[0], columns=COLUMNS)

        out = stdout_of(ctx)
        assert SECRET not in out
        assert SECRET[3:12] not in out
        assert "sk_…4f2a" in out


# -- format choice, errors -------------------------------------------------------------


def test_unknown_format_is_a_usage_error() -> None:
    ctx = make_ctx("xml")

    with pytest.raises(UsageError, match="xml"):
        emit_list(ctx, iter(LEADS), columns=COLUMNS)


class ClosedPipe(io.StringIO):
    def write(self, text: str) -> int:
        raise BrokenPipeError(32, "Broken pipe")


@pytest.mark.parametrize("fmt", ["json", "ndjson", "csv", "tsv", "value", "table"])
def test_a_closed_pipe_reaches_the_caller_as_broken_pipe(fmt: str) -> None:
    ctx = make_ctx(fmt)
    ctx.ios.stdout = ClosedPipe()

    with pytest.raises(BrokenPipeError):
        emit_list(ctx, iter(LEADS), columns=COLUMNS)


def test_importing_the_output_layer_loads_no_heavy_library() -> None:
    heavy = ("rich", "httpx", "pydantic", "keyring", "platformdirs")
    probe = (
        "import sys, leadctl.output.registry; "
        f"print(sorted(m for m in sys.modules if m.split('.')[0] in {heavy!r}))"
    )

    result = subprocess.run(
        [sys.executable, "-c", probe], capture_output=True, text=True, check=True
    )

    assert result.stdout.strip() == "[]"
