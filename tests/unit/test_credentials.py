"""credentials.py: lookup order, kinds, masking, the keyring with its deadline, the file store."""

from __future__ import annotations

import base64
import json
import os
import stat
import subprocess
import sys
import textwrap
import time
from collections.abc import Callable
from pathlib import Path

import keyring
import keyring.core
import keyring.errors
import pytest
from keyring.backend import KeyringBackend
from keyring.backends import fail, null

from leadctl.config.credentials import (
    Credential,
    CredentialKind,
    delete_credential,
    detect_kind,
    lookup_credential,
    save_credential,
)
from leadctl.errors import ExitCode, KeyringUnavailable, NotAuthenticated, UsageError
from tests.support.keyrings import DictKeyring, HangingKeyring, RaisingKeyring

posix_only = pytest.mark.skipif(os.name != "posix", reason="POSIX file modes")

ORG_KEY = "sk_live_0123456789abcdef4f2a"
SOURCE_KEY = "src-9f8e7d6c5b4a39281706"
KEYRING_PROFILE = {"credential_store": "keyring"}


def _b64(data: dict[str, object]) -> str:
    raw = base64.urlsafe_b64encode(json.dumps(data).encode()).decode()
    return raw.rstrip("=")


USER_JWT = f"{_b64({'alg': 'HS256', 'typ': 'JWT'})}.{_b64({'sub': 'u1'})}.c2lnbmF0dXJlX3g5Wq"


@pytest.fixture
def env(tmp_path: Path) -> dict[str, str]:
    return {"LEADCTL_CONFIG_DIR": str(tmp_path / "conf")}


def _lookup(
    env: dict[str, str], settings: dict[str, str] | None = None, profile: str = "default"
) -> Credential | None:
    return lookup_credential(
        env=env,
        profile=profile,
        profile_settings={"credential_store": "keyring"} if settings is None else settings,
    )


# -- kinds and masking -----------------------------------------------------------------


@pytest.mark.parametrize(
    ("value", "kind"),
    [
        (ORG_KEY, CredentialKind.ORG),
        ("sk_x", CredentialKind.ORG),
        (USER_JWT, CredentialKind.USER),
        (f"{_b64({'alg': 'none'})}.{_b64({'sub': 'u'})}.", CredentialKind.USER),
        # Neither sk_ nor a JWT: not guessed to be a source key (issue 23.8).
        (SOURCE_KEY, CredentialKind.UNKNOWN),
        ("aaa.bbb.ccc", CredentialKind.UNKNOWN),
        (f"{_b64({'typ': 'JWT'})}.{_b64({'sub': 'u'})}.sig", CredentialKind.UNKNOWN),
        (f"{_b64({'alg': 'HS256'})}.{_b64({'sub': 'u'})}", CredentialKind.UNKNOWN),
        ("SK_upper", CredentialKind.UNKNOWN),
    ],
)
def test_detect_kind(value: str, kind: CredentialKind) -> None:
    assert detect_kind(value) is kind


@pytest.mark.parametrize(
    ("value", "kind"),
    [
        ("lp_src_0123456789abcdef", CredentialKind.SOURCE),
        ("lp_src", CredentialKind.UNKNOWN),
        ("xlp_src_0123", CredentialKind.UNKNOWN),
        (ORG_KEY, CredentialKind.ORG),
    ],
)
def test_a_prefix_the_contract_names_makes_a_source_key(value: str, kind: CredentialKind) -> None:
    assert detect_kind(value, ["lp_src_"]) is kind


@pytest.mark.parametrize(
    ("value", "kind", "preview"),
    [
        (ORG_KEY, CredentialKind.ORG, "sk_…4f2a"),
        (USER_JWT, CredentialKind.USER, "…" + USER_JWT[-4:]),
        (SOURCE_KEY, CredentialKind.SOURCE, "…1706"),
        ("sk_short", CredentialKind.ORG, "…"),
        ("tiny", CredentialKind.SOURCE, "…"),
    ],
)
def test_preview_masks_the_value(value: str, kind: CredentialKind, preview: str) -> None:
    credential = Credential(value, kind, "test")
    assert credential.preview() == preview
    assert len(credential.preview().replace("sk_", "").replace("…", "")) <= 4


def test_repr_and_str_never_show_the_value() -> None:
    credential = Credential(ORG_KEY, CredentialKind.ORG, "LEADCTL_TOKEN")
    for text in (repr(credential), str(credential), f"{credential}", repr([credential])):
        assert ORG_KEY not in text
        assert "0123456789" not in text
    assert "org" in repr(credential)
    assert "LEADCTL_TOKEN" in repr(credential)


# -- lookup order ----------------------------------------------------------------------


def test_no_credential_anywhere_is_none(env: dict[str, str], memory_keyring: DictKeyring) -> None:
    assert _lookup(env) is None


def test_env_token_beats_token_file_and_stores(
    env: dict[str, str], tmp_path: Path, memory_keyring: DictKeyring
) -> None:
    token_file = tmp_path / "token"
    token_file.write_text(SOURCE_KEY + "\n", encoding="utf-8")
    memory_keyring.store[("leadctl", "default")] = USER_JWT
    env.update(LEADCTL_TOKEN=ORG_KEY, LEADCTL_TOKEN_FILE=str(token_file))
    found = _lookup(env, {"credential_store": "keyring", "credential_kind": "source"})
    assert found is not None
    assert (found.value, found.kind, found.origin) == (ORG_KEY, CredentialKind.ORG, "LEADCTL_TOKEN")
    assert memory_keyring.calls == []


def test_token_file_beats_the_keyring(
    env: dict[str, str], tmp_path: Path, memory_keyring: DictKeyring
) -> None:
    token_file = tmp_path / "token"
    token_file.write_text(f"  {USER_JWT}\r\n\n", encoding="utf-8")
    memory_keyring.store[("leadctl", "default")] = ORG_KEY
    env["LEADCTL_TOKEN_FILE"] = str(token_file)
    found = _lookup(env)
    assert found is not None
    assert (found.value, found.kind) == (USER_JWT, CredentialKind.USER)
    assert "LEADCTL_TOKEN_FILE" in found.origin
    assert memory_keyring.calls == []


def test_empty_env_token_is_ignored(env: dict[str, str], memory_keyring: DictKeyring) -> None:
    memory_keyring.store[("leadctl", "default")] = ORG_KEY
    env["LEADCTL_TOKEN"] = ""
    found = _lookup(env)
    assert found is not None
    assert found.value == ORG_KEY


@pytest.mark.parametrize("make", ["missing", "directory", "empty"])
def test_unusable_token_file_is_a_clear_error(
    env: dict[str, str], tmp_path: Path, memory_keyring: DictKeyring, make: str
) -> None:
    path = tmp_path / "token"
    if make == "directory":
        path.mkdir()
    elif make == "empty":
        path.write_text("\n \n", encoding="utf-8")
    env["LEADCTL_TOKEN_FILE"] = str(path)
    with pytest.raises(NotAuthenticated) as caught:
        _lookup(env)
    assert "LEADCTL_TOKEN_FILE" in caught.value.message
    assert str(path) in caught.value.message
    assert memory_keyring.calls == []


def test_token_with_inner_whitespace_is_refused_without_echo(env: dict[str, str]) -> None:
    env["LEADCTL_TOKEN"] = "sk_live_abc def_secretpart"
    with pytest.raises(NotAuthenticated) as caught:
        _lookup(env)
    assert "LEADCTL_TOKEN" in caught.value.message
    assert "secretpart" not in caught.value.message


def test_keyring_entry_is_found_with_recorded_kind(
    env: dict[str, str], memory_keyring: DictKeyring
) -> None:
    memory_keyring.store[("leadctl", "work")] = ORG_KEY
    found = _lookup(env, {"credential_store": "keyring", "credential_kind": "source"}, "work")
    assert found is not None
    assert (found.value, found.kind) == (ORG_KEY, CredentialKind.SOURCE)
    assert found.origin == "OS keyring (service leadctl, user work)"


def test_env_token_ignores_the_recorded_kind(env: dict[str, str]) -> None:
    env["LEADCTL_TOKEN"] = USER_JWT
    found = _lookup(env, {"credential_store": "keyring", "credential_kind": "org"})
    assert found is not None
    assert found.kind is CredentialKind.USER


def test_keyring_store_does_not_read_the_file_store(
    env: dict[str, str], memory_keyring: DictKeyring
) -> None:
    save_credential(env=env, profile="default", value=ORG_KEY, insecure=True)
    assert _lookup(env, {"credential_store": "keyring"}) is None
    assert memory_keyring.calls == ["get"]


def test_file_store_is_read_without_a_word_and_no_keyring(
    env: dict[str, str], memory_keyring: DictKeyring
) -> None:
    memory_keyring.store[("leadctl", "default")] = USER_JWT
    save_credential(env=env, profile="default", value=SOURCE_KEY, insecure=True)
    for _ in range(2):
        found = _lookup(env, {"credential_store": "file", "credential_kind": "source"})
        assert found is not None
        assert (found.value, found.kind) == (SOURCE_KEY, CredentialKind.SOURCE)
    assert memory_keyring.calls == []


def test_file_store_profile_without_a_file_has_no_credential(
    env: dict[str, str], memory_keyring: DictKeyring
) -> None:
    assert _lookup(env, {"credential_store": "file"}) is None
    assert memory_keyring.calls == []


@posix_only
def test_a_file_store_others_can_read_is_refused(
    env: dict[str, str], memory_keyring: DictKeyring
) -> None:
    save_credential(env=env, profile="default", value=ORG_KEY, insecure=True)
    path = Path(env["LEADCTL_CONFIG_DIR"]) / "credentials" / "default"
    path.chmod(0o644)
    with pytest.raises(NotAuthenticated) as caught:
        _lookup(env, {"credential_store": "file"})
    assert "chmod 600" in (caught.value.hint or "")
    assert ORG_KEY not in caught.value.message


def test_unknown_recorded_kind_is_a_usage_error(
    env: dict[str, str], memory_keyring: DictKeyring
) -> None:
    memory_keyring.store[("leadctl", "default")] = ORG_KEY
    with pytest.raises(UsageError, match="credential_kind"):
        _lookup(env, {"credential_store": "keyring", "credential_kind": "admin"})


# -- saving and deleting ---------------------------------------------------------------


def test_keyring_round_trip(env: dict[str, str], memory_keyring: DictKeyring) -> None:
    where = save_credential(env=env, profile="work", value=f" {ORG_KEY}\n", insecure=False)
    assert where == "OS keyring (service leadctl, user work)"
    assert memory_keyring.store == {("leadctl", "work"): ORG_KEY}
    found = _lookup(env, {"credential_store": "keyring"}, "work")
    assert found is not None
    assert found.value == ORG_KEY
    assert delete_credential(env=env, profile="work", profile_settings=KEYRING_PROFILE) is True
    assert memory_keyring.store == {}
    assert delete_credential(env=env, profile="work", profile_settings=KEYRING_PROFILE) is False
    assert not Path(env["LEADCTL_CONFIG_DIR"]).exists()


@posix_only
def test_file_store_round_trip_is_0600_in_a_0700_dir(
    env: dict[str, str], memory_keyring: DictKeyring
) -> None:
    where = save_credential(env=env, profile="ci", value=ORG_KEY, insecure=True)
    path = Path(env["LEADCTL_CONFIG_DIR"]) / "credentials" / "ci"
    assert where == f"file {path} (0600)"
    assert path.read_text(encoding="utf-8").strip() == ORG_KEY
    assert stat.S_IMODE(path.stat().st_mode) == 0o600
    assert stat.S_IMODE(path.parent.stat().st_mode) == 0o700
    assert stat.S_IMODE(path.parent.parent.stat().st_mode) == 0o700
    assert [p.name for p in path.parent.iterdir()] == ["ci"]
    settings = {"credential_store": "file"}
    assert delete_credential(env=env, profile="ci", profile_settings=settings) is True
    assert not path.exists()
    assert delete_credential(env=env, profile="ci", profile_settings=settings) is False
    assert memory_keyring.calls == []


def test_saving_to_the_keyring_removes_an_old_file_copy(
    env: dict[str, str], memory_keyring: DictKeyring
) -> None:
    save_credential(env=env, profile="default", value=SOURCE_KEY, insecure=True)
    save_credential(env=env, profile="default", value=ORG_KEY, insecure=False)
    assert not (Path(env["LEADCTL_CONFIG_DIR"]) / "credentials" / "default").exists()
    assert memory_keyring.store == {("leadctl", "default"): ORG_KEY}


def test_file_store_delete_never_touches_a_broken_keyring(
    env: dict[str, str], use_keyring: Callable[[KeyringBackend], KeyringBackend]
) -> None:
    broken = RaisingKeyring(keyring.errors.KeyringLocked("locked"))
    use_keyring(broken)
    save_credential(env=env, profile="default", value=ORG_KEY, insecure=True)
    settings = {"credential_store": "file"}
    assert delete_credential(env=env, profile="default", profile_settings=settings) is True
    assert broken.calls == []


@pytest.mark.parametrize("value", ["", "  \n", "two words"])
def test_bad_values_are_not_saved(env: dict[str, str], value: str) -> None:
    with pytest.raises((UsageError, NotAuthenticated)):
        save_credential(env=env, profile="default", value=value, insecure=True)
    assert not Path(env["LEADCTL_CONFIG_DIR"]).exists()


@pytest.mark.parametrize("profile", ["../escape", "a/b", ""])
def test_profile_names_cannot_escape_the_store(env: dict[str, str], profile: str) -> None:
    with pytest.raises(UsageError, match="invalid profile name"):
        save_credential(env=env, profile=profile, value=ORG_KEY, insecure=True)


# -- a keyring that does not work ------------------------------------------------------


def _assert_documented_message(error: KeyringUnavailable) -> None:
    text = f"{error.message}\n{error.hint}"
    assert "LEADCTL_TOKEN" in text
    assert "--insecure-storage" in text
    assert error.exit_code == ExitCode.NOT_AUTHENTICATED
    assert ORG_KEY not in text


@pytest.mark.parametrize(
    "backend",
    [
        RaisingKeyring(keyring.errors.KeyringLocked("the collection is locked")),
        RaisingKeyring(keyring.errors.InitError("no D-Bus session")),
        RaisingKeyring(keyring.errors.KeyringError("boom")),
        RaisingKeyring(RuntimeError("backend bug")),
        fail.Keyring(),
        null.Keyring(),
    ],
    ids=["locked", "init-error", "keyring-error", "other-error", "fail-backend", "null-backend"],
)
@pytest.mark.parametrize("operation", ["lookup", "save", "delete"])
def test_a_failing_keyring_names_the_ways_out(
    env: dict[str, str],
    use_keyring: Callable[[KeyringBackend], KeyringBackend],
    backend: KeyringBackend,
    operation: str,
) -> None:
    use_keyring(backend)
    with pytest.raises(KeyringUnavailable) as caught:
        if operation == "lookup":
            _lookup(env)
        elif operation == "save":
            save_credential(env=env, profile="default", value=ORG_KEY, insecure=False)
        else:
            delete_credential(env=env, profile="default", profile_settings=KEYRING_PROFILE)
    _assert_documented_message(caught.value)


def test_a_hanging_keyring_fails_after_three_seconds(
    env: dict[str, str], use_keyring: Callable[[KeyringBackend], KeyringBackend]
) -> None:
    use_keyring(HangingKeyring())
    started = time.monotonic()
    with pytest.raises(KeyringUnavailable) as caught:
        _lookup(env)
    elapsed = time.monotonic() - started
    assert 2.9 <= elapsed < 4.5
    assert "3 s" in caught.value.message
    _assert_documented_message(caught.value)


def test_a_hanging_backend_discovery_fails_after_three_seconds(
    env: dict[str, str],
    use_keyring: Callable[[KeyringBackend], KeyringBackend],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    def slow_discovery() -> KeyringBackend:
        time.sleep(10)
        return DictKeyring()

    monkeypatch.setattr(keyring, "get_keyring", slow_discovery)
    started = time.monotonic()
    with pytest.raises(KeyringUnavailable):
        save_credential(env=env, profile="default", value=ORG_KEY, insecure=False)
    assert time.monotonic() - started < 4.5


# -- keyring is imported only when needed ----------------------------------------------

_NO_KEYRING_SCRIPT = textwrap.dedent(
    """
    import os, sys
    from pathlib import Path
    from leadctl.config.credentials import lookup_credential, save_credential

    env = dict(os.environ)
    found = lookup_credential(env=env, profile="default", profile_settings={})
    assert found is not None and found.origin == "LEADCTL_TOKEN", found

    del env["LEADCTL_TOKEN"]
    save_credential(env=env, profile="ci", value="sk_file_value_1234", insecure=True)
    found = lookup_credential(env=env, profile="ci", profile_settings={"credential_store": "file"})
    assert found is not None and found.kind.value == "org", found

    assert "keyring" not in sys.modules, "keyring was imported"
    print("ok")
    """
)


def test_keyring_is_not_imported_when_not_needed(tmp_path: Path) -> None:
    env = {
        **os.environ,
        "LEADCTL_TOKEN": ORG_KEY,
        "LEADCTL_CONFIG_DIR": str(tmp_path / "conf"),
    }
    result = subprocess.run(
        [sys.executable, "-c", _NO_KEYRING_SCRIPT],
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == "ok"


def test_a_profile_that_never_logged_in_does_not_touch_the_keyring(
    env: dict[str, str], use_keyring: Callable[[KeyringBackend], KeyringBackend]
) -> None:
    use_keyring(HangingKeyring())
    assert _lookup(env, {}) is None
    assert delete_credential(env=env, profile="default", profile_settings={}) is False
