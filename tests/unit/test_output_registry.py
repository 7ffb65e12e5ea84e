"""The output registry: every format name reaches its renderer, an unknown one is refused,
and a command's view is drawn only for ``table`` without ``--columns``."""

from __future__ import annotations

import importlib
import io
from collections.abc import Iterable, Iterator, Mapping
from typing import Any

import pytest

from leadctl.cli.app import OutputFormat
from leadctl.context import Context
from leadctl.errors import ExitCode, UsageError
from leadctl.formats import OUTPUT_FORMATS
from leadctl.global_options import GlobalOptions
from leadctl.iostreams import IOStreams
from leadctl.output import Column, columns_view, emit_list, emit_object, prints_as_received
from leadctl.output.registry import HOMES, renderer_for, streams_items

ITEMS = [{"id": "a1", "name": "Ana"}, {"id": "b2", "name": "Bo"}]
COLUMNS = [Column("id", "ID"), Column("name", "NAME")]

# What each format prints for ITEMS piped (no terminal): one entry a format name.
LIST_OUTPUT = {
    "table": "ID  NAME\na1  Ana\nb2  Bo\n",
    "json": '[\n{"id":"a1","name":"Ana"},\n{"id":"b2","name":"Bo"}\n]\n',
    "ndjson": '{"id":"a1","name":"Ana"}\n{"id":"b2","name":"Bo"}\n',
    "yaml": "- id: a1\n  name: Ana\n- id: b2\n  name: Bo\n",
    "csv": "id,name\na1,Ana\nb2,Bo\n",
    "tsv": "id\tname\na1\tAna\nb2\tBo\n",
    "value": "a1\tAna\nb2\tBo\n",
}
OBJECT_OUTPUT = {
    "table": "ID    a1\nNAME  Ana\n",
    "json": '{"id":"a1","name":"Ana"}\n',
    "ndjson": '{"id":"a1","name":"Ana"}\n',
    "yaml": "id: a1\nname: Ana\n",
    "csv": "id,name\na1,Ana\n",
    "tsv": "id\tname\na1\tAna\n",
    "value": "a1\tAna\n",
}


def make_ctx(
    output: str | None,
    *,
    columns: list[str] | None = None,
    jq: str | None = None,
    tty: bool = False,
    env: Mapping[str, str] | None = None,
) -> Context:
    merged = {"COLUMNS": "100", "LINES": "40", "TZ": "UTC", **(env or {})}
    return Context(
        ios=IOStreams.for_test(tty=tty, env=merged),
        options=GlobalOptions(output=output, columns=columns, jq=jq),
        env=merged,
    )


def out(ctx: Context) -> str:
    assert isinstance(ctx.ios.stdout, io.StringIO)
    return ctx.ios.stdout.getvalue()


def err(ctx: Context) -> str:
    assert isinstance(ctx.ios.stderr, io.StringIO)
    return ctx.ios.stderr.getvalue()


class Recorder:
    """A view that notes what it was given and draws a marker, so a test sees both."""

    def __init__(self) -> None:
        self.calls: list[Any] = []

    def __call__(self, ctx: Context, data: Any) -> None:
        taken = list(data) if not isinstance(data, dict) else data
        self.calls.append(taken)
        ctx.ios.stdout.write("<view>\n")


# -- every name reaches its renderer ----------------------------------------------------


def test_the_registry_has_a_renderer_for_exactly_the_format_names() -> None:
    assert list(HOMES) == list(OUTPUT_FORMATS)
    # Each home holds the renderer of the formats it is named for, and only those.
    for home in set(HOMES.values()):
        held = importlib.import_module(home).RENDERERS
        assert sorted(held) == sorted(fmt for fmt, at in HOMES.items() if at == home), home
    # The tables below must name every format too, or a new format would go untested.
    assert set(LIST_OUTPUT) == set(OBJECT_OUTPUT) == set(OUTPUT_FORMATS)


@pytest.mark.parametrize("fmt", OUTPUT_FORMATS)
def test_each_format_name_prints_a_list_with_its_own_renderer(fmt: str) -> None:
    ctx = make_ctx(fmt)

    count = emit_list(ctx, iter(ITEMS), columns=COLUMNS)

    assert out(ctx) == LIST_OUTPUT[fmt]
    assert count == 2


@pytest.mark.parametrize("fmt", OUTPUT_FORMATS)
def test_each_format_name_prints_an_object_with_its_own_renderer(fmt: str) -> None:
    ctx = make_ctx(fmt)

    emit_object(ctx, ITEMS[0], columns=COLUMNS)

    assert out(ctx) == OBJECT_OUTPUT[fmt]


def test_the_choices_of_dash_o_are_the_format_names() -> None:
    assert [member.value for member in OutputFormat] == list(OUTPUT_FORMATS)


@pytest.mark.parametrize("fmt", ["xml", "TABLE", ""])
def test_an_unknown_format_is_refused_with_the_names_that_exist(fmt: str) -> None:
    with pytest.raises(UsageError) as caught:
        renderer_for(fmt)

    assert caught.value.exit_code == ExitCode.USAGE
    assert caught.value.hint == "choose one of: " + ", ".join(OUTPUT_FORMATS)


@pytest.mark.parametrize("emit", ["list", "object"])
def test_emit_refuses_an_unknown_format_before_printing_or_drawing(emit: str) -> None:
    ctx = make_ctx("xml")
    view = Recorder()

    with pytest.raises(UsageError, match="unknown output format 'xml'"):
        if emit == "list":
            emit_list(ctx, iter(ITEMS), columns=COLUMNS, view=view)
        else:
            emit_object(ctx, ITEMS[0], columns=COLUMNS, view=view)

    assert out(ctx) == "" and view.calls == []


# -- view= only for table without --columns ---------------------------------------------


def test_a_lists_view_is_drawn_for_table_without_columns() -> None:
    ctx = make_ctx("table")
    view = Recorder()

    count = emit_list(ctx, iter(ITEMS), columns=COLUMNS, view=view)

    assert out(ctx) == "<view>\n"
    assert view.calls == [ITEMS]
    assert count == 2  # what the view took of the lazy list


def test_a_view_gets_a_list_as_given_and_the_count_is_its_length() -> None:
    ctx = make_ctx("table")
    given: list[Any] = []

    def view(_ctx: Context, items: Any) -> None:
        given.append(items)

    count = emit_list(ctx, ITEMS, columns=COLUMNS, view=view)

    assert given == [ITEMS] and given[0] is ITEMS
    assert count == 2


def test_an_objects_view_is_drawn_for_table_without_columns() -> None:
    ctx = make_ctx("table")
    view = Recorder()

    emit_object(ctx, ITEMS[0], columns=COLUMNS, view=view)

    assert out(ctx) == "<view>\n"
    assert view.calls == [ITEMS[0]]


@pytest.mark.parametrize("fmt", [fmt for fmt in OUTPUT_FORMATS if fmt != "table"])
def test_other_formats_print_the_data_and_never_the_view(fmt: str) -> None:
    listed, one = make_ctx(fmt), make_ctx(fmt)
    view = Recorder()

    emit_list(listed, iter(ITEMS), columns=COLUMNS, view=view)
    emit_object(one, ITEMS[0], columns=COLUMNS, view=view)

    assert view.calls == []
    assert out(listed) == LIST_OUTPUT[fmt]
    assert out(one) == OBJECT_OUTPUT[fmt]


def test_table_with_columns_prints_those_columns_not_the_view() -> None:
    listed, one = make_ctx("table", columns=["name"]), make_ctx("table", columns=["name"])
    view = Recorder()

    emit_list(listed, iter(ITEMS), columns=COLUMNS, view=view)
    emit_object(one, ITEMS[0], columns=COLUMNS, view=view)

    assert view.calls == []
    assert out(listed) == "NAME\nAna\nBo\n"
    assert out(one) == "NAME  Ana\n"


def test_jq_filters_the_data_and_never_draws_the_view() -> None:
    ctx = make_ctx("table", jq=".[].id")
    view = Recorder()

    emit_list(ctx, iter(ITEMS), columns=COLUMNS, view=view)

    assert view.calls == []
    assert out(ctx) == "a1\nb2\n"  # a string result prints as its raw text


def test_the_page_footer_still_follows_a_view_on_a_terminal() -> None:
    ctx = make_ctx("table", tty=True)

    emit_list(ctx, iter(ITEMS), columns=COLUMNS, view=Recorder(), footer="more: --cursor c2")

    assert out(ctx) == "<view>\n"
    assert err(ctx) == "more: --cursor c2\n"


def test_the_file_note_counts_what_a_view_drew() -> None:
    ctx = Context(
        ios=IOStreams.for_test(stdout_tty=False, stderr_tty=True, env={"COLUMNS": "100"}),
        options=GlobalOptions(output="table"),
        env={},
    )

    emit_list(
        ctx,
        (item for item in ITEMS),
        columns=COLUMNS,
        view=Recorder(),
        file_note=lambda written: f"wrote {written}",
    )

    assert err(ctx) == "wrote 2\n"


# -- document: the whole answer the items came in ------------------------------------

DOCUMENT = {"owner": "o1", "items": ITEMS}


def test_json_prints_the_document_the_items_came_in() -> None:
    ctx = make_ctx("json")

    count = emit_list(ctx, ITEMS, columns=COLUMNS, view=Recorder(), document=DOCUMENT)

    assert out(ctx) == '{"owner":"o1","items":[{"id":"a1","name":"Ana"},{"id":"b2","name":"Bo"}]}\n'
    assert count == 2


def test_yaml_prints_the_document_the_items_came_in_too() -> None:
    ctx = make_ctx("yaml")

    emit_list(ctx, ITEMS, columns=COLUMNS, view=Recorder(), document=DOCUMENT)

    assert out(ctx).startswith("owner: o1\nitems:\n- id: a1\n")


def test_jq_reads_the_document_not_the_items() -> None:
    ctx = make_ctx("table", jq=".owner")

    emit_list(ctx, ITEMS, columns=COLUMNS, view=Recorder(), document=DOCUMENT)

    assert out(ctx) == "o1\n"


@pytest.mark.parametrize(
    "fmt", [fmt for fmt in OUTPUT_FORMATS if fmt not in ("json", "yaml", "table")]
)
def test_the_row_formats_print_the_items_of_a_document(fmt: str) -> None:
    ctx = make_ctx(fmt)

    emit_list(ctx, iter(ITEMS), columns=COLUMNS, document=DOCUMENT)

    assert out(ctx) == LIST_OUTPUT[fmt]


def test_json_columns_pick_fields_of_a_documents_items() -> None:
    """--columns names the items' fields: JSON then prints those of each item."""
    ctx = make_ctx("json", columns=["id"])

    emit_list(ctx, iter(ITEMS), columns=COLUMNS, document=DOCUMENT)

    assert out(ctx) == '[\n{"id":"a1"},\n{"id":"b2"}\n]\n'


def test_the_table_view_draws_the_items_of_a_document() -> None:
    ctx = make_ctx("table")
    view = Recorder()

    emit_list(ctx, ITEMS, columns=COLUMNS, view=view, document=DOCUMENT)

    assert view.calls == [ITEMS]
    assert out(ctx) == "<view>\n"


# -- columns_view: the table of other columns ------------------------------------------


def marked(items: Iterable[Any]) -> Iterator[Any]:
    for item in items:
        yield {**item, "mark": "*" if item["id"] == "b2" else ""}


def test_columns_view_draws_the_reshaped_items_with_its_columns_for_table_only() -> None:
    view = columns_view([Column("mark", ""), Column("name", "NAME")], reshape=marked)
    table, piped = make_ctx("table"), make_ctx("ndjson")

    emit_list(table, iter(ITEMS), columns=COLUMNS, view=view)
    emit_list(piped, iter(ITEMS), columns=COLUMNS, view=view)

    assert out(table) == "   NAME\n   Ana\n*  Bo\n"
    assert out(piped) == LIST_OUTPUT["ndjson"]  # the service's items, unchanged


def test_columns_view_of_nothing_says_no_results() -> None:
    ctx = make_ctx("table")

    count = emit_list(ctx, iter([]), columns=COLUMNS, view=columns_view(COLUMNS))

    assert count == 0
    assert out(ctx) == "" and err(ctx) == "no results\n"


# -- which formats stream -------------------------------------------------------------


@pytest.mark.parametrize("fmt", OUTPUT_FORMATS)
def test_only_the_table_waits_for_every_item(fmt: str) -> None:
    assert streams_items(make_ctx(fmt)) is (fmt != "table")
    assert streams_items(make_ctx(fmt, jq=".")) is True


@pytest.mark.parametrize("fmt", OUTPUT_FORMATS)
def test_only_json_ndjson_and_yaml_print_the_services_json_as_received(fmt: str) -> None:
    assert prints_as_received(make_ctx(fmt)) is (fmt in ("json", "ndjson", "yaml"))
    assert prints_as_received(make_ctx(fmt, jq=".")) is True
