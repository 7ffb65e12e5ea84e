"""Generated help against the ASP.NET fixture contract, snapshotted at two widths: nested
required objects list their fields as dot paths, lines fill the terminal, the credential,
enums and filled examples are shown.

    LEADCTL_UPDATE_SNAPSHOTS=1 uv run pytest tests/generated/test_generated_help.py

rewrites tests/generated/help_snapshots/; review the diff like code.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from tests.generated.fixture_verbs import FIXTURE
from tests.support.cli import BASE_URL, run_cli
from tests.support.imported_contracts import ImportedContracts

SNAPSHOTS = Path(__file__).with_name("help_snapshots")
UPDATE = os.environ.get("LEADCTL_UPDATE_SNAPSHOTS", "") not in ("", "0")
VERBS = (("leads", "validate-external"), ("automations", "create"))
WIDTHS = (100, 160)


@pytest.fixture
def fixture_contract(imported_contracts: ImportedContracts) -> None:
    # As `contract import` leaves it for BASE_URL (tests/generated/conftest.py), imported
    # once per session.
    imported_contracts.install(FIXTURE, BASE_URL)


def generated_help(verb: tuple[str, str], width: int) -> str:
    result = run_cli([*verb, "--help"], env={"COLUMNS": str(width), "NO_COLOR": "1"})
    assert result.exit_code == 0, result.stderr
    return result.stdout


@pytest.mark.usefixtures("fixture_contract")
@pytest.mark.parametrize("width", WIDTHS)
@pytest.mark.parametrize("verb", VERBS, ids="-".join)
def test_generated_help_matches_its_snapshot(verb: tuple[str, str], width: int) -> None:
    text = generated_help(verb, width)
    snapshot = SNAPSHOTS / f"leadctl-{'-'.join(verb)}-{width}.txt"
    if UPDATE:
        SNAPSHOTS.mkdir(exist_ok=True)
        snapshot.write_text(text, encoding="utf-8")
        return
    assert snapshot.exists(), f"no snapshot; run with LEADCTL_UPDATE_SNAPSHOTS=1: {snapshot}"
    assert text == snapshot.read_text(encoding="utf-8")
