"""``leadctl contract import`` in process: whom the imported contract now serves."""

from __future__ import annotations

from pathlib import Path

from tests.support.cli import BASE_URL, run_cli

CONTRACT = Path(__file__).parents[2] / "fixtures" / "contracts" / "aspnet-3.1.json"


def test_a_profile_without_a_base_url_keeps_the_contract_to_itself() -> None:
    imported = run_cli(["contract", "import", str(CONTRACT)])
    assert imported.exit_code == 0, imported.stderr
    assert f"profile 'default' now uses {CONTRACT}: 125 operations" in imported.stderr
    assert "every profile of" not in imported.stderr


def test_the_profiles_of_one_service_share_it() -> None:
    imported = run_cli(["contract", "import", str(CONTRACT)], env={"LEADCTL_BASE_URL": BASE_URL})
    assert imported.exit_code == 0, imported.stderr
    assert f"profile 'default' (and every profile of {BASE_URL}) now uses" in imported.stderr
