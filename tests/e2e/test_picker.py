"""The id picker: offered on a terminal where the contract has a list operation, never
anywhere else (a missing id stays exit 2 and nothing is read).

The picker and the refusals meet the installed program; the profile and contract each test
starts from and the list it picks against run in-process (``run_in_process``: the same
command tree and socket)."""

from __future__ import annotations

import json

from tests.support.e2e import run_leadctl
from tests.support.in_process import run_in_process
from tests.support.one_terminal import on_a_terminal
from tests.support.sandbox_fixtures import CredentialEnv
from tests.support.sandbox_server import SandboxProcess

PROFILE = "sb"
DOWN, ENTER, ESC = b"\x1b[B", b"\r", b"\x1b"
UPDATE = ["-p", PROFILE, "sources", "update", "--description", "picked", "-o", "json"]


def use_published_contract(org_env: CredentialEnv, base_url: str) -> None:
    """A profile whose contract is the one the sandbox publishes (it lists sources)."""
    setup = run_in_process(["-p", PROFILE, "profile", "set", "base_url", base_url], env=org_env)
    assert setup.exit_code == 0, setup.stderr
    pulled = run_in_process(["-p", PROFILE, "contract", "pull"], env=org_env)
    assert pulled.exit_code == 0, pulled.stderr


def test_a_missing_id_is_picked_from_the_list_on_a_terminal(
    sandbox: SandboxProcess, org_env: CredentialEnv
) -> None:
    use_published_contract(org_env, sandbox.base_url)
    listed = run_in_process(
        ["-p", PROFILE, "sources", "list", "--limit", "2", "-o", "json"], env=org_env
    )
    assert listed.exit_code == 0, listed.stderr
    second = json.loads(listed.stdout)[1]
    sandbox.clear_requests()
    code, shown = on_a_terminal(UPDATE, org_env, keys=[DOWN, ENTER], prompt=b"ID for")
    assert code == 0, shown
    assert "ID for `leadctl sources update`" in shown
    assert second["name"] in shown
    sent = [(r["method"], r["path"]) for r in sandbox.requests()]
    assert sent == [("POST", "/sources/all"), ("PUT", f"/sources/{second['id']}")]


def test_no_picker_without_a_terminal(sandbox: SandboxProcess, org_env: CredentialEnv) -> None:
    use_published_contract(org_env, sandbox.base_url)
    sandbox.clear_requests()
    result = run_leadctl(UPDATE, env=org_env)
    assert result.exit_code == 2
    assert "Missing argument 'ID'" in result.stderr
    assert sandbox.requests() == []


def test_no_picker_with_no_input(sandbox: SandboxProcess, org_env: CredentialEnv) -> None:
    use_published_contract(org_env, sandbox.base_url)
    sandbox.clear_requests()
    code, shown = on_a_terminal([*UPDATE, "--no-input"], org_env, keys=[], prompt=b"\x00")
    assert code == 2, shown
    assert "Missing argument 'ID'" in shown
    assert sandbox.requests() == []


def test_esc_cancels_the_picker(sandbox: SandboxProcess, org_env: CredentialEnv) -> None:
    use_published_contract(org_env, sandbox.base_url)
    sandbox.clear_requests()
    code, shown = on_a_terminal(UPDATE, org_env, keys=[ESC], prompt=b"ID for")
    assert code == 10, shown
    assert "Esc to cancel" in shown and "cancelled" in shown
    sent = [(r["method"], r["path"]) for r in sandbox.requests()]
    assert sent == [("POST", "/sources/all")]  # the list only: nothing was updated
