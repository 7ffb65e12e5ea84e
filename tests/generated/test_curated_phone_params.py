"""Issue 21.1 for curated commands: ``numbers status NUMBER`` sends a phone number in E.164,
unless the active contract's operation takes an identifier there (``{phoneNumberId}``):
then what was typed is the id, sent as given."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from pytest_httpx import HTTPXMock

from tests.generated.aspnet import aspnet
from tests.support.cli import BASE_URL, Result, run_cli, token_env

STATUS = "/phone-numbers/{number}/status"


def with_status_path(name: str) -> dict[str, Any]:
    document = aspnet()
    item = document["paths"].pop(STATUS)
    for param in item["get"]["parameters"]:
        if param["in"] == "path":
            param["name"] = name
            param["description"] = "The phone number identifier"
    document["paths"][f"/phone-numbers/{{{name}}}/status"] = item
    return document


def test_an_id_of_a_number_goes_out_as_typed(
    import_contract: Callable[..., Result], httpx_mock: HTTPXMock
) -> None:
    import_contract(with_status_path("phoneNumberId"))
    httpx_mock.add_response(url=f"{BASE_URL}/phone-numbers/5125550123/status", json={"number": "x"})

    result = run_cli(["numbers", "status", "5125550123", "-o", "json"], env=token_env())

    assert result.exit_code == 0, result.stderr


def test_a_number_goes_out_in_e164(
    import_contract: Callable[..., Result], httpx_mock: HTTPXMock
) -> None:
    import_contract(aspnet())
    httpx_mock.add_response(
        url=f"{BASE_URL}/phone-numbers/%2B15125550123/status", json={"number": "+15125550123"}
    )

    result = run_cli(["numbers", "status", "(512) 555-0123", "-o", "json"], env=token_env())
    # Read as a phone number: a national one needs the profile's region.
    assert result.exit_code == 2
    assert "no region is set" in result.stderr
    assert run_cli(["profile", "set", "region", "US"]).exit_code == 0
    result = run_cli(["numbers", "status", "(512) 555-0123", "-o", "json"], env=token_env())
    assert result.exit_code == 0, result.stderr
