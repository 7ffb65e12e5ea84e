"""``leadctl leads``, what its verbs share.

`leadctl leads list` and `leads create`: the exact requests, bad input, output modes."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from pytest_httpx import HTTPXMock

from tests.commands.leads._support import LEAD_A, LEAD_B, LIST_URL
from tests.support.cli import run_cli, token_env


def test_one_page_by_default_and_the_terminal_footer_tells_the_cursor(
    httpx_mock: HTTPXMock,
) -> None:
    tagged = {
        **LEAD_A,
        "tags": [{"id": "t1", "name": "Spanish speaking"}, {"id": "t2", "name": "Web"}],
    }
    httpx_mock.add_response(
        method="POST", url=LIST_URL, json={"items": [tagged, LEAD_B], "continuationToken": "t1"}
    )
    result = run_cli(
        ["--no-color", "leads", "list"],
        env={**token_env(), "COLUMNS": "200", "TZ": "UTC"},
        tty=True,
    )
    assert result.exit_code == 0, result.stderr
    lines = result.stdout.splitlines()
    assert lines[0].split() == [
        "id",
        "firstName",
        "lastName",
        "phone",
        "state",
        "status",
        "tags",
        "processing",
        "createdAt",
    ]
    # First and last name, tags by name (not JSON), the time whole.
    assert re.match(
        r"lead_a\s+Ada\s+Lovelace\s+\+15125550143\s+TX\s+New\s+Spanish speaking, Web\s+"
        r"Accepted\s+2026-11-20 09:30 UTC$",
        lines[1],
    ), lines[1]
    assert "Grace" in result.stdout and "Hopper" in result.stdout
    assert "futureField" not in result.stdout and '"name"' not in result.stdout
    assert "--cursor t1" in result.stderr
    assert len(httpx_mock.get_requests()) == 1  # no color: no lead statuses needed


def test_the_default_table_leaves_out_what_an_80_column_terminal_cannot_fit(
    httpx_mock: HTTPXMock,
) -> None:
    uuid = "28249c04-240c-4db0-9b47-35e18d6f1a2b"
    httpx_mock.add_response(method="POST", url=LIST_URL, json={"items": [{**LEAD_A, "id": uuid}]})
    result = run_cli(
        ["--no-color", "leads", "list"], env={**token_env(), "COLUMNS": "80"}, tty=True
    )
    assert result.exit_code == 0, result.stderr
    header, row = result.stdout.splitlines()
    assert row.split()[:4] == [uuid, "Ada", "Lovelace", "+15125550143"]
    assert "createdAt" not in header
    assert "not shown at 80 columns:" in result.stderr and "createdAt" in result.stderr


@pytest.mark.parametrize(
    ("args", "env", "shown"),
    [
        ([], {"TZ": "America/Chicago"}, "2026-11-20 03:30 CST"),
        (["--utc"], {"TZ": "America/Chicago"}, "2026-11-20 09:30 UTC"),
        ([], {"TZ": "UTC", "profile": "Europe/Berlin"}, "2026-11-20 10:30 CET"),
        (["--utc"], {"TZ": "UTC", "profile": "Europe/Berlin"}, "2026-11-20 09:30 UTC"),
    ],
)
def test_times_are_shown_in_the_profiles_or_the_systems_zone(
    httpx_mock: HTTPXMock, tmp_path: Path, args: list[str], env: dict[str, str], shown: str
) -> None:
    httpx_mock.add_response(method="POST", url=LIST_URL, json={"items": [LEAD_A]})
    if "profile" in env:
        (tmp_path / "config.toml").write_text(
            f'[profiles.default]\ntimezone = "{env["profile"]}"\n'
        )
    result = run_cli(
        [*args, "leads", "list", "-o", "table", "--columns", "id,createdAt"],
        env={**token_env(), "TZ": env["TZ"], "LEADCTL_CONFIG_DIR": str(tmp_path)},
    )
    assert result.exit_code == 0, result.stderr
    assert result.stdout.splitlines()[1].split(None, 1) == ["lead_a", shown]
