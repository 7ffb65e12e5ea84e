"""Issue 21 point 5: a curated flag bound to a field the active contract names otherwise is
exit 2 naming the schema's fields, before anything is sent, for every curated update (sources
update is in tests/commands/sources/test_rotate_contract.py; here status-changes update and
users compliance), with the installed leadctl and a contract imported with those fields
renamed (the import is setting up, in-process: tests/e2e/test_contract_verbs.py runs
`contract import` installed)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.support.contract_mock import ContractMock
from tests.support.contract_mock_fixtures import CredentialEnv, Runner, contract_path
from tests.support.in_process import run_in_process

pytestmark = pytest.mark.e2e


def import_renamed(
    env: CredentialEnv, version: str, tmp_path: Path, schema: str, old: str, new: str
) -> None:
    document = json.loads(contract_path(version).read_text(encoding="utf-8"))
    target = document["components"]["schemas"][schema]
    target["properties"] = {(new if k == old else k): v for k, v in target["properties"].items()}
    if "required" in target:
        target["required"] = [new if n == old else n for n in target["required"]]
    edited = tmp_path / "renamed.json"
    edited.write_text(json.dumps(document), encoding="utf-8")
    imported = run_in_process(["contract", "import", str(edited)], env=env)
    assert imported.exit_code == 0, imported.stderr


def test_status_changes_update_flag_named_otherwise(
    contract_mock: ContractMock,
    leadctl_env: CredentialEnv,
    contract_version: str,
    tmp_path: Path,
    leadctl: Runner,
) -> None:
    renamed = ("LeadStatusChangeUpdateRequest", "followUpStatus", "nextStepStatus")
    import_renamed(leadctl_env, contract_version, tmp_path, *renamed)

    args = ["status-changes", "update", "c1", "--follow-up-status", "Call back"]
    result = leadctl(args, env=leadctl_env)

    assert result.exit_code == 2, result.stderr
    assert "--follow-up-status sets followUpStatus" in result.stderr
    assert "nextStepStatus" in result.stderr
    assert contract_mock.requests == []


def test_users_compliance_flag_named_otherwise_inside_the_nested_object(
    contract_mock: ContractMock,
    leadctl_env: CredentialEnv,
    contract_version: str,
    tmp_path: Path,
    leadctl: Runner,
) -> None:
    import_renamed(
        leadctl_env, contract_version, tmp_path, "UserCompliance", "acceptedBaa", "baaAccepted"
    )

    result = leadctl(["users", "compliance", "--no-accepted-baa"], env=leadctl_env)

    assert result.exit_code == 2, result.stderr
    assert "--no-accepted-baa sets compliance.acceptedBaa" in result.stderr
    assert "under compliance" in result.stderr
    assert '{"compliance": {"baaAccepted": false}}' in result.stderr
    assert contract_mock.requests == []
