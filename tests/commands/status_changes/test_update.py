"""``leadctl status-changes update`` in process.

``leadctl status-changes update`` and ``delete``, in process against pytest-httpx stubs."""

from __future__ import annotations

import json

import pytest
from pytest_httpx import HTTPXMock

from tests.commands.status_changes._support import CHANGE_URL, ENTRY, sent_json
from tests.support.cli import ORG_KEY, run_cli, token_env
from tests.support.keyrings import DictKeyring
from tests.support.profiles import declared_profile


def test_update_sends_every_field_flag(httpx_mock: HTTPXMock) -> None:
    httpx_mock.add_response(method="PUT", url=CHANGE_URL, json=ENTRY)
    result = run_cli(
        [
            "status-changes",
            "update",
            "chg_1",
            "--type",
            "Call",
            "--outcome",
            "Appointment set",
            "--category",
            "qualified",
            "--notes",
            "wants a quote",
            "--reason",
            "asked for it",
            "--follow-up-status",
            "Scheduled",
            "--callback-at",
            "2026-11-21T14:00:00Z",
            "--task-due-at",
            "2026-11-22T09:00:00+01:00",
            "--appointment-start-at",
            "2026-11-23T10:00:00-05:00",
            "--appointment-end-at",
            "2026-11-23T15:30:00.250Z",
            "--appointment-notes",
            "bring samples",
        ],
        env=token_env(),
    )
    assert result.exit_code == 0, result.stderr
    request = httpx_mock.get_request()
    assert request is not None
    assert request.method == "PUT"
    assert request.url == CHANGE_URL
    assert request.headers["Authorization"] == f"Bearer {ORG_KEY}"
    assert request.headers["Content-Type"] == "application/json"
    assert sent_json(request) == {
        "type": "Call",
        "outcome": "Appointment set",
        "category": "Qualified",
        "notes": "wants a quote",
        "reason": "asked for it",
        "followUpStatus": "Scheduled",
        "appointmentNotes": "bring samples",
        "callbackAt": "2026-11-21T14:00:00Z",
        "taskDueAt": "2026-11-22T08:00:00Z",
        "appointmentStartAt": "2026-11-23T15:00:00Z",
        "appointmentEndAt": "2026-11-23T15:30:00.250Z",
    }
    assert json.loads(result.stdout) == ENTRY


def test_update_sends_only_what_was_given(httpx_mock: HTTPXMock) -> None:
    httpx_mock.add_response(method="PUT", url=CHANGE_URL, json=ENTRY)
    result = run_cli(["status-changes", "update", "chg_1", "--notes", ""], env=token_env())
    assert result.exit_code == 0, result.stderr
    request = httpx_mock.get_request()
    assert request is not None
    assert sent_json(request) == {"notes": ""}


@pytest.mark.parametrize(
    ("given", "sent"),
    [
        ("open", "Open"),
        ("QUALIFIED", "Qualified"),
        ("Converted", "Converted"),
        ("lOsT", "Lost"),
        ("invalid", "Invalid"),
        (" duplicate ", "Duplicate"),
    ],
)
def test_categories_are_accepted_in_any_case_and_sent_canonically(
    httpx_mock: HTTPXMock, given: str, sent: str
) -> None:
    httpx_mock.add_response(method="PUT", url=CHANGE_URL, json=ENTRY)
    result = run_cli(["status-changes", "update", "chg_1", "--category", given], env=token_env())
    assert result.exit_code == 0, result.stderr
    request = httpx_mock.get_request()
    assert request is not None
    assert sent_json(request) == {"category": sent}


def test_flags_are_merged_over_data_and_data_can_clear_fields(httpx_mock: HTTPXMock) -> None:
    httpx_mock.add_response(method="PUT", url=CHANGE_URL, json=ENTRY)
    data = {"callbackAt": None, "notes": "from data", "outcome": "from data", "custom": 1}
    result = run_cli(
        ["status-changes", "update", "chg_1", "--data", json.dumps(data), "--outcome", "Won"],
        env=token_env(),
    )
    assert result.exit_code == 0, result.stderr
    request = httpx_mock.get_request()
    assert request is not None
    assert sent_json(request) == {
        "callbackAt": None,
        "notes": "from data",
        "outcome": "Won",
        "custom": 1,
    }


def test_data_from_stdin(httpx_mock: HTTPXMock) -> None:
    httpx_mock.add_response(method="PUT", url=CHANGE_URL, json=ENTRY)
    result = run_cli(
        ["status-changes", "update", "chg_1", "--data", "-"],
        env=token_env(),
        stdin='{"reason": "piped"}',
    )
    assert result.exit_code == 0, result.stderr
    request = httpx_mock.get_request()
    assert request is not None
    assert sent_json(request) == {"reason": "piped"}


def test_local_times_use_the_system_zone_without_a_profile_timezone(
    httpx_mock: HTTPXMock, monkeypatch: pytest.MonkeyPatch
) -> None:
    import time

    if not hasattr(time, "tzset"):
        pytest.skip("needs time.tzset to switch the system zone")
    monkeypatch.setenv("TZ", "Europe/Berlin")
    time.tzset()
    try:
        httpx_mock.add_response(method="PUT", url=CHANGE_URL, json=ENTRY)
        result = run_cli(
            ["status-changes", "update", "chg_1", "--callback-at", "2026-11-21T15:00"],
            env=token_env(),
        )
    finally:
        monkeypatch.undo()
        time.tzset()
    assert result.exit_code == 0, result.stderr
    request = httpx_mock.get_request()
    assert request is not None
    assert sent_json(request) == {"callbackAt": "2026-11-21T14:00:00Z"}


def test_the_appointment_may_start_and_end_at_the_same_time(httpx_mock: HTTPXMock) -> None:
    httpx_mock.add_response(method="PUT", url=CHANGE_URL, json=ENTRY)
    result = run_cli(
        [
            "status-changes",
            "update",
            "chg_1",
            "--appointment-start-at",
            "2026-11-23T10:00-05:00",
            "--appointment-end-at",
            "2026-11-23T15:00Z",
        ],
        env=token_env(),
    )
    assert result.exit_code == 0, result.stderr


@pytest.mark.parametrize(
    ("args", "message"),
    [
        ([], "nothing to update"),
        (["--data", "{}"], "nothing to update"),
        (["--data", "[]"], "--data must be a JSON object"),
        (["--data", "nope"], "--data: invalid JSON"),
        (
            ["--category", "Won"],
            "--category 'Won' is not a category",
        ),
        (["--callback-at", "next week"], "--callback-at 'next week': expected an ISO 8601"),
        (["--task-due-at", "2026-02-30"], "--task-due-at '2026-02-30': day is out of range"),
        (
            ["--appointment-start-at", "2026-11-21T25:00Z"],
            "--appointment-start-at '2026-11-21T25:00Z': hour must be in 0..23",
        ),
        (
            ["--appointment-end-at", "2026-11-21T10:00+24:00"],
            "--appointment-end-at '2026-11-21T10:00+24:00': offset +24:00 is out of range",
        ),
        (
            [
                "--appointment-start-at",
                "2026-11-23T15:00Z",
                "--appointment-end-at",
                "2026-11-23T09:59-05:00",
            ],
            "the appointment ends (2026-11-23T14:59:00Z) before it starts (2026-11-23T15:00:00Z)",
        ),
        (
            [
                "--data",
                '{"appointmentStartAt": "2026-11-23T15:00:00Z"}',
                "--appointment-end-at",
                "2026-11-23T14:00Z",
            ],
            "before it starts",
        ),
    ],
)
def test_update_bad_input_is_exit_2_and_sends_nothing(
    httpx_mock: HTTPXMock, args: list[str], message: str
) -> None:
    result = run_cli(["status-changes", "update", "chg_1", *args], env=token_env())
    assert result.exit_code == 2, result.stderr
    assert message in result.stderr
    assert result.stdout == ""
    assert httpx_mock.get_requests() == []


def test_a_bad_category_error_lists_the_categories(httpx_mock: HTTPXMock) -> None:
    result = run_cli(["status-changes", "update", "chg_1", "--category", "won"], env=token_env())
    assert result.exit_code == 2
    assert "Open, Qualified, Converted, Lost, Invalid, Duplicate" in result.stderr
    assert httpx_mock.get_requests() == []


def test_update_with_a_source_key_is_exit_4_before_sending(
    httpx_mock: HTTPXMock, memory_keyring: DictKeyring
) -> None:
    declared_profile(memory_keyring, value="src_live_abcdefghijklmnop", kind="source")
    result = run_cli(["status-changes", "update", "chg_1", "--notes", "x"])
    assert result.exit_code == 4
    assert httpx_mock.get_requests() == []


@pytest.mark.parametrize(("status", "exit_code"), [(400, 6), (401, 3), (403, 4), (404, 5)])
def test_update_error_statuses(httpx_mock: HTTPXMock, status: int, exit_code: int) -> None:
    httpx_mock.add_response(
        method="PUT",
        url=CHANGE_URL,
        status_code=status,
        json={"title": "Problem", "status": status, "errors": {"category": ["bad"]}},
        headers={"Content-Type": "application/problem+json"},
    )
    result = run_cli(["status-changes", "update", "chg_1", "--notes", "x"], env=token_env())
    assert result.exit_code == exit_code
    assert result.stdout == ""
    assert "category: bad" in result.stderr


def test_update_is_retried_as_a_put(httpx_mock: HTTPXMock) -> None:
    httpx_mock.add_response(method="PUT", url=CHANGE_URL, status_code=503)
    httpx_mock.add_response(method="PUT", url=CHANGE_URL, json=ENTRY)
    result = run_cli(["status-changes", "update", "chg_1", "--notes", "x"], env=token_env())
    assert result.exit_code == 0, result.stderr
    assert len(httpx_mock.get_requests()) == 2


def test_update_on_a_terminal_shows_the_entry(httpx_mock: HTTPXMock) -> None:
    httpx_mock.add_response(method="PUT", url=CHANGE_URL, json=ENTRY)
    result = run_cli(
        ["status-changes", "update", "chg_1", "--category", "qualified"],
        env={**token_env(), "NO_COLOR": "1", "TZ": "UTC"},
        tty=True,
    )
    assert result.exit_code == 0, result.stderr
    for expected in (
        "chg_1",
        "lead_1",
        "Ada Lovelace",
        "Qualified",
        "Appointment set",
        "2026-11-21 14:00 UTC",
        "2026-11-23 15:30 UTC",
    ):
        assert expected in result.stdout
    assert "\x1b[" not in result.stdout


def test_update_shows_times_in_the_local_zone(httpx_mock: HTTPXMock) -> None:
    """A 09:30 callback typed in Chicago reads 09:30 CST back, not 15:30 UTC (--utc)."""
    answer = {**ENTRY, "callbackAt": "2026-12-01T15:30:00.000Z"}
    for _ in range(2):
        httpx_mock.add_response(method="PUT", url=CHANGE_URL, json=answer)
    env = {**token_env(), "NO_COLOR": "1", "TZ": "America/Chicago"}
    args = ["status-changes", "update", "chg_1", "--category", "qualified"]
    local = run_cli(args, env=env, tty=True)
    assert "2026-12-01 09:30 CST" in local.stdout and "15:30" not in local.stdout
    utc = run_cli(["--utc", *args], env=env, tty=True)
    assert "2026-12-01 15:30 UTC" in utc.stdout


def test_update_csv(httpx_mock: HTTPXMock) -> None:
    httpx_mock.add_response(method="PUT", url=CHANGE_URL, json=ENTRY)
    result = run_cli(
        [
            "status-changes",
            "update",
            "chg_1",
            "--notes",
            "x",
            "-o",
            "csv",
            "--columns",
            "id,category,callbackAt",
        ],
        env=token_env(),
    )
    assert result.exit_code == 0, result.stderr
    assert result.stdout.splitlines() == [
        "id,category,callbackAt",
        "chg_1,Qualified,2026-11-21T14:00:00.000Z",
    ]


def test_update_run_sends_the_canonical_category_and_utc_times(httpx_mock: HTTPXMock) -> None:
    from leadctl.commands.status_changes import update
    from tests.support.run_context import direct_context, stdout_of

    httpx_mock.add_response(method="PUT", url=CHANGE_URL, json=ENTRY)
    ctx = direct_context(output="value", columns=["id"])
    opts = update.Options(
        change_id="chg_1",
        category="CONVERTED",
        callback_at="2026-11-21T09:00-05:00",
        data='{"notes": null}',
    )
    update.run(opts, ctx)
    request = httpx_mock.get_request()
    assert request is not None
    assert sent_json(request) == {
        "category": "Converted",
        "callbackAt": "2026-11-21T14:00:00Z",
        "notes": None,
    }
    assert stdout_of(ctx) == "chg_1\n"


def test_update_run_refuses_an_appointment_ending_before_it_starts(
    httpx_mock: HTTPXMock,
) -> None:
    from leadctl.commands.status_changes import update
    from leadctl.errors import UsageError
    from tests.support.run_context import direct_context

    opts = update.Options(
        change_id="chg_1",
        appointment_start_at="2026-11-23T15:00:00Z",
        appointment_end_at="2026-11-23T14:30:00Z",
    )
    with pytest.raises(UsageError, match=r"ends .* before it starts"):
        update.run(opts, direct_context())
    assert httpx_mock.get_requests() == []
