"""`leads import` of a `leads list -o csv` export on the trait contract, whose list items
are not the lead intake takes (issue 21 point 15): through the installed leadctl against
the validating mock.

The export's ``firstName``, ``email``, ``phone`` and ``tags[].name`` are read as
``contact.firstName``, ``contact.email``, ``contact.phone.number`` and ``tagNames``; its
``id``, ``currentLeadStatus.name``, ``processingStatus`` and ``createdAt`` are left out and
never sent; every request is valid.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.support.contract_mock import ContractMock
from tests.support.contract_mock_fixtures import CredentialEnv, Runner

pytestmark = pytest.mark.e2e

EXPORT = (
    "id,firstName,lastName,email,phone,currentLeadStatus.name,tags[].name,processingStatus,"
    "createdAt\n"
    "lead-1,Ada,Lovelace,ada@example.com,+15125550123,Qualified,hot;web,Accepted,"
    "2026-11-20T15:04:05Z\n"
)
# What the export lacks and intake requires: say so once for every row.
REQUIRED = [
    "--field", "metadata.consentCertificateUrl=https://consent.example.com/c/1",
    "--field", "tagIds=[]",
]  # fmt: skip


def test_an_export_is_read_as_the_creates_fields_and_the_rest_left_out(
    trait_mock: ContractMock, trait_env: CredentialEnv, tmp_path: Path, leadctl: Runner
) -> None:
    export = tmp_path / "export.csv"
    export.write_text(EXPORT, encoding="utf-8")

    result = leadctl(["leads", "import", str(export), *REQUIRED], env=trait_env)

    assert result.exit_code == 0, result.stderr
    assert trait_mock.violations() == []
    [sent] = [request.json() for request in trait_mock.requests_to("POST", "/leads")]
    assert sent["contact"] == {
        "firstName": "Ada",
        "lastName": "Lovelace",
        "email": "ada@example.com",
        "phone": {"number": "+15125550123"},
    }
    assert sent["tagNames"] == ["hot", "web"] and sent["tagIds"] == []
    for left_out in ("id", "currentLeadStatus", "processingStatus", "createdAt"):
        assert left_out not in sent
    assert "firstName as contact.firstName" in result.stderr
    assert "phone as contact.phone.number" in result.stderr
    assert "tags[].name as tagNames" in result.stderr
    assert "currentLeadStatus.name" in result.stderr.split("leaving out")[1]


def test_a_typo_in_an_export_column_is_named_with_did_you_mean_before_any_row(
    trait_mock: ContractMock, trait_env: CredentialEnv, tmp_path: Path, leadctl: Runner
) -> None:
    """The trait contract's lead takes extra fields (open_schemas), so the column is valid
    data; the warning names the field it was likely meant to be."""
    export = tmp_path / "export.csv"
    export.write_text(EXPORT.replace("lastName", "lastNmae", 1), encoding="utf-8")

    result = leadctl(["leads", "import", str(export), *REQUIRED], env=trait_env)

    assert result.exit_code == 6  # the row lacks contact.lastName: invalid, not sent
    assert "column 'lastNmae' is not a field the lead lists" in result.stderr
    assert "did you mean contact.lastName" in result.stderr
    assert trait_mock.requests == []
