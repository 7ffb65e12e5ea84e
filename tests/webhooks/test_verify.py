"""``leadctl webhooks verify``, installed, on deliveries signed by the tests' own scheme.

What belongs to the program meets the installed leadctl: exit 0, 2, 3 and 6 as the shell sees
them with stdout and stderr apart, the secret from the environment or a file and never from
argv nor echoed, the body from stdin byte for byte, a terminal, the modules it loads. The
other deliveries (rows that vary only the data) are checked in-process (``run_in_process``,
the same command tree and the real clock)."""

from __future__ import annotations

import json
import subprocess
import time
from pathlib import Path

import pytest

from tests.support.e2e import base_env, leadctl_executable, run_leadctl
from tests.support.in_process import run_in_process
from tests.webhooks.scheme import new_secret, sign, signed_headers

pytestmark = pytest.mark.e2e

BODY = b'{"type":"lead.created","timestamp":"2026-11-21T12:00:00Z","data":{"id":"lead_1"}}'
MSG_ID = "msg_2KWPBgLlAfxdpx2AI54pPJ85f4W"


def header_args(headers: dict[str, str]) -> list[str]:
    return [arg for name, value in headers.items() for arg in ("--header", f"{name}: {value}")]


def verify(
    tmp_path: Path,
    headers: dict[str, str],
    body: bytes = BODY,
    *,
    secret: str,
    extra: list[str] | None = None,
    installed: bool = False,
):
    """``installed``: the installed leadctl, else in-process."""
    body_file = tmp_path / "body.json"
    body_file.write_bytes(body)
    run = run_leadctl if installed else run_in_process
    return run(
        ["webhooks", "verify", *header_args(headers), "--body", str(body_file), *(extra or [])],
        env={"LEADCTL_WEBHOOK_SECRET": secret},
    )


def test_a_genuine_delivery_is_valid(tmp_path: Path) -> None:
    secret = new_secret()
    now = int(time.time())
    result = verify(
        tmp_path, signed_headers(secret, MSG_ID, now, BODY), secret=secret, installed=True
    )
    assert result.exit_code == 0, result.stderr
    facts = json.loads(result.stdout)
    assert facts["valid"] is True
    assert facts["webhookId"] == MSG_ID
    assert facts["timestamp"] == now
    assert secret not in result.stdout + result.stderr


TAMPERS = [
    pytest.param(lambda body: body.replace(b"lead_1", b"lead_2"), id="one-value"),
    pytest.param(lambda body: body + b"\n", id="trailing-newline"),
    pytest.param(lambda body: body.replace(b",", b", "), id="reformatted-json"),
]


@pytest.mark.parametrize("tamper", TAMPERS)
def test_a_changed_body_is_a_bad_signature(tmp_path: Path, tamper) -> None:
    secret = new_secret()
    headers = signed_headers(secret, MSG_ID, int(time.time()), BODY)
    installed = tamper is TAMPERS[0].values[0]
    result = verify(tmp_path, headers, tamper(BODY), secret=secret, installed=installed)
    assert result.exit_code == 6
    assert "bad signature" in result.stderr
    assert result.stdout == ""


def test_a_changed_id_or_timestamp_is_a_bad_signature(tmp_path: Path) -> None:
    secret = new_secret()
    now = int(time.time())
    headers = signed_headers(secret, MSG_ID, now, BODY)
    assert verify(tmp_path, {**headers, "webhook-id": "msg_other"}, secret=secret).exit_code == 6
    moved = {**headers, "webhook-timestamp": str(now - 1)}
    result = verify(tmp_path, moved, secret=secret)
    assert result.exit_code == 6
    assert "bad signature" in result.stderr


def test_another_secret_is_a_bad_signature(tmp_path: Path) -> None:
    headers = signed_headers(new_secret(), MSG_ID, int(time.time()), BODY)
    result = verify(tmp_path, headers, secret=new_secret())
    assert result.exit_code == 6
    assert "bad signature" in result.stderr


@pytest.mark.parametrize("missing", ["webhook-id", "webhook-timestamp", "webhook-signature"])
def test_a_missing_header_is_named(tmp_path: Path, missing: str) -> None:
    secret = new_secret()
    headers = signed_headers(secret, MSG_ID, int(time.time()), BODY)
    del headers[missing]
    result = verify(tmp_path, headers, secret=secret)
    assert result.exit_code == 6
    assert f"missing header: {missing}" in result.stderr


@pytest.mark.parametrize(("offset", "word"), [(-900, "ago"), (+900, "in the future")])
def test_a_timestamp_outside_the_tolerance_is_refused_however_well_signed(
    tmp_path: Path, offset: int, word: str
) -> None:
    secret = new_secret()
    headers = signed_headers(secret, MSG_ID, int(time.time()) + offset, BODY)
    result = verify(tmp_path, headers, secret=secret)
    assert result.exit_code == 6
    assert "timestamp outside tolerance" in result.stderr
    assert word in result.stderr


def test_tolerance_can_be_widened_and_narrowed(tmp_path: Path) -> None:
    secret = new_secret()
    headers = signed_headers(secret, MSG_ID, int(time.time()) - 400, BODY)
    assert verify(tmp_path, headers, secret=secret, extra=["--tolerance", "10m"]).exit_code == 0
    fresh = signed_headers(secret, MSG_ID, int(time.time()) - 90, BODY)
    narrowed = verify(tmp_path, fresh, secret=secret, extra=["--tolerance", "30s"])
    assert narrowed.exit_code == 6
    assert "tolerance is 30s" in narrowed.stderr


def test_a_bad_tolerance_is_a_usage_error(tmp_path: Path) -> None:
    secret = new_secret()
    headers = signed_headers(secret, MSG_ID, int(time.time()), BODY)
    result = verify(tmp_path, headers, secret=secret, extra=["--tolerance", "5 minutes"])
    assert result.exit_code == 2
    assert "--tolerance" in result.stderr


def test_any_of_several_signatures_may_match(tmp_path: Path) -> None:
    """Secret rotation: the sender signs with the old and the new secret."""
    old, new = new_secret(), new_secret()
    now = int(time.time())
    both = f"{sign(old, MSG_ID, now, BODY)} v1a,ignoredasymmetric= {sign(new, MSG_ID, now, BODY)}"
    headers = {"webhook-id": MSG_ID, "webhook-timestamp": str(now), "webhook-signature": both}
    for secret, position in ((old, 1), (new, 3)):
        result = verify(tmp_path, headers, secret=secret)
        assert result.exit_code == 0, result.stderr
        assert json.loads(result.stdout)["matchedSignature"] == position
    assert verify(tmp_path, headers, secret=new_secret()).exit_code == 6


@pytest.mark.parametrize(
    "signature", ["v1", "v1,", "v1,not base64!", "garbage", "v2," + "A" * 44, ",,,"]
)
def test_malformed_signatures_are_bad_signatures_not_crashes(
    tmp_path: Path, signature: str
) -> None:
    secret = new_secret()
    headers = {
        **signed_headers(secret, MSG_ID, int(time.time()), BODY),
        "webhook-signature": signature,
    }
    result = verify(tmp_path, headers, secret=secret)
    assert result.exit_code == 6
    assert "bad signature" in result.stderr
    assert "Traceback" not in result.stderr


@pytest.mark.parametrize("stamp", ["soon", "1.7e9", "-5", "0x10", "01700000000", "1" * 40])
def test_a_timestamp_that_is_not_unix_seconds_is_malformed(tmp_path: Path, stamp: str) -> None:
    secret = new_secret()
    headers = {**signed_headers(secret, MSG_ID, int(time.time()), BODY), "webhook-timestamp": stamp}
    result = verify(tmp_path, headers, secret=secret)
    assert result.exit_code == 6
    assert "malformed header" in result.stderr


MALFORMED_SECRETS = [
    pytest.param("whsec_not*base64", id="not-base64"),
    pytest.param("whsec_", id="empty-key"),
    pytest.param("   ", id="blank"),
    pytest.param("whsec_abc def", id="space"),
    pytest.param("whpk_" + "A" * 44, id="asymmetric"),
]


@pytest.mark.parametrize("secret", MALFORMED_SECRETS)
def test_a_malformed_secret_is_exit_2_and_never_echoed(tmp_path: Path, secret: str) -> None:
    good = new_secret()
    headers = signed_headers(good, MSG_ID, int(time.time()), BODY)
    installed = secret == MALFORMED_SECRETS[0].values[0]
    result = verify(tmp_path, headers, secret=secret, installed=installed)
    expected = 3 if not secret.strip() else 2  # blank: no secret at all
    assert result.exit_code == expected, result.stderr
    if secret.strip() and len(secret) > 8:
        assert secret not in result.stderr


def test_a_secret_without_its_prefix_or_padding_is_accepted(tmp_path: Path) -> None:
    secret = new_secret(size=31)  # 31 bytes: base64 with one "=" of padding
    headers = signed_headers(secret, MSG_ID, int(time.time()), BODY)
    bare = secret.removeprefix("whsec_").rstrip("=")
    assert verify(tmp_path, headers, secret=bare).exit_code == 0


def test_no_secret_anywhere_is_exit_3_naming_the_ways(tmp_path: Path) -> None:
    body_file = tmp_path / "body.json"
    body_file.write_bytes(BODY)
    result = run_leadctl(["webhooks", "verify", "--body", str(body_file)])
    assert result.exit_code == 3
    assert "LEADCTL_WEBHOOK_SECRET" in result.stderr and "--secret-file" in result.stderr


def test_secret_file_wins_over_the_environment(tmp_path: Path) -> None:
    secret = new_secret()
    key_file = tmp_path / "hook.key"
    key_file.write_text(secret + "\n")
    headers = signed_headers(secret, MSG_ID, int(time.time()), BODY)
    body_file = tmp_path / "body.json"
    body_file.write_bytes(BODY)
    args = ["webhooks", "verify", *header_args(headers), "--body", str(body_file)]
    result = run_leadctl(
        [*args, "--secret-file", str(key_file)], env={"LEADCTL_WEBHOOK_SECRET": new_secret()}
    )
    assert result.exit_code == 0, result.stderr


def test_the_secret_is_never_an_argument(tmp_path: Path) -> None:
    result = run_leadctl(["webhooks", "verify", "--secret", new_secret()])
    assert result.exit_code == 2
    assert "No such option" in result.stderr or "no such option" in result.stderr.lower()


def verify_stdin(
    secret: str, headers: dict[str, str], body: bytes
) -> subprocess.CompletedProcess[bytes]:
    return subprocess.run(
        [leadctl_executable(), "webhooks", "verify", *header_args(headers), "--body", "-"],
        input=body,
        capture_output=True,
        env=base_env({"LEADCTL_WEBHOOK_SECRET": secret}),
        timeout=60,
        check=False,
    )


def test_body_from_stdin_is_taken_byte_for_byte() -> None:
    secret = new_secret()
    body = BODY.replace(b",", b",\r\n")  # CRLF inside: no newline translation
    proc = verify_stdin(secret, signed_headers(secret, MSG_ID, int(time.time()), body), body)
    assert proc.returncode == 0, proc.stderr
    # Bytes that are not UTF-8 reach the check (and fail it by name), not a decoder.
    latin1 = '{"name": "Zoë"}'.encode("latin-1")
    headers = signed_headers(secret, MSG_ID, int(time.time()), latin1)
    proc = verify_stdin(secret, headers, latin1)
    assert proc.returncode == 6, proc.stderr
    assert b"not UTF-8" in proc.stderr
    assert b"Traceback" not in proc.stderr


def captured(headers: dict[str, str], body: bytes, *, eol: bytes, length: bool = True) -> bytes:
    lines = [b"POST /hooks/leads HTTP/1.1", b"Host: example.test"]
    lines += [f"{name}: {value}".encode() for name, value in headers.items()]
    if length:
        lines.append(b"Content-Length: %d" % len(body))
    return eol.join(lines) + eol + eol + body


@pytest.mark.parametrize("eol", [b"\r\n", b"\n"], ids=["crlf", "lf"])
def test_a_captured_request_file(tmp_path: Path, eol: bytes) -> None:
    run = run_leadctl if eol == b"\r\n" else run_in_process
    secret = new_secret()
    headers = signed_headers(secret, MSG_ID, int(time.time()), BODY)
    request = tmp_path / "delivery.http"
    # An editor's newline after the body: Content-Length says where the body ends.
    request.write_bytes(captured(headers, BODY, eol=eol) + b"\n")
    result = run(
        ["webhooks", "verify", "--request", str(request)], env={"LEADCTL_WEBHOOK_SECRET": secret}
    )
    assert result.exit_code == 0, result.stderr
    tampered = tmp_path / "tampered.http"
    tampered.write_bytes(captured(headers, BODY.replace(b"lead_1", b"lead_9"), eol=eol))
    bad = run_in_process(
        ["webhooks", "verify", "--request", str(tampered)], env={"LEADCTL_WEBHOOK_SECRET": secret}
    )
    assert bad.exit_code == 6
    assert "bad signature" in bad.stderr


def test_a_chunked_captured_request(tmp_path: Path) -> None:
    secret = new_secret()
    headers = {
        **signed_headers(secret, MSG_ID, int(time.time()), BODY),
        "Transfer-Encoding": "chunked",
    }
    half = len(BODY) // 2
    chunks = b"%x\r\n%s\r\n%x\r\n%s\r\n0\r\n\r\n" % (
        half,
        BODY[:half],
        len(BODY) - half,
        BODY[half:],
    )
    request = tmp_path / "chunked.http"
    request.write_bytes(captured(headers, chunks, eol=b"\r\n", length=False))
    result = run_in_process(
        ["webhooks", "verify", "--request", str(request)], env={"LEADCTL_WEBHOOK_SECRET": secret}
    )
    assert result.exit_code == 0, result.stderr


@pytest.mark.parametrize(
    ("content", "message"),
    [
        (b"not a request at all", "request line"),
        (b"POST / HTTP/1.1\r\nContent-Length: 99\r\n\r\n{}", "cut short"),
    ],
)
def test_a_file_that_is_not_a_whole_request_is_exit_2(
    tmp_path: Path, content: bytes, message: str
) -> None:
    request = tmp_path / "bad.http"
    request.write_bytes(content)
    result = run_in_process(
        ["webhooks", "verify", "--request", str(request)],
        env={"LEADCTL_WEBHOOK_SECRET": new_secret()},
    )
    assert result.exit_code == 2
    assert message in result.stderr


def test_request_and_header_flags_do_not_mix(tmp_path: Path) -> None:
    request = tmp_path / "r.http"
    request.write_bytes(b"POST / HTTP/1.1\r\n\r\n")
    result = run_in_process(
        ["webhooks", "verify", "--request", str(request), "--header", "webhook-id: x"],
        env={"LEADCTL_WEBHOOK_SECRET": new_secret()},
    )
    assert result.exit_code == 2


def test_a_hostile_webhook_id_reaches_no_terminal_raw(tmp_path: Path) -> None:
    from tests.support.e2e import run_leadctl_tty

    secret = new_secret()
    hostile = "msg_\x1b]0;owned\x07\u202e"
    headers = signed_headers(secret, hostile, int(time.time()), BODY)
    body_file = tmp_path / "body.json"
    body_file.write_bytes(BODY)
    result = run_leadctl_tty(
        ["webhooks", "verify", *header_args(headers), "--body", str(body_file)],
        env={"LEADCTL_WEBHOOK_SECRET": secret},
    )
    assert result.exit_code == 0, result.stderr
    assert "\x1b]" not in result.stdout and "\u202e" not in result.stdout
    assert "\\x1b]0;owned\\x07\\u202e" in result.stdout


def test_verify_loads_no_http_client_table_library_or_keyring(tmp_path: Path) -> None:
    from tests.support.importtime import imported, loaded

    secret = new_secret()
    body_file = tmp_path / "body.json"
    body_file.write_bytes(BODY)
    headers = signed_headers(secret, MSG_ID, int(time.time()), BODY)
    args = ["webhooks", "verify", *header_args(headers), "--body", str(body_file), "-o", "json"]
    names = imported(args, {"LEADCTL_WEBHOOK_SECRET": secret})
    assert "standardwebhooks" in names
    assert loaded(names, ("httpx", "rich", "keyring", "pydantic", "leadctl_sandbox")) == []
    help_names = imported(["webhooks", "--help"])
    assert loaded(help_names, ("standardwebhooks", "httpx", "leadctl.webhooks")) == []
