"""Imported contracts, one per profile, under the cache dir.

    <cache>/contracts/<profile>/index.json             what generated commands are built from
    <cache>/contracts/<profile>/<sha16>/openapi.json   the document as imported
    <cache>/contracts/<profile>/<sha16>/schemas.json   body schemas, read only to validate

``index.json`` is written last and names its directory, so a reader never pairs a new
index with old schemas. A profile without an imported contract uses the bundled one.

Reading is on every command's start-up path: it needs no platformdirs (the cache dir is
computed here as platformdirs computes it on Linux and macOS; a test compares the two),
and reads the config only when some profile has imported a contract.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any

# Bumped when the index's shape changes: stored indexes are then rebuilt from their contract.
INDEX_FORMAT = 1
BUNDLED_INDEX_FILE = Path(__file__).with_name("openapi.index.json")
BUNDLED_SCHEMAS_FILE = Path(__file__).with_name("openapi.schemas.json")
BUNDLED_GROUPS_FILE = Path(__file__).with_name("openapi.groups.tsv")
CONTRACTS_DIR = "contracts"
INDEX_FILE = "index.json"
# The groups only generated verbs make up, one "name<TAB>short help" a line: all that
# `leadctl --help` reads, so it needs no JSON parser.
GROUPS_FILE = "groups.tsv"
CONTRACT_FILE = "openapi.json"
SCHEMAS_FILE = "schemas.json"


def cache_dir(env: Mapping[str, str]) -> Path:
    """LEADCTL_CACHE_DIR, else the platform's user cache dir for leadctl; never created."""
    override = env.get("LEADCTL_CACHE_DIR", "")
    if override:
        return Path(override).expanduser()
    if sys.platform == "darwin":
        return Path(os.path.expanduser("~/Library/Caches")) / "leadctl"
    if os.name == "posix":
        xdg = env.get("XDG_CACHE_HOME", "").strip()
        return Path(xdg if xdg else os.path.expanduser("~/.cache")) / "leadctl"
    import platformdirs

    return Path(platformdirs.user_cache_dir("leadctl", appauthor=False))


def profile_dir(env: Mapping[str, str], profile: str) -> Path:
    return cache_dir(env) / CONTRACTS_DIR / profile


class ActiveIndex:
    """The index generated commands come from, and where its body schemas are.

    A plain class rather than a dataclass: it is defined on every command's start-up.
    """

    __slots__ = ("index", "problem", "profile", "schemas_path")

    def __init__(
        self,
        index: Mapping[str, Any],
        schemas_path: Path,
        profile: str | None,  # None: the bundled contract
        problem: str | None = None,  # why an imported contract could not be used
    ) -> None:
        self.index = index
        self.schemas_path = schemas_path
        self.profile = profile
        self.problem = problem

    @property
    def contract_path(self) -> Path:
        if self.profile is None:
            from leadctl.contract import CONTRACT_FILE as BUNDLED

            return BUNDLED
        return self.schemas_path.with_name(CONTRACT_FILE)


def bundled_index() -> ActiveIndex:
    import json

    with BUNDLED_INDEX_FILE.open(encoding="utf-8") as handle:
        index = json.load(handle)
    return ActiveIndex(index, BUNDLED_SCHEMAS_FILE, None)


def imported_profiles(env: Mapping[str, str]) -> list[str]:
    try:
        return sorted(os.listdir(cache_dir(env) / CONTRACTS_DIR))
    except OSError:
        return []


def active_index(env: Mapping[str, str], profile: Callable[[], str]) -> ActiveIndex:
    """The index of ``profile()``'s imported contract, else the bundled one.

    ``profile`` is called only when some profile has imported a contract. An unreadable
    or outdated index is rebuilt from the stored contract; if that fails too, the bundled
    contract is used and ``problem`` says why.
    """
    stored = imported_profiles(env)
    if not stored:
        return bundled_index()
    name = profile()
    if name not in stored:
        return bundled_index()
    directory = profile_dir(env, name)
    import json

    try:
        with (directory / INDEX_FILE).open(encoding="utf-8") as handle:
            index = json.load(handle)
        schemas_path = directory / str(index["files"]) / SCHEMAS_FILE
        if _current(index):
            return ActiveIndex(index, schemas_path, name)
        return recompile(env, name, schemas_path.with_name(CONTRACT_FILE), index)
    except FileNotFoundError:
        return bundled_index()  # imported and removed in between, or never finished
    except Exception as error:
        found = bundled_index()
        return ActiveIndex(
            found.index,
            found.schemas_path,
            None,
            problem=f"the imported contract of profile {name!r} is unusable "
            f"({type(error).__name__}: {error}); using the bundled contract",
        )


def _current(index: Mapping[str, Any]) -> bool:
    from leadctl import __version__

    return index.get("format") == INDEX_FORMAT and index.get("leadctl") == __version__


def recompile(
    env: Mapping[str, str], profile: str, contract_path: Path, old: Mapping[str, Any]
) -> ActiveIndex:
    """Rebuild an index another leadctl version wrote, from the stored contract."""
    import json

    raw = contract_path.read_bytes()
    meta = old.get("contract") or {}
    return save(
        env,
        profile,
        raw,
        json.loads(raw),
        source=str(meta.get("source", "unknown")),
        imported_at=meta.get("importedAt"),
    )


def save(
    env: Mapping[str, str],
    profile: str,
    raw: bytes,
    document: Mapping[str, Any],
    *,
    source: str,
    imported_at: str | None,
) -> ActiveIndex:
    """Compile and store ``document`` (already validated) as ``profile``'s contract."""
    from leadctl import __version__
    from leadctl.config import ensure_private_dir, write_private_file
    from leadctl.contract.index import compile_index, curated_command_names, dump

    index, schemas = compile_index(
        document,
        raw=raw,
        source=source,
        imported_at=imported_at,
        curated_verbs=curated_command_names(),
        leadctl_version=__version__,
    )
    files = index["contract"]["sha256"][:16]
    index["files"] = files
    directory = profile_dir(env, profile)
    ensure_private_dir(directory)
    ensure_private_dir(directory / files)
    write_private_file(directory / files / CONTRACT_FILE, raw)
    write_private_file(directory / files / SCHEMAS_FILE, dump(schemas).encode("utf-8"))
    write_private_file(directory / GROUPS_FILE, groups_text(index).encode("utf-8"))
    write_private_file(directory / INDEX_FILE, dump(index).encode("utf-8"))
    _remove_other_versions(directory, keep=files)
    return ActiveIndex(index, directory / files / SCHEMAS_FILE, profile)


def remove(env: Mapping[str, str], profile: str) -> bool:
    """Forget ``profile``'s imported contract; False when it had none."""
    import shutil

    directory = profile_dir(env, profile)
    if not directory.is_dir():
        return False
    shutil.rmtree(directory)
    return True


def _remove_other_versions(directory: Path, *, keep: str) -> None:
    import shutil

    for entry in directory.iterdir():
        if entry.is_dir() and entry.name != keep:
            shutil.rmtree(entry, ignore_errors=True)


def groups_text(index: Mapping[str, Any]) -> str:
    rows = index.get("newGroups", ())
    return "".join(f"{name}\t{' '.join(str(help_text).split())}\n" for name, help_text in rows)


def read_groups(path: Path) -> list[tuple[str, str]]:
    """The rows of a groups file; none when it cannot be read."""
    try:
        text = path.read_text(encoding="utf-8")
    except OSError:
        return []
    rows = []
    for line in text.splitlines():
        name, _, help_text = line.partition("\t")
        if name:
            rows.append((name, help_text))
    return rows


def help_groups(
    env: Mapping[str, str], explicit_profile: str | None
) -> tuple[list[tuple[str, str]], list[tuple[str, list[str]]]]:
    """What `leadctl --help` shows of generated groups, without a JSON parser or the config.

    Returns the active contract's groups (short help included) when that contract is known
    without reading the config: no profile imported one, or the profile was named (-p,
    LEADCTL_PROFILE). Otherwise the current profile is in the config, which costs more to
    read than the whole listing is worth; then each importing profile's group names.
    """
    stored = imported_profiles(env)
    if not stored:
        return read_groups(BUNDLED_GROUPS_FILE), []
    if explicit_profile:
        if explicit_profile in stored:
            return read_groups(profile_dir(env, explicit_profile) / GROUPS_FILE), []
        return read_groups(BUNDLED_GROUPS_FILE), []
    by_profile = []
    for name in stored:
        rows = read_groups(profile_dir(env, name) / GROUPS_FILE)
        if rows:
            by_profile.append((name, [group for group, _help in rows]))
    return [], by_profile
