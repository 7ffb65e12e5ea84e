"""``leadctl contract import`` in process: whom the imported contract now serves."""

from __future__ import annotations

import json
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


def test_defaults_kept_that_do_not_match_are_named_the_first_ten_or_all_under_debug(
    tmp_path: Path,
) -> None:
    parameters = [
        {"name": f"q{n}", "in": "query", "schema": {"type": "integer", "default": "x"}}
        for n in range(12)
    ]
    document = {
        "openapi": "3.1.0",
        "info": {"title": "t", "version": "1"},
        "paths": {
            "/things": {
                "get": {"parameters": parameters, "responses": {"200": {"description": "ok"}}}
            }
        },
    }
    path = tmp_path / "things.json"
    path.write_text(json.dumps(document), encoding="utf-8")

    quiet = run_cli(["contract", "import", str(path)])
    debug = run_cli(["--debug", "contract", "import", str(path)])

    assert (quiet.exit_code, debug.exit_code) == (0, 0), quiet.stderr + debug.stderr
    named = "warning: default kept at #/paths/~1things/get/parameters/"
    assert quiet.stderr.count(named) == 10
    assert "warning: ... and 2 more defaults that do not match their schemas" in quiet.stderr
    assert debug.stderr.count(named) == 12
    assert "more defaults" not in debug.stderr
    assert "1 operations, 0 with curated commands, 1 as generated commands, 12 defaults kept" in (
        quiet.stderr
    )
