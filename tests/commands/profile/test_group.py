"""``leadctl profile ...`` through the root app, with fake streams and a fake keyring."""

from __future__ import annotations

import json
import os
import stat
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import keyring
import keyring.core
import keyring.errors
import pytest
from keyring.backend import KeyringBackend
from keyring.backends import fail

from leadctl.config.credentials import save_credential
from leadctl.config.settings import Config, load_config, update_config
from leadctl.errors import ExitCode
from tests.support.cli import run_cli
from tests.support.keyrings import DictKeyring
from tests.support.run_context import direct_context, stderr_of

ORG_KEY = "sk_live_profiletest_00000000beef"


class LockedKeyring(DictKeyring):
    def get_password(self, service: str, username: str) -> str | None:
        self.calls.append("get")
        raise keyring.errors.KeyringLocked("collection is locked")


def _env() -> dict[str, str]:
    return dict(os.environ)


def _conf_dir() -> Path:
    return Path(os.environ["LEADCTL_CONFIG_DIR"])


def _write_config(current: str | None, **profiles: dict[str, object]) -> None:
    def mutate(config: Config) -> None:
        config.current_profile = current
        config.profiles.update(profiles)

    update_config(_env(), mutate)


def _login(profile: str, *, insecure: bool) -> None:
    """What `auth login` leaves behind: the credential in its store, the store in config."""
    save_credential(env=_env(), profile=profile, value=ORG_KEY, insecure=insecure)

    def mutate(config: Config) -> None:
        entry = config.profiles.setdefault(profile, {"base_url": "https://leads.example.com"})
        entry["credential_store"] = "file" if insecure else "keyring"
        entry["credential_kind"] = "org"

    update_config(_env(), mutate)


# -- list ------------------------------------------------------------------------------


SANDBOX_ROW = {"name": "sandbox", "current": False, "built_in": True}


def test_list_without_profiles_shows_the_built_in_sandbox() -> None:
    result = run_cli(["profile", "list"])
    assert result.exit_code == 0, result.stderr
    assert json.loads(result.stdout) == [SANDBOX_ROW]
    assert "no profiles of your own yet" in result.stderr
    assert not _conf_dir().exists()


def test_a_configured_sandbox_profile_is_listed_once_still_built_in() -> None:
    _write_config("sandbox", sandbox={"timezone": "UTC"}, work={"region": "US"})
    rows = json.loads(run_cli(["profile", "list"]).stdout)
    assert rows == [
        {"name": "sandbox", "current": True, "timezone": "UTC", "built_in": True},
        {"name": "work", "current": False, "region": "US", "built_in": False},
    ]


def test_list_shows_every_profile_and_marks_the_current_one() -> None:
    _write_config(
        "work",
        work={"base_url": "https://leads.example.com", "region": "US"},
        home={"output": "table", "credential_store": "file", "credential_kind": "source"},
    )
    rows = json.loads(run_cli(["profile", "list"]).stdout)
    assert rows == [
        {
            "name": "home",
            "current": False,
            "output": "table",
            "credential_store": "file",
            "credential_kind": "source",
            "built_in": False,
        },
        SANDBOX_ROW,
        {
            "name": "work",
            "current": True,
            "base_url": "https://leads.example.com",
            "region": "US",
            "built_in": False,
        },
    ]
    # home's own output setting (table) would apply; the flag wins.
    marked = json.loads(run_cli(["-p", "home", "profile", "list", "-o", "json"]).stdout)
    assert [row["current"] for row in marked] == [True, False, False]


def test_list_as_a_table() -> None:
    _write_config("work", work={"base_url": "https://leads.example.com", "region": "US"})
    result = run_cli(["profile", "list", "-o", "table"])
    assert result.exit_code == 0, result.stderr
    header, sandbox, row = result.stdout.splitlines()
    assert header.split() == [
        *("name", "current", "built-in", "base", "URL", "output", "region", "store", "kind")
    ]
    assert sandbox.split() == ["sandbox", "no", "yes"]
    assert row.split() == ["work", "yes", "no", "https://leads.example.com", "US"]


def test_list_value_format_with_columns() -> None:
    _write_config(None, b={"region": "GB"}, a={"region": "US"})
    result = run_cli(["profile", "list", "-o", "value", "--columns", "name,region"])
    assert result.stdout == "a\tUS\nb\tGB\nsandbox\t\n"


def test_a_broken_config_file_is_exit_2_naming_it() -> None:
    _conf_dir().mkdir(parents=True)
    (_conf_dir() / "config.toml").write_text("[profiles\n", encoding="utf-8")
    result = run_cli(["profile", "list"])
    assert result.exit_code == ExitCode.USAGE
    assert str(_conf_dir() / "config.toml") in result.stderr
    assert result.stdout == ""


# -- use -------------------------------------------------------------------------------


def test_use_switches_the_current_profile() -> None:
    _write_config("a", a={}, b={})
    result = run_cli(["profile", "use", "b"])
    assert result.exit_code == 0, result.stderr
    assert load_config(_env()).current_profile == "b"
    assert "current profile: b" in result.stderr


def test_use_of_an_unknown_profile_is_exit_2() -> None:
    _write_config("a", a={})
    result = run_cli(["profile", "use", "nope"])
    assert result.exit_code == ExitCode.USAGE
    assert "unknown profile 'nope'" in result.stderr
    assert "configured: a" in result.stderr
    assert load_config(_env()).current_profile == "a"


def test_use_of_an_invalid_name_is_exit_2() -> None:
    result = run_cli(["profile", "use", "../x"])
    assert result.exit_code == ExitCode.USAGE
    assert "invalid profile name" in result.stderr


def test_use_accepts_the_built_in_sandbox_profile() -> None:
    result = run_cli(["profile", "use", "sandbox"])
    assert result.exit_code == 0, result.stderr
    assert load_config(_env()).current_profile == "sandbox"
    assert load_config(_env()).profiles == {}


# -- show ------------------------------------------------------------------------------


def test_show_prints_the_named_profile() -> None:
    _write_config("a", a={"output": "csv"}, b={"base_url": "https://b.example.com", "timeout": 9})
    result = run_cli(["profile", "show", "b"])
    assert result.exit_code == 0, result.stderr
    assert result.stdout.startswith("name,current,base_url,")  # the active profile's format
    result = run_cli(["profile", "show", "b", "-o", "json"])
    assert json.loads(result.stdout) == {
        "name": "b",
        "current": False,
        "base_url": "https://b.example.com",
        "timeout": 9,
    }


def test_show_defaults_to_the_profile_in_effect_and_lists_every_key_as_a_table() -> None:
    _write_config("a", a={"region": "DE"})
    result = run_cli(["profile", "show", "-o", "table"])
    assert result.exit_code == 0, result.stderr
    lines = result.stdout.splitlines()
    assert lines[0].split() == ["name", "a"]
    assert ["region", "DE"] in [line.split() for line in lines]
    shown = {line.split()[0] for line in lines}
    assert {"base_url", "timeout", "ca_bundle", "credential_store"} <= shown


def test_show_never_reveals_the_credential(memory_keyring: DictKeyring) -> None:
    _login("a", insecure=False)
    _login("b", insecure=True)
    for name in ("a", "b"):
        for fmt in ("json", "table", "csv"):
            result = run_cli(["profile", "show", name, "-o", fmt])
            assert result.exit_code == 0, result.stderr
            assert ORG_KEY not in result.stdout + result.stderr
            assert "beef" not in result.stdout
    assert memory_keyring.calls == ["set"]


def test_show_of_an_unknown_profile_is_exit_2() -> None:
    result = run_cli(["profile", "show", "ghost"])
    assert result.exit_code == ExitCode.USAGE
    assert "unknown profile 'ghost'" in result.stderr


# -- set / unset -----------------------------------------------------------------------


@pytest.mark.skipif(os.name != "posix", reason="POSIX file modes")
def test_set_creates_the_profile_and_leaves_the_current_one() -> None:
    result = run_cli(["-p", "work", "profile", "set", "base_url", "https://leads.example.com/"])
    assert result.exit_code == 0, result.stderr
    config = load_config(_env())
    assert config.profiles == {"work": {"base_url": "https://leads.example.com"}}
    assert config.current_profile is None  # `profile use` changes it, nothing else
    assert "created profile work" in result.stderr
    assert stat.S_IMODE((_conf_dir() / "config.toml").stat().st_mode) == 0o600
    assert stat.S_IMODE(_conf_dir().stat().st_mode) == 0o700


def test_set_changes_the_active_profile_only() -> None:
    _write_config("a", a={"output": "json"}, b={"output": "json"})
    assert run_cli(["profile", "set", "region", "gb"]).exit_code == 0
    assert run_cli(["profile", "set", "timeout", "12.5"]).exit_code == 0
    profiles = load_config(_env()).profiles
    assert profiles == {
        "a": {"output": "json", "region": "GB", "timeout": 12.5},
        "b": profiles["b"],
    }
    assert profiles["b"] == {"output": "json"}


@pytest.mark.parametrize(
    ("args", "fragment"),
    [
        (["token", ORG_KEY], "unknown profile key 'token'"),
        (["credential_store", "file"], "auth login"),
        (["output", "xml"], "invalid value 'xml' for output"),
        (["timeout", "0"], "timeout"),
        (["region", "ZZ"], "region"),
        (["base_url", "ftp://x.example.com"], "scheme"),
        (["base_url", "http://leads.example.com"], "plain http://"),
        (["ca_bundle", "/nonexistent/ca.pem"], "no such file"),
    ],
)
def test_set_refuses_bad_input_with_exit_2(args: list[str], fragment: str) -> None:
    result = run_cli(["profile", "set", *args])
    assert result.exit_code == ExitCode.USAGE, result.stderr
    assert fragment in result.stderr
    assert ORG_KEY not in result.stderr
    assert not (_conf_dir() / "config.toml").exists()


def test_set_accepts_plain_http_when_allowed() -> None:
    result = run_cli(
        ["--allow-insecure-http", "profile", "set", "base_url", "http://leads.internal:8080"]
    )
    assert result.exit_code == 0, result.stderr
    assert load_config(_env()).profiles["default"]["base_url"] == "http://leads.internal:8080"


def test_set_with_an_invalid_profile_name_is_exit_2() -> None:
    result = run_cli(["-p", "a/b", "profile", "set", "output", "json"])
    assert result.exit_code == ExitCode.USAGE
    assert "invalid profile name" in result.stderr


def test_unset_removes_a_key() -> None:
    _write_config("a", a={"output": "csv", "region": "US"})
    result = run_cli(["profile", "unset", "output"])
    assert result.exit_code == 0, result.stderr
    assert load_config(_env()).profiles["a"] == {"region": "US"}
    again = run_cli(["profile", "unset", "output"])
    assert again.exit_code == 0
    assert "was not set" in again.stderr
    assert run_cli(["profile", "unset", "credential_kind"]).exit_code == ExitCode.USAGE
    assert run_cli(["profile", "unset", "nonsense"]).exit_code == ExitCode.USAGE


def test_profile_commands_other_than_delete_never_touch_the_keyring(
    use_keyring: Callable[[KeyringBackend], KeyringBackend],
) -> None:
    locked = LockedKeyring()
    use_keyring(locked)
    _write_config("a", a={"credential_store": "keyring", "credential_kind": "org"})
    for args in (
        ["profile", "list"],
        ["profile", "show"],
        ["profile", "set", "output", "table"],
        ["profile", "unset", "output"],
        ["profile", "use", "a"],
    ):
        result = run_cli(args)
        assert result.exit_code == 0, (args, result.stderr)
    assert locked.calls == []


# -- delete ----------------------------------------------------------------------------


def test_delete_needs_yes_without_a_terminal(memory_keyring: DictKeyring) -> None:
    _login("a", insecure=False)
    result = run_cli(["profile", "delete", "a"])
    assert result.exit_code == ExitCode.USAGE
    assert "--yes" in result.stderr
    assert "a" in load_config(_env()).profiles
    assert memory_keyring.store


def test_delete_with_yes_removes_profile_and_keyring_credential(
    memory_keyring: DictKeyring,
) -> None:
    _login("a", insecure=False)
    _write_config("a", b={})
    result = run_cli(["profile", "delete", "a", "--yes"])
    assert result.exit_code == 0, result.stderr
    config = load_config(_env())
    assert config.profiles == {"b": {}}
    assert config.current_profile is None
    assert memory_keyring.store == {}
    assert "deleted profile a and its credential" in result.stderr


def test_delete_asks_on_a_terminal(memory_keyring: DictKeyring) -> None:
    _login("a", insecure=False)
    refused = run_cli(["profile", "delete", "a"], tty=True, stdin="n\n")
    assert refused.exit_code == ExitCode.CANCELLED
    assert "Delete profile a" in refused.stderr
    assert "a" in load_config(_env()).profiles
    accepted = run_cli(["profile", "delete", "a"], tty=True, stdin="y\n")
    assert accepted.exit_code == 0, accepted.stderr
    assert "a" not in load_config(_env()).profiles
    assert memory_keyring.store == {}


def test_delete_of_a_file_store_profile_removes_the_file_and_skips_the_keyring(
    use_keyring: Callable[[KeyringBackend], KeyringBackend],
) -> None:
    locked = LockedKeyring()
    use_keyring(locked)
    _login("ci", insecure=True)
    secret_file = _conf_dir() / "credentials" / "ci"
    assert secret_file.exists()
    result = run_cli(["profile", "delete", "ci", "--yes"])
    assert result.exit_code == 0, result.stderr
    assert not secret_file.exists()
    assert locked.calls == []
    assert load_config(_env()).profiles == {}


def test_delete_keeps_a_keyring_profile_when_the_keyring_fails(
    use_keyring: Callable[[KeyringBackend], KeyringBackend],
) -> None:
    _write_config("a", a={"credential_store": "keyring", "credential_kind": "org"})
    use_keyring(LockedKeyring())
    result = run_cli(["profile", "delete", "a", "--yes"])
    assert result.exit_code == ExitCode.NOT_AUTHENTICATED
    assert "LEADCTL_TOKEN" in result.stderr
    assert "--insecure-storage" in result.stderr
    assert "a" in load_config(_env()).profiles


def test_delete_of_a_profile_that_never_stored_a_credential_works_without_a_keyring(
    use_keyring: Callable[[KeyringBackend], KeyringBackend],
) -> None:
    use_keyring(fail.Keyring())
    _write_config("a", a={"output": "json"})
    result = run_cli(["profile", "delete", "a", "--yes"])
    assert result.exit_code == 0, result.stderr
    assert load_config(_env()).profiles == {}


def test_delete_of_an_unknown_profile_is_exit_2() -> None:
    result = run_cli(["profile", "delete", "ghost", "--yes"])
    assert result.exit_code == ExitCode.USAGE
    assert "unknown profile 'ghost'" in result.stderr


# -- start-up cost ---------------------------------------------------------------------


def test_importing_the_profile_commands_loads_no_heavy_module() -> None:
    heavy = ("keyring", "platformdirs", "rich", "httpx", "pydantic", "filelock", "phonenumbers")
    code = (
        "import sys, leadctl.commands.profile, leadctl.config.settings\n"
        "import leadctl.config.credentials\n"
        f"loaded = [m for m in {heavy!r} if m in sys.modules]\n"
        "assert not loaded, loaded\n"
    )
    result = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, timeout=60, check=False
    )
    assert result.returncode == 0, result.stderr


# -- run(opts, ctx) without Typer ----------------------------------------------------------


def test_run_set_creates_the_profile_and_leaves_the_current_one() -> None:
    from leadctl.commands.profile import set_

    _write_config("a", a={"output": "json"})
    ctx = direct_context(profile="work", signed_in=False)
    set_.run(set_.Options(key="timeout", value="12.5"), ctx)
    config = load_config(_env())
    assert config.profiles["work"] == {"timeout": 12.5}
    assert config.current_profile == "a"
    assert "created profile work: timeout = 12.5" in stderr_of(ctx)


def test_run_delete_removes_the_profile_and_its_file_credential() -> None:
    from leadctl.commands.profile import delete

    _login("old", insecure=True)
    _write_config("old", keep={"region": "US"})
    credential_file = _conf_dir() / "credentials" / "old"
    assert credential_file.exists()
    ctx = direct_context(signed_in=False)
    delete.run(delete.Options(name="old", yes=True), ctx)
    config = load_config(_env())
    assert set(config.profiles) == {"keep"}
    assert config.current_profile is None
    assert not credential_file.exists()
    assert "deleted profile old and its credential" in stderr_of(ctx)
