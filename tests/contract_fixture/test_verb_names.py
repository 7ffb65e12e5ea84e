"""Issue 11 point 4 on a real-style contract: natural verbs, no curated operation twice."""

from __future__ import annotations

import json

from tests.support.contract_mock_fixtures import CredentialEnv, Runner

EXPECTED = {
    "leads get": ("GET", "/leads/{id}"),
    "sources list": ("POST", "/sources/all/my"),
    "tags list": ("GET", "/tags"),
    "automations list": ("POST", "/automations/all"),
    "numbers list": ("GET", "/phone-numbers"),
    "sms send": ("POST", "/sms/send"),
    "suppressions check": ("GET", "/suppressions/check"),
    "calls hangup": ("POST", "/calls/{callId}/hangup"),
}


def test_verbs_are_natural_and_curated_operations_appear_once(
    leadctl_env: CredentialEnv, leadctl: Runner
) -> None:
    shown = leadctl(["contract", "show", "--operations", "-o", "json"], env=leadctl_env)
    assert shown.exit_code == 0, shown.stderr
    rows = json.loads(shown.stdout)
    generated = {r["command"]: (r["method"], r["path"]) for r in rows if r["kind"] == "generated"}
    curated = [r for r in rows if r["kind"] != "generated"]

    for command, operation in EXPECTED.items():
        assert generated.get(command) == operation, command
    for command in generated:
        group, verb = command.split(" ", 1)
        assert "for-current-" not in verb and "get-all" not in verb, command
        names = {group, group.rstrip("s")} if "-" not in group else set()
        assert names.isdisjoint(verb.split("-")), command
    assert len(curated) == 12
    assert {(r["method"], r["path"]) for r in curated}.isdisjoint(generated.values())
