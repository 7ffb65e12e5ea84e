"""Every write under faults.

PUTs and the DELETE are retry-safe: they converge on the state asked for, and a DELETE
whose first answer was lost is reported truthfully (exit 5, "cannot confirm it deleted
it"). Lead creation, rotation and /a2a are not: they are retried only on 429 (the service
did not act), are otherwise sent exactly once (the sandbox's request log says so), and end
in exit 9 with a message that says what to check. Whether the service acted is then
checked against the sandbox's state: a lead created once or not at all, the old source
key refused or still working.

Cases on different paths run concurrently (tests/faults/support.py: run_cases); each
parametrized test checks one case.
"""

from __future__ import annotations

import json
import uuid
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import httpx
import pytest

from tests.faults.support import (
    BURST,
    DROP,
    LOST,
    OBSERVER,
    OVER_429,
    OVER_500,
    OVER_BUDGET,
    OVER_DROP,
    SLOW,
    STORM,
    FaultCase,
    Outcome,
    Scenario,
    env_for,
    no_traceback,
    run_cases,
)
from tests.support.e2e import Completed
from tests.support.sandbox_server import SandboxProcess

pytestmark = pytest.mark.e2e

SAFE_SCENARIOS = (STORM, BURST, DROP, LOST, SLOW)
UNSAFE_SCENARIOS = (STORM, OVER_429, BURST, DROP, LOST, SLOW)


@dataclass(frozen=True)
class Write:
    id: str
    retry_safe: bool
    retry_after: tuple[int, int]


WRITES = (
    Write("sources update", True, (1, 0)),
    Write("status-changes update", True, (0, 0)),
    Write("users compliance", True, (0, 2)),
    Write("status-changes delete", True, (0, 1)),
    Write("leads create", False, (1, 0)),
    Write("api POST rotate", False, (0, 0)),
    Write("sources rotate", False, (0, 1)),
    Write("a2a call", False, (2, 0)),
)


def cases() -> list[tuple[Write, Scenario]]:
    found = []
    for index, write in enumerate(WRITES):
        if write.retry_safe:
            found += [(write, scenario) for scenario in SAFE_SCENARIOS]
            found.append((write, OVER_BUDGET[index % len(OVER_BUDGET)]))
        else:
            found += [(write, scenario) for scenario in UNSAFE_SCENARIOS]
    return found


CASES = cases()


def case_id(write: Write, scenario: Scenario) -> str:
    return f"{write.id}: {scenario.id}"


# -- the sandbox's state --------------------------------------------------------------------


@dataclass(frozen=True)
class World:
    sandbox: SandboxProcess
    update_source: str
    rotate_source: str
    # Rotated through `leadctl api`: its own path, so its cases run beside the others.
    api_rotate_source: str
    # (lead id, status change id) of seeded leads: a case uses the one at its own index.
    changes: list[tuple[str, str]]

    def observer(self) -> httpx.Client:
        """The test's own client: it never meets (or counts as) a fault meant for leadctl."""
        headers = {**self.sandbox.headers(), **OBSERVER}
        return httpx.Client(base_url=self.sandbox.base_url, headers=headers, timeout=10)

    def rpc(self, method: str, params: dict[str, Any]) -> Any:
        with self.observer() as client:
            body = {"jsonrpc": "2.0", "id": 1, "method": method, "params": params}
            return client.post("/a2a", json=body).json()["result"]

    def leads_named(self, last_name: str) -> int:
        with self.observer() as client:
            body = {"search": last_name, "searchFields": ["lastName"], "includeCount": True}
            count: int = client.post("/leads/all/my", json=body).json()["totalCount"]
        return count

    def rotate_directly(self, source: str) -> str:
        """A key known to be current, issued without leadctl (setup, not under test)."""
        with self.observer() as client:
            response = client.post(f"/sources/{source}/credentials/rotate")
            response.raise_for_status()
            secret: str = response.json()["secret"]
        return secret

    def intake_status(self, key: str) -> int:
        with httpx.Client(base_url=self.sandbox.base_url, timeout=10) as client:
            return client.post(
                "/leads",
                json={"firstName": "Key", "phone": "+15125550143"},
                headers={"Authorization": f"Bearer {key}", **OBSERVER},
            ).status_code


@pytest.fixture(scope="module")
def world(sandbox: SandboxProcess) -> World:
    info = sandbox.info()
    sources = [source["id"] for source in info["sources"]]
    with sandbox.client() as client:
        # Intake from the rotated sources must accept any lead: only the key is checked.
        for source in sources[1:3]:
            client.put(
                f"/sources/{source}",
                json={
                    "allowedStates": [],
                    "allowedProducts": [],
                    "requiresConsentCertificate": False,
                },
            ).raise_for_status()
        page = client.post("/leads/all/my", json={"pageSize": 60}).json()["items"]
    changes = [(lead["id"], lead["currentStatusChangeId"]) for lead in page]
    changes = [change for change in changes if change[1]]
    assert len(changes) > len(CASES)
    return World(sandbox, sources[0], sources[1], sources[2], changes)


# -- the commands ---------------------------------------------------------------------------


@dataclass
class Plan:
    """What one case runs and how its effect is observed."""

    method: str
    path: str
    args: list[str]
    stdin: str | None = None
    prepare: Callable[[], Any] | None = None
    observe: Callable[[Any, Completed], dict[str, Any]] | None = None


def plan(world: World, write: Write, scenario: Scenario, index: int) -> Plan:
    unique = f"Fault{uuid.uuid4().hex[:10]}"
    if write.id == "sources update":
        return Plan(
            "PUT",
            f"/sources/{world.update_source}",
            ["sources", "update", world.update_source, "--description", unique],
            observe=lambda _p, result: {
                "description": _field(result, "description"),
                "wanted": unique,
            },
        )
    if write.id == "status-changes update":
        lead_id, change_id = world.changes[index]

        def notes_now(_p: Any, result: Completed) -> dict[str, Any]:
            history = world.rpc("leads.get", {"id": lead_id})["statusChanges"]
            stored = [c.get("notes") for c in history if c["id"] == change_id]
            return {"notes": _field(result, "notes"), "stored": stored, "wanted": unique}

        return Plan(
            "PUT",
            f"/lead-status-changes/{change_id}",
            ["status-changes", "update", change_id, "--notes", unique],
            observe=notes_now,
        )
    if write.id == "users compliance":
        flag = "--accepted-sms" if index % 2 else "--no-accepted-sms"
        return Plan(
            "PUT",
            "/users/compliance",
            ["users", "compliance", flag, "--source", "faults"],
            observe=lambda _p, result: {
                "acceptedSms": _field(result, "compliance", "acceptedSms"),
                "wanted": flag == "--accepted-sms",
            },
        )
    if write.id == "status-changes delete":
        lead_id, change_id = world.changes[index]

        def remaining(_p: Any, _result: Completed) -> dict[str, Any]:
            history = world.rpc("leads.get", {"id": lead_id})["statusChanges"]
            return {"still_there": any(c["id"] == change_id for c in history)}

        return Plan(
            "DELETE",
            f"/lead-status-changes/{change_id}",
            ["status-changes", "delete", change_id, "--yes"],
            observe=remaining,
        )
    if write.id == "leads create":
        lead = {"firstName": "Fault", "lastName": unique, "phone": "+15125550143"}
        return Plan(
            "POST",
            "/leads",
            ["leads", "create", "--data", json.dumps(lead)],
            observe=lambda _p, result: {"created": world.leads_named(unique)},
        )
    if write.id in ("sources rotate", "api POST rotate"):
        through_api = write.id.startswith("api")
        source = world.api_rotate_source if through_api else world.rotate_source

        def keys(old: str, result: Completed) -> dict[str, Any]:
            new = result.stdout.strip()
            if through_api and new:
                new = json.loads(new)["secret"]
            return {
                "old_key": world.intake_status(old),
                "new_key": world.intake_status(new) if new else None,
                "shown_once": bool(new) and result.stderr.count(new) == 0,
            }

        path = f"/sources/{source}/credentials/rotate"
        args = ["sources", "rotate", source, "--yes", "--secret-only"]
        return Plan(
            "POST",
            path,
            ["api", "POST", path] if through_api else args,
            prepare=lambda: world.rotate_directly(source),
            observe=keys,
        )
    assert write.id == "a2a call"
    return Plan(
        "POST",
        "/a2a",
        ["a2a", "call", "agent.ping", "--id", "7"],
        observe=lambda _p, result: {"result": result.stdout},
    )


def _field(result: Completed, *path: str) -> Any:
    if result.exit_code != 0 or not result.stdout:
        return None
    value: Any = json.loads(result.stdout)
    for key in path:
        value = value.get(key) if isinstance(value, dict) else None
    return value


@pytest.fixture(scope="module")
def outcomes(
    sandbox: SandboxProcess, world: World, tmp_path_factory: pytest.TempPathFactory
) -> dict[str, Outcome]:
    homes = tmp_path_factory.mktemp("fault-writes")
    fault_cases = []
    for index, (write, scenario) in enumerate(CASES):
        chosen = plan(world, write, scenario, index)
        fault_cases.append(
            FaultCase(
                case_id(write, scenario),
                chosen.method,
                chosen.path,
                scenario.actions(write.retry_safe, write.retry_after),
                [*scenario.options(), *chosen.args],
                env_for(sandbox, home=homes / str(index)),
                stdin=chosen.stdin,
                prepare=chosen.prepare,
                observe=chosen.observe,
            )
        )
    return run_cases(sandbox, fault_cases, workers=8)


# -- the checks -----------------------------------------------------------------------------


def expected_exit(write: Write, scenario: Scenario) -> int:
    if write.id == "status-changes delete" and scenario is LOST:
        return 5  # the retry found nothing: gone, but not confirmed as deleted by leadctl
    return scenario.exit_code(write.retry_safe)


def acted(write: Write, scenario: Scenario) -> bool:
    """Whether the service carried the operation out (once) in this scenario."""
    if scenario in (OVER_429, OVER_500, OVER_DROP):
        return False
    if write.retry_safe:
        return True
    # A 500 or a drop is injected before the service acts; drop-after and a hang after.
    return scenario in (STORM, LOST, SLOW)


@pytest.mark.parametrize(("write", "scenario"), CASES, ids=[case_id(*case) for case in CASES])
def test_write_under_faults(outcomes: dict[str, Outcome], write: Write, scenario: Scenario) -> None:
    outcome = outcomes[case_id(write, scenario)]
    result = outcome.result
    code = expected_exit(write, scenario)
    assert result.exit_code == code, result.stderr
    assert no_traceback(result)
    assert outcome.leftover_faults == 0
    assert outcome.attempts == scenario.attempts(write.retry_safe, write.retry_after)
    if code == 0:
        assert scenario.says(write.retry_safe, write.retry_after) in result.stderr
    else:
        assert result.stdout == ""
    if code == 9:
        # Sent once; the message says it may have happened and what to check.
        assert "may or may not have taken effect" in result.stderr
        assert _CHECK[write.id] in result.stderr
    if code == 5:
        assert "cannot confirm it deleted it" in result.stderr
        assert "answer was lost" in result.stderr
    seen = outcome.seen
    done = acted(write, scenario)
    if write.id == "sources update" and code == 0:
        assert seen["description"] == seen["wanted"]
    elif write.id == "status-changes update" and code == 0:
        # Printed and stored: the state asked for, whatever attempts it took.
        assert seen["notes"] == seen["wanted"]
        assert seen["stored"] == [seen["wanted"]]
    elif write.id == "users compliance" and code == 0:
        assert seen["acceptedSms"] is seen["wanted"]
    elif write.id == "status-changes delete":
        assert seen["still_there"] is not done
    elif write.id == "leads create":
        assert seen["created"] == (1 if done else 0)
    elif write.id in ("sources rotate", "api POST rotate"):
        # The old key stops working exactly when the rotation happened.
        assert seen["old_key"] == (401 if done else 202)
        if code == 0:
            assert seen["new_key"] == 202
            assert seen["shown_once"]
    elif write.id == "a2a call" and code == 0:
        assert json.loads(seen["result"])


_CHECK = {
    "leads create": "leadctl leads list --search",
    "api POST rotate": "apiKeyRotatedAt",
    "sources rotate": "apiKeyRotatedAt",
    "a2a call": "check whether the agent operation took effect",
}


def test_puts_converge_when_a_timed_out_attempt_lands_late(
    sandbox: SandboxProcess, world: World
) -> None:
    """The hung first attempt of a PUT is carried out after the retry succeeded: the
    state is still the one asked for, because both carry the same body."""
    lead_id, change_id = world.changes[-1]
    notes = f"late-{uuid.uuid4().hex[:8]}"
    outcome = run_cases(
        sandbox,
        [
            FaultCase(
                "late landing",
                "PUT",
                f"/lead-status-changes/{change_id}",
                ["hang=2"],
                ["--timeout", "1", "status-changes", "update", change_id, "--notes", notes],
                env_for(sandbox),
            )
        ],
    )["late landing"]
    assert outcome.result.exit_code == 0, outcome.result.stderr
    assert outcome.attempts == 2
    history = world.rpc("leads.get", {"id": lead_id})["statusChanges"]
    assert [c["notes"] for c in history if c["id"] == change_id] == [notes]
