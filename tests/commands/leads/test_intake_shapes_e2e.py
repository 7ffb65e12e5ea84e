"""Intake on the active lead schema, with the installed leadctl over real 127.0.0.1 sockets:
the ASP.NET-style fixture contract's nested body against its validating mock, and the bundled
contract's flat shape against the sandbox.

Each create, import and refusal is the installed leadctl's; the region setting a test starts
from and the list it checks against run in-process (``run_in_process``: the same command tree
and socket)."""

from __future__ import annotations

import json
import uuid
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.support.contract_mock import ContractMock, serve_contract
from tests.support.contract_mock_fixtures import (
    CREDENTIALS,
    SCHEME_KINDS,
    CredentialEnv,
    leadctl_env_for,
    load_contract,
)
from tests.support.e2e import run_leadctl
from tests.support.imported_contracts import ImportedContracts
from tests.support.in_process import run_in_process
from tests.support.sandbox_server import SandboxProcess

pytestmark = pytest.mark.e2e


@pytest.fixture
def fixture_mock() -> Iterator[ContractMock]:
    with serve_contract(
        load_contract("3.1"), credentials=CREDENTIALS, scheme_kinds=SCHEME_KINDS
    ) as mock:
        yield mock


@pytest.fixture
def fixture_env(fixture_mock: ContractMock, imported_contracts: ImportedContracts) -> CredentialEnv:
    env = leadctl_env_for(fixture_mock, "3.1", imported_contracts)
    assert run_in_process(["profile", "set", "region", "US"]).exit_code == 0
    return env


def test_fixture_create_import_and_a_bad_header(
    fixture_mock: ContractMock, fixture_env: CredentialEnv, tmp_path: Path
) -> None:
    created = run_leadctl(
        [
            "leads", "create",
            "--field", "metadata.consentCertificateUrl=https://cert.example.com/c/1",
            "--field", "contact.firstName=Ada",
            "--field", "contact.lastName=Lovelace",
            "--field", "contact.email=ada@example.com",
            "--field", "contact.phone.number=(512) 555-0123",
            "--field", "customer.creditScore=720",
            "--field", "customer.homeowner=yes",
            "--field", "tagNames=web", "--field", "tagIds=",
            "-o", "json",
        ],
        env=fixture_env,
    )  # fmt: skip
    assert created.exit_code == 0, created.stderr
    [sent] = fixture_mock.requests_to("POST", "/leads")
    assert sent.json()["contact"]["phone"] == {"number": "+15125550123"}
    assert sent.json()["customer"] == {"creditScore": 720, "homeowner": True}

    leads = tmp_path / "leads.csv"
    header = (
        "metadata.consentCertificateUrl,contact.firstName,contact.lastName,contact.email,"
        "contact.phone.number,customer.householdSize,customer.currentlyInsured,tagNames,tagIds"
    )
    rows = [
        f"https://cert.example.com/c/{n},F{n},L{n},p{n}@example.com,512 555 01{n:02d},{n + 1},"
        f"{'true' if n % 2 else 'no'},web;r{n},"
        for n in range(5)
    ]
    leads.write_text("\n".join([header, *rows]) + "\n", encoding="utf-8")
    imported = run_leadctl(["leads", "import", str(leads)], env=fixture_env)
    assert imported.exit_code == 0, imported.stderr
    bodies = sorted(
        (r.json() for r in fixture_mock.requests_to("POST", "/leads")[1:]),
        key=lambda body: str(body["contact"]["firstName"]),
    )
    assert len(bodies) == 5
    assert [b["customer"]["householdSize"] for b in bodies] == [1, 2, 3, 4, 5]
    assert [b["contact"]["phone"]["number"] for b in bodies][4] == "+15125550104"
    assert bodies[1]["tagNames"] == ["web", "r1"] and bodies[1]["tagIds"] == []

    bad = tmp_path / "bad.csv"
    bad.write_text(header.replace("contact.email", "emial") + "\n" + rows[0] + "\n")
    refused = run_leadctl(["leads", "import", str(bad)], env=fixture_env)
    assert refused.exit_code == 2
    assert "column 'emial' is not a field of the active contract's lead" in refused.stderr
    assert "did you mean contact.email" in refused.stderr
    assert len(fixture_mock.requests_to("POST", "/leads")) == 6
    assert fixture_mock.violations() == []


def test_the_bundled_flat_shape_still_works_against_the_sandbox(
    sandbox: SandboxProcess, org_env: CredentialEnv, tmp_path: Path
) -> None:
    mark = f"flat{uuid.uuid4().hex[:10]}"
    assert run_in_process(["profile", "set", "region", "US"]).exit_code == 0
    created = run_leadctl(
        [
            "leads", "create", "--field", f"firstName={mark}", "--field", "phone=(512) 555-0143",
            "--field", "state=TX", "--field", "tags=web;vip", "-o", "json",
        ],
        env=org_env,
    )  # fmt: skip
    assert created.exit_code == 0, created.stderr
    assert json.loads(created.stdout)["phone"] == "+15125550143"

    leads = tmp_path / "flat.csv"
    leads.write_text(
        "firstName,lastName,phone,email,state,tags[]\n"
        f"{mark},One,512-555-0150,{mark}-1@e2e.example,TX,a\n"
        f"{mark},Two,+1 512 555 0151,{mark}-2@e2e.example,CA,b\n",
        encoding="utf-8",
    )
    imported = run_leadctl(["leads", "import", str(leads)], env=org_env)
    assert imported.exit_code == 0, imported.stderr

    listed = run_in_process(
        ["leads", "list", "--search", mark, "--all", "-o", "ndjson"], env=org_env
    )
    assert listed.exit_code == 0, listed.stderr
    found = [json.loads(line) for line in listed.stdout.splitlines()]
    assert sorted(lead["phone"] for lead in found) == [
        "+15125550143",
        "+15125550150",
        "+15125550151",
    ]
    [first] = [lead for lead in found if lead["phone"] == "+15125550143"]
    # The sandbox matches tag names case-insensitively (its seed has "Web").
    assert sorted(tag["name"].lower() for tag in first["tags"]) == ["vip", "web"]
