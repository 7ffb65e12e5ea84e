"""Issue 22.1 (stdout): the service's text in every output format reaches a terminal shown,
not acted on, while a pipe or file still gets it exactly as the service sent it."""

from __future__ import annotations

import json

import pytest

from tests.hostile.checks import HOSTILE, SHOWN, acted_on
from tests.support.hostile_server import HostileServer, json_response, response
from tests.support.terminal import run_in_pipes, run_on_terminal

pytestmark = pytest.mark.e2e

STATUSES = [
    {"id": "st_1", "name": HOSTILE, "category": "Open", "color": "#123456"},
    {"id": "st_2", "name": "pay\u200bpal \u202eexe.txt", "category": HOSTILE, "color": "red"},
]


def serve_statuses(hostile: HostileServer, times: int = 1) -> None:
    hostile.answer(json_response(STATUSES), path="/lead-statuses", times=times)


@pytest.mark.parametrize(
    "output",
    [
        ["-o", "table"],
        ["-o", "table", "--columns", "id,name,category"],
        ["-o", "json"],
        ["-o", "ndjson"],
        ["-o", "csv"],
        ["-o", "tsv"],
        ["-o", "value", "--columns", "name"],
        ["--jq", ".[].name"],
        ["--jq", ".[0]"],
    ],
)
def test_each_format_on_a_terminal_shows_the_escapes(
    hostile: HostileServer, hostile_env: dict[str, str], output: list[str]
) -> None:
    serve_statuses(hostile)
    done = run_on_terminal(["lead-statuses", "list", *output], env=hostile_env)
    assert done.exit_code == 0, done.stderr
    assert acted_on(done.stdout) == [] and acted_on(done.stderr) == []
    assert "\\x1b" in done.stdout or "\\u001b" in done.stdout
    assert ("\\u202e" in done.stdout) or ("-o" in output and "table" in output)


def test_json_on_a_terminal_is_still_the_same_json(
    hostile: HostileServer, hostile_env: dict[str, str]
) -> None:
    serve_statuses(hostile)
    done = run_on_terminal(["lead-statuses", "list", "-o", "json"], env=hostile_env)
    assert json.loads(done.stdout) == STATUSES


def test_a_table_shows_bidi_and_zero_width_characters(
    hostile: HostileServer, hostile_env: dict[str, str]
) -> None:
    serve_statuses(hostile)
    done = run_on_terminal(["lead-statuses", "list", "--columns", "id,name"], env=hostile_env)
    assert "pay\\u200bpal \\u202eexe.txt" in done.stdout
    assert SHOWN in done.stdout


def test_leadctls_own_colors_are_the_only_escapes_on_a_color_terminal(
    hostile: HostileServer, hostile_env: dict[str, str]
) -> None:
    serve_statuses(hostile)
    colored = {k: v for k, v in hostile_env.items() if k != "NO_COLOR"}
    done = run_on_terminal(["lead-statuses", "list"], env=colored)
    assert "\x1b[" in done.stdout  # styled: the test would prove nothing without color
    assert acted_on(done.stdout, own_styling=True) == []


@pytest.mark.parametrize("output", [["-o", "json"], ["-o", "csv"], ["--jq", ".[0].name"]])
def test_a_pipe_gets_the_services_text_exactly(
    hostile: HostileServer, hostile_env: dict[str, str], output: list[str]
) -> None:
    serve_statuses(hostile)
    done = run_in_pipes(["lead-statuses", "list", *output], env=hostile_env)
    assert done.exit_code == 0, done.stderr
    if output[1] == "json":
        assert json.loads(done.stdout) == STATUSES
    elif output[1] == "csv":
        # The bytes as the service sent them (how a cell is quoted is the CSV rules').
        assert HOSTILE.encode() in done.stdout_bytes
    else:
        assert done.stdout == HOSTILE + "\n"


def test_api_prints_bodies_and_headers_safely_on_a_terminal(
    hostile: HostileServer, hostile_env: dict[str, str]
) -> None:
    # Header values may carry any byte but CR/LF/NUL: a C1 CSI (0x9b, Latin-1) and a
    # right-to-left override (UTF-8) both decode to characters a terminal acts on.
    html = f"<html>{HOSTILE}</html>"
    for header, shown in ((b"\x9b2J", "\\x9b2J"), ("\u202etxt.exe".encode(), "\\u202etxt.exe")):
        hostile.answer(
            response(200, headers=[("Content-Type", "text/html"), (b"X-Note", header)], body=html),
            path="/page",
        )
        done = run_on_terminal(["api", "GET", "/page", "--include"], env=hostile_env)
        assert done.exit_code == 0, done.stderr
        assert acted_on(done.stdout) == []
        assert f"x-note: {shown}" in done.stdout and SHOWN in done.stdout
    hostile.answer(response(200, headers=[("Content-Type", "text/html")], body=html), path="/page")
    piped = run_in_pipes(["api", "GET", "/page"], env=hostile_env)
    assert piped.stdout_bytes == (html + "\n").encode()  # a pipe or file gets the body as received

    hostile.answer(json_response(STATUSES), path="/lead-statuses")
    raw_json = run_on_terminal(["api", "GET", "/lead-statuses"], env=hostile_env)
    assert acted_on(raw_json.stdout) == []
    assert json.loads(raw_json.stdout) == STATUSES
