"""Hostile service text, fuzzed: no character a terminal would act on (C0/C1 controls, ESC,
DEL, bidirectional and zero-width characters, separators, surrogates) reaches a terminal
from any field a service, a contract or an authorization server controls.

In process, with stdout and stderr both fake terminals (IOStreams.for_test(tty=True)) and
the service a pytest-httpx callback that answers whatever the example drew. The oracle is
Unicode's categories (tests/hostile/checks.py), not leadctl's table; color is off, so any
escape in the output came from the service. tests/hostile/ runs the installed leadctl on
real pseudo-terminals for the same paths.

Examples per path: the run's hypothesis profile (tests/support/hypothesis_profiles.py),
derandomized (the same every run), deadline off.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import httpx
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from pytest_httpx import HTTPXMock

from tests.hostile.checks import acted_on
from tests.support.cli import Result, run_cli, token_env

TERMINAL_FUZZ = settings(
    deadline=None,
    derandomize=True,
    database=None,
    print_blob=False,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)

# Characters terminals act on, drawn often; the rest of Unicode drawn too.
_ACTED_ON = [
    *map(chr, range(0x00, 0x20)),
    "\x7f",
    *map(chr, range(0x80, 0xA0)),
    *"\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069\u200e\u200f\u061c",
    *"\u200b\u200c\u200d\u2060\ufeff\u00ad\u2028\u2029\U000e0041",
    "\ud800",
    "\udcff",
]
_SEQUENCES = [
    "\x1b[2J",
    "\x1b]52;c;aGk=\x07",
    "\x1b]8;;http://x\x1b\\",
    "\x1b[31m",
    "\r\n",
    "\x9b2J",
]
hostile_text = st.lists(
    st.one_of(
        st.sampled_from(_ACTED_ON),
        st.sampled_from(_SEQUENCES),
        st.characters(),
        st.text(max_size=3),
    ),
    min_size=1,
    max_size=12,
).map("".join)
# Header values travel as Latin-1 bytes (CR, LF and NUL cannot be in one).
header_text = st.text(
    st.characters(max_codepoint=0xFF, blacklist_characters="\r\n\x00"), min_size=1, max_size=12
)

ENV = {**token_env(), "NO_COLOR": "1", "LEADCTL_PAGER": "cat"}


class Service:
    """What the fake service answers this example: a callback swapped per example."""

    def __init__(self) -> None:
        self.answer: Callable[[httpx.Request], httpx.Response] = lambda _r: httpx.Response(500)

    def __call__(self, request: httpx.Request) -> httpx.Response:
        return self.answer(request)


@pytest.fixture
def service(httpx_mock: HTTPXMock) -> Service:
    found = Service()
    httpx_mock.add_callback(found, is_reusable=True, is_optional=True)
    return found


def json_answer(
    document: Any, status: int = 200, headers: list[tuple[bytes, bytes]] | None = None
) -> httpx.Response:
    # ensure_ascii: a lone surrogate travels as JSON's \ud800, as a service would send it.
    return httpx.Response(
        status,
        content=json.dumps(document).encode("ascii"),
        headers=[(b"Content-Type", b"application/json"), *(headers or [])],
    )


def on_terminal(args: list[str]) -> Result:
    result = run_cli(args, env=ENV, tty=True)
    assert "Traceback" not in result.stderr and "unexpected" not in result.stderr, result.stderr
    assert acted_on(result.stdout) == [], result.stdout
    assert acted_on(result.stderr) == [], result.stderr
    return result


@TERMINAL_FUZZ
@given(text=hostile_text, json_errors=st.booleans())
def test_problem_documents(service: Service, text: str, json_errors: bool) -> None:
    problem = {
        "title": text,
        "detail": text[::-1],
        "errors": {text: [text, "x"]},
        "traceId": text,
        "status": 400,
    }
    service.answer = lambda _r: json_answer(problem, 400)
    output = ["-o", "json"] if json_errors else []
    assert on_terminal(["api", "GET", "/fuzz", *output]).exit_code == 6


@TERMINAL_FUZZ
@given(
    text=hostile_text,
    output=st.sampled_from(
        [
            [],
            ["--columns", "id,name,category"],
            ["-o", "json"],
            ["-o", "ndjson"],
            ["-o", "csv"],
            ["-o", "tsv"],
            ["-o", "value", "--columns", "name"],
            ["--jq", ".[].name"],
            ["--jq", ".[0]"],
        ]
    ),
)
def test_items_in_every_output_format(service: Service, text: str, output: list[str]) -> None:
    items = [{"id": text, "name": text, "category": text, text: text}, {"id": "2", "name": text}]
    service.answer = lambda _r: json_answer(items)
    assert on_terminal(["lead-statuses", "list", *output]).exit_code == 0


@TERMINAL_FUZZ
@given(value=header_text, reason=header_text, body=hostile_text)
def test_headers_status_lines_and_bodies_in_traces_and_api_include(
    service: Service, value: str, reason: str, body: str
) -> None:
    def answer(_request: httpx.Request) -> httpx.Response:
        response = json_answer(
            [{"id": "1", "name": body}], headers=[(b"X-Fuzz", value.encode("latin-1"))]
        )
        response.extensions["reason_phrase"] = reason.encode("latin-1")
        return response

    service.answer = answer
    assert on_terminal(["lead-statuses", "list", "--debug", "-o", "json"]).exit_code == 0
    assert on_terminal(["api", "GET", "/lead-statuses", "--include"]).exit_code == 0


@TERMINAL_FUZZ
@given(text=hostile_text)
def test_retry_lines_and_non_json_bodies(service: Service, text: str) -> None:
    raw = text.encode("utf-8", "surrogatepass")  # a lone surrogate as a service's bad bytes
    answers = iter(
        [
            httpx.Response(503, headers={"Retry-After": "0"}, content=raw),
            httpx.Response(200, headers={"Content-Type": "text/plain"}, content=raw),
        ]
    )
    service.answer = lambda _r: next(answers)
    assert on_terminal(["api", "GET", "/fuzz"]).exit_code == 0


@TERMINAL_FUZZ
@given(text=hostile_text)
def test_bulk_row_lines(service: Service, text: str, tmp_path_factory: Any) -> None:
    rows = tmp_path_factory.mktemp("rows") / "leads.ndjson"
    rows.write_text('{"email": "a@example.com"}\n{"email": "b@example.com"}\n')
    problem = {"title": text, "detail": text, "errors": {"email": [text]}, "status": 400}
    service.answer = lambda _r: json_answer(problem, 400)
    result = run_cli(["leads", "import", str(rows)], env=ENV, tty=False)
    # A log read later is read on a terminal too: stderr is safe even when it is a file.
    assert acted_on(result.stderr) == [], result.stderr
    assert result.exit_code == 6


def _contract(text: str) -> dict[str, Any]:
    return {
        "openapi": "3.1.0",
        "info": {"title": text, "version": "1"},
        "tags": [{"name": "Gadgets", "description": text}],
        "components": {"securitySchemes": {"bearer": {"type": "http", "scheme": "bearer"}}},
        "security": [{"bearer": []}],
        "paths": {
            "/gadgets/{id}": {
                "put": {
                    "tags": ["Gadgets"],
                    "operationId": f"replace{text}",
                    "x-cli-name": "replace",
                    "summary": text,
                    "description": f"<p>{text}</p>",
                    "parameters": [
                        {
                            "name": "id",
                            "in": "path",
                            "required": True,
                            "description": text,
                            "schema": {"type": "string"},
                        },
                        {
                            "name": "mode",
                            "in": "query",
                            "description": text,
                            "schema": {"type": "string", "enum": ["a", text]},
                        },
                    ],
                    "requestBody": {
                        "content": {
                            "application/json": {
                                "schema": {
                                    "type": "object",
                                    "properties": {
                                        "label": {"type": "string", "description": text},
                                        "kind": {"type": "string", "enum": [text]},
                                    },
                                }
                            }
                        }
                    },
                    "responses": {"200": {"description": text}},
                }
            }
        },
    }


@TERMINAL_FUZZ
@given(text=hostile_text.filter(lambda t: "\x00" not in t))
def test_generated_help_from_contract_text(text: str, tmp_path_factory: Any) -> None:
    path: Path = tmp_path_factory.mktemp("contract") / "gadgets.json"
    path.write_text(json.dumps(_contract(text)))
    imported = run_cli(["contract", "import", str(path)], env=ENV)
    if imported.exit_code != 0:
        # A contract the importer refuses says why, safely, and has no help to show.
        assert acted_on(imported.stderr) == [], imported.stderr
        return
    for args in (["gadgets", "replace", "--help"], ["gadgets", "--help"], ["--help"]):
        assert on_terminal(args).exit_code == 0
