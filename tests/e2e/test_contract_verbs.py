"""Commands that come from the contract are visible (issue 23 point 2, issue 21 point 13),
through the installed leadctl: a group's help lists the active contract's verbs, cheaply,
and a verb the active contract lacks says where such verbs come from.

Help is printed by Click to the process's stdout: it stays installed, as does each exit 2 a
test is about. Importing a contract and compiling the sandbox's (setting up) and a test's
second refusal run in-process (``run_in_process``: the same command tree and dirs)."""

from __future__ import annotations

import json
from pathlib import Path

from tests.generated.contracts import widgets
from tests.support.e2e import run_leadctl
from tests.support.importtime import imported, loaded
from tests.support.in_process import run_in_process

HEAVY = ("httpx", "rich", "pydantic", "keyring", "jsonschema_rs", "leadctl.contract.index")


def test_a_groups_help_lists_the_active_contracts_verbs() -> None:
    sandbox = run_leadctl(["-p", "sandbox", "sources", "--help"])
    assert sandbox.exit_code == 0, sandbox.stderr
    commands = sandbox.stdout.split("Commands:", 1)[1].split()
    assert {"update", "rotate", "list", "get"} <= set(commands)
    bundled = run_in_process(["sources", "--help"])
    assert "list" not in bundled.stdout.split("Commands:", 1)[1].split()


def test_a_profile_after_the_group_picks_the_commands_of_its_contract() -> None:
    # Which generated verbs exist depends on the profile: it is read ahead of the parse.
    sandbox = run_leadctl(["sources", "--help", "-p", "sandbox"])
    assert sandbox.exit_code == 0, sandbox.stderr
    assert {"list", "get"} <= set(sandbox.stdout.split("Commands:", 1)[1].split())


def test_a_groups_help_reads_only_the_compiled_index() -> None:
    assert run_in_process(["-p", "sandbox", "sources", "--help"]).exit_code == 0  # compiled
    names = imported(["-p", "sandbox", "sources", "--help"])
    assert loaded(names, HEAVY) == []


def test_a_verb_the_bundled_contract_lacks_names_contract_pull() -> None:
    result = run_leadctl(["sources", "list"])
    assert result.exit_code == 2
    assert "unknown command 'list'" in result.stderr
    assert "come from the service's contract" in result.stderr
    assert "`leadctl contract pull`" in result.stderr
    assert "`leadctl contract import FILE|URL`" in result.stderr
    group = run_in_process(["tags", "list", "-p", "prod"])  # a group of the service's only
    assert group.exit_code == 2
    assert "`leadctl -p prod contract pull`" in group.stderr


def test_a_near_miss_still_says_did_you_mean() -> None:
    result = run_leadctl(["-p", "sandbox", "sources", "lst"])
    assert result.exit_code == 2
    assert "did you mean `leadctl -p sandbox sources list`?" in result.stderr
    assert "contract" not in result.stderr


def test_a_verb_an_imported_contract_lacks_says_so(tmp_path: Path) -> None:
    document = tmp_path / "widgets.json"
    document.write_text(json.dumps(widgets()), encoding="utf-8")
    env = {"LEADCTL_BASE_URL": "https://widgets.example.com"}
    assert run_in_process(["contract", "import", str(document)], env=env).exit_code == 0
    result = run_leadctl(["sources", "list"], env=env)
    assert result.exit_code == 2
    assert "whose active copy has no 'list'" in result.stderr
    assert "`leadctl contract pull`" in result.stderr
    sandbox = run_in_process(["sources", "frob", "-p", "sandbox"])
    assert "the sandbox's contract, which has no 'frob'" in sandbox.stderr
    assert "`leadctl -p sandbox contract show`" in sandbox.stderr


def test_curated_help_describes_the_active_contract(tmp_path: Path) -> None:
    note = "With leadctl's bundled contract"
    # The installed program on the first verb, the others in-process.
    runs = (run_leadctl, run_in_process, run_in_process)
    verbs = (["leads", "list"], ["leads", "create"], ["sources", "update"])
    for run, verb in zip(runs, verbs, strict=True):
        bundled = run([*verb, "--help"])
        assert note in bundled.stdout
        assert "`leadctl contract pull`" in " ".join(bundled.stdout.split())  # rewrapped
        sandbox = run(["-p", "sandbox", *verb, "--help"])
        assert sandbox.exit_code == 0 and note not in sandbox.stdout
    document = tmp_path / "widgets.json"
    document.write_text(json.dumps(widgets()), encoding="utf-8")
    env = {"LEADCTL_BASE_URL": "https://widgets.example.com"}
    assert run_in_process(["contract", "import", str(document)], env=env).exit_code == 0
    imported = run_in_process(["leads", "create", "--help"], env=env)
    assert note not in imported.stdout
    # What that contract lacks is said instead.
    assert "The active contract has no POST /leads" in imported.stdout
