"""Hints that work when followed (issue 23 point 9), through the installed leadctl: they
name the profile typed with -p, suggest only what the credential may run, name the
command's own flags, and fit an 80-column terminal without breaking a token.

Each hint is read from the installed program's stderr or terminal once; the profile a test
sets up, its variants (once the profile is the current one) and following a hint's cursor
run in-process (``run_in_process``: the same command tree)."""

from __future__ import annotations

import json
import re
from pathlib import Path

from tests.support.e2e import run_leadctl, run_leadctl_terminal
from tests.support.in_process import run_in_process
from tests.support.sandbox_fixtures import CredentialEnv

SGR = re.compile(r"\x1b\[[0-9;]*m")
NO_TOKEN = {"LEADCTL_TOKEN": "", "LEADCTL_TOKEN_FILE": ""}


def test_the_login_hint_carries_the_profile_typed_with_p() -> None:
    made = run_in_process(["-p", "prod", "profile", "set", "base_url", "https://api.example.com"])
    assert made.exit_code == 0, made.stderr
    for line in (["-p", "prod", "leads", "list"], ["leads", "list", "-p", "prod"]):
        result = run_leadctl(line, env=NO_TOKEN)
        assert result.exit_code == 3, result.stderr
        assert "`leadctl -p prod auth login`" in result.stderr
    # Even once prod is the current profile: the copied command must not depend on that.
    assert run_in_process(["profile", "use", "prod"]).exit_code == 0
    typed = run_in_process(["-p", "prod", "leads", "list"], env=NO_TOKEN)
    assert "`leadctl -p prod auth login`" in typed.stderr
    current = run_in_process(["leads", "list"], env=NO_TOKEN)
    assert "`leadctl auth login`" in current.stderr


def test_after_intake_with_a_source_key_no_read_is_suggested(source_env: CredentialEnv) -> None:
    created = run_leadctl(
        ["leads", "create", "--field", "email=hint@example.test", "--field", "state=TX"],
        env=source_env,
    )
    assert created.exit_code == 0, created.stderr
    lead = json.loads(created.stdout)
    assert lead["processingStatus"] == "Pending"
    assert "a source key cannot read leads back" in created.stderr
    assert "leadctl leads" not in created.stderr  # nothing this key could run


def test_after_intake_with_an_organization_key_the_check_is_suggested(
    org_env: CredentialEnv,
) -> None:
    created = run_leadctl(["leads", "create", "--field", "email=hint2@example.test"], env=org_env)
    assert created.exit_code == 0, created.stderr
    lead_id = json.loads(created.stdout)["id"]
    assert f"`leadctl leads list --filter id={lead_id}`" in created.stderr


def stderr_lines_fit(shown: str, width: int) -> list[str]:
    """The lines wider than ``width`` that could have been broken at a space."""
    wide = []
    for line in SGR.sub("", shown).splitlines():
        if len(line) > width and " " in line.strip():
            wide.append(line)
    return wide


def test_long_hints_break_at_spaces_at_80_columns(isolated_env: Path) -> None:
    shown = run_leadctl_terminal(
        ["-p", "sandbox", "leads", "list"], env={"LEADCTL_PAGER": "cat"}, columns=80
    )
    assert shown.exit_code == 0, shown.stdout
    plain = SGR.sub("", shown.stdout)
    assert "(pick columns with --columns)" in " ".join(plain.split())
    assert "--columns)" in plain  # the flag is whole, on one line
    cursor = re.search(r"--cursor\s+(\S+)", plain)  # the token has a line of its own
    assert cursor is not None, plain
    # The token on the terminal is the one that resumes: nothing was cut out of it.
    resumed = run_in_process(["-p", "sandbox", "leads", "list", "--cursor", cursor.group(1)])
    assert resumed.exit_code == 0, resumed.stderr
    assert stderr_lines_fit(shown.stdout, 80) == []


def test_an_error_hint_breaks_at_spaces_and_keeps_commands_whole() -> None:
    shown = run_leadctl_terminal(["sources", "list"], columns=60)
    assert shown.exit_code == 2
    plain = shown.stdout
    assert "`leadctl contract pull`" in plain
    assert "`leadctl contract import FILE|URL`" in plain
    assert stderr_lines_fit(plain, 60) == []
    piped = run_leadctl(["sources", "list"], env={"COLUMNS": "60"})
    hint = piped.stderr.splitlines()[2]  # one line when it goes to a file or pipe
    assert len(hint) > 60 and "contract pull" in hint
