"""Issue 11: every generated operation of a real-style contract, invoked once with its required
inputs against the validating mock, sends a request the contract accepts. Issue 21: the same
for the trait contract (the service's own, tests/fixtures/contracts/traits/): every
destructive one refused without --yes (nothing sent) and confirmed with it, every download
followed to its bytes without the credential.

One mock and one imported contract per variant, made once a module (``sweeps``); each
operation is its own test, so a report shows passing / total. leadctl runs in-process
(``invoke``) over the real socket: 250 subprocess start-ups would cost minutes on a shared
machine; the curated commands and issue 12's flows run the installed leadctl instead.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator
from contextlib import ExitStack
from dataclasses import dataclass
from pathlib import Path
from typing import Any
from urllib.parse import unquote

import pytest

from tests.contract_fixture.sweep import (
    arguments,
    credential_for,
    given_path_values,
    idempotency_keys,
    route_of,
)
from tests.support.cli import run_cli
from tests.support.contract_mock import ContractMock, serve_contract
from tests.support.contract_mock_fixtures import (
    CONTRACT_NAMES,
    CREDENTIALS,
    SCHEME_KINDS,
    VERSIONS,
    contract_path,
    load_contract,
)

# (contract, OpenAPI version), METHOD, path: each operation only with its own contract.
CASES = [
    ((name, version), method.upper(), path)
    for name in CONTRACT_NAMES
    for version in VERSIONS
    for path, item in load_contract(version, name)["paths"].items()
    for method in item
]


@dataclass
class Sweep:
    contract: str
    mock: ContractMock
    env: dict[str, str]
    entries: dict[tuple[str, str], dict[str, Any]]
    # Operations the contract has that leadctl left out (a defect of the contract): why.
    left_out: dict[str, list[str]]
    workdir: Path


def _new_sweep(
    variant: tuple[str, str], tmp_path_factory: pytest.TempPathFactory, stack: ExitStack
) -> Sweep:
    name, version = variant
    home = tmp_path_factory.mktemp(f"sweep-{name}-{version}")
    env = {
        "LEADCTL_CONFIG_DIR": str(home / "config"),
        "LEADCTL_DATA_DIR": str(home / "data"),
        "LEADCTL_CACHE_DIR": str(home / "cache"),
    }
    mock = stack.enter_context(
        serve_contract(
            load_contract(version, name), credentials=CREDENTIALS, scheme_kinds=SCHEME_KINDS
        )
    )
    configured = run_cli(["profile", "set", "base_url", mock.base_url], env=env)
    assert configured.exit_code == 0, configured.stderr
    imported = run_cli(["contract", "import", str(contract_path(version, name))], env=env)
    assert imported.exit_code == 0, imported.stderr
    index = json.loads(next((home / "cache").rglob("index.json")).read_text("utf-8"))
    operations = json.loads(next((home / "cache").rglob("operations.json")).read_text("utf-8"))
    entries = {(str(e["method"]), str(e["path"])): e for e in operations}
    left_out = {str(e["operation"]): e["reasons"] for e in index["leftOut"]}
    return Sweep(name, mock, env, entries, left_out, home)


@pytest.fixture(scope="module")
def sweeps(
    tmp_path_factory: pytest.TempPathFactory,
) -> Iterator[Callable[[tuple[str, str]], Sweep]]:
    """Each variant's sweep, made when one of its tests first asks and kept for the module.
    (An indirect module-scoped fixture would be set up once per parametrize row, that is
    once per operation: 524 contract imports instead of 12.)"""
    made: dict[tuple[str, str], Sweep] = {}
    with ExitStack() as stack:

        def sweep_for(variant: tuple[str, str]) -> Sweep:
            if variant not in made:
                made[variant] = _new_sweep(variant, tmp_path_factory, stack)
            return made[variant]

        yield sweep_for


@pytest.mark.parametrize(
    ("variant", "method", "path"), CASES, ids=[f"{c}-{v}: {m} {p}" for (c, v), m, p in CASES]
)
def test_every_generated_operation_sends_a_valid_request(
    sweeps: Callable[[tuple[str, str]], Sweep], variant: tuple[str, str], method: str, path: str
) -> None:
    sweep = sweeps(variant)
    reasons = sweep.left_out.get(f"{method} {path}")
    if reasons is not None:
        pytest.skip(f"left out of the import: {'; '.join(reasons)} (test_defective_contract.py)")
    entry = sweep.entries[(method, path)]
    if entry.get("curated"):
        pytest.skip(f"curated as `{entry['curated']}` (test_curated_commands.py)")
    args = arguments(sweep.mock, entry, sweep.workdir)
    token = credential_for(route_of(sweep.mock, method, path))
    env = {**sweep.env, "LEADCTL_TOKEN": token}
    sweep.mock.clear()
    if entry.get("destructive"):
        # Issue 21.2: without a terminal, a destructive verb needs --yes; nothing is sent.
        refused = run_cli([*args, "-o", "json"], env=env)
        assert refused.exit_code == 2, (args, refused.stderr)
        assert "--yes" in refused.stderr
        assert sweep.mock.requests == []
        args = [*args, "--yes"]
    downloads = len(sweep.mock.files.requests)

    result = run_cli([*args, "-o", "json"], env=env)

    assert result.exit_code == 0, (args, result.stderr)
    assert sweep.mock.violations() == [], args
    sent = sweep.mock.requests_to(method, path)
    assert len(sent) == 1, [str(r) for r in sweep.mock.requests]
    segments = [unquote(segment) for segment in sent[0].path.split("/")]
    for is_phone, given in given_path_values(sweep.mock, entry):
        # Issue 21.1: only a phone number is rewritten (to E.164); an id goes as typed.
        assert is_phone or given in segments, (given, sent[0].path)
    if entry.get("download"):
        # Issue 21.7: the redirect is followed, without the credential, to the bytes.
        [fetched] = sweep.mock.files.requests[downloads:]
        assert "authorization" not in fetched
        assert result.stdout.encode("latin-1") == sweep.mock.files.content
    for name in idempotency_keys(sweep.mock, method, path):
        # leadctl makes the key (a fresh one per invocation); the sweep never gives one.
        assert sent[0].headers.get(name.lower()) or (sent[0].json() or {}).get(name), name
