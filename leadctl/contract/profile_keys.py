"""Each profile's contract store key, remembered for the config file it was read from.

Start-up needs one fact of the config: which stored contract, if any, is this
invocation's (``leadctl.generated.startup``). Finding it means parsing config.toml (tomllib
compiles its regular expressions at import) and hashing a base URL (hashlib loads OpenSSL):
about 5 ms of a 60 ms ``--help``, paid on every help and every command once a contract is
stored. So the answer is kept in the cache dir, beside the store, as a few lines of text
stamped with the config file's inode, size and times; a config written since (leadctl
writes it by atomic rename, an editor in place: both change the stamp) is read again.

The file holds profile names and store keys (a host and a hash), never a setting's value
or a credential.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from pathlib import Path

from leadctl.config.dirs import cache_dir, config_path
from leadctl.config.private_files import ensure_private_dir, write_private_file
from leadctl.contract.store import key_for_profile
from leadctl.errors import LeadctlError
from leadctl.util.file_stamp import file_stamp

MEMO_FILE = "profile-keys.txt"
_HEADER = "leadctl profile keys 1"


class ProfileKeys:
    """The config's current profile and each profile's store key (a plain class: start-up)."""

    __slots__ = ("current", "keys")

    def __init__(self, current: str | None, keys: Mapping[str, str]) -> None:
        self.current = current
        self.keys = dict(keys)

    def key_of(self, profile: str) -> str:
        found = self.keys.get(profile)
        return (
            found if found is not None else key_for_profile(profile, None, embedded_sandbox=False)
        )


def profile_keys(env: Mapping[str, str]) -> ProfileKeys | None:
    """The keys of the config as it is now: remembered, else read and remembered. None
    when the config cannot be read (the command itself reports that)."""
    path = config_path(env)
    try:
        stat = os.stat(path)
    except FileNotFoundError:
        return ProfileKeys(None, {})  # no config: every profile is its name alone
    except OSError:
        return None
    stamp = file_stamp(stat)
    memo = cache_dir(env) / MEMO_FILE
    found = _read_memo(memo, stamp)
    if found is not None:
        return found
    # Parsed only when the config changed since it was last remembered.
    from leadctl.config.settings import load_config

    try:
        config = load_config(env)
    except LeadctlError:
        return None
    found = ProfileKeys(config.current_profile, _keys_of(config.profiles))
    _write_memo(memo, stamp, found)
    return found


def _keys_of(profiles: Mapping[str, Mapping[str, object]]) -> dict[str, str]:
    keys = {}
    for name, values in profiles.items():
        base_url = values.get("base_url")
        if isinstance(base_url, str) and base_url and "\n" not in name and "\t" not in name:
            keys[name] = key_for_profile(name, base_url, embedded_sandbox=False)
    return keys


def _read_memo(path: Path, stamp: str) -> ProfileKeys | None:
    try:
        with open(path, encoding="utf-8") as file:
            lines = file.read().split("\n")
    except (OSError, UnicodeDecodeError):
        return None
    if len(lines) < 3 or lines[0] != _HEADER or lines[1] != f"stamp {stamp}":
        return None
    current = lines[2].removeprefix("current ") or None
    keys = {}
    for line in lines[3:]:
        name, tab, key = line.partition("\t")
        if tab:
            keys[name] = key
    return ProfileKeys(current, keys)


def _write_memo(path: Path, stamp: str, found: ProfileKeys) -> None:
    current = found.current or ""
    if "\n" in current:
        return  # a hand-edited name no line can hold: read the config each time
    lines = [_HEADER, f"stamp {stamp}", f"current {current}"]
    lines += [f"{name}\t{key}" for name, key in found.keys.items()]
    try:
        ensure_private_dir(path.parent)
        write_private_file(path, ("\n".join(lines) + "\n").encode("utf-8"))
    except LeadctlError:
        pass  # a read-only cache: the next start-up reads the config again
