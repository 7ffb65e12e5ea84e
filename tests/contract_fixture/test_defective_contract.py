"""Issue 21.11: the service's earlier OpenAPI 3.0 contract has a PUT whose path parameter is
not in its path template (traits/path_parameter_not_in_template.py). `contract import` leaves
that one operation out, names it with the reason, imports the rest, and `contract show` keeps
the list; the 3.1 contract, without the defect, has the command."""

from __future__ import annotations

import json

from tests.support.contract_mock import ContractMock
from tests.support.contract_mock_fixtures import CredentialEnv, Runner, contract_path
from tests.support.e2e import run_leadctl

LEFT_OUT = "PUT /lead-statuses/order"
REASON = "path parameter 'organizationId' is not in the path template /lead-statuses/order"


def test_the_defective_operation_is_left_out_named_and_the_rest_works(
    trait_mock: ContractMock, trait_env: CredentialEnv, contract_version: str, leadctl: Runner
) -> None:
    again = leadctl(
        ["contract", "import", str(contract_path(contract_version, "traits"))], env=trait_env
    )
    shown = json.loads(leadctl(["contract", "show", "-o", "json"], env=trait_env).stdout)
    reorder = run_leadctl(["lead-statuses", "reorder", "--help"], env=trait_env)
    tags = leadctl(["tags", "list", "-o", "json"], env=trait_env)

    assert again.exit_code == 0, again.stderr
    assert tags.exit_code == 0, tags.stderr
    assert trait_mock.violations() == []
    if contract_version == "3.0":
        assert f"warning: left out {LEFT_OUT}: {REASON}" in again.stderr
        assert "1 left out" in again.stderr
        assert shown["leftOut"] == [
            {"operation": LEFT_OUT, "operationId": "LeadStatuses_Reorder", "reasons": [REASON]}
        ]
        assert reorder.exit_code == 2
    else:
        assert "left out" not in again.stderr
        assert shown["leftOut"] == []
        assert reorder.exit_code == 0, reorder.stderr
    assert shown["operations"] == operations_in(contract_version) - len(shown["leftOut"])


def operations_in(version: str) -> int:
    """Operations the fixture contract holds (each trait module adds its own)."""
    document = json.loads(contract_path(version, "traits").read_text(encoding="utf-8"))
    methods = {"get", "put", "post", "delete", "patch", "head", "options", "trace"}
    return sum(len(methods & set(item)) for item in document["paths"].values())


def test_contract_show_lists_what_was_left_out_for_a_person(
    trait_env: CredentialEnv, contract_version: str, leadctl: Runner
) -> None:
    shown = leadctl(["contract", "show", "-o", "table"], env={**trait_env, "COLUMNS": "200"})
    assert shown.exit_code == 0, shown.stderr
    if contract_version == "3.0":
        assert LEFT_OUT in shown.stdout and REASON in shown.stdout
    else:
        assert LEFT_OUT not in shown.stdout
