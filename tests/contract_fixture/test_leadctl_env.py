"""leadctl pointed at the mock with the fixture contract imported: a curated command's request
arrives valid and with the organization key."""

from __future__ import annotations

import json

from tests.support.contract_mock import ContractMock
from tests.support.contract_mock_fixtures import CredentialEnv, Runner


def test_a_curated_read_reaches_the_mock_valid(
    contract_mock: ContractMock, leadctl_env: CredentialEnv, leadctl: Runner
) -> None:
    result = leadctl(["lead-statuses", "list", "-o", "json"], env=leadctl_env)

    assert result.exit_code == 0, result.stderr
    assert json.loads(result.stdout)[0]["category"] == "Open"
    assert contract_mock.violations() == []
    [request] = contract_mock.requests
    assert (request.operation_id, request.credential) == (
        "LeadStatuses_GetAllForCurrentOrganization",
        "org",
    )
