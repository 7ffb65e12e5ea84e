"""config.py: paths, reading without side effects, locked atomic updates, key validation."""

from __future__ import annotations

import os
import stat
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from leadctl.config.profile_values import parse_profile_value
from leadctl.config.settings import (
    PROFILE_KEYS,
    Config,
    load_config,
    update_config,
    validate_profile_name,
)
from leadctl.errors import ExitCode, LeadctlError, UsageError

posix_only = pytest.mark.skipif(os.name != "posix", reason="POSIX file modes")


@pytest.fixture
def conf_dir(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    directory = tmp_path / "conf"
    monkeypatch.setenv("LEADCTL_CONFIG_DIR", str(directory))
    return directory


def _mode(path: Path) -> int:
    return stat.S_IMODE(path.stat().st_mode)


def _add_profile(name: str, **values: object) -> None:
    def mutate(config: Config) -> None:
        config.profiles.setdefault(name, {}).update(values)

    update_config(os.environ, mutate)


# -- paths -----------------------------------------------------------------------------


def test_load_without_a_file_is_empty_and_creates_nothing(conf_dir: Path) -> None:
    config = load_config(os.environ)
    assert config == Config(current_profile=None, profiles={})
    assert not conf_dir.exists()


def test_load_reads_what_update_wrote(conf_dir: Path) -> None:
    def mutate(config: Config) -> str:
        config.current_profile = "work"
        config.profiles["work"] = {"base_url": "https://leads.example.com", "timeout": 12}
        return "done"

    assert update_config(os.environ, mutate) == "done"
    config = load_config(os.environ)
    assert config.current_profile == "work"
    assert config.profiles == {"work": {"base_url": "https://leads.example.com", "timeout": 12}}


def test_bad_toml_is_a_usage_error_naming_the_file(conf_dir: Path) -> None:
    conf_dir.mkdir()
    (conf_dir / "config.toml").write_text("current_profile = \n[profiles\n", encoding="utf-8")
    with pytest.raises(UsageError) as caught:
        load_config(os.environ)
    assert str(conf_dir / "config.toml") in caught.value.message
    assert "not valid TOML" in caught.value.message
    assert caught.value.exit_code == ExitCode.USAGE


@pytest.mark.parametrize(
    ("content", "fragment"),
    [
        ("current_profile = 3\n", "current_profile"),
        ("profiles = 'x'\n", "[profiles]"),
        ("[profiles.a]\ntoken = 'sk_live_secret'\n", "'token'"),
        ("[profiles.a]\noutput = 'xml'\n", "'output'"),
        ("[profiles.a]\ntimeout = -1\n", "'timeout'"),
        ("[profiles.a]\ncredential_store = 'cloud'\n", "'credential_store'"),
        ("[profiles.'bad name']\n", "invalid profile name"),
    ],
)
def test_malformed_config_content_is_a_usage_error(
    conf_dir: Path, content: str, fragment: str
) -> None:
    conf_dir.mkdir()
    (conf_dir / "config.toml").write_text(content, encoding="utf-8")
    with pytest.raises(UsageError) as caught:
        load_config(os.environ)
    assert fragment in caught.value.message
    assert "sk_live_secret" not in caught.value.message


def test_non_utf8_config_is_a_usage_error(conf_dir: Path) -> None:
    conf_dir.mkdir()
    (conf_dir / "config.toml").write_bytes(b"current_profile = '\xff'\n")
    with pytest.raises(UsageError, match="UTF-8"):
        load_config(os.environ)


def test_a_missing_ca_bundle_does_not_break_loading(conf_dir: Path, tmp_path: Path) -> None:
    conf_dir.mkdir()
    (conf_dir / "config.toml").write_text(
        f"[profiles.a]\nca_bundle = '{tmp_path / 'gone.pem'}'\n", encoding="utf-8"
    )
    assert load_config(os.environ).profiles["a"]["ca_bundle"] == str(tmp_path / "gone.pem")


# -- writing ---------------------------------------------------------------------------


@posix_only
def test_update_creates_a_0700_dir_and_a_0600_file(conf_dir: Path) -> None:
    old_umask = os.umask(0o022)
    try:
        _add_profile("default", output="json")
    finally:
        os.umask(old_umask)
    assert _mode(conf_dir) == 0o700
    assert _mode(conf_dir / "config.toml") == 0o600


def test_unknown_top_level_tables_survive_a_rewrite(conf_dir: Path) -> None:
    conf_dir.mkdir()
    (conf_dir / "config.toml").write_text("[telemetry]\nenabled = false\n", encoding="utf-8")
    _add_profile("default", output="csv")
    text = (conf_dir / "config.toml").read_text(encoding="utf-8")
    assert "[telemetry]" in text
    assert load_config(os.environ).extra == {"telemetry": {"enabled": False}}


def _leftovers(directory: Path) -> list[str]:
    return sorted(p.name for p in directory.iterdir() if p.name.endswith(".tmp"))


def test_failed_mutate_writes_nothing(conf_dir: Path) -> None:
    _add_profile("default", output="json")
    before = (conf_dir / "config.toml").read_bytes()

    def mutate(config: Config) -> None:
        config.profiles["default"]["output"] = "csv"
        raise UsageError("changed my mind")

    with pytest.raises(UsageError, match="changed my mind"):
        update_config(os.environ, mutate)
    assert (conf_dir / "config.toml").read_bytes() == before


def test_failed_write_leaves_the_old_file_and_no_temp_file(
    conf_dir: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    _add_profile("default", output="json")
    before = (conf_dir / "config.toml").read_bytes()

    def broken_fsync(fd: int) -> None:
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(os, "fsync", broken_fsync)
    with pytest.raises(LeadctlError, match="No space left on device"):
        _add_profile("default", output="csv")
    monkeypatch.undo()
    assert (conf_dir / "config.toml").read_bytes() == before
    assert _leftovers(conf_dir) == []
    assert load_config({"LEADCTL_CONFIG_DIR": str(conf_dir)}).profiles["default"] == {
        "output": "json"
    }


def test_a_secret_is_never_written(conf_dir: Path) -> None:
    _add_profile("default", output="json")
    before = (conf_dir / "config.toml").read_bytes()

    def mutate(config: Config) -> None:
        config.profiles["default"]["token"] = "sk_live_do_not_store"

    with pytest.raises(UsageError) as caught:
        update_config(os.environ, mutate)
    assert "token" in caught.value.message
    assert "sk_live_do_not_store" not in caught.value.message
    assert (conf_dir / "config.toml").read_bytes() == before


def test_internal_keys_may_be_written_by_code(conf_dir: Path) -> None:
    _add_profile("default", credential_store="file", credential_kind="source")
    assert load_config(os.environ).profiles["default"] == {
        "credential_store": "file",
        "credential_kind": "source",
    }


_WORKER = textwrap.dedent(
    """
    import os, sys
    from leadctl.config.settings import update_config

    worker, rounds = sys.argv[1], int(sys.argv[2])

    def bump(index):
        def mutate(config):
            counter = config.profiles.setdefault("counter", {"timeout": 1})
            counter["timeout"] += 1
            config.profiles[f"w{worker}-{index}"] = {"output": "json"}
        return mutate

    for index in range(rounds):
        update_config(os.environ, bump(index))
    """
)


def test_concurrent_updates_from_processes_lose_nothing(conf_dir: Path) -> None:
    workers, rounds = 4, 30
    procs = [
        subprocess.Popen(
            [sys.executable, "-c", _WORKER, str(worker), str(rounds)],
            stderr=subprocess.PIPE,
            text=True,
        )
        for worker in range(workers)
    ]
    for proc in procs:
        _, stderr = proc.communicate(timeout=120)
        assert proc.returncode == 0, stderr
    config = load_config(os.environ)
    assert config.profiles["counter"]["timeout"] == 1 + workers * rounds
    expected = {f"w{worker}-{index}" for worker in range(workers) for index in range(rounds)}
    assert expected <= set(config.profiles)
    assert _leftovers(conf_dir) == []


# -- names and values ------------------------------------------------------------------


@pytest.mark.parametrize("name", ["default", "work.eu", "a", "Prod_2-x", "9" * 64])
def test_good_profile_names(name: str) -> None:
    assert validate_profile_name(name) == name


@pytest.mark.parametrize(
    "name", ["", "-x", ".hidden", "../etc", "a/b", "with space", "é", "9" * 65, "a\nb"]
)
def test_bad_profile_names(name: str) -> None:
    with pytest.raises(UsageError, match="invalid profile name"):
        validate_profile_name(name)


@pytest.mark.parametrize(
    ("key", "raw", "expected"),
    [
        ("base_url", "https://leads.example.com/", "https://leads.example.com"),
        ("base_url", "http://10.0.0.5:8080", "http://10.0.0.5:8080"),
        ("output", "JSON", "json"),
        ("output", "tsv", "tsv"),
        ("timeout", "10", 10),
        ("timeout", "2.5", 2.5),
        ("region", "gb", "GB"),
        ("region", " US ", "US"),
        ("source_key_header", "X-Source-Key", "X-Source-Key"),
        ("phone_status_window_days_param", "windowDays", "windowDays"),
        ("phone_status_start_param", "range[start]", "range[start]"),
        ("phone_status_end_param", "end_date", "end_date"),
    ],
)
def test_valid_profile_values(key: str, raw: str, expected: object) -> None:
    assert parse_profile_value(key, raw) == expected


@pytest.mark.parametrize(
    ("key", "raw"),
    [
        ("base_url", "ftp://leads.example.com"),
        ("base_url", "leads.example.com"),
        ("base_url", "https://"),
        ("base_url", "https://user:hunter2@leads.example.com"),
        ("base_url", "https://leads.example.com?key=1"),
        ("output", "xml"),
        ("timeout", "0"),
        ("timeout", "-3"),
        ("timeout", "nan"),
        ("timeout", "inf"),
        ("timeout", "soon"),
        ("region", "XX"),
        ("region", "USA"),
        ("region", "1"),
        ("source_key_header", "X Source"),
        ("source_key_header", "X-Key:"),
        ("source_key_header", ""),
        ("phone_status_window_days_param", ""),
        ("phone_status_start_param", "a b"),
        ("phone_status_end_param", "a&b=c"),
        ("ca_bundle", "/no/such/bundle.pem"),
    ],
)
def test_invalid_profile_values(key: str, raw: str) -> None:
    with pytest.raises(UsageError) as caught:
        parse_profile_value(key, raw)
    assert caught.value.exit_code == ExitCode.USAGE
    assert "hunter2" not in caught.value.message


def test_ca_bundle_must_exist_and_is_stored_absolute(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    (tmp_path / "ca.pem").write_text("pem", encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    assert parse_profile_value("ca_bundle", "ca.pem") == str((tmp_path / "ca.pem").resolve())
    with pytest.raises(UsageError, match="no such file"):
        parse_profile_value("ca_bundle", str(tmp_path))


@pytest.mark.parametrize("key", ["credential_store", "credential_kind"])
def test_internal_keys_are_not_settable(key: str) -> None:
    with pytest.raises(UsageError, match="auth login"):
        parse_profile_value(key, "file")


@pytest.mark.parametrize("key", ["token", "api_key", "password", "BASE_URL"])
def test_unknown_keys_are_refused(key: str) -> None:
    with pytest.raises(UsageError, match="unknown profile key") as caught:
        parse_profile_value(key, "x")
    assert caught.value.hint is not None
    assert all(known in caught.value.hint for known in PROFILE_KEYS)
