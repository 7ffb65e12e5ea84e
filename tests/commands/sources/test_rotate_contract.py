"""Issue 21 points 3, 4, 5 on the service's own contract (traits/source_rotation_flag.py),
with the installed leadctl against the validating mock, 3.1 and 3.0:

- ``sources rotate`` follows the contract: no rotate operation there, so it reads the source
  and sends its update with the flag that asks for a new key, without the old key, and takes
  the new key from the answer, with every guarantee of the rotate operation;
- the read's secret is never sent back, read-only fields neither, and the update's required
  ``defaultTagNames`` is derived from the read's tag objects;
- a curated flag whose field the contract names otherwise is exit 2 naming its fields;
- a 412 to leadctl's own If-Match is leadctl's "changed meanwhile" error, not the service's.

The installed leadctl meets each guarantee on one variant (``leadctl``); importing an edited
contract, the bodies sent (what the mock validates) and a second output format run in-process
on both (``run_in_process``: the same command tree and socket).
"""

from __future__ import annotations

import json
import os
import stat
from pathlib import Path
from typing import Any

import pytest

from tests.security.secrets import leaks
from tests.support.contract_mock import ContractMock
from tests.support.contract_mock_fixtures import CredentialEnv, Runner, contract_path
from tests.support.in_process import run_in_process

pytestmark = pytest.mark.e2e

OLD_KEY = "srckey_old_7Hq2Lr9xVb4nMc8kPz3w"
SOURCE = {
    "id": "s1",
    "name": "Website form",
    "description": "The form on the landing page",
    "enabled": True,
    "apiKey": OLD_KEY,
    "apiKeyPreview": "srckey_…Pz3w",
    "apiKeyRotatedAt": "2026-01-02T03:04:05Z",
    "organization": {"id": "o1", "name": "Acme"},
    "allowedStates": ["TX", "CA"],
    "allowedProducts": ["auto"],
    "consentCertificateRequired": True,
    "complianceApproved": True,
    "defaultTagIds": ["t1", "t2"],
    "defaultTags": [
        {"id": "t1", "name": "web", "normalizedName": "web"},
        {"id": "t2", "name": "paid", "normalizedName": "paid"},
    ],
    "createdAt": "2026-01-02T03:04:05Z",
}
TEMPLATE = "/sources/{id}"


def serve_source(mock: ContractMock, body: dict[str, Any] = SOURCE, *, issue: bool = True) -> str:
    """The next read of s1 answers ``body`` with its current ETag; with ``issue``, PUTs with
    the flag set answer a newly issued key in apiKey."""
    if issue:
        mock.issue_secret("PUT", TEMPLATE, flag="regenerateApiKey", field="apiKey")
    etag = mock.etag("/sources/s1")
    mock.reply("GET", TEMPLATE, body=body, headers={"ETag": etag})
    return etag


def sent(mock: ContractMock) -> list[tuple[str, str]]:
    return [(r.method, r.path) for r in mock.requests]


# -- 21.3 rotation by the update's flag ---------------------------------------------------------


def test_rotate_sends_the_update_with_the_flag_and_prints_the_new_key(
    trait_mock: ContractMock, trait_env: CredentialEnv, leadctl: Runner
) -> None:
    etag = serve_source(trait_mock)

    result = leadctl(["sources", "rotate", "s1", "--yes", "-o", "json"], env=trait_env)

    assert result.exit_code == 0, result.stderr
    assert trait_mock.violations() == []
    assert trait_mock.findings() == []  # the old key was not sent back
    assert sent(trait_mock) == [("GET", "/sources/s1"), ("PUT", "/sources/s1")]
    put = trait_mock.requests[1]
    assert put.json() == {
        "name": "Website form",
        "description": "The form on the landing page",
        "allowedStates": ["TX", "CA"],
        "allowedProducts": ["auto"],
        "consentCertificateRequired": True,
        "defaultTagIds": ["t1", "t2"],
        "defaultTagNames": ["web", "paid"],  # from the read's tag objects
        "regenerateApiKey": True,
    }
    assert put.headers["if-match"] == etag
    (issued,) = trait_mock.issued
    printed = json.loads(result.stdout)
    assert printed["secret"] == issued
    assert printed["source"]["apiKey"] == issued  # the answer as received


def test_secret_only_prints_just_the_new_key(
    trait_mock: ContractMock, trait_env: CredentialEnv, leadctl: Runner
) -> None:
    serve_source(trait_mock)

    result = leadctl(["sources", "rotate", "s1", "--yes", "--secret-only"], env=trait_env)

    assert result.exit_code == 0, result.stderr
    assert result.stdout == trait_mock.issued[0] + "\n"


def test_with_a_secret_file_the_key_is_written_0600_and_not_printed(
    trait_mock: ContractMock, trait_env: CredentialEnv, tmp_path: Path, leadctl: Runner
) -> None:
    serve_source(trait_mock)
    target = tmp_path / "intake.key"

    result = leadctl(
        ["sources", "rotate", "s1", "--yes", "--secret-file", str(target), "-o", "json"],
        env=trait_env,
    )

    assert result.exit_code == 0, result.stderr
    (issued,) = trait_mock.issued
    assert stat.S_IMODE(target.stat().st_mode) == 0o600
    written = target.read_text(encoding="utf-8") == issued + "\n"
    assert written
    assert leaks(result.stdout + result.stderr, [issued]) == []
    printed = json.loads(result.stdout)
    assert printed["secretFile"] == str(target)
    assert printed["source"]["apiKey"] == "***"
    assert printed["source"]["apiKeyPreview"] not in ("", "***")  # a preview is shown


def test_secret_only_with_a_secret_file_prints_the_key_it_was_asked_for(
    trait_mock: ContractMock, trait_env: CredentialEnv, tmp_path: Path, leadctl: Runner
) -> None:
    serve_source(trait_mock)
    target = tmp_path / "k"
    args = ["--secret-only", "--secret-file", str(target)]

    result = leadctl(["sources", "rotate", "s1", "--yes", *args], env=trait_env)

    assert result.exit_code == 0, result.stderr
    assert result.stdout == target.read_text(encoding="utf-8") == trait_mock.issued[0] + "\n"


def test_save_profile_stores_the_new_key_as_that_profiles_source_key(
    trait_mock: ContractMock, trait_env: CredentialEnv, leadctl: Runner
) -> None:
    serve_source(trait_mock)

    result = leadctl(
        [
            *("sources", "rotate", "s1", "--yes", "--secret-only"),
            *("--save-profile", "intake", "--insecure-storage"),
        ],
        env=trait_env,
    )

    assert result.exit_code == 0, result.stderr
    stored = Path(os.environ["LEADCTL_CONFIG_DIR"]) / "credentials" / "intake"
    assert stat.S_IMODE(stored.stat().st_mode) == 0o600
    same = stored.read_text(encoding="utf-8").strip() == trait_mock.issued[0]
    assert same


def test_a_lost_answer_is_exit_9_and_the_update_is_not_repeated(
    trait_mock: ContractMock, trait_env: CredentialEnv, leadctl: Runner
) -> None:
    serve_source(trait_mock)
    trait_mock.reply("PUT", TEMPLATE, status=503, body={"title": "Service Unavailable"})

    result = leadctl(["sources", "rotate", "s1", "--yes"], env=trait_env)

    assert result.exit_code == 9, result.stderr
    assert result.stdout == ""
    assert "apiKeyRotatedAt" in result.stderr
    assert sent(trait_mock) == [("GET", "/sources/s1"), ("PUT", "/sources/s1")]


def test_a_429_is_waited_out_and_sent_again(
    trait_mock: ContractMock, trait_env: CredentialEnv, leadctl: Runner
) -> None:
    serve_source(trait_mock)
    trait_mock.reply("PUT", TEMPLATE, status=429, headers={"Retry-After": "0"})
    trait_mock.reply("PUT", TEMPLATE, body=SOURCE)  # with the issued key put in

    result = leadctl(["sources", "rotate", "s1", "--yes", "--secret-only"], env=trait_env)

    assert result.exit_code == 0, result.stderr
    assert [r.status for r in trait_mock.requests_to("PUT", TEMPLATE)] == [429, 200]
    assert result.stdout == trait_mock.issued[-1] + "\n"


def test_an_answer_without_a_new_key_is_kept_in_a_recovery_file(
    trait_mock: ContractMock, trait_env: CredentialEnv, leadctl: Runner
) -> None:
    serve_source(trait_mock, issue=False)
    # The service answered without the key (the raw body is kept: it may hold it elsewhere).
    trait_mock.reply("PUT", TEMPLATE, body={**SOURCE, "apiKey": None, "note": "k-77x"})

    result = leadctl(["sources", "rotate", "s1", "--yes"], env=trait_env)

    assert result.exit_code == 8
    recovered = list((Path(os.environ["LEADCTL_DATA_DIR"]) / "recovered-secrets").iterdir())
    assert len(recovered) == 1 and str(recovered[0]) in result.stderr
    assert "k-77x" in recovered[0].read_text(encoding="utf-8")


def test_without_a_rotate_operation_or_a_flag_it_is_exit_2_naming_what_is_missing(
    trait_mock: ContractMock,
    trait_env: CredentialEnv,
    contract_version: str,
    tmp_path: Path,
    leadctl: Runner,
) -> None:
    document = json.loads(contract_path(contract_version, "traits").read_text(encoding="utf-8"))
    update = document["components"]["schemas"]["SourceUpdateRequest"]["properties"]
    del update["regenerateApiKey"]
    edited = tmp_path / "no-flag.json"
    edited.write_text(json.dumps(document), encoding="utf-8")
    imported = run_in_process(["contract", "import", str(edited)], env=trait_env)
    assert imported.exit_code == 0, imported.stderr

    result = leadctl(["sources", "rotate", "s1", "--yes"], env=trait_env)

    assert result.exit_code == 2
    assert "POST /sources/{id}/credentials/rotate" in result.stderr
    assert "asks for a new key" in result.stderr
    assert trait_mock.requests == []


# -- 21.4 / 21.5 read-modify-write of the source ------------------------------------------------


def test_update_sends_a_whole_valid_body_without_the_read_secret_or_read_only_fields(
    trait_mock: ContractMock, trait_env: CredentialEnv
) -> None:
    serve_source(trait_mock)

    result = run_in_process(["sources", "update", "s1", "--allowed-state", "NV"], env=trait_env)

    assert result.exit_code == 0, result.stderr
    assert trait_mock.violations() == []  # apiKeyPreview/apiKeyRotatedAt are read-only there
    assert trait_mock.findings() == []
    put = trait_mock.requests_to("PUT", TEMPLATE)[0].json()
    assert put["allowedStates"] == ["NV"]
    assert put["defaultTagNames"] == ["web", "paid"]
    assert "apiKey" not in put
    assert "regenerateApiKey" not in put


def test_dry_run_reads_and_shows_the_put_without_the_key(
    trait_mock: ContractMock, trait_env: CredentialEnv, leadctl: Runner
) -> None:
    serve_source(trait_mock)

    result = leadctl(["--dry-run", "sources", "update", "s1", "--name", "Web leads"], env=trait_env)

    assert result.exit_code == 0, result.stderr
    assert sent(trait_mock) == [("GET", "/sources/s1")]
    assert '"defaultTagNames": ["web", "paid"]' in result.stdout
    assert leaks(result.stdout + result.stderr, [OLD_KEY]) == []


def test_update_cannot_ask_for_a_new_key_behind_rotates_back(
    trait_mock: ContractMock, trait_env: CredentialEnv, leadctl: Runner
) -> None:
    args = ["sources", "update", "s1", "--data", '{"regenerateApiKey": true}']

    result = leadctl(args, env=trait_env)

    assert result.exit_code == 2
    assert "sources rotate" in result.stderr
    assert trait_mock.requests == []


def test_a_required_field_the_read_cannot_give_names_its_flag(
    trait_mock: ContractMock, trait_env: CredentialEnv
) -> None:
    serve_source(trait_mock, {k: v for k, v in SOURCE.items() if k != "defaultTags"})

    result = run_in_process(["sources", "update", "s1", "--name", "Web"], env=trait_env)

    assert result.exit_code == 2
    assert "defaultTagNames" in result.stderr
    assert "--default-tag-name" in result.stderr
    assert sent(trait_mock) == [("GET", "/sources/s1")]


def test_a_flag_whose_field_the_contract_names_otherwise_is_exit_2_naming_its_fields(
    trait_mock: ContractMock, trait_env: CredentialEnv, leadctl: Runner
) -> None:
    args = ["sources", "update", "s1", "--no-requires-consent-certificate"]

    result = leadctl(args, env=trait_env)

    assert result.exit_code == 2
    assert "--no-requires-consent-certificate" in result.stderr
    assert "consentCertificateRequired" in result.stderr
    assert '{"consentCertificateRequired": false}' in result.stderr
    assert trait_mock.requests == []


def test_a_412_is_leadctls_own_changed_meanwhile_error(
    trait_mock: ContractMock, trait_env: CredentialEnv, leadctl: Runner
) -> None:
    serve_source(trait_mock)
    trait_mock.reply(
        "PUT",
        TEMPLATE,
        status=412,
        body={"title": "Etag Nope", "detail": "SERVICE WORDING 42", "traceId": "t-412"},
    )

    text = leadctl(["sources", "update", "s1", "--name", "Web"], env=trait_env)
    serve_source(trait_mock)
    trait_mock.reply("PUT", TEMPLATE, status=412, body={"detail": "SERVICE WORDING 42"})
    as_json = run_in_process(
        ["sources", "update", "s1", "--name", "Web", "-o", "json"], env=trait_env
    )

    assert (text.exit_code, as_json.exit_code) == (6, 6)
    assert "changed after leadctl read it" in text.stderr
    assert "trace id: t-412" in text.stderr
    error = json.loads(as_json.stderr)
    assert "changed after leadctl read it" in error["detail"]
    for output in (text.stderr, as_json.stderr):
        assert "SERVICE WORDING" not in output
        assert "Etag Nope" not in output
