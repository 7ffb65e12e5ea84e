"""``--all`` under faults on later pages: every item exactly once, in the service's order.

Fault rules are taken in the order they were added, so PASS entries let the first pages
through and the faults land on the pages after them; each retry is one more request.
"""

from __future__ import annotations

import json

import pytest

from tests.faults.support import PASS, env_for, inject, no_traceback, run_timed, sent
from tests.support.sandbox_server import SandboxProcess

pytestmark = pytest.mark.e2e

LEADS = "/leads/all/my"
ANNOUNCEMENTS = "/notifications/announcements"
LIST_ALL = ["leads", "list", "--all", "--page-size", "40", "-o", "ndjson"]


def ids(stdout: str) -> list[str]:
    return [json.loads(line)["id"] for line in stdout.splitlines()]


@pytest.fixture(scope="module")
def clean_ids(sandbox: SandboxProcess) -> list[str]:
    result = run_timed(LIST_ALL, env=env_for(sandbox))
    assert result.exit_code == 0, result.stderr
    found = ids(result.stdout)
    assert len(found) == len(set(found)) > 5 * 40  # six pages of 40
    return found


def test_faults_on_later_pages_yield_every_item_exactly_once(
    sandbox: SandboxProcess, clean_ids: list[str]
) -> None:
    sandbox.clear_requests()
    inject(
        sandbox,
        LEADS,
        "POST",
        [
            *(PASS, PASS),  # pages 1 and 2
            *("500", "429;retry-after=1", PASS),  # page 3: two faults, then through
            *("drop", PASS),  # page 4
            *("hang=3", PASS),  # page 5: slower than --timeout 1
            "drop-after",  # page 6: served, the answer lost; the retry is clean
        ],
    )
    result = run_timed(["--timeout", "1", *LIST_ALL], env=env_for(sandbox))
    assert result.exit_code == 0, result.stderr
    assert no_traceback(result)
    assert ids(result.stdout) == clean_ids
    assert result.stderr.count("retrying in") == 5
    assert "retrying in 1s: 429 rate limited" in result.stderr
    assert len(sent(sandbox, "POST", LEADS)) == 6 + 5


def test_every_page_request_carries_the_same_query(sandbox: SandboxProcess) -> None:
    """Retried pages resend their own token with the filters and sort unchanged."""
    sandbox.clear_requests()
    inject(sandbox, LEADS, "POST", [PASS, "500", PASS, "drop"])
    args = [
        *("leads", "list", "--all", "--page-size", "10", "-o", "ndjson"),
        *("--filter", "product=hvac", "--order-by", "-createdAt"),
    ]
    result = run_timed(args, env=env_for(sandbox))
    assert result.exit_code == 0, result.stderr
    bodies = [entry["body"] for entry in sent(sandbox, "POST", LEADS)]
    tokens = [body.pop("continuationToken", None) for body in bodies]
    assert all(body == bodies[0] for body in bodies)
    assert bodies[0]["filters"] == [{"field": "product", "value": "hvac"}]
    # Page 2 was sent twice (500), page 3 twice (drop): the retry repeats its token.
    assert tokens[0] is None
    assert tokens[1] == tokens[2] and tokens[3] == tokens[4]
    assert len(set(tokens[1:])) == len(tokens[1:]) - 2
    found = ids(result.stdout)
    assert len(found) == len(set(found))


def test_announcements_under_faults_match_a_clean_run(sandbox: SandboxProcess) -> None:
    args = ["notifications", "announcements", "--all", "--page-size", "4", "-o", "json"]
    clean = run_timed(args, env=env_for(sandbox))
    assert clean.exit_code == 0, clean.stderr
    inject(sandbox, ANNOUNCEMENTS, "POST", [PASS, "503", "429;retry-after=0", PASS, "drop"])
    result = run_timed(args, env=env_for(sandbox))
    assert result.exit_code == 0, result.stderr
    assert result.stdout == clean.stdout
    assert len(json.loads(result.stdout)) == 12


def test_a_later_page_failing_beyond_the_budget_says_where_to_resume(
    sandbox: SandboxProcess, clean_ids: list[str]
) -> None:
    """Exit 8; the pages before it were written whole, and the resume cursor on stderr
    continues exactly where they stopped."""
    inject(sandbox, LEADS, "POST", [PASS, PASS, "500", "500"])
    failed = run_timed(["--max-retries", "1", *LIST_ALL], env=env_for(sandbox))
    assert failed.exit_code == 8, failed.stderr
    assert no_traceback(failed)
    written = ids(failed.stdout)  # whole lines only: every one parses
    assert written == clean_ids[:80]
    error = json.loads(failed.stderr.splitlines()[-1])  # -o ndjson: a JSON error
    assert error["exitCode"] == 8
    cursor = error["hint"].split("--cursor ", 1)[1].split()[0]
    rest = run_timed([*LIST_ALL, "--cursor", cursor], env=env_for(sandbox))
    assert rest.exit_code == 0, rest.stderr
    assert written + ids(rest.stdout) == clean_ids


def test_a_text_error_also_names_the_cursor(sandbox: SandboxProcess) -> None:
    inject(sandbox, LEADS, "POST", [PASS, "drop", "drop"])
    failed = run_timed(
        ["--max-retries", "1", "leads", "list", "--all", "--page-size", "50"],
        env=env_for(sandbox),
    )
    assert failed.exit_code == 8, failed.stderr
    assert "(after 2 attempts)" in failed.stderr
    assert "resume with: --cursor " in failed.stderr
