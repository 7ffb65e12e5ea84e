"""Issue 23.8 on the service's own contract (traits/source_key_prefix.py: its source-key
scheme names the prefix lp_src_), through the installed leadctl against the validating mock:
a key of that prefix is a source key (X-Source-Key on intake, refused before sending
elsewhere), any other token that is neither sk_ nor a JWT is sent as a bearer credential and
the service decides, and `auth login` records what the user says.

The installed leadctl meets each guarantee on one variant (``leadctl``); ``auth status``
reading back the kind a test's first command used, and a second login that only varies the
data, run in-process on both (``run_in_process``: the same command tree and socket)."""

from __future__ import annotations

import json

from tests.contract_fixture.bodies import INTAKE
from tests.support.contract_mock import ContractMock
from tests.support.contract_mock_fixtures import SOURCE_KEY, CredentialEnv, Runner
from tests.support.in_process import run_in_process

OPAQUE = "opaque_0123456789abcdef"


def test_a_key_of_the_prefix_the_contract_names_is_a_source_key(
    trait_mock: ContractMock, trait_env: CredentialEnv, leadctl: Runner
) -> None:
    source = {**trait_env, "LEADCTL_TOKEN": SOURCE_KEY}
    created = leadctl(["leads", "create", "--data", json.dumps(INTAKE), "-o", "json"], env=source)
    refused = leadctl(["tags", "list"], env=source)
    status = run_in_process(["auth", "status", "-o", "json"], env=source)

    assert created.exit_code == 0, created.stderr
    assert [(r.credential, r.credential_header) for r in trait_mock.requests] == [
        ("source", "x-source-key")
    ]
    assert trait_mock.violations() == []
    assert refused.exit_code == 4 and "source keys are only for lead intake" in refused.stderr
    assert json.loads(status.stdout)["kind"] == "source"
    assert len(trait_mock.requests) == 1


def test_a_token_of_no_recognised_kind_is_sent_as_a_bearer_credential(
    trait_mock: ContractMock, trait_env: CredentialEnv, leadctl: Runner
) -> None:
    result = leadctl(["tags", "list", "-o", "json"], env={**trait_env, "LEADCTL_TOKEN": OPAQUE})
    status = run_in_process(
        ["auth", "status", "-o", "json"], env={**trait_env, "LEADCTL_TOKEN": OPAQUE}
    )

    assert result.exit_code == 0, result.stderr
    assert status.exit_code == 0, status.stderr
    assert json.loads(status.stdout)["kind"] == "unknown"
    assert {(r.credential, r.credential_header) for r in trait_mock.requests} == {
        ("unknown", "authorization")
    }
    assert trait_mock.violations() == []


def test_auth_login_recognises_the_prefix_and_records_what_the_user_says(
    trait_mock: ContractMock, trait_env: CredentialEnv, leadctl: Runner
) -> None:
    login = ["auth", "login", "--with-token", "--insecure-storage", "--no-contract"]
    base = ["--base-url", trait_mock.base_url]
    by_prefix = leadctl(["-p", "intake", *login, *base], stdin=SOURCE_KEY)
    declared = run_in_process(["-p", "said", *login, *base, "--kind", "source"], stdin=OPAQUE)

    assert by_prefix.exit_code == 0, by_prefix.stderr
    assert "source keys cannot be checked" in by_prefix.stderr
    assert declared.exit_code == 0, declared.stderr
    assert trait_mock.requests == []  # neither was sent anywhere to be checked
    refused = leadctl(["-p", "said", "tags", "list"])
    assert refused.exit_code == 4
    assert trait_mock.requests == []


def test_a_plain_file_credential_is_named_at_login_and_in_status_never_on_use(
    trait_mock: ContractMock, trait_env: CredentialEnv, leadctl: Runner
) -> None:
    login = ["-p", "cron", "auth", "login", "--with-token", "--insecure-storage", "--no-contract"]
    logged_in = leadctl([*login, "--base-url", trait_mock.base_url], stdin=OPAQUE)
    used = leadctl(["-p", "cron", "tags", "list", "-o", "json"])
    status = leadctl(["-p", "cron", "auth", "status", "-o", "json"])

    assert logged_in.exit_code == used.exit_code == status.exit_code == 0
    assert "warning: the credential is stored unencrypted" in logged_in.stderr
    assert used.stderr == ""  # cron mail stays empty
    assert "warning: the credential is stored unencrypted" in status.stderr
