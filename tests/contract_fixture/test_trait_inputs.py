"""Issue 21 points 1, 2, 6, 7, 10, 12 and 15 (curated commands' contract parameters), on the
service's own contract (the trait fixture) served by the validating mock, through the
installed leadctl: what generated and curated verbs do with what they are given.

- An identifier is not a phone number; phone numbers go out in E.164 wherever they sit.
- Destructive verbs ask on a terminal and need --yes without one (nothing sent).
- An unknown field path is a typo (exit 2, did you mean), where the schema lists its fields.
- A download's redirect is followed, without the credential off the service's origin.
- A multipart-only operation gets multipart; an empty multipart form is refused (it has no
  parts), an empty urlencoded form of optional fields is sent.
- Times as people type them become UTC; curated commands take the contract's own
  parameters.

Each guarantee meets the installed leadctl once, on the 3.1 contract (the ``leadctl``
fixture); further commands of a test and rows of a table that vary only the data, and the
profile settings a test starts from, run in-process (same command tree, mock and socket).
"""

from __future__ import annotations

import json
import re
import subprocess
from pathlib import Path

import pytest

from leadctl.clock import Clock
from tests.support.cli import run_cli
from tests.support.contract_mock import ContractMock
from tests.support.contract_mock_fixtures import ENTRY_POINT_VERSION, CredentialEnv, Runner
from tests.support.e2e import base_env, leadctl_executable
from tests.support.in_process import run_in_process
from tests.support.one_terminal import on_a_terminal

NUMBER_ID = "3fa85f64-5717-4562-b3fc-2c963f66afa6"
E164 = "+15125550123"


def sent_to(mock: ContractMock, method: str, template: str) -> list[dict[str, object]]:
    return [request.json() for request in mock.requests_to(method, template)]


def use_region(region: str = "US") -> None:
    assert run_cli(["profile", "set", "region", region]).exit_code == 0


def use_timezone(zone: str = "America/Chicago") -> None:
    assert run_cli(["profile", "set", "timezone", zone]).exit_code == 0


def terminal(
    args: list[str], env: CredentialEnv, version: str, *, answer: bytes = b""
) -> tuple[int, str]:
    """Exit code and what a terminal showed: the installed leadctl on a pseudo-terminal for
    the 3.1 contract, in-process with terminal streams for 3.0. ``answer`` is typed at the
    [y/N] prompt."""
    if version == ENTRY_POINT_VERSION:
        keys = [answer + b"\r"] if answer else []
        return on_a_terminal(args, env, keys=keys, prompt=b"[y/N]" if answer else b"")
    typed = answer.decode() + "\n" if answer else ""
    result = run_cli(args, env=env, tty=True, stdin=typed, clock=Clock())
    return result.exit_code, result.stderr + result.stdout


# -- 21.1 an identifier is not a phone number ------------------------------------------------


def test_ids_of_phone_numbers_go_out_as_given(
    trait_mock: ContractMock, trait_env: CredentialEnv, leadctl: Runner
) -> None:
    # No region: had any of these been read as a phone number, it would be exit 2.
    commands = [
        ["numbers", "get", NUMBER_ID],
        ["numbers", "update", NUMBER_ID, "--field", "friendlyName=Main line"],
        ["numbers", "delete", NUMBER_ID, "--yes"],
        ["numbers", "get-warmup", "5125550123"],
    ]
    for index, args in enumerate(commands):
        run = leadctl if index == 0 else run_in_process
        result = run([*args, "-o", "json"], env=trait_env)
        assert result.exit_code == 0, (args, result.stderr)

    assert [r.path for r in trait_mock.requests] == [
        f"/phone-numbers/{NUMBER_ID}",
        f"/phone-numbers/{NUMBER_ID}",  # read-modify-write: the PUT's read
        f"/phone-numbers/{NUMBER_ID}",
        f"/phone-numbers/{NUMBER_ID}",
        "/phone-numbers/5125550123/warmup",
    ]
    assert trait_mock.violations() == []


def test_phone_numbers_go_out_in_e164_in_body_query_and_on_messaging_operations(
    trait_mock: ContractMock, trait_env: CredentialEnv, leadctl: Runner
) -> None:
    use_region()
    national = "(512) 555-0123"
    send = "sms quick-send --field to=NATIONAL --field from=5125550199 --field text=hi"
    commands = [
        ["suppressions", "check-number", "--field", f"phoneNumber={national}"],
        ["suppressions", "check", "--phone-number", national],
        [f"to={national}" if word == "to=NATIONAL" else word for word in send.split()],
    ]
    for index, args in enumerate(commands):
        run = leadctl if index == 0 else run_in_process
        result = run([*args, "-o", "json"], env=trait_env)
        assert result.exit_code == 0, (args, result.stderr)

    assert sent_to(trait_mock, "POST", "/suppressions/check") == [{"phoneNumber": E164}]
    [check] = trait_mock.requests_to("GET", "/suppressions/check")
    assert check.query == {"phoneNumber": [E164]}
    assert sent_to(trait_mock, "POST", "/sms/quick-send") == [
        {"to": E164, "from": "+15125550199", "text": "hi"}
    ]
    assert trait_mock.violations() == []


def test_a_national_number_without_a_region_is_exit_2_before_sending(
    trait_mock: ContractMock, trait_env: CredentialEnv, leadctl: Runner
) -> None:
    result = leadctl(
        ["suppressions", "check-number", "--field", "phoneNumber=(512) 555-0123"], env=trait_env
    )

    assert result.exit_code == 2
    assert "  phoneNumber: '(512) 555-0123' is in national format" in result.stderr
    assert "profile set region" in result.stderr
    assert trait_mock.requests == []


# -- 21.2 destructive verbs confirm ----------------------------------------------------------

DESTRUCTIVE = [
    (["payment-methods", "delete", "pm_1"], "DELETE", "/payment-methods/{id}"),
    (
        ["organizations", "remove-member", "u_1"],
        "DELETE",
        "/organizations/current/members/{userId}",
    ),
    (["leads", "purge-archived"], "POST", "/leads/archived/purge"),
    (["sms", "cancel-scheduled", "m_1"], "POST", "/sms/{id}/cancel"),
]


@pytest.mark.parametrize(("args", "method", "template"), DESTRUCTIVE)
def test_destructive_verbs_need_yes_without_a_terminal(
    trait_mock: ContractMock,
    trait_env: CredentialEnv,
    args: list[str],
    method: str,
    template: str,
    leadctl: Runner,
) -> None:
    run = leadctl if args is DESTRUCTIVE[0][0] else run_in_process
    refused = run(args, env=trait_env)
    assert refused.exit_code == 2
    assert "confirmation needed" in refused.stderr
    assert "--yes" in refused.stderr
    assert trait_mock.requests == []

    confirmed = run([*args, "--yes"], env=trait_env)
    assert confirmed.exit_code == 0, confirmed.stderr
    assert len(trait_mock.requests_to(method, template)) == 1


def test_a_destructive_verb_asks_on_a_terminal(
    trait_mock: ContractMock, trait_env: CredentialEnv, contract_version: str
) -> None:
    delete = ["payment-methods", "delete", "pm_1"]
    code, shown = terminal(delete, trait_env, contract_version, answer=b"n")
    assert code == 10, shown
    assert "Remove a payment method (DELETE /payment-methods/pm_1)? [y/N]" in shown
    assert trait_mock.requests == []

    code, shown = terminal(delete, trait_env, contract_version, answer=b"y")
    assert code == 0, shown
    assert [r.path for r in trait_mock.requests] == ["/payment-methods/pm_1"]


def test_only_destructive_verbs_offer_yes(trait_env: CredentialEnv, leadctl: Runner) -> None:
    purge = leadctl(["leads", "purge-archived", "--help"], env=trait_env)
    archived = run_in_process(["leads", "get-archived", "--help"], env=trait_env)

    assert purge.exit_code == archived.exit_code == 0
    assert "--yes" in purge.stdout
    assert "asks first" in " ".join(purge.stdout.split())
    assert "--yes" not in archived.stdout


# -- 21.6 / 23.3 unknown field paths are typos -------------------------------------------------


UNKNOWN_FIELDS = [
    (["leads", "create", "--field", "contact.fistName=Ada"], "did you mean contact.firstName?"),
    # Inside a closed object of the lead, whose root keeps other fields.
    (["leads", "create", "--field", "metadata.sorceUrl=x"], "did you mean metadata.sourceUrl?"),
    (["sms", "send", "--field", "txt=hi"], "did you mean text?"),
]


@pytest.mark.parametrize(("args", "suggested"), UNKNOWN_FIELDS)
def test_an_unknown_field_path_is_exit_2_with_did_you_mean(
    trait_mock: ContractMock,
    trait_env: CredentialEnv,
    args: list[str],
    suggested: str,
    leadctl: Runner,
) -> None:
    run = leadctl if args is UNKNOWN_FIELDS[0][0] else run_in_process
    result = run(args, env=trait_env)

    assert result.exit_code == 2
    assert "is not a field of" in result.stderr
    assert suggested in result.stderr
    assert trait_mock.requests == []


def test_fields_the_schema_welcomes_and_data_are_sent(
    trait_mock: ContractMock, trait_env: CredentialEnv, leadctl: Runner
) -> None:
    use_region()
    lead = [
        "leads", "create",
        "--field", "contact.firstName=Ada", "--field", "contact.lastName=Lovelace",
        "--field", "contact.email=ada@example.com", "--field", "contact.phone.number=5125550123",
        "--field", "metadata.consentCertificateUrl=https://example.com/c/1",
        "--field", "tagIds=", "--field", "tagNames=",
        "--field", "campaign=spring",  # the lead keeps other fields (extension data)
    ]  # fmt: skip
    sms = {"fromPhoneNumber": E164, "toPhoneNumber": E164, "text": "hi", "txt": "lost"}

    created = leadctl([*lead, "-o", "json"], env=trait_env)
    sent = run_in_process(["sms", "send", "--data", json.dumps(sms), "-o", "json"], env=trait_env)

    assert created.exit_code == 0, created.stderr
    assert sent.exit_code == 0, sent.stderr  # --data is sent as given
    [body] = sent_to(trait_mock, "POST", "/leads")
    assert body["campaign"] == "spring"
    assert body["contact"]["phone"] == {"number": E164}
    assert trait_mock.violations() == []
    # The service would drop it: the typo in --data is the user's to make.
    assert trait_mock.unknown_fields() == ["POST /sms/send: txt"]


# -- 21.7 downloads ------------------------------------------------------------------------

DOWNLOAD = ["user-data-exports", "download", "exp_1"]


def test_a_download_follows_its_redirect_without_the_credential(
    trait_mock: ContractMock, trait_env: CredentialEnv
) -> None:
    proc = subprocess.run(
        [leadctl_executable(), *DOWNLOAD],
        stdin=subprocess.DEVNULL,
        capture_output=True,
        env=base_env(trait_env),
        timeout=60,
    )

    assert proc.returncode == 0, proc.stderr
    assert proc.stdout == trait_mock.files.content  # byte for byte, binary included
    [asked] = trait_mock.requests_to("GET", "/user-data-exports/{id}/download")
    assert asked.credential == "org"
    [fetched] = trait_mock.files.requests
    assert "authorization" not in fetched  # another origin: the storage host


def test_a_download_to_a_file_and_never_binary_to_a_terminal(
    trait_mock: ContractMock,
    trait_env: CredentialEnv,
    tmp_path: Path,
    leadctl: Runner,
    contract_version: str,
) -> None:
    target = tmp_path / "export.zip"

    written = leadctl([*DOWNLOAD, "--output-file", str(target)], env=trait_env)
    code, shown = terminal(DOWNLOAD, trait_env, contract_version)

    assert written.exit_code == 0, written.stderr
    assert written.stdout == ""
    assert target.read_bytes() == trait_mock.files.content
    assert code == 2, shown
    assert "the answer is binary (application/zip)" in shown
    assert "--output-file PATH" in shown
    assert "PK" not in shown


def test_a_broken_download_is_exit_8_and_leaves_no_file(
    trait_mock: ContractMock, trait_env: CredentialEnv, tmp_path: Path, leadctl: Runner
) -> None:
    trait_mock.files.short_by = 5  # the storage host hangs up before the end
    downloads = tmp_path / "downloads"
    downloads.mkdir()

    result = leadctl([*DOWNLOAD, "--output-file", str(downloads / "x.zip")], env=trait_env)

    assert result.exit_code == 8, result.stderr
    assert "the download" in result.stderr
    assert list(downloads.iterdir()) == []


def test_a_redirect_on_the_services_own_origin_keeps_the_credential(
    trait_mock: ContractMock, trait_env: CredentialEnv, leadctl: Runner
) -> None:
    own = f"{trait_mock.base_url}/user-data-exports/exp_1"
    trait_mock.reply(
        "GET", "/user-data-exports/{id}/download", status=302, headers={"Location": own}
    )

    result = leadctl(DOWNLOAD, env=trait_env)

    assert result.exit_code == 0, result.stderr
    assert json.loads(result.stdout)["id"]
    [followed] = trait_mock.requests_to("GET", "/user-data-exports/{id}")
    assert followed.credential == "org"
    assert trait_mock.files.requests == []


# -- 21.12 multipart and forms -----------------------------------------------------------------


def test_a_multipart_only_upload_sends_the_file_field_as_a_file_part(
    trait_mock: ContractMock, trait_env: CredentialEnv, tmp_path: Path, leadctl: Runner
) -> None:
    photo = tmp_path / "photo.png"
    photo.write_bytes(b"\x89PNG\r\n\x1a\nnot really")

    result = leadctl(["sms", "upload-media", "--field", f"file=@{photo}"], env=trait_env)

    assert result.exit_code == 0, result.stderr
    [upload] = trait_mock.requests_to("POST", "/sms/media")
    assert upload.headers["content-type"].startswith("multipart/form-data")
    assert upload.files == {"file": ("photo.png", photo.read_bytes())}
    assert trait_mock.violations() == []


def test_an_urlencoded_form_of_optional_fields_is_sent_empty(
    trait_mock: ContractMock, trait_env: CredentialEnv, leadctl: Runner
) -> None:
    empty = leadctl(["website", "contact"], env=trait_env)

    assert empty.exit_code == 0, empty.stderr
    [sent] = trait_mock.requests_to("POST", "/website/contact")
    assert sent.headers["content-type"] == "application/x-www-form-urlencoded"
    assert sent.body == b"" and sent.form == {}
    assert trait_mock.violations() == []


def test_a_multipart_form_of_optional_fields_is_refused_empty_and_sent_with_a_part(
    trait_mock: ContractMock, trait_env: CredentialEnv, leadctl: Runner
) -> None:
    empty = leadctl(["leads", "add-attachment", "lead_1"], env=trait_env)
    assert empty.exit_code == 2
    assert "nothing to send: a multipart/form-data body needs at least one part" in empty.stderr
    assert trait_mock.requests == []

    note = run_in_process(
        ["leads", "add-attachment", "lead_1", "--field", "note=hi"], env=trait_env
    )
    assert note.exit_code == 0, note.stderr
    [sent] = trait_mock.requests_to("POST", "/leads/{id}/attachments")
    assert sent.headers["content-type"].startswith("multipart/form-data")
    assert sent.form == {"note": "hi"}
    assert trait_mock.violations() == []


# -- 21.10 times as people type them -------------------------------------------------------

NINE_IN_CHICAGO = re.compile(r"^\d{4}-\d{2}-\d{2}T(14|15):00:00Z$")  # CST or CDT


def test_times_as_people_type_them_go_out_in_utc(
    trait_mock: ContractMock, trait_env: CredentialEnv, leadctl: Runner
) -> None:
    use_timezone()
    send = [
        "sms", "send", "--field", f"fromPhoneNumber={E164}", "--field", f"toPhoneNumber={E164}",
        "--field", "text=hi", "--field", "scheduledAt=tomorrow 9am",
    ]  # fmt: skip

    listed = leadctl(
        ["leads", "list", "--range", "createdAt>=yesterday 09:00", "-o", "json"], env=trait_env
    )
    scheduled = run_in_process([*send, "-o", "json"], env=trait_env)

    assert listed.exit_code == 0, listed.stderr
    assert scheduled.exit_code == 0, scheduled.stderr
    [query] = sent_to(trait_mock, "POST", "/leads/all/my")
    [bound] = query["rangeFilters"]  # type: ignore[index]
    assert NINE_IN_CHICAGO.match(bound["greaterThanOrEqual"]), bound
    [message] = sent_to(trait_mock, "POST", "/sms/send")
    assert NINE_IN_CHICAGO.match(str(message["scheduledAt"])), message
    assert trait_mock.violations() == []


def test_values_of_no_given_type_that_read_as_times_are_times(
    trait_mock: ContractMock, trait_env: CredentialEnv, leadctl: Runner
) -> None:
    use_timezone()
    use_region()
    lead = [
        "leads", "create",
        "--field", "contact.firstName=Ada", "--field", "contact.lastName=Lovelace",
        "--field", "contact.email=ada@example.com", "--field", f"contact.phone.number={E164}",
        "--field", "metadata.consentCertificateUrl=https://example.com/c/1",
        "--field", "tagIds=", "--field", "tagNames=",
        "--field", "metadata.receivedAt=yesterday 9am",
    ]  # fmt: skip

    recent = leadctl(
        ["events", "get-recent", "--since", "today 09:00", "-o", "json"], env=trait_env
    )
    created = run_in_process([*lead, "-o", "json"], env=trait_env)

    assert recent.exit_code == 0, recent.stderr
    assert created.exit_code == 0, created.stderr
    [asked] = trait_mock.requests_to("GET", "/events/recent")
    assert NINE_IN_CHICAGO.match(asked.query["since"][0]), asked.query
    [body] = sent_to(trait_mock, "POST", "/leads")
    assert NINE_IN_CHICAGO.match(body["metadata"]["receivedAt"]), body  # type: ignore[index]
    assert trait_mock.violations() == []


# -- 21.15 curated commands take the contract's own parameters -----------------------------


def test_leads_list_offers_the_contracts_archive_and_tag_filters(
    trait_mock: ContractMock, trait_env: CredentialEnv, leadctl: Runner
) -> None:
    args = ["leads", "list", "--include-archived", "--tag-ids", "t1", "--tag-ids", "t2"]

    result = leadctl([*args, "--all", "-o", "json"], env=trait_env)
    shown = run_in_process(["leads", "list", "--help"], env=trait_env)

    assert result.exit_code == 0, result.stderr
    [listed] = trait_mock.requests_to("POST", "/leads/all/my")
    assert listed.query == {"includeArchived": ["true"], "tagIds": ["t1", "t2"]}
    assert trait_mock.violations() == []
    assert "--include-archived" in shown.stdout
    assert "Include archived leads" in shown.stdout
