"""Issue 33.4: a data export is waited for, then downloaded (``--download FILE``), when the
contract's x-leadctl-pending names the GET that fetches its file."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from pytest_httpx import HTTPXMock

from tests.generated.contracts import _json, _op, widgets, write
from tests.support.cli import BASE_URL, FakeClock, Result, run_cli, token_env

STORAGE = "https://storage.example.test/exports/e1.zip?X-Signature=secret-signature"
EXPORTS = f"{BASE_URL}/user-data-exports"
ID_PARAM = {"name": "id", "in": "path", "required": True, "schema": {"type": "string"}}
EXPORT = {"$ref": "#/components/schemas/Export"}


def exports_contract() -> dict[str, Any]:
    document = widgets()
    document["components"]["schemas"]["Export"] = {
        "type": "object",
        "properties": {"id": {"type": "string"}, "status": {"type": "string"}},
    }
    document["paths"]["/user-data-exports"] = {
        "post": _op(
            "UserDataExports_Create",
            "UserDataExports",
            summary="Export my data",
            responses=_json(EXPORT, "202"),
            **{
                "x-leadctl-pending": {
                    "field": "status",
                    "pending": ["Pending"],
                    "failed": ["Failed", "Expired"],
                    "poll": "UserDataExports_Get",
                    "download": "UserDataExports_Download",
                }
            },
        )
    }
    reads = {
        "": ("UserDataExports_Get", "Export status", _json(EXPORT)),
        "/download": (
            "UserDataExports_Download",
            "Download a ready export",
            {"302": {"description": "Found: the archive is at Location."}},
        ),
    }
    for suffix, (operation_id, summary, responses) in reads.items():
        document["paths"]["/user-data-exports/{id}" + suffix] = {
            "get": _op(
                operation_id,
                "UserDataExports",
                summary=summary,
                parameters=[ID_PARAM],
                responses=responses,
            )
        }
    return document


@pytest.fixture(autouse=True)
def imported(tmp_path: Path) -> Result:
    path = write(tmp_path / "contract.json", exports_contract())
    result = run_cli(["contract", "import", str(path)])
    assert result.exit_code == 0, result.stderr
    return result


def export_then(httpx_mock: HTTPXMock, *statuses: str) -> None:
    """The export is created Pending, then read back with each of ``statuses``."""
    httpx_mock.add_response(
        method="POST", url=EXPORTS, status_code=202, json={"id": "e1", "status": "Pending"}
    )
    for status in statuses:
        httpx_mock.add_response(url=f"{EXPORTS}/e1", json={"id": "e1", "status": status})


def create_downloading(target: Path, clock: FakeClock) -> Result:
    return run_cli(
        ["user-data-exports", "create", "--download", str(target)], env=token_env(), clock=clock
    )


def test_create_download_waits_until_ready_then_writes_the_file(
    httpx_mock: HTTPXMock, tmp_path: Path
) -> None:
    export_then(httpx_mock, "Pending", "Ready")
    httpx_mock.add_response(
        url=f"{EXPORTS}/e1/download", status_code=302, headers={"Location": STORAGE}
    )
    httpx_mock.add_response(
        url=STORAGE, content=b"PK\x03\x04zip", headers={"Content-Type": "application/zip"}
    )
    target = tmp_path / "export.zip"
    clock = FakeClock()

    result = create_downloading(target, clock)

    assert result.exit_code == 0, result.stderr
    assert target.read_bytes() == b"PK\x03\x04zip"
    assert len(clock.sleeps) == 2  # two polls, on the injected clock
    assert result.stdout == ""
    assert f"wrote 7 bytes to {target}" in result.stderr


def test_an_export_that_fails_downloads_nothing_and_is_exit_6(
    httpx_mock: HTTPXMock, tmp_path: Path
) -> None:
    export_then(httpx_mock, "Failed")
    target = tmp_path / "export.zip"

    result = create_downloading(target, FakeClock())

    assert result.exit_code == 6
    assert "user-data-exports e1 ended Failed" in result.stderr
    assert not target.exists()
    assert [r.url.path for r in httpx_mock.get_requests()][-1] == "/user-data-exports/e1"


def test_help_says_what_download_fetches() -> None:
    result = run_cli(["user-data-exports", "create", "--help"])
    assert result.exit_code == 0
    text = " ".join(result.stdout.split())
    assert "--download FILE then fetches its file with UserDataExports_Download" in text
