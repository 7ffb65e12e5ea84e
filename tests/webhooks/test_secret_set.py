"""``leadctl webhooks secret set`` and where verify/listen/send find the secret: a real
keyring backend in memory (tests/support/keyrings.py), leadctl run in-process."""

from __future__ import annotations

from pathlib import Path

from tests.support.cli import FakeClock, run_cli
from tests.support.keyrings import DictKeyring
from tests.webhooks.scheme import new_secret, signed_headers

BODY = b'{"type":"lead.created","data":{}}'


def verify_args(tmp_path: Path, secret: str) -> list[str]:
    body = tmp_path / "body.json"
    body.write_bytes(BODY)
    # run_cli's clock is fixed: the delivery is signed at its "now".
    headers = signed_headers(secret, "msg_1", int(FakeClock().now().timestamp()), BODY)
    args = ["webhooks", "verify", "--body", str(body)]
    for name, value in headers.items():
        args += ["--header", f"{name}: {value}"]
    return args


def test_piped_secret_is_stored_for_the_profile_and_never_printed(
    memory_keyring: DictKeyring, tmp_path: Path
) -> None:
    secret = new_secret()
    result = run_cli(["webhooks", "secret", "set"], stdin=secret + "\n")
    assert result.exit_code == 0, result.stderr
    assert memory_keyring.store == {("leadctl-webhook", "default"): secret}
    assert result.stdout == ""
    assert secret not in result.stderr
    assert "leadctl-webhook" in result.stderr
    # verify finds it with no variable and no file
    assert run_cli(verify_args(tmp_path, secret)).exit_code == 0


def test_each_profile_has_its_own_and_the_api_credential_is_untouched(
    memory_keyring: DictKeyring, tmp_path: Path
) -> None:
    memory_keyring.store[("leadctl", "staging")] = "sk_test_credential_of_staging"
    secret = new_secret()
    assert run_cli(["-p", "staging", "webhooks", "secret", "set"], stdin=secret).exit_code == 0
    assert memory_keyring.store[("leadctl", "staging")] == "sk_test_credential_of_staging"
    assert memory_keyring.store[("leadctl-webhook", "staging")] == secret
    assert run_cli([*verify_args(tmp_path, secret), "-p", "staging"]).exit_code == 0
    unset = run_cli(verify_args(tmp_path, secret))
    assert unset.exit_code == 3
    assert "webhooks secret set" in unset.stderr


def test_a_malformed_secret_is_exit_2_and_stores_nothing(memory_keyring: DictKeyring) -> None:
    result = run_cli(["webhooks", "secret", "set"], stdin="sk_live_not_a_webhook_secret!\n")
    assert result.exit_code == 2
    assert memory_keyring.store == {}
    assert "sk_live_not_a_webhook_secret" not in result.stderr


def test_the_file_beats_the_variable_which_beats_the_keyring(
    memory_keyring: DictKeyring, tmp_path: Path
) -> None:
    in_keyring, in_env, in_file = new_secret(), new_secret(), new_secret()
    memory_keyring.store[("leadctl-webhook", "default")] = in_keyring
    key_file = tmp_path / "hook.key"
    key_file.write_text(in_file)
    env = {"LEADCTL_WEBHOOK_SECRET": in_env}
    assert run_cli(verify_args(tmp_path, in_keyring)).exit_code == 0
    assert run_cli(verify_args(tmp_path, in_env), env=env).exit_code == 0
    assert run_cli(verify_args(tmp_path, in_keyring), env=env).exit_code == 6
    with_file = [*verify_args(tmp_path, in_file), "--secret-file", str(key_file)]
    assert run_cli(with_file, env=env).exit_code == 0


def test_no_prompt_without_a_person(memory_keyring: DictKeyring) -> None:
    result = run_cli(["webhooks", "secret", "set", "--no-input"], tty=True)
    assert result.exit_code == 2
    assert "pipe it in" in result.stderr
    assert memory_keyring.store == {}


def test_without_a_keyring_the_error_names_the_other_ways() -> None:
    # The session's keyring backend is keyring's fail backend (tests/conftest.py).
    result = run_cli(["webhooks", "secret", "set"], stdin=new_secret())
    assert result.exit_code == 3
    assert "LEADCTL_WEBHOOK_SECRET" in result.stderr and "--secret-file" in result.stderr
