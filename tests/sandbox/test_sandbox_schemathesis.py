"""schemathesis, all checks, against a live ``leadctl sandbox serve`` and the contract it
publishes at GET /openapi.json (the bundled contract plus the sandbox's assumed operations).

Run as the CLI would be (`schemathesis run http://.../openapi.json`), with a fixed seed.
The organization key reaches schemathesis through an environment variable named in its
config file, so it is on no command line and in no output (schemathesis also masks the
Authorization header in what it prints).

Two documented exceptions are configured, both because of the reference itself:
- POST /a2a is JSON-RPC: an invalid request is answered with a JSON-RPC error in a 200.
- A 400 can follow a schema-valid request where validity depends on state the schema cannot
  describe: a continuation token this server did not issue, a default tag id that is not a
  tag of the organization, a phone status window that starts after it ends, an SMS sender
  that is not one of the organization's numbers, a tag name already taken, cancelling a
  message that is no longer scheduled.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from hypothesis import settings

from tests.support.sandbox_server import sandbox_server

SEED = 20251121
TOKEN_VARIABLE = "LEADCTL_SCHEMATHESIS_ORG_KEY"
NEGATIVE_DEFAULTS = ["400", "401", "403", "404", "405", "406", "409", "415", "422", "428", "429"]
POSITIVE_DEFAULTS = ["2xx", "3xx", "401", "403", "404", "409", "429", "5xx"]


def _toml_list(values: list[str]) -> str:
    return "[" + ", ".join(f'"{v}"' for v in values) + "]"


def _config(
    source_ids: list[str],
    change_ids: list[str],
    automation_ids: list[str],
    phone_number_ids: list[str],
) -> str:
    return f"""
[auth.openapi.bearerAuth]
bearer = "${{{TOKEN_VARIABLE}}}"

[generation]
database = "none"

[dictionaries.source_ids]
values = {_toml_list(source_ids)}

[dictionaries.status_change_ids]
values = {_toml_list(change_ids)}

[dictionaries.automation_ids]
values = {_toml_list(automation_ids)}

[dictionaries.phone_numbers]
values = ["+15125550100", "+15125550101", "+17375550102"]

[dictionaries.phone_number_ids]
values = {_toml_list(phone_number_ids)}

[[operations]]
include-operation-id = ["updateSource", "rotateSourceCredentials", "Sources_GetForCurrentUser"]
parameters = {{ "path.id" = {{ dictionary = "source_ids", probability = 0.6 }} }}

[[operations]]
include-operation-id = [
    "updateLeadStatusChange", "deleteLeadStatusChange", "LeadStatusChanges_GetForCurrentUser",
]
parameters = {{ "path.id" = {{ dictionary = "status_change_ids", probability = 0.6 }} }}

[[operations]]
include-operation-id = ["listAutomationRuns", "Automations_GetForCurrentOrganization"]
parameters = {{ "path.id" = {{ dictionary = "automation_ids", probability = 0.6 }} }}

[[operations]]
include-operation-id = "getPhoneNumberStatus"
parameters = {{ "path.phoneNumber" = {{ dictionary = "phone_numbers", probability = 0.6 }} }}

[[operations]]
include-operation-id = "PhoneNumbers_GetForCurrentOrganization"
parameters = {{ "path.id" = {{ dictionary = "phone_number_ids", probability = 0.6 }} }}

[[operations]]
include-operation-id = "a2a"
checks.negative_data_rejection.expected-statuses = {_toml_list(["200", *NEGATIVE_DEFAULTS, "5xx"])}

[[operations]]
include-operation-id = [
    "listMyLeads", "listAnnouncements", "updateSource", "getPhoneNumberStatus",
    "Tags_GetAllForCurrentOrganization", "Sources_GetAllForCurrentUser", "Sms_Send", "Tags_Create",
    "Sms_Cancel", "Automations_GetAllForCurrentOrganization",
    "PhoneNumbers_GetAllForCurrentOrganization", "LeadStatusChanges_GetAllForCurrentUser",
    "Sms_GetAllForCurrentOrganization",
]
checks.positive_data_acceptance.expected-statuses = {_toml_list([*POSITIVE_DEFAULTS, "400"])}
"""


def examples_per_operation() -> int:
    """As many as every fuzz test of the run draws: the hypothesis profile's (the suite's 60,
    or `--hypothesis-profile thorough`'s 500; tests/support/hypothesis_profiles.py)."""
    return int(settings().max_examples)


def test_schemathesis_all_checks_pass_against_live_sandbox(tmp_path: Path) -> None:
    with sandbox_server(seed=11, faults=True) as sandbox:
        info = sandbox.info()
        with sandbox.client() as client:
            page = client.post("/leads/all/my", json={"pageSize": 100}).json()
            numbers = client.post("/phone-numbers/all", json={"pageSize": 100}).json()
        change_ids = [lead["currentStatusChangeId"] for lead in page["items"]]
        config = tmp_path / "schemathesis.toml"
        config.write_text(
            _config(
                [source["id"] for source in info["sources"]],
                [change for change in change_ids if change][:40],
                [automation["id"] for automation in info["automations"]],
                [number["id"] for number in numbers["items"]],
            ),
            encoding="utf-8",
        )
        env = dict(os.environ)
        env[TOKEN_VARIABLE] = sandbox.credentials.org
        result = subprocess.run(
            [
                str(Path(sys.executable).with_name("schemathesis")),
                "--config-file",
                str(config),
                "run",
                sandbox.url("/openapi.json"),
                "--checks",
                "all",
                "--seed",
                str(SEED),
                "--max-examples",
                str(examples_per_operation()),
                # One worker: hypothesis is not reliably thread-safe on CPython 3.11.
                "--workers",
                "1",
                "--no-color",
            ],
            cwd=tmp_path,
            env=env,
            capture_output=True,
            text=True,
            timeout=300,
            check=False,
        )
        output = result.stdout + result.stderr
        assert sandbox.credentials.org not in output
    assert result.returncode == 0, output[-8000:]
    assert "27 selected" in output.lower() or "Selected: 27/27" in output
