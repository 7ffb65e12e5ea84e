"""`leads create` fields and `leads import` columns as dot paths into the active contract's
POST /leads schema: typed values, phones in E.164 wherever they sit, required fields, and
bad input (unknown paths and columns, cells that cannot be typed).

Two imported contracts: a small nested one written here, and the ASP.NET-style fixture
contract (tests/fixtures/contracts/aspnet-3.1.json and its OpenAPI 3.0 variant). Every body
sent is checked against the contract's request schema with jsonschema (formats included).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from pytest_httpx import HTTPXMock

from leadctl.contract.document import Document
from leadctl.contract.phones import is_phone_value
from leadctl.errors import UsageError
from leadctl.inputs.lead_fields import LeadSchema
from tests.support.cli import BASE_URL, Result, run_cli, token_env
from tests.support.contract_mock import Schemas, as_openapi_31
from tests.support.contract_mock_fixtures import CONTRACTS

URL = f"{BASE_URL}/leads"
FIXTURES = CONTRACTS  # tests/fixtures/contracts/
CREATED = {"id": "lead_1", "processingStatus": "Pending"}


def nested_contract() -> dict[str, Any]:
    """POST /leads with a nested body: a phone object described as E.164, a phone string
    known only by its name, typed customer fields, required lists."""
    string = {"type": "string"}
    return {
        "openapi": "3.1.0",
        "info": {"title": "Nested intake", "version": "1"},
        "paths": {
            "/leads": {
                "post": {
                    "operationId": "Leads_Intake",
                    "tags": ["Leads"],
                    "requestBody": {
                        "required": True,
                        "content": {
                            "application/json": {"schema": {"$ref": "#/components/schemas/In"}}
                        },
                    },
                    "responses": {
                        "202": {
                            "description": "Accepted",
                            "content": {"application/json": {"schema": {"type": "object"}}},
                        }
                    },
                }
            }
        },
        "components": {
            "schemas": {
                "In": {
                    "type": "object",
                    "additionalProperties": False,
                    "required": ["meta", "contact", "customer", "tagNames"],
                    "properties": {
                        "meta": {
                            "type": "object",
                            "additionalProperties": False,
                            "required": ["consentUrl"],
                            "properties": {"consentUrl": {**string, "format": "uri"}},
                        },
                        "contact": {"allOf": [{"$ref": "#/components/schemas/Contact"}]},
                        "customer": {
                            "type": "object",
                            "additionalProperties": False,
                            "properties": {
                                "creditScore": {"type": ["null", "integer"]},
                                "homeowner": {"type": ["null", "boolean"]},
                                "income": {"type": "number"},
                            },
                        },
                        "tagNames": {"type": "array", "items": string},
                    },
                },
                "Contact": {
                    "type": "object",
                    "additionalProperties": False,
                    "required": ["firstName", "phone"],
                    "properties": {
                        "firstName": {**string, "minLength": 1},
                        "phone": {"$ref": "#/components/schemas/Phone"},
                        "mobilePhone": {"type": ["null", "string"]},
                        "kind": {"enum": ["Mobile", "Landline"], "type": "string"},
                    },
                },
                "Phone": {
                    "type": "object",
                    "additionalProperties": False,
                    "required": ["number"],
                    "properties": {
                        "number": {
                            **string,
                            "pattern": "^\\+[1-9][0-9]{6,14}$",
                            "description": "The number in E.164 format.",
                        }
                    },
                },
            }
        },
    }


def import_contract(tmp_path: Path, document: dict[str, Any]) -> Schemas:
    path = tmp_path / "contract.json"
    path.write_text(json.dumps(document), encoding="utf-8")
    # Contracts are kept per service: import it for the base URL the commands use.
    result = run_cli(["contract", "import", str(path)], env={"LEADCTL_BASE_URL": BASE_URL})
    assert result.exit_code == 0, result.stderr
    return Schemas(document)


@pytest.fixture
def nested(tmp_path: Path) -> Schemas:
    assert run_cli(["profile", "set", "region", "US"]).exit_code == 0
    return import_contract(tmp_path, nested_contract())


@pytest.fixture(params=["3.1", "3.0"], ids=lambda v: f"openapi-{v}")
def fixture_contract(tmp_path: Path, request: pytest.FixtureRequest) -> Schemas:
    assert run_cli(["profile", "set", "region", "US"]).exit_code == 0
    document = json.loads((FIXTURES / f"aspnet-{request.param}.json").read_text(encoding="utf-8"))
    import_contract(tmp_path, document)
    return Schemas(as_openapi_31(document))


def sent(httpx_mock: HTTPXMock) -> list[Any]:
    return [json.loads(request.content) for request in httpx_mock.get_requests()]


def intake_errors(schemas: Schemas, body: Any) -> list[str]:
    operation = schemas.document["paths"]["/leads"]["post"]
    schema = operation["requestBody"]["content"]["application/json"]["schema"]
    return schemas.errors(schema, body)


def create(*fields: str) -> Result:
    argv = ["leads", "create"]
    for field in fields:
        argv += ["--field", field]
    return run_cli(argv, env=token_env())


def leads_import(*args: str) -> Result:
    return run_cli(["leads", "import", *args, "--concurrency", "1"], env=token_env())


# -- leads create ---------------------------------------------------------------------------


def test_create_sends_nested_dot_paths_typed_with_phones_in_e164(
    httpx_mock: HTTPXMock, nested: Schemas
) -> None:
    httpx_mock.add_response(method="POST", url=URL, status_code=202, json=CREATED)

    result = create(
        "meta.consentUrl=https://cert.example.com/c/1",
        "contact.firstName=Ada",
        "contact.phone.number=(512) 555-0143",
        "contact.mobilePhone=512.555.0100",
        "contact.kind=Mobile",
        "customer.creditScore=720",
        "customer.homeowner=yes",
        "customer.income=52000.50",
        "tagNames=web;spring 2026",
    )

    assert result.exit_code == 0, result.stderr
    body = sent(httpx_mock)[0]
    assert body == {
        "meta": {"consentUrl": "https://cert.example.com/c/1"},
        "contact": {
            "firstName": "Ada",
            "phone": {"number": "+15125550143"},
            "mobilePhone": "+15125550100",
            "kind": "Mobile",
        },
        "customer": {"creditScore": 720, "homeowner": True, "income": 52000.5},
        "tagNames": ["web", "spring 2026"],
    }
    assert intake_errors(nested, body) == []


def test_a_flat_field_name_is_exit_2_naming_the_nested_path(
    httpx_mock: HTTPXMock, nested: Schemas
) -> None:
    result = create("firstName=Ada", "phone=+15125550123")

    assert result.exit_code == 2
    assert "--field 'firstName' is not a field of the active contract's lead" in result.stderr
    assert "did you mean contact.firstName" in result.stderr
    assert httpx_mock.get_requests() == []


@pytest.mark.parametrize(
    ("field", "suggested"),
    [
        ("contact.firstname=Ada", "contact.firstName"),
        ("contact.phone.numbr=+15125550123", "contact.phone.number"),
        ("customer.creditscore=700", "customer.creditScore"),
    ],
)
def test_a_misspelt_path_names_the_closest_ones(
    httpx_mock: HTTPXMock, nested: Schemas, field: str, suggested: str
) -> None:
    result = create(field)

    assert result.exit_code == 2
    assert suggested in result.stderr.splitlines()[1]
    assert httpx_mock.get_requests() == []


@pytest.mark.parametrize(
    ("fields", "message"),
    [
        (["customer.creditScore=high"], "'high' is not a whole number"),
        (["customer.homeowner=maybe"], "'maybe' is not true/false"),
        (["customer.income=nan"], "'nan' is not a number"),
        (["contact.phone=+15125550123"], "contact.phone is an object"),
        (["contact.firstName.x=1"], "contact.firstName is a string, it has no field 'x'"),
    ],
)
def test_a_value_that_cannot_be_typed_is_exit_2(
    httpx_mock: HTTPXMock, nested: Schemas, fields: list[str], message: str
) -> None:
    result = create(*fields)

    assert result.exit_code == 2
    assert message in result.stderr
    assert httpx_mock.get_requests() == []


def test_missing_required_fields_are_named_before_sending(
    httpx_mock: HTTPXMock, nested: Schemas
) -> None:
    result = create("contact.firstName=Ada")

    assert result.exit_code == 2
    first = result.stderr.splitlines()[0]
    assert "meta.consentUrl" in first and "contact.phone.number" in first
    assert httpx_mock.get_requests() == []


# -- leads import ---------------------------------------------------------------------------


def test_five_csv_rows_with_dot_path_headers_become_five_typed_leads(
    httpx_mock: HTTPXMock, nested: Schemas, tmp_path: Path
) -> None:
    for n in range(5):
        httpx_mock.add_response(method="POST", url=URL, status_code=202, json={"id": f"l{n}"})
    leads = tmp_path / "leads.csv"
    leads.write_text(
        "meta.consentUrl,contact.firstName,contact.phone.number,customer.creditScore,"
        "customer.homeowner,tagNames\n"
        "https://c.example.com/1,Ada,(512) 555-0100,720,yes,web;vip\n"
        "https://c.example.com/2,Grace,+1 512 555 0101,650,no,\n"
        "https://c.example.com/3,Alan,512-555-0102,,true,web\n"
        "https://c.example.com/4,Edsger,5125550103,800,,a;b;c\n"
        "https://c.example.com/5,Barbara,+15125550104,300,FALSE,x\n",
        encoding="utf-8",
    )

    result = leads_import(str(leads))

    assert result.exit_code == 0, result.stderr
    bodies = sent(httpx_mock)
    assert len(bodies) == 5
    assert [intake_errors(nested, body) for body in bodies] == [[]] * 5
    assert [b["contact"]["phone"]["number"] for b in bodies] == [
        f"+1512555010{n}" for n in range(5)
    ]
    assert [b["customer"] for b in bodies] == [
        {"creditScore": 720, "homeowner": True},
        {"creditScore": 650, "homeowner": False},
        {"homeowner": True},
        {"creditScore": 800},
        {"creditScore": 300, "homeowner": False},
    ]
    assert [b["tagNames"] for b in bodies] == [["web", "vip"], [], ["web"], ["a", "b", "c"], ["x"]]


def test_a_column_that_maps_to_no_field_is_exit_2_and_nothing_is_sent(
    httpx_mock: HTTPXMock, nested: Schemas, tmp_path: Path
) -> None:
    leads = tmp_path / "leads.csv"
    leads.write_text(
        "meta.consentUrl,contact.firstName,contact.phone.number,contact.phone.numbr\n"
        "https://c.example.com/1,Ada,+15125550100,+15125550100\n",
        encoding="utf-8",
    )

    result = leads_import(str(leads))

    assert result.exit_code == 2
    assert (
        "column 'contact.phone.numbr' is not a field of the active contract's lead" in result.stderr
    )
    assert "did you mean contact.phone.number" in result.stderr
    assert httpx_mock.get_requests() == []


def test_rows_without_a_required_field_are_invalid_and_nothing_is_sent(
    httpx_mock: HTTPXMock, nested: Schemas, tmp_path: Path
) -> None:
    leads = tmp_path / "leads.csv"
    leads.write_text("contact.firstName,contact.phone.number\nAda,+15125550100\n")

    result = leads_import(str(leads))

    assert result.exit_code == 6
    assert "row 1: invalid: missing meta.consentUrl" in result.stderr
    assert httpx_mock.get_requests() == []


def test_a_cell_that_cannot_be_typed_makes_its_row_invalid_and_the_rest_go_on(
    httpx_mock: HTTPXMock, nested: Schemas, tmp_path: Path
) -> None:
    httpx_mock.add_response(method="POST", url=URL, status_code=202, json={"id": "l1"})
    httpx_mock.add_response(method="POST", url=URL, status_code=202, json={"id": "l3"})
    leads = tmp_path / "leads.csv"
    leads.write_text(
        "meta.consentUrl,contact.firstName,contact.phone.number,customer.creditScore,tagNames\n"
        "https://c.example.com/1,Ada,+15125550100,720,\n"
        "https://c.example.com/2,Grace,+15125550101,excellent,\n"
        "https://c.example.com/3,Alan,+15125550102,640,\n",
        encoding="utf-8",
    )
    report = tmp_path / "report.ndjson"

    result = leads_import(str(leads), "--report", str(report))

    assert result.exit_code == 6
    bodies = sent(httpx_mock)
    assert [b["contact"]["firstName"] for b in bodies] == ["Ada", "Alan"]
    lines = {line["row"]: line for line in map(json.loads, report.read_text().splitlines())}
    assert lines[2]["outcome"] == "invalid"
    assert lines[2]["error"]["detail"] == "customer.creditScore: 'excellent' is not a whole number"
    assert lines[1]["outcome"] == lines[3]["outcome"] == "created"


def test_map_renames_columns_and_field_gives_every_row_a_value(
    httpx_mock: HTTPXMock, nested: Schemas, tmp_path: Path
) -> None:
    httpx_mock.add_response(method="POST", url=URL, status_code=202, json={"id": "l1"})
    httpx_mock.add_response(method="POST", url=URL, status_code=202, json={"id": "l2"})
    leads = tmp_path / "form.csv"
    leads.write_text(
        "First Name,Mobile,meta.consentUrl\n"
        "Ada,(512) 555-0100,\n"
        "Grace,(512) 555-0101,https://c.example.com/own\n",
        encoding="utf-8",
    )

    result = leads_import(
        str(leads),
        "--map",
        "First Name=contact.firstName",
        "--map",
        "Mobile=contact.phone.number",
        "--field",
        "meta.consentUrl=https://c.example.com/shared",
        "--field",
        "tagNames=form",
        "--field",
        "customer.homeowner=no",
    )

    assert result.exit_code == 0, result.stderr
    bodies = sent(httpx_mock)
    assert [b["meta"]["consentUrl"] for b in bodies] == [
        "https://c.example.com/shared",
        "https://c.example.com/own",
    ]
    assert bodies[0]["contact"] == {"firstName": "Ada", "phone": {"number": "+15125550100"}}
    assert all(b["tagNames"] == ["form"] for b in bodies)
    assert [intake_errors(nested, body) for body in bodies] == [[], []]


def test_ndjson_objects_go_as_they_are_with_nested_phones_in_e164(
    httpx_mock: HTTPXMock, nested: Schemas
) -> None:
    httpx_mock.add_response(method="POST", url=URL, status_code=202, json={"id": "l1"})
    lead = {
        "meta": {"consentUrl": "https://c.example.com/1"},
        "contact": {"firstName": "Ada", "phone": {"number": "(512) 555-0100"}},
        "customer": {"creditScore": 700},
        "tagNames": [],
    }

    result = run_cli(["leads", "import", "-"], env=token_env(), stdin=json.dumps(lead) + "\n")

    assert result.exit_code == 0, result.stderr
    assert sent(httpx_mock) == [
        {**lead, "contact": {"firstName": "Ada", "phone": {"number": "+15125550100"}}}
    ]


def test_an_ndjson_row_missing_a_required_field_is_invalid(
    httpx_mock: HTTPXMock, nested: Schemas
) -> None:
    lead = {"contact": {"firstName": "Ada", "phone": {"number": "+15125550100"}}}

    result = run_cli(["leads", "import", "-"], env=token_env(), stdin=json.dumps(lead) + "\n")

    assert result.exit_code == 6
    assert "invalid: missing meta.consentUrl" in result.stderr
    assert httpx_mock.get_requests() == []


# -- the fixture contract (ASP.NET style) ----------------------------------------------------


def test_fixture_create_with_nested_dot_paths_sends_a_valid_body(
    httpx_mock: HTTPXMock, fixture_contract: Schemas
) -> None:
    httpx_mock.add_response(method="POST", url=URL, status_code=202, json=CREATED)

    result = create(
        "metadata.consentCertificateUrl=https://cert.example.com/c/1",
        "contact.firstName=Ada",
        "contact.lastName=Lovelace",
        "contact.email=ada@example.com",
        "contact.phone.number=(512) 555-0123",
        "contact.phone.type=Mobile",
        "customer.creditScore=720",
        "customer.homeowner=true",
        "tagNames=web",
        "tagIds=",
    )

    assert result.exit_code == 0, result.stderr
    body = sent(httpx_mock)[0]
    assert body["contact"]["phone"] == {"number": "+15125550123", "type": "Mobile"}
    assert body["customer"] == {"creditScore": 720, "homeowner": True}
    assert body["tagIds"] == [] and body["tagNames"] == ["web"]
    assert intake_errors(fixture_contract, body) == []


def test_fixture_readme_fields_get_the_nested_paths_suggested(
    httpx_mock: HTTPXMock, fixture_contract: Schemas
) -> None:
    result = create("firstName=Ada", "phone=+15125550123")

    assert result.exit_code == 2
    assert result.stderr.splitlines()[1] == "did you mean contact.firstName?"
    assert httpx_mock.get_requests() == []


def test_fixture_csv_with_dot_path_headers_imports_valid_typed_rows(
    httpx_mock: HTTPXMock, fixture_contract: Schemas, tmp_path: Path
) -> None:
    for n in range(5):
        httpx_mock.add_response(method="POST", url=URL, status_code=202, json={"id": f"l{n}"})
    leads = tmp_path / "leads.csv"
    rows = [
        "metadata.consentCertificateUrl,contact.firstName,contact.lastName,contact.email,"
        "contact.phone.number,customer.age,customer.annualIncome,customer.tobaccoUser,tagNames,tagIds"
    ]
    rows += [
        f"https://cert.example.com/c/{n},F{n},L{n},p{n}@example.com,512-555-010{n},"
        f"{30 + n},{50000 + n}.5,{'yes' if n % 2 else 'no'},web;row{n},"
        for n in range(5)
    ]
    leads.write_text("\n".join(rows) + "\n", encoding="utf-8")

    result = leads_import(str(leads))

    assert result.exit_code == 0, result.stderr
    bodies = sent(httpx_mock)
    assert [intake_errors(fixture_contract, body) for body in bodies] == [[]] * 5
    assert [b["customer"]["age"] for b in bodies] == [30, 31, 32, 33, 34]
    assert [b["customer"]["tobaccoUser"] for b in bodies] == [False, True, False, True, False]
    assert bodies[4]["tagNames"] == ["web", "row4"]
    assert bodies[4]["contact"]["phone"] == {"number": "+15125550104"}


# -- typing rules, on the nested contract's schema directly -----------------------------------


def nested_shape() -> LeadSchema:
    return LeadSchema.of(Document(nested_contract()), {"$ref": "#/components/schemas/In"})


@pytest.mark.parametrize(
    ("path", "text", "value"),
    [
        ("customer.creditScore", " 720 ", 720),
        ("customer.creditScore", "null", None),
        ("customer.income", "1e3", 1000.0),
        ("customer.income", "-12", -12),
        ("customer.homeowner", "Y", True),
        ("customer.homeowner", "0", False),
        ("customer.homeowner", "Off", False),
        ("tagNames", "a; ;b", ["a", "b"]),
        ("tagNames", '["a;b", "c"]', ["a;b", "c"]),
        ("tagNames", "", []),
        ("contact.firstName", "007", "007"),
        ("contact.firstName", "true", "true"),
    ],
)
def test_text_is_typed_from_the_schema(path: str, text: str, value: Any) -> None:
    assert nested_shape().typed(path, text) == value


@pytest.mark.parametrize(
    ("path", "text"),
    [
        ("customer.creditScore", "7.5"),
        ("customer.creditScore", "seven"),
        ("customer.income", "nan"),
        ("customer.homeowner", "maybe"),
        ("tagNames", "[1,"),
    ],
)
def test_text_that_cannot_be_typed_says_why(path: str, text: str) -> None:
    with pytest.raises(UsageError):
        nested_shape().typed(path, text)


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--map", "Mobile=contact.phone.number"], "--map names column 'Mobile', which"),
        (["--map", "First Name"], "--map 'First Name': expected COLUMN=PATH"),
        (["--map", "a=x", "--map", "a=y"], "column 'a' is mapped twice"),
        (["--field", "contact.firstname=Ada"], "did you mean contact.firstName"),
        (["--field", "customer.creditScore=high"], "'high' is not a whole number"),
    ],
)
def test_bad_map_and_field_options_are_exit_2_before_sending(
    httpx_mock: HTTPXMock, nested: Schemas, tmp_path: Path, args: list[str], message: str
) -> None:
    leads = tmp_path / "leads.csv"
    leads.write_text("contact.firstName,contact.phone.number\nAda,+15125550100\n")

    result = leads_import(str(leads), *args)

    assert result.exit_code == 2
    assert message in result.stderr
    assert httpx_mock.get_requests() == []


def test_map_renames_ndjson_keys_too(httpx_mock: HTTPXMock, nested: Schemas) -> None:
    httpx_mock.add_response(method="POST", url=URL, status_code=202, json={"id": "l1"})
    lead = {"name": "Ada", "cell": "(512) 555-0100", "meta": {"consentUrl": "https://c.example/1"}}

    result = run_cli(
        [
            "leads", "import", "-",
            "--map", "name=contact.firstName", "--map", "cell=contact.phone.number",
            "--field", "customer.homeowner=yes", "--field", "tagNames=a;b",
        ],
        env=token_env(),
        stdin=json.dumps(lead) + "\n",
    )  # fmt: skip

    assert result.exit_code == 0, result.stderr
    [body] = sent(httpx_mock)
    assert body == {
        "meta": {"consentUrl": "https://c.example/1"},
        "contact": {"firstName": "Ada", "phone": {"number": "+15125550100"}},
        "customer": {"homeowner": True},
        "tagNames": ["a", "b"],
    }
    assert intake_errors(nested, body) == []


def test_an_ndjson_row_naming_a_field_the_lead_lacks_is_invalid(
    httpx_mock: HTTPXMock, nested: Schemas
) -> None:
    # Issue 21.6: import rows resolve their paths as --field does; the row with a typo
    # is reported and not sent, the others go on.
    httpx_mock.add_response(method="POST", url=URL, status_code=202, json={"id": "l1"})
    good = {"contact": {"firstName": "Ada", "phone": {"number": "+15125550100"}}}
    typo = {"contact": {"fistName": "Grace", "phone": {"number": "+15125550101"}}}

    args = [
        "leads", "import", "-", "--field", "meta.consentUrl=https://c.example/1",
        "--field", "tagNames=a", "--concurrency", "1",
    ]  # fmt: skip

    result = run_cli(
        args,
        env=token_env(),
        stdin=json.dumps(good) + "\n" + json.dumps(typo) + "\n",
    )

    assert result.exit_code == 6, result.stderr
    assert len(sent(httpx_mock)) == 1
    assert (
        "row 2: invalid: 'contact.fistName' is not a field of the active contract's lead "
        "(did you mean contact.firstName?)"
    ) in result.stderr


@pytest.mark.parametrize(
    ("path", "schema", "phone"),
    [
        ("contact.phone", {"type": "string"}, True),
        ("contact.mobilePhone", {"type": ["null", "string"]}, True),
        ("owner.home_phone", {"type": "string"}, True),
        ("contact.phone.number", {"type": "string"}, True),
        ("contact.cell", {"type": "string"}, True),
        ("contact.fax", {"type": "string", "description": "E.164"}, True),
        ("contact.other", {"type": "string", "format": "tel"}, True),
        ("contact.phoneType", {"type": "string"}, False),
        ("contact.phoneVerifiedAt", {"type": "string", "format": "date-time"}, False),
        ("contact.phone", {"type": "boolean"}, False),
        ("contact.number", {"type": "string"}, False),
    ],
)
def test_phone_shaped_fields(path: str, schema: dict[str, Any], phone: bool) -> None:
    assert is_phone_value(Document({}), path, schema) is phone


def test_fixture_date_time_fields_are_read_in_the_profiles_timezone(
    httpx_mock: HTTPXMock, fixture_contract: Schemas, tmp_path: Path
) -> None:
    httpx_mock.add_response(method="POST", url=URL, status_code=202, json=CREATED)
    httpx_mock.add_response(method="POST", url=URL, status_code=202, json=CREATED)
    assert run_cli(["profile", "set", "timezone", "America/Chicago"]).exit_code == 0
    base = [
        "metadata.consentCertificateUrl=https://cert.example.com/c/1",
        "contact.firstName=Ada",
        "contact.lastName=Lovelace",
        "contact.email=ada@example.com",
        "contact.phone.number=+15125550123",
        "tagIds=",
        "tagNames=web",
    ]

    created = create(*base, "metadata.submittedAt=2026-11-20T09:30")
    leads = tmp_path / "leads.csv"
    leads.write_text(
        "metadata.consentCertificateUrl,contact.firstName,contact.lastName,contact.email,"
        "contact.phone.number,tagNames,tagIds,metadata.submittedAt\n"
        "https://c.example.com/1,Ada,L,a@example.com,+15125550123,web,,2026-07-01 08:00\n",
        encoding="utf-8",
    )
    imported = leads_import(str(leads))

    assert created.exit_code == 0, created.stderr
    assert imported.exit_code == 0, imported.stderr
    first, second = sent(httpx_mock)
    assert first["metadata"]["submittedAt"] == "2026-11-20T15:30:00Z"  # CST, UTC-6
    assert second["metadata"]["submittedAt"] == "2026-07-01T13:00:00Z"  # CDT, UTC-5
    assert intake_errors(fixture_contract, first) == []
    assert intake_errors(fixture_contract, second) == []


def test_fixture_an_impossible_date_time_is_exit_2(
    httpx_mock: HTTPXMock, fixture_contract: Schemas
) -> None:
    result = create("metadata.submittedAt=2026-02-30T10:00")

    assert result.exit_code == 2
    assert "'2026-02-30T10:00' is not a date-time" in result.stderr
    assert httpx_mock.get_requests() == []
