"""Issue 22.1 (generated help): a contract's summaries, descriptions, operationIds, names
and enum values reach --help shown, never acted on, and its HTML is read as text."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from tests.hostile.checks import CLEAR_SCREEN, CLIPBOARD, acted_on
from tests.support.hostile_server import HostileServer
from tests.support.terminal import run_in_pipes, run_on_terminal

pytestmark = pytest.mark.e2e

EVIL = f"{CLEAR_SCREEN}{CLIPBOARD}\u202e\u200b"
SHOWN_EVIL = "\\x1b[2J\\x1b]52;c;cm0gLXJmIH4=\\x07\\u202e\\u200b"


def contract() -> dict[str, Any]:
    gadget = {"type": "object", "properties": {"id": {"type": "string"}}}
    return {
        "openapi": "3.1.0",
        "info": {"title": "Gadgets", "version": "1.0"},
        "tags": [{"name": "Gadgets", "description": f"<p>All gadgets{EVIL}</p>"}],
        "components": {"securitySchemes": {"bearerAuth": {"type": "http", "scheme": "bearer"}}},
        "security": [{"bearerAuth": []}],
        "paths": {
            "/gadgets/{gadgetId}": {
                "get": {
                    "tags": ["Gadgets"],
                    "operationId": f"getGadget{EVIL}",
                    "x-cli-name": "get",
                    "summary": f"Read a gadget{EVIL}",
                    "description": (
                        "<p>Returns a <code>gadget</code> &amp; its parts.</p>"
                        f"<p>Second paragraph{EVIL}<br/>next line</p>"
                    ),
                    "parameters": [
                        {
                            "name": "gadgetId",
                            "in": "path",
                            "required": True,
                            "description": f"The gadget{EVIL}",
                            "schema": {"type": "string"},
                        },
                        {
                            "name": "X-Trace",
                            "in": "header",
                            "description": "A trace label, echoed back.",
                            "schema": {"type": "string"},
                        },
                        {
                            "name": "view",
                            "in": "query",
                            "description": f"How much to show{EVIL}",
                            "schema": {"type": "string", "enum": ["short", f"long{EVIL}"]},
                        },
                    ],
                    "responses": {
                        "200": {
                            "description": "OK",
                            "content": {"application/json": {"schema": gadget}},
                        }
                    },
                },
                "put": {
                    "tags": ["Gadgets"],
                    "operationId": "replaceGadget",
                    "summary": "Replace a gadget",
                    "parameters": [
                        {
                            "name": "gadgetId",
                            "in": "path",
                            "required": True,
                            "schema": {"type": "string"},
                        }
                    ],
                    "requestBody": {
                        "content": {
                            "application/json": {
                                "schema": {
                                    "type": "object",
                                    "required": ["label"],
                                    "properties": {
                                        "label": {
                                            "type": "string",
                                            "description": f"Its label{EVIL}",
                                        },
                                        "mode": {
                                            "type": "string",
                                            "enum": ["a", f"b{EVIL}"],
                                        },
                                    },
                                }
                            }
                        }
                    },
                    "responses": {"200": {"description": "OK"}},
                },
            }
        },
    }


@pytest.fixture
def imported(tmp_path: Path, hostile_env: dict[str, str]) -> dict[str, str]:
    path = tmp_path / "gadgets.json"
    path.write_text(json.dumps(contract()))
    done = run_in_pipes(["contract", "import", str(path)], env=hostile_env)
    assert done.exit_code == 0, done.stderr
    return hostile_env


@pytest.mark.parametrize(
    "args",
    [["gadgets", "get", "--help"], ["gadgets", "replace", "--help"], ["gadgets", "--help"], []],
)
def test_generated_help_shows_the_contracts_escapes(
    imported: dict[str, str], args: list[str]
) -> None:
    done = run_on_terminal([*args] or ["--help"], env=imported)
    assert done.exit_code == 0, done.stderr
    assert acted_on(done.stdout) == [] and acted_on(done.stderr) == []
    assert SHOWN_EVIL in done.stdout


def test_html_in_descriptions_reads_as_text(imported: dict[str, str]) -> None:
    done = run_on_terminal(["gadgets", "get", "--help"], env=imported)
    text = " ".join(done.stdout.split())
    assert "Returns a `gadget` & its parts." in text
    assert "<p>" not in done.stdout and "&amp;" not in done.stdout
    assert "Second paragraph" + SHOWN_EVIL in text


def test_help_in_a_pipe_is_just_as_safe(imported: dict[str, str]) -> None:
    # Help is for people wherever it goes (a pager, a file read later): always safe.
    done = run_in_pipes(["gadgets", "get", "--help"], env=imported)
    assert acted_on(done.stdout) == []


def test_a_header_parameter_takes_printable_ascii_and_nothing_is_sent(
    hostile: HostileServer, imported: dict[str, str]
) -> None:
    done = run_in_pipes(["gadgets", "get", "g_1", "--x-trace", "café"], env=imported)
    assert done.exit_code == 2, done.stderr
    assert b"takes printable ASCII" in done.stderr_bytes
    assert hostile.requests == []
