"""IOStreams.console(): the one rich Console factory, every decision from IOStreams."""

from __future__ import annotations

import io
from collections.abc import Mapping

import pytest
from rich.text import Text

from leadctl.context import Context
from leadctl.global_options import GlobalOptions
from leadctl.iostreams import IOStreams
from leadctl.output import emit_object
from leadctl.verbkit.waiting import PendingRule, wait_for
from leadctl.views.console import show, view_of
from tests.support.cli import FakeClock

STYLED = Text("hot", style="bold red")


def streams(
    *, stdout_tty: bool = False, stderr_tty: bool = False, env: Mapping[str, str] | None = None
) -> IOStreams:
    return IOStreams.for_test(stdout_tty=stdout_tty, stderr_tty=stderr_tty, env=env)


def drawn(ios: IOStreams, *, stderr: bool = False, renderable: object = STYLED) -> str:
    buffer = io.StringIO()
    ios.console(stderr=stderr, file=buffer).print(renderable)
    return buffer.getvalue()


# -- color ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("tty", "env", "no_color_flag"),
    [
        (False, {}, False),
        (True, {"NO_COLOR": "1"}, False),
        (True, {}, True),
        (True, {"TERM": "dumb"}, False),
    ],
    ids=["piped", "NO_COLOR", "--no-color", "TERM=dumb"],
)
@pytest.mark.parametrize("stderr", [False, True], ids=["stdout", "stderr"])
def test_color_off_means_no_escape_sequence_at_all(
    tty: bool, env: dict[str, str], no_color_flag: bool, stderr: bool
) -> None:
    ios = streams(stdout_tty=tty, stderr_tty=tty, env=env)
    ios.no_color = no_color_flag

    text = drawn(ios, stderr=stderr, renderable=Text("hot", style="bold red link https://x.test"))

    assert text == "hot\n"
    assert "\x1b" not in text


@pytest.mark.parametrize("stderr", [False, True], ids=["stdout", "stderr"])
def test_color_on_a_terminal_styles_the_text(stderr: bool) -> None:
    ios = streams(stdout_tty=True, stderr_tty=True)

    assert drawn(ios, stderr=stderr) == "\x1b[1;31mhot\x1b[0m\n"


def test_force_color_colors_a_pipe_too() -> None:
    ios = streams(env={"FORCE_COLOR": "1"})

    assert "\x1b[1;31m" in drawn(ios)


@pytest.mark.parametrize(
    ("env", "color", "sequence"),
    [
        ({"COLORTERM": "truecolor"}, "#008080", "\x1b[38;2;0;128;128m"),
        ({"COLORTERM": "24bit"}, "#008081", "\x1b[38;2;0;128;129m"),
        ({"TERM": "xterm-256color"}, "#008082", "\x1b[38;5;30m"),
        ({"TERM": "xterm"}, "#008083", "\x1b[36m"),
    ],
)
def test_the_color_system_comes_from_the_streams_env_not_os_environ(
    env: dict[str, str], color: str, sequence: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    # rich's own detection would read these from os.environ.
    monkeypatch.setenv("COLORTERM", "")
    monkeypatch.setenv("TERM", "dumb")
    ios = streams(stdout_tty=True, env=env)

    # A color of its own for each case: rich caches a style's escape codes by the
    # style's value, process-wide, for whichever color system drew it first.
    assert drawn(ios, renderable=Text("x", style=color)).startswith(sequence)


def test_no_color_in_os_environ_does_not_override_the_streams_decision(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setenv("NO_COLOR", "1")
    ios = streams(stdout_tty=True, env={})

    assert "\x1b[1;31m" in drawn(ios)


# -- width ---------------------------------------------------------------------------


def test_width_comes_from_columns_in_the_streams_env(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("COLUMNS", "33")
    ios = streams(stdout_tty=True, env={"COLUMNS": "57"})

    assert ios.console().width == 57
    assert ios.console(stderr=True).width == 57


def test_an_explicit_width_wins_and_without_columns_a_buffer_gets_80() -> None:
    ios = streams(stdout_tty=True, env={"COLUMNS": "57"})

    assert ios.console(width=120).width == 120
    assert streams(stdout_tty=True).console().width == 80


def test_lines_are_wrapped_at_the_width_from_columns() -> None:
    ios = streams(stdout_tty=True, env={"COLUMNS": "10", "NO_COLOR": "1"})

    lines = drawn(ios, renderable=Text("aaaa bbbb cccc")).splitlines()

    assert [line.rstrip() for line in lines] == ["aaaa bbbb", "cccc"]


# -- which stream ----------------------------------------------------------------------


def test_stdout_piped_and_stderr_on_a_terminal_each_get_their_own_decisions() -> None:
    ios = streams(stdout_tty=False, stderr_tty=True)

    out, err = ios.console(), ios.console(stderr=True)

    assert out.file is ios.stdout and err.file is ios.stderr
    assert (out.is_terminal, out.is_interactive, out.color_system) == (False, False, None)
    assert (err.is_terminal, err.is_interactive, err.color_system) == (True, True, "standard")


def test_stdout_on_a_terminal_and_stderr_piped() -> None:
    ios = streams(stdout_tty=True, stderr_tty=False)

    out, err = ios.console(), ios.console(stderr=True)

    assert (out.is_terminal, out.color_system) == (True, "standard")
    assert (err.is_terminal, err.is_interactive, err.color_system) == (False, False, None)


def test_a_dumb_terminal_gets_no_live_drawing() -> None:
    ios = streams(stderr_tty=True, env={"TERM": "dumb"})

    assert ios.console(stderr=True).is_interactive is False


def test_printing_goes_to_the_chosen_stream() -> None:
    ios = streams()

    ios.console().print("to stdout")
    ios.console(stderr=True).print("to stderr")

    assert isinstance(ios.stdout, io.StringIO) and isinstance(ios.stderr, io.StringIO)
    assert ios.stdout.getvalue() == "to stdout\n"
    assert ios.stderr.getvalue() == "to stderr\n"


# -- the service's text is data ----------------------------------------------------------


def test_markup_emoji_and_highlighting_are_off() -> None:
    ios = streams(stdout_tty=True)

    assert drawn(ios, renderable="[bold]Ana[/bold] :smile: 42 https://x.test") == (
        "[bold]Ana[/bold] :smile: 42 https://x.test\n"
    )


def test_a_view_shown_with_color_off_has_no_escape_and_no_trailing_blanks() -> None:
    from rich.table import Table

    ios = streams(stdout_tty=False, env={"COLUMNS": "40"})
    table = Table.grid(padding=(0, 2))
    table.add_column(style="bold")
    table.add_column()
    table.add_row("a", "1")
    table.add_row("longer", "2")

    show(ios, table)

    assert isinstance(ios.stdout, io.StringIO)
    assert ios.stdout.getvalue() == "a       1\nlonger  2\n"


@pytest.mark.parametrize(
    ("fmt", "printed"), [("table", "gauge a1 at 40\n"), ("json", '{"id":"a1"}\n')]
)
def test_view_of_draws_what_render_returns_for_table_only(fmt: str, printed: str) -> None:
    env = {"COLUMNS": "40"}
    ctx = Context(ios=IOStreams.for_test(env=env), options=GlobalOptions(output=fmt), env=env)

    def render(ctx: Context, data: dict[str, str]) -> Text:
        return Text(f"gauge {data['id']} at {ctx.ios.terminal_width()}", style="bold")

    emit_object(ctx, {"id": "a1"}, columns=[], view=view_of(render))

    assert isinstance(ctx.ios.stdout, io.StringIO)
    assert ctx.ios.stdout.getvalue() == printed


@pytest.mark.parametrize("word", ["[/odd]", "[bold]Queued[/bold]", ":x:"])
def test_the_wait_spinner_shows_the_services_words_as_typed(word: str) -> None:
    env = {"COLUMNS": "80", "NO_COLOR": "1"}
    ctx = Context(
        ios=IOStreams.for_test(stderr_tty=True, env=env),
        options=GlobalOptions(),
        env=env,
        clock=FakeClock(),
    )
    rule = PendingRule("state", frozenset({word}), frozenset())

    done = wait_for(
        ctx,
        {"id": "w1", "state": word},
        rule,
        lambda _id: {"id": "w1", "state": "built"},
        timeout=30,
        what="widget",
    )

    assert done == {"id": "w1", "state": "built"}
    assert isinstance(ctx.ios.stderr, io.StringIO)
    assert f"waiting for widget w1: {word}" in ctx.ios.stderr.getvalue()
