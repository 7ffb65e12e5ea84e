"""Issue 21.14 with other services' contracts (tests/fixtures/contracts/thirdparty.py), served
by the validating mock, through the installed leadctl: the credential goes where each
operation's scheme puts it (HTTP Basic, an apiKey header, query parameter or cookie, an intake
key recognised by the prefix its scheme names), optional auth sends none, positional
arguments follow the path template, untagged paths make groups of their own, and verbs are
never cut at an article. Also: a contract of 1,500 operations imports and starts.

Each guarantee meets the installed leadctl at least once (and every trace or dry run that must
not show the credential runs it); a test's further commands that vary only the data run
in-process (``in_process``: same command tree, mock and socket)."""

from __future__ import annotations

import base64
import json
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any
from urllib.parse import quote

import pytest

from tests.fixtures.contracts.thirdparty import TARGETS, contacts, payments, text_of
from tests.support.cli import run_cli
from tests.support.contract_mock import ContractMock, serve_contract
from tests.support.e2e import run_leadctl
from tests.support.imported_contracts import ImportedContracts
from tests.support.in_process import run_in_process

# "+", "/" and "=" are percent-encoded in a query: the trace must mask that form too.
API_KEY = "ck_live_a+b/c=d0123456789"
INTAKE_KEY = "lp_src_0123456789abcdef"
OTHER = "opaque-0123456789abcdef"  # neither sk_, a JWT nor a prefix the contract names
PAIR = "me:s3cret"
CREDENTIALS = {"key": API_KEY, "intake": INTAKE_KEY, "other": OTHER, "pair": PAIR}
CONTACTS_KINDS = {
    "ApiKeyHeader": {"key", "other"},
    "ApiKeyQuery": {"key", "other"},
    "SessionCookie": {"key", "other"},
    "IntakeKey": {"intake"},
}


def serve_and_import(document: dict[str, Any], name: str, kinds: dict[str, set[str]]) -> Any:
    @pytest.fixture
    def fixture(imported_contracts: ImportedContracts) -> Iterator[ContractMock]:
        with serve_contract(document, credentials=CREDENTIALS, scheme_kinds=kinds) as mock:
            # Setting up, not the subject (importing these contracts is tested below): the
            # profile set in-process, the contract as `contract import` leaves it for the
            # mock's base URL, imported once per session.
            configured = run_cli(["profile", "set", "base_url", mock.base_url])
            assert configured.exit_code == 0, configured.stderr
            imported_contracts.install(TARGETS[name], mock.base_url)
            yield mock

    return fixture


payments_mock = serve_and_import(payments(), "payments", {})
contacts_mock = serve_and_import(contacts(), "contacts", CONTACTS_KINDS)


def leadctl(args: list[str], token: str = API_KEY) -> Any:
    return run_leadctl(args, env={"LEADCTL_TOKEN": token})


def in_process(args: list[str], token: str = API_KEY) -> Any:
    return run_in_process(args, env={"LEADCTL_TOKEN": token})


def test_the_committed_files_are_what_the_builder_writes() -> None:
    for name, path in TARGETS.items():
        assert path.read_text(encoding="utf-8") == text_of(name), (
            "run: uv run python -m tests.fixtures.contracts.thirdparty"
        )


# -- payments (3.0): HTTP Basic, path order -------------------------------------------------


def basic(pair: str) -> str:
    return "Basic " + base64.b64encode(pair.encode()).decode()


def test_basic_auth_sends_a_key_as_the_user_name_and_a_pair_as_it_is(
    payments_mock: ContractMock,
) -> None:
    as_key = leadctl(["customers", "get-by-customer", "cus_1", "-o", "json"])
    as_pair = in_process(["customers", "get-by-customer", "cus_2", "-o", "json"], PAIR)

    assert as_key.exit_code == 0, as_key.stderr
    assert as_pair.exit_code == 0, as_pair.stderr
    assert payments_mock.violations() == []
    sent = payments_mock.requests_to("GET", "/v1/customers/{customer}")
    assert [r.credential for r in sent] == ["key", "pair"]
    assert all(r.credential_header == "authorization" for r in sent)


def test_the_basic_header_is_masked_in_the_trace_in_every_form(
    payments_mock: ContractMock,
) -> None:
    traced = leadctl(["--debug", "customers", "get-by-customer", "cus_1", "-o", "json"])

    assert traced.exit_code == 0, traced.stderr
    encoded = basic(API_KEY + ":").split(" ")[1]
    assert "> GET" in traced.stderr
    for form in (API_KEY, encoded, quote(API_KEY, safe="")):
        assert form not in traced.stderr + traced.stdout


def test_dry_run_shows_basic_auth_as_curl_would_send_it(payments_mock: ContractMock) -> None:
    as_key = leadctl(["--dry-run", "customers", "get-by-customer", "cus_1"])
    as_pair = in_process(["--dry-run", "customers", "get-by-customer", "cus_1"], PAIR)

    assert as_key.exit_code == as_pair.exit_code == 0
    assert '-u "$LEADCTL_TOKEN:"' in as_key.stdout
    assert '-u "$LEADCTL_TOKEN"' in as_pair.stdout
    assert payments_mock.requests == []


def test_positional_arguments_follow_the_path_template_not_the_parameter_list(
    payments_mock: ContractMock,
) -> None:
    shown = leadctl(["customers", "get-sources-id", "--help"])
    result = in_process(["customers", "get-sources-id", "cus_1", "src_9", "-o", "json"])

    assert "get-sources-id [OPTIONS] CUSTOMER ID" in " ".join(shown.stdout.split())
    assert result.exit_code == 0, result.stderr
    assert [r.path for r in payments_mock.requests] == ["/v1/customers/cus_1/sources/src_9"]


def test_untagged_paths_are_grouped_by_their_resource_not_the_version(
    payments_mock: ContractMock,
) -> None:
    rows = json.loads(in_process(["contract", "show", "--operations", "-o", "json"]).stdout)
    assert {row["command"].split()[0] for row in rows} == {"customers"}


# -- contacts (3.1): apiKey in a header, query and cookie; intake keys; optional auth ------


def test_an_api_key_goes_in_the_header_query_or_cookie_its_scheme_names(
    contacts_mock: ContractMock,
) -> None:
    created = leadctl(["contacts", "create", "--field", "name=Ada", "-o", "json"])
    listed = in_process(["contacts", "list", "-o", "json"])
    read = in_process(["contacts", "get", "c1", "-o", "json"])

    for result in (created, listed, read):
        assert result.exit_code == 0, result.stderr
    assert contacts_mock.violations() == []
    by_operation = {r.operation_id: r for r in contacts_mock.requests}
    assert by_operation["createContact"].credential_header == "x-api-key"
    assert by_operation["listContacts"].query == {}  # api_key was the credential
    for operation_id in ("createContact", "listContacts", "getContact"):
        assert by_operation[operation_id].credential == "key"
    assert "authorization" not in by_operation["getContact"].headers


def test_a_key_in_a_query_or_cookie_is_masked_in_the_trace_and_shown_as_a_variable(
    contacts_mock: ContractMock,
) -> None:
    traced = leadctl(["--debug", "contacts", "list", "-o", "json"])
    cookie = leadctl(["--debug", "contacts", "get", "c1", "-o", "json"])
    dry_query = in_process(["--dry-run", "contacts", "list"])
    dry_cookie = in_process(["--dry-run", "contacts", "get", "c1"])

    assert traced.exit_code == cookie.exit_code == 0, traced.stderr + cookie.stderr
    assert "api_key=***" in traced.stderr
    for form in (API_KEY, quote(API_KEY, safe=""), quote(API_KEY, safe="").replace("%20", "+")):
        assert form not in traced.stderr + cookie.stderr
    assert '/api/v3/contacts?api_key=$LEADCTL_TOKEN"' in dry_query.stdout
    assert '-b "session=$LEADCTL_TOKEN"' in dry_cookie.stdout
    assert API_KEY not in dry_query.stdout + dry_cookie.stdout


def test_optional_auth_sends_no_credential(contacts_mock: ContractMock) -> None:
    result = leadctl(["status", "get", "-o", "json"])

    assert result.exit_code == 0, result.stderr
    assert contacts_mock.violations() == []
    (sent,) = contacts_mock.requests_to("GET", "/api/v3/status")
    assert sent.credential is None
    assert "x-api-key" not in sent.headers and "authorization" not in sent.headers


def test_a_key_of_the_prefix_the_intake_scheme_names_is_a_source_key(
    contacts_mock: ContractMock,
) -> None:
    submitted = in_process(
        ["intake", "submit-lead", "--field", "name=Ada", "-o", "json"], INTAKE_KEY
    )
    refused = leadctl(["contacts", "list"], INTAKE_KEY)
    dry = in_process(["--dry-run", "contacts", "list"], INTAKE_KEY)

    assert submitted.exit_code == 0, submitted.stderr
    assert contacts_mock.violations() == []
    (sent,) = contacts_mock.requests_to("POST", "/api/v3/intake/leads")
    assert (sent.credential, sent.credential_header) == ("intake", "x-intake-key")
    assert refused.exit_code == dry.exit_code == 4
    assert "source keys are only for lead intake" in refused.stderr
    assert dry.stdout == ""  # --dry-run refuses what the real run would
    assert contacts_mock.requests_to("GET", "/api/v3/contacts") == []


def test_a_token_of_no_recognised_kind_is_sent_where_a_credential_goes(
    contacts_mock: ContractMock,
) -> None:
    result = leadctl(["contacts", "create", "--field", "name=Ada", "-o", "json"], OTHER)

    assert result.exit_code == 0, result.stderr
    assert contacts_mock.violations() == []
    assert [(r.credential, r.credential_header) for r in contacts_mock.requests] == [
        ("other", "x-api-key")
    ]


def test_verbs_are_whole_words_and_path_arguments_in_path_order(
    contacts_mock: ContractMock,
) -> None:
    rows = json.loads(in_process(["contract", "show", "--operations", "-o", "json"]).stdout)
    removed = leadctl(["organization-members", "retrieve", "acme", "m1", "-o", "json"])

    commands = {row["operationId"]: row["command"] for row in rows}
    assert commands["Delete an Organization Member"] == "organization-members delete"
    assert commands["Retrieve an Organization Member"] == "organization-members retrieve"
    assert commands["List an Organization's Members"] == "organization-members list"
    # Untagged: by the resource after /api/v3 (not one group "api" or "v-3").
    assert {c.split()[0] for c in commands.values()} == {
        "organization-members",
        "contacts",
        "status",
        "intake",
        "health",
    }
    assert removed.exit_code == 0, removed.stderr
    assert [r.path for r in contacts_mock.requests] == ["/api/v3/organizations/acme/members/m1"]


# -- size: other services' contracts have hundreds of operations --------------------------

RESOURCES = 300  # five operations each: 1,500


def big_contract(version: str, resources: int = RESOURCES) -> dict[str, Any]:
    """The payments contract's style, ``resources`` wide (five operations each)."""
    document = payments()
    document["openapi"] = "3.0.3" if version == "3.0" else "3.1.0"
    template = document["paths"]
    paths = {}
    for number in range(resources):
        for path, item in template.items():
            if path.endswith("{id}"):
                continue
            renamed = path.replace("customers", f"accounts{number}")
            paths[renamed] = json.loads(json.dumps(item).replace("Customers", f"Accounts{number}"))
        paths[f"/v1/accounts{number}/{{customer}}"]["post"] = {
            **paths[f"/v1/accounts{number}/{{customer}}"]["get"],
            "operationId": f"PostAccounts{number}Customer",
        }
    document["paths"] = paths
    if version == "3.1":
        for schema in document["components"]["schemas"].values():
            for field in schema["properties"].values():
                if field.pop("nullable", False):
                    field["type"] = [field["type"], "null"]
    return document


@pytest.mark.parametrize("version", ["3.0", "3.1"])
def test_a_contract_of_1500_operations_imports_and_its_commands_start(
    tmp_path: Path, version: str
) -> None:
    path = tmp_path / "big.json"
    path.write_text(json.dumps(big_contract(version)), encoding="utf-8")
    env = {"LEADCTL_BASE_URL": "http://127.0.0.1:9"}
    # What the versions tell apart is how the contract is read, not the process: 3.0 imports
    # in-process; both start the group's help with the installed leadctl.
    run = run_leadctl if version == "3.1" else run_in_process

    started = time.monotonic()
    imported = run(["contract", "import", str(path), "-o", "json"], env=env, timeout=300)
    import_seconds = time.monotonic() - started
    started = time.monotonic()
    group = run_leadctl(["accounts-250", "--help"], env=env)
    help_seconds = time.monotonic() - started

    assert imported.exit_code == 0, imported.stderr
    assert json.loads(imported.stdout)["operations"] == 5 * RESOURCES
    assert group.exit_code == 0, group.stderr
    # Within the default time limit; a group's help reads the index, not the contract.
    assert import_seconds < 120
    assert help_seconds < 10, help_seconds
