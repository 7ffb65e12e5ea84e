"""``leadctl status-changes``, what its verbs share.

``leadctl status-changes update`` and ``delete``, in process against pytest-httpx stubs."""

from __future__ import annotations

from pytest_httpx import HTTPXMock

from tests.commands.status_changes._support import CHANGE_URL, ENTRY, sent_json, write_profile
from tests.support.cli import BASE_URL, ORG_KEY, run_cli


def test_local_times_use_the_profile_timezone(httpx_mock: HTTPXMock) -> None:
    write_profile(f'[profiles.ops]\nbase_url = "{BASE_URL}"\ntimezone = "America/New_York"\n')
    httpx_mock.add_response(method="PUT", url=CHANGE_URL, json=ENTRY)
    result = run_cli(
        [
            "-p",
            "ops",
            "status-changes",
            "update",
            "chg_1",
            "--callback-at",
            "2026-11-21T09:00",
            "--task-due-at",
            "2026-07-01",
        ],
        env={"LEADCTL_TOKEN": ORG_KEY},
    )
    assert result.exit_code == 0, result.stderr
    request = httpx_mock.get_request()
    assert request is not None
    assert sent_json(request) == {
        "callbackAt": "2026-11-21T14:00:00Z",
        # Midnight, in summer time on that date.
        "taskDueAt": "2026-07-01T04:00:00Z",
    }


def test_a_local_time_the_clocks_skip_is_exit_2(httpx_mock: HTTPXMock) -> None:
    write_profile(f'[profiles.ops]\nbase_url = "{BASE_URL}"\ntimezone = "America/New_York"\n')
    result = run_cli(
        ["-p", "ops", "status-changes", "update", "chg_1", "--callback-at", "2026-03-08T02:30"],
        env={"LEADCTL_TOKEN": ORG_KEY},
    )
    assert result.exit_code == 2
    assert "does not exist in America/New_York" in result.stderr
    assert httpx_mock.get_requests() == []
