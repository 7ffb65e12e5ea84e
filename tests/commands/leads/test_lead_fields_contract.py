"""Issue 12 point 2, end to end with the installed leadctl against the validating mock:
`leads create` and `leads import` on the contract's nested lead schema.

The installed leadctl meets each guarantee on one variant (``leadctl``); setting the region,
a body that only varies the data, and the second and third refusal of a test run in-process
on both (``run_in_process``: the same command tree and socket)."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.support.contract_mock import ContractMock
from tests.support.contract_mock_fixtures import CredentialEnv, Runner
from tests.support.in_process import run_in_process

pytestmark = pytest.mark.e2e

REQUIRED_FIELDS = [
    "--field", "metadata.consentCertificateUrl=https://cert.example.com/c/1",
    "--field", "contact.firstName=Ada",
    "--field", "contact.lastName=Lovelace",
    "--field", "contact.email=ada@example.com",
    "--field", "contact.phone.number=(512) 555-0123",
    "--field", "tagIds=",
    "--field", "tagNames=web;spring",
]  # fmt: skip
CSV_HEADER = (
    "metadata.consentCertificateUrl,contact.firstName,contact.lastName,contact.email,"
    "contact.phone.number,customer.creditScore,customer.homeowner,tagIds,tagNames\n"
)


def with_region(env: CredentialEnv) -> CredentialEnv:
    configured = run_in_process(["profile", "set", "region", "US"], env=env)
    assert configured.exit_code == 0, configured.stderr
    return env


def test_create_takes_dot_paths_typed_from_the_schema(
    contract_mock: ContractMock, leadctl_env: CredentialEnv, leadctl: Runner
) -> None:
    args = ["leads", "create", *REQUIRED_FIELDS, "--field", "customer.creditScore=720",
            "--field", "customer.homeowner=yes"]  # fmt: skip

    result = leadctl(args, env=with_region(leadctl_env))

    assert result.exit_code == 0, result.stderr
    assert contract_mock.violations() == []
    assert contract_mock.requests[0].json() == {
        "metadata": {"consentCertificateUrl": "https://cert.example.com/c/1"},
        "contact": {
            "firstName": "Ada",
            "lastName": "Lovelace",
            "email": "ada@example.com",
            "phone": {"number": "+15125550123"},
        },
        "customer": {"creditScore": 720, "homeowner": True},
        "tagIds": [],
        "tagNames": ["web", "spring"],
    }


def test_a_required_object_without_required_fields_of_its_own_is_sent_empty(
    contract_mock: ContractMock, leadctl_env: CredentialEnv
) -> None:
    result = run_in_process(["leads", "create", *REQUIRED_FIELDS], env=with_region(leadctl_env))

    assert result.exit_code == 0, result.stderr
    assert contract_mock.violations() == []
    assert contract_mock.requests[0].json()["customer"] == {}


def test_create_refuses_unknown_paths_and_missing_fields_before_sending(
    contract_mock: ContractMock, leadctl_env: CredentialEnv, leadctl: Runner
) -> None:
    unknown = leadctl(
        ["leads", "create", *REQUIRED_FIELDS, "--field", "contact.firstname=Ada"], env=leadctl_env
    )
    flat = run_in_process(
        ["leads", "create", "--field", "firstName=Ada", "--field", "phone=+15125550123"],
        env=leadctl_env,
    )
    missing = run_in_process(["leads", "create", *REQUIRED_FIELDS[2:]], env=leadctl_env)

    assert (unknown.exit_code, flat.exit_code, missing.exit_code) == (2, 2, 2)
    assert "contact.firstName" in unknown.stderr
    assert "contact.firstName" in flat.stderr
    assert "metadata.consentCertificateUrl" in missing.stderr
    assert contract_mock.requests == []


def test_import_types_each_csv_row_from_the_schema(
    contract_mock: ContractMock, leadctl_env: CredentialEnv, tmp_path: Path, leadctl: Runner
) -> None:
    rows = [
        f"https://cert.example.com/c/{n},Ada{n},Lovelace,ada{n}@example.com,"
        f"512555012{n},{700 + n},{'yes' if n % 2 else 'false'},,web;batch\n"
        for n in range(5)
    ]
    csv_file = tmp_path / "leads.csv"
    csv_file.write_text(CSV_HEADER + "".join(rows), encoding="utf-8")

    result = leadctl(["leads", "import", str(csv_file)], env=with_region(leadctl_env))

    assert result.exit_code == 0, result.stderr
    assert contract_mock.violations() == []
    bodies = sorted(
        (r.json() for r in contract_mock.requests_to("POST", "/leads")),
        key=lambda body: body["contact"]["firstName"],
    )
    assert len(bodies) == 5
    assert bodies[3]["contact"]["phone"] == {"number": "+15125550123"}
    assert bodies[3]["customer"] == {"creditScore": 703, "homeowner": True}
    assert bodies[2]["customer"]["homeowner"] is False
    assert bodies[0]["tagNames"] == ["web", "batch"]
    assert "tagIds" not in bodies[0] or bodies[0]["tagIds"] == []


def test_import_with_a_column_that_is_no_field_sends_nothing(
    contract_mock: ContractMock, leadctl_env: CredentialEnv, tmp_path: Path, leadctl: Runner
) -> None:
    csv_file = tmp_path / "leads.csv"
    csv_file.write_text(
        CSV_HEADER.replace("contact.email", "contact.mail") + "a,b,c,d,e,1,yes,,x\n",
        encoding="utf-8",
    )

    result = leadctl(["leads", "import", str(csv_file)], env=leadctl_env)

    assert result.exit_code == 2
    assert "contact.mail" in result.stderr and "contact.email" in result.stderr
    assert contract_mock.requests == []


def test_a_cell_that_cannot_be_typed_makes_its_row_invalid_and_the_import_goes_on(
    contract_mock: ContractMock, leadctl_env: CredentialEnv, tmp_path: Path, leadctl: Runner
) -> None:
    rows = [
        f"https://cert.example.com/c/{n},Ada{n},Lovelace,ada{n}@example.com,"
        f"+1512555012{n},{'many' if n == 1 else 700},no,,web\n"
        for n in range(3)
    ]
    csv_file = tmp_path / "leads.csv"
    csv_file.write_text(CSV_HEADER + "".join(rows), encoding="utf-8")

    result = leadctl(["leads", "import", str(csv_file)], env=leadctl_env)

    assert result.exit_code == 6
    assert "row 2: invalid: customer.creditScore: 'many' is not a whole number" in result.stderr
    sent = sorted(r.json()["contact"]["firstName"] for r in contract_mock.requests)
    assert sent == ["Ada0", "Ada2"]
    assert contract_mock.violations() == []


def test_import_maps_columns_and_shares_fields(
    contract_mock: ContractMock, leadctl_env: CredentialEnv, tmp_path: Path, leadctl: Runner
) -> None:
    csv_file = tmp_path / "vendor.csv"
    csv_file.write_text(
        "First Name,Last Name,E-mail,Mobile,Score\n"
        "Ada,Lovelace,ada@example.com,+15125550123,720\n"
        "Grace,Hopper,grace@example.com,+15125550124,680\n",
        encoding="utf-8",
    )
    args = ["leads", "import", str(csv_file),
            "--map", "First Name=contact.firstName", "--map", "Last Name=contact.lastName",
            "--map", "E-mail=contact.email", "--map", "Mobile=contact.phone.number",
            "--map", "Score=customer.creditScore",
            "--field", "metadata.consentCertificateUrl=https://cert.example.com/batch",
            "--field", "tagIds=", "--field", "tagNames=vendor;june"]  # fmt: skip

    result = leadctl(args, env=leadctl_env)

    assert result.exit_code == 0, result.stderr
    assert contract_mock.violations() == []
    bodies = sorted(
        (r.json() for r in contract_mock.requests), key=lambda b: b["contact"]["firstName"]
    )
    assert [b["customer"] for b in bodies] == [{"creditScore": 720}, {"creditScore": 680}]
    assert bodies[1]["contact"]["phone"] == {"number": "+15125550124"}
    assert all(b["tagNames"] == ["vendor", "june"] for b in bodies)
    assert all(b["tagIds"] == [] for b in bodies)
