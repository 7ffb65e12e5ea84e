"""`leadctl batch` against the sandbox: a generated read by id, and a write whose answer is
lost (reported unknown, never sent again, not even by --resume)."""

from __future__ import annotations

import json
import uuid
from pathlib import Path
from typing import Any

import pytest

from tests.e2e.conftest import CredentialEnv
from tests.support.e2e import run_leadctl
from tests.support.sandbox_server import SandboxProcess

pytestmark = pytest.mark.e2e


@pytest.fixture
def pulled_env(org_env: CredentialEnv, tmp_path: Path) -> dict[str, str]:
    """The org credential, with the sandbox's published contract pulled (its `leads get`
    and `tags create` are generated commands)."""
    env = {**org_env, "LEADCTL_CACHE_DIR": str(tmp_path / "cache")}
    pulled = run_leadctl(["contract", "pull"], env=env)
    assert pulled.exit_code == 0, pulled.stderr
    return env


def outcomes(text: str) -> dict[int, dict[str, Any]]:
    return {line["row"]: line for line in map(json.loads, text.splitlines())}


def test_a_batch_of_reads_by_bare_id(pulled_env: dict[str, str], tmp_path: Path) -> None:
    listed = run_leadctl(["leads", "list", "--limit", "3", "-o", "ndjson"], env=pulled_env)
    ids = [json.loads(line)["id"] for line in listed.stdout.splitlines()]
    source = tmp_path / "ids.txt"
    source.write_text("".join(f"{ident}\n" for ident in [*ids, "no-such-lead"]))

    # By METHOD and path: the verb's name depends on the contract's operationId.
    result = run_leadctl(["batch", "GET /leads/{id}", "--input", str(source)], env=pulled_env)

    assert result.exit_code == 6, result.stderr
    found = outcomes(result.stdout)
    assert [found[n]["outcome"] for n in (1, 2, 3, 4)] == ["ok", "ok", "ok", "rejected"]
    assert [found[n]["result"]["id"] for n in (1, 2, 3)] == ids
    assert found[4]["status"] == 404
    assert "4 lines sent" in result.stderr


def test_a_lost_answer_to_a_write_is_unknown_and_never_sent_again(
    sandbox: SandboxProcess, pulled_env: dict[str, str], tmp_path: Path
) -> None:
    mark = f"batch{uuid.uuid4().hex[:8]}"
    source = tmp_path / "tags.ndjson"
    source.write_text("".join(json.dumps({"name": f"{mark}-{n}"}) + "\n" for n in range(3)))
    report = tmp_path / "tags.report.ndjson"
    # The first tag is created, then its connection is closed before the answer.
    sandbox.add_fault("/tags", "drop-after", method="POST", count=1)

    first = run_leadctl(
        ["batch", "POST /tags", "--input", str(source), "--report", str(report)],
        env=pulled_env,
    )

    assert first.exit_code == 9, first.stderr
    found = outcomes(report.read_text())
    assert sorted(line["outcome"] for line in found.values()) == ["ok", "ok", "unknown"]

    def posts() -> int:
        return sum(
            1
            for entry in sandbox.requests()
            if entry["method"] == "POST" and entry["path"] == "/tags" and mark in str(entry["body"])
        )

    assert posts() == 3  # each line once: the lost one was not sent again

    again = run_leadctl(
        ["batch", "POST /tags", "--input", str(source), "--resume", str(report)],
        env=pulled_env,
    )
    assert again.exit_code == 0, again.stderr
    assert "3 skipped" in again.stderr
    assert posts() == 3
