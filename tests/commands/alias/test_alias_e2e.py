"""Aliases through the installed ``leadctl`` (issue 33 point 2), each run a process of its
own with the test's isolated home (tests/conftest.py); ``-p sandbox`` is the embedded
sandbox, so the expanded reads need no server."""

from __future__ import annotations

import json

from leadctl.errors import ExitCode
from tests.support.e2e import run_leadctl


def test_done_when_tx_prints_two_leads_in_tx() -> None:
    made = run_leadctl(["alias", "set", "tx", "leads list --filter state=TX --limit 2"])
    assert made.exit_code == 0, made.stderr
    result = run_leadctl(["-p", "sandbox", "tx", "-o", "json"])
    assert result.exit_code == 0, result.stderr
    leads = json.loads(result.stdout)
    assert len(leads) == 2
    assert all(lead["state"] == "TX" for lead in leads)


def test_an_alias_named_like_a_command_is_refused_with_exit_2() -> None:
    result = run_leadctl(["alias", "set", "leads", "leads list --limit 1"])
    assert result.exit_code == ExitCode.USAGE
    assert "an alias never shadows one" in result.stderr


def test_a_shell_alias_gets_its_arguments_and_no_credential() -> None:
    script = (
        "leadctl leads list --filter state=$1 --limit 2 -o json --jq '.[].state' | sort -u; "
        'echo "args=$# name=$0 profile=$LEADCTL_PROFILE token=${LEADCTL_TOKEN-none}"; exit 3'
    )
    made = run_leadctl(["alias", "set", "--shell", "st", script])
    assert made.exit_code == 0, made.stderr
    result = run_leadctl(
        ["-p", "sandbox", "st", "CA", "more"], env={"LEADCTL_TOKEN": "sk_live_never_passed_on"}
    )
    # The shell's own exit code is leadctl's; -p reached the leadctl inside the pipeline.
    assert result.exit_code == 3, result.stderr
    assert result.stdout.splitlines() == ["CA", "args=2 name=st profile=sandbox token=none"]


def test_a_global_flag_with_no_variable_is_refused_before_a_shell_alias() -> None:
    assert run_leadctl(["alias", "set", "--shell", "hi", "echo hi"]).exit_code == 0
    result = run_leadctl(["-q", "hi"])
    assert result.exit_code == ExitCode.USAGE
    assert "--quiet cannot go to a shell alias" in result.stderr
    assert result.stdout == ""
