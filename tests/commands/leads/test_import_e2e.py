"""`leadctl leads import` against the sandbox: bad rows, a dropped answer, --resume, 429s.

Every lead carries an e-mail with a marker unique to the test, so listing by that marker
shows exactly what the imports created: each row once, none lost, none twice.

Each guarantee meets the installed program once (exit codes, stdin, the report on stdout, the
terminal, a 429 waited out); the reads that count what was created, seeding, a resume's
second run and the variants (a source key, a known rate) run in-process (``run_in_process``:
the same command tree and socket).
"""

from __future__ import annotations

import json
import uuid
from collections import Counter
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.support.e2e import run_leadctl, run_leadctl_tty
from tests.support.in_process import run_in_process
from tests.support.sandbox_fixtures import CredentialEnv, credential_env
from tests.support.sandbox_server import SandboxProcess, sandbox_server

pytestmark = pytest.mark.e2e

HEADER = "firstName,lastName,phone,email,state,tags[]"


def marker() -> str:
    return f"imp{uuid.uuid4().hex[:10]}"


def email(mark: str, n: int) -> str:
    return f"{mark}-{n}@e2e.example"


def listed_emails(env: CredentialEnv, mark: str) -> Counter[str]:
    result = run_in_process(
        [
            "leads", "list", "--search", mark, "--search-field", "email", "--all",
            "--page-size", "200", "-o", "ndjson",
        ],
        env=env,
    )  # fmt: skip
    assert result.exit_code == 0, result.stderr
    return Counter(json.loads(line)["email"] for line in result.stdout.splitlines())


def report(path: Path) -> list[dict[str, Any]]:
    """A report's outcome lines (its write-ahead 'sending' lines left out)."""
    found = [json.loads(line) for line in path.read_text().splitlines()]
    return [line for line in found if line["outcome"] != "sending"]


def lead_posts(sandbox: SandboxProcess, mark: str) -> int:
    return sum(
        1
        for entry in sandbox.requests()
        if entry["method"] == "POST" and entry["path"] == "/leads" and mark in str(entry["body"])
    )


def test_bad_rows_a_dropped_answer_and_resume_leave_each_lead_exactly_once(
    sandbox: SandboxProcess, org_env: CredentialEnv, tmp_path: Path
) -> None:
    mark = marker()
    lines = [HEADER]
    valid: list[str] = []
    for n in range(1, 51):
        if n == 7:
            lines.append("Short,Row")  # 2 fields where the header has 6
        elif n == 19:
            lines.append("")  # an empty line
        elif n == 23:
            lines.append(f"Bad,Phone,12345,{email(mark, n)},TX,")  # national, no region
        elif n == 31:
            lines.append(f"Bad,Email,+15125550131,{mark}-not-an-email,TX,")  # the service: 400
        else:
            lines.append(f"Ada{n},Import,+1512555{n:04d},{email(mark, n)},TX,{mark}")
            valid.append(email(mark, n))
    leads = tmp_path / "leads.csv"
    leads.write_text("\n".join(lines) + "\n")
    outcomes = tmp_path / "outcomes.ndjson"
    # The first lead is created, then its connection is closed before the answer.
    sandbox.add_fault("/leads", "drop-after", method="POST", count=1)

    first = run_leadctl(["leads", "import", str(leads), "--report", str(outcomes)], env=org_env)

    assert first.exit_code == 9, first.stderr
    assert first.stdout == ""
    by_outcome = Counter(line["outcome"] for line in report(outcomes))
    assert by_outcome == {"created": 45, "unknown": 1, "invalid": 3, "rejected": 1}
    rows = {line["row"]: line for line in report(outcomes)}
    assert {n for n, line in rows.items() if line["outcome"] == "invalid"} == {7, 19, 23}
    assert rows[31]["outcome"] == "rejected"
    assert rows[31]["error"]["status"] == 400
    [unknown_row] = [n for n, line in rows.items() if line["outcome"] == "unknown"]
    assert "45 created, 1 rejected, 3 invalid, 1 unknown" in first.stderr
    assert "1 row with an unknown outcome" in first.stderr
    posts_before = lead_posts(sandbox, mark)
    assert posts_before == 47  # every valid row and the one the service rejected, once

    again = run_in_process(["leads", "import", str(leads), "--resume", str(outcomes)], env=org_env)

    # Created rows are skipped, the unknown one stays unknown (exit 9) and is not sent
    # again; the rejected and invalid ones fail again.
    assert again.exit_code == 9, again.stderr
    assert "45 skipped" in again.stderr and "1 still unknown" in again.stderr
    assert lead_posts(sandbox, mark) == posts_before + 1
    # drop-after created the unknown row's lead: it exists once, and so does every other.
    emails = listed_emails(org_env, mark)
    assert emails == Counter(valid)
    assert email(mark, unknown_row) in emails


def test_stdin_ndjson_with_the_report_on_stdout(
    sandbox: SandboxProcess, org_env: CredentialEnv
) -> None:
    mark = marker()
    text = "".join(
        json.dumps({"email": email(mark, n), "tags": [mark], "state": "TX"}) + "\n"
        for n in range(5)
    )

    result = run_leadctl(["leads", "import", "-", "--report", "-"], env=org_env, stdin=text)

    assert result.exit_code == 0, result.stderr
    outcomes = [json.loads(line) for line in result.stdout.splitlines()]
    assert sorted(line["row"] for line in outcomes) == [1, 2, 3, 4, 5]
    assert all(line["outcome"] == "created" and line["id"] for line in outcomes)
    assert listed_emails(org_env, mark) == Counter(email(mark, n) for n in range(5))


def test_a_source_key_may_import(sandbox: SandboxProcess, env_for: Any, tmp_path: Path) -> None:
    mark = marker()
    leads = tmp_path / "leads.ndjson"
    leads.write_text(json.dumps({"email": email(mark, 1)}) + "\n")

    result = run_in_process(
        ["leads", "import", str(leads)], env=env_for(sandbox.credentials.source)
    )

    assert result.exit_code == 0, result.stderr


def test_terminal_stdout_changes_nothing(org_env: CredentialEnv, tmp_path: Path) -> None:
    mark = marker()
    leads = tmp_path / "leads.csv"
    leads.write_text(f"email\n{email(mark, 1)}\n")

    result = run_leadctl_tty(["leads", "import", str(leads)], env=org_env)

    assert result.exit_code == 0, result.stderr
    assert result.stdout == ""
    assert "1 created" in result.stderr


@pytest.fixture(scope="module")
def limited() -> Iterator[SandboxProcess]:
    """A sandbox that allows 5 requests per second per credential."""
    with sandbox_server(rate_limit=5, faults=True) as server:
        yield server


def test_a_rate_limited_service_gets_every_row_once_at_its_pace(
    limited: SandboxProcess, tmp_path: Path
) -> None:
    env = credential_env(limited, limited.credentials.org)
    mark = marker()
    leads = tmp_path / "leads.ndjson"
    leads.write_text("".join(json.dumps({"email": email(mark, n)}) + "\n" for n in range(15)))

    result = run_leadctl(["leads", "import", str(leads), "--concurrency", "8"], env=env)

    assert result.exit_code == 0, result.stderr
    assert "15 created" in result.stderr
    assert "rate limited" in result.stderr  # 15 rows at 5/s cannot go without a 429
    statuses = Counter(
        entry["status"]
        for entry in limited.requests()
        if entry["method"] == "POST" and mark in str(entry["body"])
    )
    assert statuses[202] == 15
    # Paused and paced after a 429: a few refusals, not one per attempt.
    assert statuses[429] <= 8 * 2
    assert listed_emails(env, mark) == Counter(email(mark, n) for n in range(15))


def test_a_known_limit_paces_from_the_first_row_without_a_429(
    limited: SandboxProcess, tmp_path: Path
) -> None:
    env = credential_env(limited, limited.credentials.org)
    mark = marker()
    leads = tmp_path / "leads.ndjson"
    leads.write_text("".join(json.dumps({"email": email(mark, n)}) + "\n" for n in range(15)))

    result = run_in_process(
        ["leads", "import", str(leads), "--concurrency", "8", "--rate", "5/1s"], env=env
    )

    assert result.exit_code == 0, result.stderr
    assert "15 created" in result.stderr and "rate limited" not in result.stderr
    statuses = Counter(
        entry["status"]
        for entry in limited.requests()
        if entry["method"] == "POST" and mark in str(entry["body"])
    )
    assert statuses == {202: 15}


# -- an export imports back unchanged --------------------------------------------------

# Values an export must carry through: a formula from a web form, a comma and quotes,
# a line break, tags with spaces, a lead with no phone or tags.
ROUND_TRIP = [
    {"firstName": "=HYPERLINK(\"http://evil.example\")", "phone": "+15125550181",
     "state": "TX", "tags": ["hot", "spring 2026"]},
    {"firstName": 'Ann, "Jr"', "email": "ann@e2e.example", "product": "solar",
     "tags": ["@home"]},
    {"firstName": "Two\nlines", "phone": "+12105550182", "tags": []},
]  # fmt: skip
EXPORTED = "firstName,lastName,email,phone,state,product,tags[].name"


def exported(env: CredentialEnv, mark: str, columns: str) -> list[dict[str, str]]:
    import csv
    import io

    result = run_in_process(
        ["leads", "list", "--search", mark, "--search-field", "lastName", "--all",
         "-o", "csv", "--columns", columns],
        env=env,
    )  # fmt: skip
    assert result.exit_code == 0, result.stderr
    return list(csv.DictReader(io.StringIO(result.stdout, newline="")))


def test_an_export_imports_back_unchanged(org_env: CredentialEnv, tmp_path: Path) -> None:
    mark = marker()
    for lead in ROUND_TRIP:
        created = run_in_process(
            ["leads", "create", "--data", json.dumps({**lead, "lastName": mark})], env=org_env
        )
        assert created.exit_code == 0, created.stderr
    export = tmp_path / "export.csv"
    listed = run_leadctl(
        ["leads", "list", "--search", mark, "--search-field", "lastName", "--all", "-o", "csv",
         "--columns", f"id,{EXPORTED},createdAt"],
        env=org_env,
    )  # fmt: skip
    assert listed.exit_code == 0, listed.stderr
    export.write_text(listed.stdout, encoding="utf-8")
    assert "'=HYPERLINK" in listed.stdout  # the formula reaches no spreadsheet as one

    imported = run_in_process(["leads", "import", str(export)], env=org_env)

    assert imported.exit_code == 0, imported.stderr
    assert "3 created" in imported.stderr
    rows = exported(org_env, mark, EXPORTED)
    originals = [row for row in csv_rows_of(listed.stdout)]
    assert len(rows) == 6
    assert Counter(tuple(sorted(row.items())) for row in rows) == Counter(
        tuple(sorted(row.items())) for row in originals for _ in range(2)
    )


def csv_rows_of(text: str) -> list[dict[str, str]]:
    import csv
    import io

    return [
        {key: value for key, value in row.items() if key in EXPORTED.split(",")}
        for row in csv.DictReader(io.StringIO(text, newline=""))
    ]
