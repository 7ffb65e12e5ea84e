"""The secret audit: every command, with --debug, on success and error paths; then a
search of everything leadctl wrote for every credential and secret it handled, in every
form (tests/security/secrets.py: raw, base64 both alphabets with and without padding, of
``Bearer X`` too, percent-encoded).

Searched: each run's stdout and stderr (tracebacks included, were there any), the config
and data directories, what a pager was fed (LEADCTL_PAGER is ``tee`` into a file, stdout a
pseudo-terminal), the sandbox's own log and its request log. Allowed: the stdout of the
commands whose job is to print the secret (``auth token``, ``sources rotate``, ``api`` on
the rotate endpoint), and the places the user chose to keep one: the 0600 file store
(``--insecure-storage``), ``--secret-file`` and recovery files, which are checked for
their modes instead.
"""

from __future__ import annotations

import json
import re
import stat
import subprocess
import uuid
from collections.abc import Iterator, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path

import pytest

from tests.security.secrets import leaks, scan_tree
from tests.support.e2e import (
    Completed,
    base_env,
    home_env,
    leadctl_executable,
    run_leadctl,
    run_leadctl_tty,
)
from tests.support.sandbox_server import SandboxProcess, sandbox_server

pytestmark = pytest.mark.e2e


@dataclass
class Run:
    label: str
    args: list[str]
    token: str | None = None  # LEADCTL_TOKEN; None: from the profile, or none at all
    stdin: str | None = None
    # Names of secrets this command exists to print on stdout.
    prints: tuple[str, ...] = ()
    tty: bool = False
    extra_env: dict[str, str] = field(default_factory=dict)
    faults: Sequence[tuple[str, str, str]] = ()  # (method, path, action)
    closed_stdout: bool = False
    result: Completed | None = None


@dataclass
class Audit:
    sandbox: SandboxProcess
    home: Path
    secrets: dict[str, str]
    runs: list[Run]

    @property
    def config_dir(self) -> Path:
        return self.home / "config"

    @property
    def data_dir(self) -> Path:
        return self.home / "data"

    @property
    def pager_file(self) -> Path:
        return self.home / "pager-input.txt"


@pytest.fixture(scope="module")
def sandbox() -> Iterator[SandboxProcess]:
    with sandbox_server() as server:
        yield server


def execute(audit: Audit, run: Run) -> None:
    env = {
        "LEADCTL_BASE_URL": audit.sandbox.base_url,
        **home_env(audit.home),
        "LEADCTL_PAGER": f"tee -a {audit.pager_file}",
        **run.extra_env,
    }
    if run.token is not None:
        env["LEADCTL_TOKEN"] = run.token
    for method, path, action in run.faults:
        audit.sandbox.add_fault(path, action, method=method)
    if run.tty:
        run.result = run_leadctl_tty(run.args, env={**env, "LINES": "20"})
    elif run.closed_stdout:
        proc = subprocess.Popen(
            [leadctl_executable(), *run.args],
            stdin=subprocess.DEVNULL,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            env=base_env(env),
        )
        assert proc.stdout is not None and proc.stderr is not None
        proc.stdout.close()
        stderr = proc.stderr.read().decode("utf-8", "replace")
        run.result = Completed(proc.wait(60), "", stderr)
    else:
        run.result = run_leadctl(run.args, env=env, stdin=run.stdin)


def steps(sandbox: SandboxProcess, secrets: dict[str, str], home: Path) -> list[list[Run]]:
    """What the audit runs: the runs of a step concurrently, the steps in order."""
    info = sandbox.info()
    org, user = secrets["org key"], secrets["user token"]
    sources = sorted(sandbox.credentials.sources)
    automation = info["automations"][0]["id"]
    number = info["phoneNumbers"][0]
    with sandbox.client() as client:
        page = client.post("/leads/all/my", json={"pageSize": 3}).json()["items"]
    changes = [lead["currentStatusChangeId"] for lead in page if lead["currentStatusChangeId"]]
    lead = ["--field", "firstName=Audit", "--field", "phone=+15125550143"]
    token_file = home / "token.txt"
    token_file.write_text(org + "\n", encoding="utf-8")
    secret_file = home / "rotated.txt"
    d = "--debug"
    source_key = sandbox.credentials.sources[sources[0]]
    return [
        [
            Run("lead statuses", [d, "lead-statuses", "list"], org),
            Run("leads page", [d, "leads", "list", "--limit", "3", "-o", "json"], org),
            Run("leads all", [d, "leads", "list", "--all", "--page-size", "100"], org),
            Run("lead create", [d, "leads", "create", *lead], org),
            Run("lead create, source key", [d, "leads", "create", *lead], source_key),
            Run("number", [d, "numbers", "status", number], org),
            Run("runs", [d, "automations", "runs", automation], org),
            Run("announcements", [d, "notifications", "announcements", "--limit", "3"], org),
            Run("compliance", [d, "users", "compliance", "--accepted-sms"], org),
            Run("compliance, user", [d, "users", "compliance", "--accepted-sms"], user),
            Run("source update", [d, "sources", "update", sources[3], "--description", "a"], org),
            Run("change update", [d, "status-changes", "update", changes[0], "--notes", "a"], org),
            Run("change delete", [d, "status-changes", "delete", changes[1], "--yes"], org),
            Run("a2a", [d, "a2a", "call", "agent.ping"], org),
            Run("api include", [d, "api", "GET", "/lead-statuses", "--include"], org),
            Run(
                "api paginate",
                [d, "api", "POST", "/leads/all/my", "-F", "pageSize=100", "--paginate"],
                org,
            ),
            Run("dry run create", [d, "--dry-run", "leads", "create", *lead], org),
            Run("dry run, source key", [d, "--dry-run", "leads", "create", *lead], source_key),
            Run("auth status", [d, "auth", "status"], org),
            Run("auth status, user", [d, "auth", "status", "-o", "json"], user),
            Run("auth token", [d, "auth", "token"], org, prints=("org key",)),
            Run(
                "token file",
                [d, "lead-statuses", "list"],
                extra_env={"LEADCTL_TOKEN_FILE": str(token_file)},
            ),
            Run("env debug", ["lead-statuses", "list"], org, extra_env={"LEADCTL_DEBUG": "1"}),
        ],
        [
            # Error paths.
            Run("wrong key", [d, "lead-statuses", "list"], secrets["wrong key"]),
            Run("wrong key json", [d, "-o", "json", "lead-statuses", "list"], secrets["wrong key"]),
            Run("expired token", [d, "lead-statuses", "list"], secrets["expired token"]),
            Run(
                "read-only user",
                [d, "sources", "update", sources[3], "--name", "x"],
                secrets["read-only token"],
            ),
            Run("source key elsewhere", [d, "lead-statuses", "list"], source_key),
            Run("unknown source", [d, "sources", "update", "nope", "--name", "x"], org),
            Run(
                "unknown source json",
                [d, "-o", "json", "sources", "update", "nope", "--name", "x"],
                org,
            ),
            Run("bad phone", [d, "numbers", "status", "12"], org),
            Run(
                "token in base URL",
                [d, "--base-url", f"{sandbox.base_url}/?key={org}", "lead-statuses", "list"],
                org,
            ),
            Run("token with a space", [d, "lead-statuses", "list"], org[:10] + " " + org[10:]),
            Run(
                "login refused",
                [d, "-p", "refused", "auth", "login", "--with-token", "--insecure-storage"],
                stdin=secrets["wrong key"],
            ),
            Run(
                "login",
                [d, "-p", "stored", "auth", "login", "--with-token", "--insecure-storage"],
                stdin=org,
            ),
            Run(
                "login source",
                [
                    d,
                    "-p",
                    "intake",
                    "auth",
                    "login",
                    "--with-token",
                    "--insecure-storage",
                    "--kind",
                    "source",
                ],
                stdin=sandbox.credentials.sources[sources[2]],
            ),
        ],
        [
            Run("stored profile", [d, "-p", "stored", "lead-statuses", "list"]),
            Run("stored status", [d, "-p", "stored", "auth", "status"]),
            Run("stored token", [d, "-p", "stored", "auth", "token"], prints=("org key",)),
            Run(
                "retries",
                [d, "lead-statuses", "list"],
                org,
                faults=[
                    ("GET", "/lead-statuses", "500"),
                    ("GET", "/lead-statuses", "drop"),
                ],
            ),
            Run(
                "lost create",
                [d, "leads", "create", *lead],
                org,
                faults=[
                    ("POST", "/leads", "drop-after"),
                ],
            ),
            Run(
                "rotate",
                [d, "sources", "rotate", sources[1], "--yes", "--secret-only"],
                org,
                prints=("rotated 1",),
            ),
            Run(
                "rotate to file and profile",
                [
                    d,
                    "sources",
                    "rotate",
                    sources[2],
                    "--yes",
                    "--secret-file",
                    str(secret_file),
                    "--save-profile",
                    "intake",
                    "-o",
                    "json",
                ],
                org,
                # With --secret-file the key is not printed: the audit finds it nowhere.
            ),
            Run("pager", ["leads", "list", "--limit", "60"], org, tty=True),
            Run("pager, debug", [d, "leads", "list", "--limit", "30"], org, tty=True),
        ],
        [
            Run(
                "rotate json",
                [d, "sources", "rotate", sources[1], "--yes", "-o", "json"],
                org,
                prints=("rotated 3",),
            ),
            Run(
                "rotate closed stdout",
                [d, "sources", "rotate", sources[3], "--yes", "--secret-only"],
                org,
                closed_stdout=True,
            ),
            Run("new key intake", [d, "-p", "intake", "leads", "create", *lead]),
        ],
        [
            Run(
                "rotate on a terminal",
                [d, "sources", "rotate", sources[1], "--yes"],
                org,
                tty=True,
                prints=("rotated 4",),
            ),
            Run(
                "rotate lost",
                [d, "sources", "rotate", sources[2], "--yes"],
                org,
                faults=[
                    ("POST", f"/sources/{sources[2]}/credentials/rotate", "drop-after"),
                ],
            ),
            Run("logout", [d, "-p", "stored", "auth", "logout"]),
        ],
        [
            Run(
                "api rotate",
                [d, "api", "POST", f"/sources/{sources[1]}/credentials/rotate"],
                org,
                prints=("rotated 5",),
            ),
        ],
    ]


ROTATIONS = {
    "rotate": "rotated 1",
    "rotate json": "rotated 3",
    "rotate on a terminal": "rotated 4",
    "api rotate": "rotated 5",
}


def rotated_secret(run: Run) -> str:
    assert run.result is not None and run.result.exit_code in (0, 1), run.label
    out = run.result.stdout.strip()
    if run.label == "rotate":
        return out
    if run.tty:
        plain = re.sub(r"\x1b\[[0-9;]*m", "", out)
        lines = [line.strip() for line in plain.splitlines()]
        return next(line for line in lines if line.startswith("src_"))
    return str(json.loads(out)["secret"])


@pytest.fixture(scope="module")
def audit(sandbox: SandboxProcess, tmp_path_factory: pytest.TempPathFactory) -> Audit:
    home = tmp_path_factory.mktemp("audit")
    secrets = {
        "org key": sandbox.credentials.org,
        "user token": sandbox.credentials.user,
        "read-only token": sandbox.credentials.read_only_user,
        "expired token": sandbox.mint_token(expiresIn=-60),
        "wrong key": f"sk_wrong_{uuid.uuid4().hex}",
        **{f"source key {n}": key for n, key in enumerate(sandbox.credentials.sources.values())},
    }
    found = Audit(sandbox, home, secrets, [])
    for step in steps(sandbox, secrets, home):
        found.runs += step
        with ThreadPoolExecutor(max_workers=4) as pool:
            list(pool.map(lambda run: execute(found, run), step))
        sandbox.clear_faults()
    for run in found.runs:
        if run.label in ROTATIONS:
            secrets[ROTATIONS[run.label]] = rotated_secret(run)
    for path in sorted((found.data_dir / "recovered-secrets").glob("*")):
        secrets[f"recovered {path.name}"] = path.read_text(encoding="utf-8").strip()
    secrets["rotated to file"] = (home / "rotated.txt").read_text(encoding="utf-8").strip()
    return found


def test_the_audit_ran_what_it_meant_to(audit: Audit) -> None:
    """Each path was really taken: an audit of runs that failed early proves little."""
    codes = {run.label: run.result.exit_code for run in audit.runs if run.result}
    assert codes["lead statuses"] == 0
    assert codes["leads all"] == 0
    assert codes["lead create, source key"] == 0
    assert codes["wrong key"] == 3
    assert codes["expired token"] == 3
    assert codes["read-only user"] == 4
    assert codes["source key elsewhere"] == 4
    assert codes["unknown source"] == 5
    assert codes["bad phone"] == 2
    assert codes["token in base URL"] == 2
    assert codes["token with a space"] == 3
    assert codes["login refused"] == 3
    assert codes["login"] == codes["login source"] == codes["stored profile"] == 0
    assert codes["retries"] == 0
    assert codes["lost create"] == 9
    assert codes["rotate"] == codes["rotate json"] == codes["api rotate"] == 0
    assert codes["rotate to file and profile"] == 0
    assert codes["rotate closed stdout"] == 1  # kept in a recovery file
    assert codes["rotate lost"] == 9
    assert codes["new key intake"] == 0  # the key saved for the profile works
    assert codes["pager"] == codes["pager, debug"] == codes["rotate on a terminal"] == 0
    assert codes["logout"] == 0
    assert audit.pager_file.exists()  # the long tables went through the pager
    assert len([name for name in audit.secrets if name.startswith("recovered")]) == 1
    traced = next(r for r in audit.runs if r.label == "lead statuses").result
    assert traced is not None and "> GET" in traced.stderr


def test_no_run_prints_a_secret_it_was_not_asked_for(audit: Audit) -> None:
    problems = []
    for run in audit.runs:
        assert run.result is not None
        allowed = {audit.secrets[name] for name in run.prints}
        others = [value for value in audit.secrets.values() if value not in allowed]
        everything = list(audit.secrets.values())
        for where, text, values in (
            ("stderr", run.result.stderr, everything),
            ("stdout", run.result.stdout, others),
        ):
            problems += [f"{run.label} ({where}): {leak}" for leak in leaks(text, values)]
        if "Traceback" in run.result.stderr:
            problems.append(f"{run.label}: a traceback")
    assert problems == []


def test_commands_that_print_a_secret_print_exactly_it(audit: Audit) -> None:
    by_label = {run.label: run for run in audit.runs}
    token = by_label["auth token"].result
    assert token is not None
    assert (token.stdout == audit.secrets["org key"] + "\n") is True
    rotate = by_label["rotate"].result
    assert rotate is not None
    assert (rotate.stdout == audit.secrets["rotated 1"] + "\n") is True


def test_config_and_data_dirs_hold_no_secret_outside_the_stores(audit: Audit) -> None:
    values = list(audit.secrets.values())
    found = scan_tree(audit.config_dir, values, skip=["credentials"])
    found += scan_tree(audit.data_dir, values, skip=["recovered-secrets"])
    assert found == []
    assert (audit.config_dir / "config.toml").exists()


def test_the_stores_that_hold_secrets_are_private(audit: Audit) -> None:
    def mode(path: Path) -> int:
        return stat.S_IMODE(path.stat().st_mode)

    credentials = audit.config_dir / "credentials"
    assert mode(audit.config_dir) == 0o700
    assert mode(credentials) == 0o700
    assert sorted(p.name for p in credentials.iterdir()) == ["intake"]  # "stored" logged out
    assert mode(credentials / "intake") == 0o600
    recovered = audit.data_dir / "recovered-secrets"
    assert mode(recovered) == 0o700
    assert all(mode(path) == 0o600 for path in recovered.iterdir())
    assert mode(audit.home / "rotated.txt") == 0o600
    # The profile holds the newest key of the source it was saved for.
    stored = (credentials / "intake").read_text(encoding="utf-8").strip()
    assert (stored == audit.secrets["rotated to file"]) is True


def test_the_pager_was_fed_no_secret(audit: Audit) -> None:
    text = audit.pager_file.read_text(encoding="utf-8", errors="replace")
    assert "lastName" in text or "id" in text
    found = leaks(text, list(audit.secrets.values()))
    assert found == []


def test_the_sandbox_logged_no_secret(audit: Audit) -> None:
    values = list(audit.secrets.values())
    found = [f"stderr: {leak}" for leak in leaks(audit.sandbox.stderr_text(), values)]
    log = json.dumps(audit.sandbox.requests())
    found += [f"request log: {leak}" for leak in leaks(log, values)]
    assert found == []


def test_debug_traces_mask_what_they_would_show(audit: Audit) -> None:
    by_label = {run.label: run for run in audit.runs}
    trace = by_label["rotate json"].result
    assert trace is not None
    assert '"secret": "***"' in trace.stderr  # the response body, with the key masked
    assert "> authorization: ***" in trace.stderr.lower()
    curl = by_label["dry run create"].result
    assert curl is not None
    assert '"Authorization: Bearer $LEADCTL_TOKEN"' in curl.stdout
