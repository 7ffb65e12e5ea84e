"""``sources update``: the installed leadctl against a real sandbox (``sources rotate``:
test_rotate_e2e.py beside this file).

These tests change intake rules (allowlists, consent), which would break other modules'
intake tests on the shared session sandbox: they run on the module's own server
(``own_sandbox``, conftest.py beside this file). Each guarantee meets the installed leadctl
(exit codes, stdout against stderr, the terminal); a test's second command runs in-process
(``run_in_process``: the same command tree, sandbox socket and dirs).
"""

from __future__ import annotations

import json

import pytest

from tests.support.e2e import (
    run_leadctl,
    run_leadctl_tty,
)
from tests.support.in_process import run_in_process
from tests.support.sandbox_server import SandboxProcess

pytestmark = pytest.mark.e2e


def test_update_piped_sends_the_fields_and_prints_the_updated_source(
    own_sandbox: SandboxProcess, source_id: str, org_env_own: dict[str, str]
) -> None:
    own_sandbox.clear_requests()
    result = run_leadctl(
        [
            "sources",
            "update",
            source_id,
            "--name",
            "E2E web form",
            "--allowed-state",
            "TX",
            "--allowed-state",
            "CA",
            "--allowed-product",
            "roofing",
            "--default-tag-name",
            "e2e-tag",
            "--requires-consent-certificate",
        ],
        env=org_env_own,
    )
    assert result.exit_code == 0, result.stderr
    source = json.loads(result.stdout)
    assert source["id"] == source_id
    assert source["name"] == "E2E web form"
    assert source["allowedStates"] == ["TX", "CA"]
    assert source["allowedProducts"] == ["roofing"]
    assert source["requiresConsentCertificate"] is True
    assert "e2e-tag" in [tag["name"] for tag in source["defaultTags"]]
    (put,) = [r for r in own_sandbox.requests() if r["method"] == "PUT"]
    assert put["path"] == f"/sources/{source_id}"
    assert put["body"] == {
        "name": "E2E web form",
        "allowedStates": ["TX", "CA"],
        "allowedProducts": ["roofing"],
        "defaultTagNames": ["e2e-tag"],
        "requiresConsentCertificate": True,
    }

    # Re-read through a second update of one field: the others kept their value
    # (partial update, as the contract assumes and --help says), and intake is open again.
    again = run_in_process(
        [
            "sources",
            "update",
            source_id,
            "--no-requires-consent-certificate",
            "--data",
            '{"allowedStates": [], "allowedProducts": []}',
        ],
        env=org_env_own,
    )
    assert again.exit_code == 0, again.stderr
    reread = json.loads(again.stdout)
    assert reread["name"] == "E2E web form"
    assert "e2e-tag" in [tag["name"] for tag in reread["defaultTags"]]
    assert reread["allowedStates"] == []
    assert reread["requiresConsentCertificate"] is False


def test_update_older_form_fields_go_through_data(
    own_sandbox: SandboxProcess, org_env_own: dict[str, str]
) -> None:
    other = sorted(own_sandbox.credentials.sources)[1]
    result = run_in_process(
        ["sources", "update", other, "--name", "Paused source", "--data", '{"enabled": false}'],
        env=org_env_own,
    )
    assert result.exit_code == 0, result.stderr
    assert json.loads(result.stdout)["enabled"] is False
    without_name = run_leadctl(
        ["sources", "update", other, "--data", '{"enabled": true}'], env=org_env_own
    )
    assert without_name.exit_code == 2
    assert "requires the name" in without_name.stderr


def test_update_on_a_terminal_shows_a_table(
    own_sandbox: SandboxProcess, source_id: str, org_env_own: dict[str, str]
) -> None:
    result = run_leadctl_tty(
        ["sources", "update", source_id, "--description", "shown on a terminal"],
        env={**org_env_own, "NO_COLOR": "1"},
    )
    assert result.exit_code == 0, result.stderr
    for word in ("id", source_id, "enabled", "allowedStates", "apiKeyPreview", "modifiedAt"):
        assert word in result.stdout
    assert "UTC" in result.stdout
    assert "\x1b[" not in result.stdout


def test_update_bad_input_sends_nothing(
    own_sandbox: SandboxProcess, source_id: str, org_env_own: dict[str, str]
) -> None:
    own_sandbox.clear_requests()
    too_long = run_leadctl(["sources", "update", source_id, "--name", "n" * 256], env=org_env_own)
    nothing = run_in_process(["sources", "update", source_id], env=org_env_own)
    assert too_long.exit_code == 2
    assert "256 characters" in too_long.stderr
    assert nothing.exit_code == 2
    assert "nothing to update" in nothing.stderr
    assert own_sandbox.requests() == []


def test_update_unknown_source_is_exit_5(org_env_own: dict[str, str]) -> None:
    result = run_leadctl(["sources", "update", "no-such-source", "--name", "x"], env=org_env_own)
    assert result.exit_code == 5
    assert result.stdout == ""
    assert "error: 404" in result.stderr
