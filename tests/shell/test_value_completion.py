"""Values from the service on TAB, in real bash, zsh and fish, against the sandbox's socket.

The scripts are rendered from the current command tree into a temporary dir (the checked-in
ones are regenerated once, by the lead); the shells run the installed `leadctl` from PATH,
as a user's do. Requests are counted at the sandbox (``sandbox.requests()``).
"""

from __future__ import annotations

import json
import os
import socket
import stat
import subprocess
import time
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from leadctl.cli.value_completion import REQUEST_DEADLINE, REQUEST_TIMEOUT
from leadctl.docgen.completion import render_completion
from tests.shell.conftest import SecretEnv, require
from tests.shell.test_completions import COMPLETERS, complete_fish, shell_env
from tests.support.e2e import home_env, leadctl_executable
from tests.support.in_process import run_in_process
from tests.support.sandbox_server import SandboxProcess

PROFILE = "sb"
SCRIPT_FILES = {"bash": "leadctl.bash", "zsh": "_leadctl", "fish": "leadctl.fish"}
SHELLS = tuple(SCRIPT_FILES)


@pytest.fixture(scope="module")
def scripts(tmp_path_factory: pytest.TempPathFactory) -> Path:
    found = tmp_path_factory.mktemp("completions")
    for shell, name in SCRIPT_FILES.items():
        (found / name).write_text(render_completion(shell), encoding="utf-8")
    return found


@pytest.fixture(params=SHELLS)
def shell(request: pytest.FixtureRequest) -> str:
    require(request.param)
    return str(request.param)


def user_env(home: Path, extra: dict[str, str] | None = None) -> SecretEnv:
    """What a user's shell has: leadctl's dirs under ``home`` and the installed leadctl
    first on PATH."""
    bin_dir = os.path.dirname(leadctl_executable())
    env = shell_env({**home_env(home), **(extra or {})})
    env["PATH"] = bin_dir + os.pathsep + env.get("PATH", "")
    return SecretEnv(env)


def profile_on(env: SecretEnv, name: str, base_url: str, *, contract: Path | None) -> None:
    """Profile ``name`` on ``base_url`` with ``contract`` imported (the sandbox's own, which
    lists leads), or with leadctl's bundled one (it lists neither leads nor sources)."""
    steps = [["-p", name, "profile", "set", "base_url", base_url]]
    if contract is not None:
        steps.append(["-p", name, "contract", "import", str(contract)])
    for args in steps:
        done = run_in_process(args, env=env)
        assert done.exit_code == 0, done.stderr


@pytest.fixture(scope="module")
def published(sandbox: SandboxProcess, tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The contract the sandbox publishes, as a file (a mute service publishes nothing)."""
    with sandbox.client() as client:
        answer = client.get("/openapi.json")
    answer.raise_for_status()
    found = tmp_path_factory.mktemp("published") / "openapi.json"
    found.write_bytes(answer.content)
    return found


@pytest.fixture
def sandbox_env(sandbox: SandboxProcess, published: Path, tmp_path: Path) -> SecretEnv:
    env = user_env(tmp_path / "home", {"LEADCTL_TOKEN": sandbox.credentials.org})
    profile_on(env, PROFILE, sandbox.base_url, contract=published)
    return env


def complete(shell: str, line: str, env: SecretEnv, scripts: Path) -> list[str]:
    return COMPLETERS[shell](line, env, scripts=scripts)


def lead_ids(sandbox: SandboxProcess) -> set[str]:
    with sandbox.client() as client:
        answer = client.post("/leads/all/my", json={"pageSize": 100})
    answer.raise_for_status()
    return {item["id"] for item in answer.json()["items"]}


def completion_requests(sandbox: SandboxProcess) -> list[tuple[str, str]]:
    return [(r["method"], r["path"]) for r in sandbox.requests()]


def cache_file(env: SecretEnv) -> Path:
    return Path(env["LEADCTL_CACHE_DIR"]) / "completion" / f"{PROFILE}.json"


def test_leads_get_offers_the_sandboxs_lead_ids_then_the_cache_answers(
    shell: str, sandbox: SandboxProcess, sandbox_env: SecretEnv, scripts: Path
) -> None:
    sandbox.clear_requests()
    offered = complete(shell, f"leadctl -p {PROFILE} leads get ", sandbox_env, scripts)
    known = lead_ids(sandbox)
    assert offered, "nothing offered"
    assert set(offered) <= known
    assert completion_requests(sandbox)[:1] == [("POST", "/leads/all/my")]

    sandbox.clear_requests()
    again = complete(shell, f"leadctl -p {PROFILE} leads get ", sandbox_env, scripts)
    assert again == offered
    assert completion_requests(sandbox) == [], "the second TAB went to the service"


def test_a_prefix_narrows_what_is_offered(
    sandbox: SandboxProcess, sandbox_env: SecretEnv, scripts: Path
) -> None:
    require("bash")
    first = complete("bash", f"leadctl -p {PROFILE} leads get ", sandbox_env, scripts)[0]
    line = f"leadctl --profile={PROFILE} leads get {first[:8]}"
    assert complete("bash", line, sandbox_env, scripts) == [first]


def test_fish_describes_each_id_with_the_leads_name(
    sandbox: SandboxProcess, sandbox_env: SecretEnv, scripts: Path
) -> None:
    require("fish")
    line = f"leadctl -p {PROFILE} leads get "
    offered = complete_fish(line, sandbox_env, scripts=scripts, described=True)
    pairs = [entry.split("\t", 1) for entry in offered]
    assert pairs and all(len(pair) == 2 and pair[1].strip() for pair in pairs)
    with sandbox.client() as client:
        lead = client.get(f"/leads/{pairs[0][0]}").json()
    assert str(lead.get("firstName", "")) in pairs[0][1]


def test_the_cache_is_0600_and_holds_no_secret(
    sandbox: SandboxProcess, sandbox_env: SecretEnv, scripts: Path
) -> None:
    require("bash")
    complete("bash", f"leadctl -p {PROFILE} leads get ", sandbox_env, scripts)
    found = cache_file(sandbox_env)
    assert stat.S_IMODE(found.stat().st_mode) == 0o600
    assert stat.S_IMODE(found.parent.stat().st_mode) == 0o700
    text = found.read_text(encoding="utf-8")
    assert sandbox.credentials.org not in text
    for key in ("secret", "token", "apiKey", "password"):
        assert key.lower() not in text.lower()
    entries = json.loads(text)
    assert all(set(entry) == {"at", "items"} for entry in entries.values())


def test_a_profile_without_a_credential_sends_nothing(
    shell: str, sandbox: SandboxProcess, published: Path, tmp_path: Path, scripts: Path
) -> None:
    env = user_env(tmp_path / "home")
    profile_on(env, PROFILE, sandbox.base_url, contract=published)
    sandbox.clear_requests()
    assert complete(shell, f"leadctl -p {PROFILE} leads get ", env, scripts) == []
    assert completion_requests(sandbox) == []


def test_a_command_whose_collection_the_contract_cannot_list_sends_nothing(
    shell: str, sandbox: SandboxProcess, tmp_path: Path, scripts: Path
) -> None:
    env = user_env(tmp_path / "home", {"LEADCTL_TOKEN": sandbox.credentials.org})
    profile_on(env, PROFILE, sandbox.base_url, contract=None)
    sandbox.clear_requests()
    # The bundled contract has PUT /sources/{id} but no list of sources.
    assert complete(shell, f"leadctl -p {PROFILE} sources update ", env, scripts) == []
    assert completion_requests(sandbox) == []


@pytest.fixture
def mute_service() -> Iterator[str]:
    """A listening socket that accepts connections (the kernel's backlog) and never
    answers."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as listener:
        listener.bind(("127.0.0.1", 0))
        listener.listen(16)
        yield f"http://127.0.0.1:{listener.getsockname()[1]}"


def timed(run: Callable[[], object]) -> float:
    started = time.monotonic()
    run()
    return time.monotonic() - started


def helper(env: SecretEnv, *words: str) -> subprocess.CompletedProcess[str]:
    argv = [leadctl_executable(), "__complete-values", "--profile", PROFILE, *words]
    return subprocess.run(argv, env=env, capture_output=True, text=True, timeout=20)


def without_credential(env: SecretEnv) -> SecretEnv:
    return SecretEnv({k: v for k, v in env.items() if k != "LEADCTL_TOKEN"})


def test_a_service_that_never_answers_completes_nothing_quietly_and_soon(
    shell: str, mute_service: str, published: Path, tmp_path: Path, scripts: Path
) -> None:
    env = user_env(tmp_path / "home", {"LEADCTL_TOKEN": "not-a-real-key"})
    profile_on(env, PROFILE, mute_service, contract=published)
    runner: Callable[..., list[str]] = COMPLETERS[shell]
    # What this shell and the helper cost right now (the machine may be loaded): a static
    # completion, and the helper stopping just before the request (no credential).
    shell_start = timed(lambda: runner(f"leadctl -p {PROFILE} leads list --", env, scripts=scripts))
    python_start = timed(lambda: helper(without_credential(env), "leads", "get", ""))
    offered: list[str] = []
    took = timed(
        lambda: offered.extend(runner(f"leadctl -p {PROFILE} leads get ", env, scripts=scripts))
    )
    assert offered == []
    assert took >= REQUEST_TIMEOUT, "no request was waited on"
    assert took < shell_start + python_start + REQUEST_DEADLINE + 0.3, f"TAB took {took:.2f} s"


def test_the_helper_prints_nothing_for_a_mute_service_within_the_request_limit(
    mute_service: str, published: Path, tmp_path: Path
) -> None:
    env = user_env(tmp_path / "home", {"LEADCTL_TOKEN": "not-a-real-key"})
    profile_on(env, PROFILE, mute_service, contract=published)
    python_start = timed(lambda: helper(without_credential(env), "leads", "get", ""))
    result: list[subprocess.CompletedProcess[str]] = []
    took = timed(lambda: result.append(helper(env, "leads", "get", "")))
    assert (result[0].returncode, result[0].stdout, result[0].stderr) == (0, "", "")
    # It did wait for the service (the request was sent): not a refusal before sending.
    assert took >= REQUEST_TIMEOUT, f"took {took:.2f} s"
    assert took < python_start + REQUEST_DEADLINE + 0.3, f"took {took:.2f} s"


def test_columns_complete_the_response_schemas_field_paths_without_a_request(
    shell: str, sandbox: SandboxProcess, sandbox_env: SecretEnv, scripts: Path
) -> None:
    sandbox.clear_requests()
    line = f"leadctl -p {PROFILE} leads list --columns firstName,la"
    assert complete(shell, line, sandbox_env, scripts) == ["firstName,lastName"]
    offered = complete(shell, f"leadctl -p {PROFILE} leads list --columns ", sandbox_env, scripts)
    assert {"id", "email", "status.name", "tags[].name"} <= set(offered)
    assert completion_requests(sandbox) == []


def test_columns_leave_out_the_answers_secret_fields(
    sandbox: SandboxProcess, sandbox_env: SecretEnv, scripts: Path
) -> None:
    require("bash")
    # `sources rotate` answers with the source and its new `secret`; the key's preview
    # beside it is no secret.
    offered = complete(
        "bash", f"leadctl -p {PROFILE} sources rotate --columns=", sandbox_env, scripts
    )
    assert "source.apiKeyPreview" in offered
    assert "secret" not in offered


def test_lead_statuses_get_offers_the_status_names(
    shell: str, sandbox: SandboxProcess, sandbox_env: SecretEnv, scripts: Path
) -> None:
    with sandbox.client() as client:
        names = {status["name"] for status in client.get("/lead-statuses").json()}
    offered = complete(shell, f"leadctl -p {PROFILE} lead-statuses get ", sandbox_env, scripts)
    # bash inserts a name with a blank quoted, as one word.
    assert {word.replace("\\ ", " ") for word in offered} == names
