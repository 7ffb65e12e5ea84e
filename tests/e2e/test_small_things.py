"""Small things a first hour trips on (issue 23 point 13), through the installed leadctl
(the quiet variant of a dry run in-process: ``run_in_process``, the same command tree)."""

from __future__ import annotations

from pathlib import Path

from tests.support.e2e import run_leadctl
from tests.support.in_process import run_in_process
from tests.support.sandbox_fixtures import CredentialEnv
from tests.support.sandbox_server import SandboxProcess


def test_import_says_text_is_not_a_phone_number(
    sandbox: SandboxProcess, org_env: CredentialEnv, tmp_path: Path
) -> None:
    rows = tmp_path / "leads.csv"
    rows.write_text(
        "firstName,phone,email\n"
        "Ada,call me maybe,ada-small@e2e.example\n"
        "Bo,+15125550123,bo-small@e2e.example\n",
        encoding="utf-8",
    )
    result = run_leadctl(["leads", "import", str(rows)], env=org_env)
    assert result.exit_code == 6, result.stderr
    (bad,) = [line for line in result.stderr.splitlines() if line.startswith("row 1:")]
    assert "'call me maybe' is not a phone number" in bad
    assert "national format" not in bad and "region" not in bad
    assert "1 created" in result.stderr


def test_a_national_number_without_a_region_still_says_so(org_env: CredentialEnv) -> None:
    result = run_leadctl(["leads", "create", "--field", "phone=5125550123"], env=org_env)
    assert result.exit_code == 2
    assert "national format and no region is set" in result.stderr


def test_dry_run_on_the_embedded_sandbox_says_its_url_answers_nothing() -> None:
    result = run_leadctl(["-p", "sandbox", "--dry-run", "leads", "list"])
    assert result.exit_code == 0, result.stderr
    assert result.stdout.startswith("curl ") and "http://sandbox.localhost/" in result.stdout
    assert "answers inside leadctl only, so that URL answers nothing" in result.stderr
    assert "`leadctl sandbox serve`" in result.stderr
    quiet = run_in_process(["-p", "sandbox", "--dry-run", "-q", "leads", "list"])
    assert quiet.exit_code == 0 and quiet.stderr == ""


def test_dry_run_against_a_served_sandbox_says_nothing_of_ports(
    org_env: CredentialEnv,
) -> None:
    result = run_leadctl(["--dry-run", "leads", "list"], env=org_env)
    assert result.exit_code == 0, result.stderr
    assert "port" not in result.stderr
