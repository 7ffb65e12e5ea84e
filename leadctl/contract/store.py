"""Imported contracts, one per service (base URL), under the cache dir.

    <cache>/contracts/<key>/index.json             the index's top level, where each group is
    <cache>/contracts/<key>/<sha16>/by-group.json  its operations, group by group
    <cache>/contracts/<key>/<sha16>/operations.json  all of them in contract order
    <cache>/contracts/<key>/<sha16>/openapi.json   the document as imported
    <cache>/contracts/<key>/<sha16>/schemas.json   body schemas, read only to validate

``<key>`` names the profile's base URL (host, port and path, made file-safe, and a short
hash of the whole URL), so every profile of one service (an org-key profile and the
source-key profile ``sources rotate --save-profile`` made) sees the same commands. The
embedded sandbox's key is ``sandbox`` (its contract is the one it publishes); a profile
without a base URL keeps its own (``profile~NAME``).

``index.json`` is written last and names its directory, so a reader never pairs a new
index with old schemas or operations (leadctl.contract.index_slices: a command reads the
index's top level and its own group's operations only). A service without an imported
contract uses the bundled one, whose index holds its operations inline.

Reading is on every command's start-up path: it reads the config only when some contract
was imported (or for ``-p sandbox``).
"""

from __future__ import annotations

import os
from collections.abc import Callable, Collection, Iterable, Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Any

from leadctl import __version__
from leadctl.config.dirs import cache_dir
from leadctl.config.private_files import ensure_private_dir, write_private_file
from leadctl.contract import (
    BUNDLED_GROUPS_FILE,
    BUNDLED_INDEX_FILE,
    BUNDLED_SCHEMAS_FILE,
    INDEX_FORMAT,
)
from leadctl.contract import CONTRACT_FILE as BUNDLED
from leadctl.contract.index_slices import (
    GENERATED_GROUPS,
    HEAD_ONLY,
    OPERATION_GROUPS,
    OPERATIONS_FILE,
    SLICES,
    SLICES_FILE,
    read_chunk,
    sliced,
)
from leadctl.contract.templates import template_key
from leadctl.errors import UsageError

if TYPE_CHECKING:
    from leadctl.config.profile_settings import Settings
    from leadctl.contract.budget import Budget
    from leadctl.contract.listing import GroupInfo, Listing
    from leadctl.contract.loading import Loaded

# Bumped when the index's shape changes: stored indexes are then rebuilt from their contract.
CONTRACTS_DIR = "contracts"
INDEX_FILE = "index.json"
# The groups only generated verbs make up, one "name<TAB>short help" a line: all that
# `leadctl --help` reads, so it needs no JSON parser.
GROUPS_FILE = "groups.tsv"
CONTRACT_FILE = "openapi.json"
SCHEMAS_FILE = "schemas.json"
SANDBOX_KEY = "sandbox"
SANDBOX_SOURCE = "published by the sandbox"


def key_dir(env: Mapping[str, str], key: str) -> Path:
    return cache_dir(env) / CONTRACTS_DIR / key


def key_for_base_url(base_url: str) -> str:
    """``api.example.com_v1-1a2b3c4d`` for ``https://api.example.com/v1/``: readable, and
    one per service whatever the profile."""
    import hashlib

    readable, normal = _key_parts(base_url)
    return f"{readable}-{hashlib.sha256(normal.encode()).hexdigest()[:8]}"


def stored_key_for_base_url(base_url: str, stored: Collection[str]) -> str | None:
    """The key of ``base_url`` when a contract is stored under it, else None. Start-up asks
    this: the hash is computed only when a stored key has the URL's readable part, since
    loading hashlib (OpenSSL) costs every command about 3 ms."""
    readable, _ = _key_parts(base_url)
    if not any(name.startswith(f"{readable}-") for name in stored):
        return None
    key = key_for_base_url(base_url)
    return key if key in stored else None


def _key_parts(base_url: str) -> tuple[str, str]:
    """The key's readable part and the normalized URL its hash is of."""
    import re
    from urllib.parse import urlsplit

    parts = urlsplit(base_url.strip())
    host = (parts.hostname or "").lower()
    default = 443 if parts.scheme.lower() == "https" else 80
    port = f":{parts.port}" if parts.port and parts.port != default else ""
    path = parts.path.rstrip("/")
    normal = f"{parts.scheme.lower()}://{host}{port}{path}"
    readable = re.sub(r"[^A-Za-z0-9.-]+", "_", f"{host}{port}{path}").strip("_") or "service"
    return readable[:80], normal


def key_for_profile(profile: str, base_url: str | None, *, embedded_sandbox: bool) -> str:
    if embedded_sandbox:
        return SANDBOX_KEY
    if base_url:
        return key_for_base_url(base_url)
    return f"profile~{profile}"


class ActiveIndex:
    """The index generated commands come from, and where its body schemas are.

    A plain class rather than a dataclass: it is defined on every command's start-up.
    """

    __slots__ = ("_group_info", "_groups", "_index", "_listings", "_operation_groups", "head",
                 "key", "problem", "schemas_path")  # fmt: skip

    def __init__(
        self,
        index: Mapping[str, Any] | None,
        schemas_path: Path,
        key: str | None,  # None: the bundled contract
        problem: str | None = None,  # why an imported contract could not be used
        *,
        head: Mapping[str, Any] | None = None,  # a stored index's head (index_slices)
    ) -> None:
        self._index = index
        # The index's top level (its groups, its contract's facts): the head, or the index.
        self.head: Mapping[str, Any] = head if head is not None else (index or {})
        self.schemas_path = schemas_path
        self.key = key
        self.problem = problem
        self._groups: dict[str, list[Listing]] = {}
        self._listings: list[Listing] | None = None
        self._group_info: dict[str, GroupInfo] = {}
        self._operation_groups: Mapping[str, str] | None = None

    @property
    def index(self) -> Mapping[str, Any]:
        """The whole index, every operation included (read when first asked for)."""
        if self._index is None:
            operations = _read_json(self.schemas_path.with_name(OPERATIONS_FILE))
            top = {key: value for key, value in self.head.items() if key not in HEAD_ONLY}
            self._index = {**top, "operations": operations}
        return self._index

    @property
    def _slices(self) -> Mapping[str, Any] | None:
        found = self.head.get(SLICES) if self._index is None else None
        return found if isinstance(found, Mapping) else None

    def listings(self) -> list[Listing]:
        """Every operation of the index, in contract order (the whole index is read)."""
        if self._listings is None:
            self._listings = _listed(self.index.get("operations", ()))
        return self._listings

    def group_listings(self, group: str) -> list[Listing]:
        """The operations of one group, in contract order."""
        found = self._groups.get(group)
        if found is None:
            slices = self._slices
            chunk = self._chunk(slices[group]) if slices is not None and group in slices else None
            if chunk is not None:
                found = _listed(chunk)
            elif slices is not None and group not in slices:
                found = []  # the head names every group that has operations
            else:  # no slices, or a damaged one: the whole index
                found = [op for op in self.listings() if op.group == group]
            self._groups[group] = found
        return found

    def find(self, method: str, path: str) -> Listing | None:
        """The operation on METHOD + path template (``{id}`` matches any parameter name)."""
        wanted = template_key(method, path)
        for op in self.listings():
            if template_key(op.method, op.path) == wanted:
                return op
        return None

    @property
    def source_key_prefixes(self) -> list[str]:
        """What the contract's source keys start with (cli.md "Credentials")."""
        return [str(p) for p in self.head.get("sourceKeyPrefixes", ())]

    def group(self, name: str) -> GroupInfo | None:
        """One command group of the index, None when it has no such group."""
        found = self._group_info.get(name)
        if found is None:
            raw = self._raw_groups().get(name)
            if not isinstance(raw, Mapping):
                return None
            from leadctl.contract.listing import group_info_of

            found = self._group_info[name] = group_info_of(raw)
        return found

    def group_aliases(self) -> dict[str, str]:
        """The group each alias stands for (the kebab-case tag of a renamed group)."""
        return {
            str(alias): str(name)
            for name, group in self._raw_groups().items()
            for alias in group.get("aliases", ())
        }

    def _raw_groups(self) -> Mapping[str, Mapping[str, Any]]:
        raw = self.head.get("groups")
        return raw if isinstance(raw, Mapping) else {}

    def generated_groups(self) -> list[str]:
        """The groups with generated verbs (those no curated command is), in contract order."""
        if self._slices is not None:
            return [str(name) for name in self.head.get(GENERATED_GROUPS, ())]
        found: dict[str, None] = {}
        for op in self.listings():
            if op.generated:
                found.setdefault(op.group)
        return list(found)

    def group_of_operation(self, operation_id: str) -> str | None:
        if self._operation_groups is None:
            where = self.head.get(OPERATION_GROUPS) if self._slices is not None else None
            found = self._chunk(where) if where is not None else None
            if isinstance(found, Mapping):
                self._operation_groups = found
            else:
                self._operation_groups = {
                    op.operation_id: op.group for op in self.listings() if op.operation_id
                }
        return self._operation_groups.get(operation_id)

    def _chunk(self, where: Any) -> Any:
        """A part of the slices file; None when it cannot be read as the head says (the
        whole index is read instead, and a damaged one is reported by that read)."""
        try:
            return read_chunk(self.schemas_path.with_name(SLICES_FILE), where)
        except (OSError, ValueError, TypeError):
            self.head = {key: value for key, value in self.head.items() if key != SLICES}
            return None

    @property
    def contract_path(self) -> Path:
        if self.key is None:
            return BUNDLED
        return self.schemas_path.with_name(CONTRACT_FILE)


def _listed(entries: Iterable[Mapping[str, Any]]) -> list[Listing]:
    """Entries of the index, decoded (not at the top: `leadctl --help` decodes none)."""
    from leadctl.contract.listing import Listing

    return [Listing(entry) for entry in entries]


# Parsed index files by path and stat: the command tree and a curated command's operation
# read the same index once per invocation. Callers must not mutate what they get.
_PARSED: dict[str, tuple[tuple[int, int, int], Any]] = {}


def _read_json(path: Path) -> Any:
    import json

    stat = path.stat()
    stamp = (stat.st_mtime_ns, stat.st_size, stat.st_ino)
    found = _PARSED.get(str(path))
    if found is not None and found[0] == stamp:
        return found[1]
    with path.open(encoding="utf-8") as handle:
        value = json.load(handle)
    _PARSED[str(path)] = (stamp, value)
    return value


def bundled_index() -> ActiveIndex:
    return ActiveIndex(_read_json(BUNDLED_INDEX_FILE), BUNDLED_SCHEMAS_FILE, None)


def stored_keys(env: Mapping[str, str]) -> list[str]:
    try:
        return sorted(os.listdir(cache_dir(env) / CONTRACTS_DIR))
    except OSError:
        return []


def candidate_keys(env: Mapping[str, str], *, maybe_sandbox: bool) -> list[str]:
    """The stored keys this invocation's service could have: the embedded sandbox's only
    where the sandbox may be the profile. With none, ``key()`` (which may parse the config)
    is not needed: a `-p sandbox` tour leaves the sandbox's contract behind, and every
    command of another profile would otherwise read the config to find it is not theirs."""
    return [name for name in stored_keys(env) if maybe_sandbox or name != SANDBOX_KEY]


def active_index(
    env: Mapping[str, str], key: Callable[[], str | None], *, maybe_sandbox: bool = False
) -> ActiveIndex:
    """The index of the service ``key()`` names, else the bundled one.

    ``key`` is called only when a contract was imported that could be this service's
    (:func:`candidate_keys`), or ``maybe_sandbox`` (the
    embedded sandbox's published contract is compiled on its first use). An unreadable or
    outdated index is rebuilt from the stored contract; if that fails too, the bundled
    contract is used and ``problem`` says why.
    """
    stored = candidate_keys(env, maybe_sandbox=maybe_sandbox)
    if not stored and not maybe_sandbox:
        return bundled_index()
    name = key()
    if name is None:
        return bundled_index()
    if name == SANDBOX_KEY and name not in stored:
        return _save_sandbox(env)
    if name not in stored:
        return bundled_index()
    directory = key_dir(env, name)
    try:
        index = _read_json(directory / INDEX_FILE)  # the head: operations are read by group
        schemas_path = directory / str(index["files"]) / SCHEMAS_FILE
        if _current(index):
            return ActiveIndex(None, schemas_path, name, head=index)
        if name == SANDBOX_KEY and index.get("contract", {}).get("source") == SANDBOX_SOURCE:
            return _save_sandbox(env)  # another leadctl's sandbox publishes another contract
        return recompile(env, name, schemas_path.with_name(CONTRACT_FILE), index)
    except FileNotFoundError:
        return bundled_index()  # imported and removed in between, or never finished
    except Exception as error:
        found = bundled_index()
        return ActiveIndex(
            found.index,
            found.schemas_path,
            None,
            problem=f"the imported contract {name!r} is unusable "
            f"({type(error).__name__}: {error}); using the bundled contract",
        )


def settings_key(settings_of: Callable[[], Settings]) -> str | None:
    """The store key of a command's profile; None when its settings are unusable
    (``settings_of`` raises UsageError: a profile that does not exist yet)."""
    try:
        settings = settings_of()
    except UsageError:
        return None
    return key_for_profile(
        settings.profile, settings.base_url, embedded_sandbox=settings.embedded_sandbox
    )


def active_for_settings(env: Mapping[str, str], settings_of: Callable[[], Settings]) -> ActiveIndex:
    """The active index of a command's profile (see ``leadctl.contract.operations``)."""
    key = settings_key(settings_of)
    return active_index(env, lambda: key, maybe_sandbox=key == SANDBOX_KEY)


def _current(index: Mapping[str, Any]) -> bool:

    return index.get("format") == INDEX_FORMAT and index.get("leadctl") == __version__


def sandbox_contract() -> bytes:
    """The OpenAPI document the embedded sandbox publishes."""
    from leadctl.sandbox_entry import published_contract

    return published_contract()


def _save_sandbox(env: Mapping[str, str]) -> ActiveIndex:
    """Compile the sandbox's published contract (trusted: it ships with leadctl)."""
    import json

    from leadctl.contract.loading import Loaded

    raw = sandbox_contract()
    try:
        return save(
            env, SANDBOX_KEY, Loaded(raw, json.loads(raw)), source=SANDBOX_SOURCE, imported_at=None
        )
    except OSError as error:
        found = bundled_index()
        return ActiveIndex(
            found.index,
            found.schemas_path,
            None,
            problem=f"cannot store the sandbox's contract ({error}); using the bundled contract",
        )


def recompile(
    env: Mapping[str, str], key: str, contract_path: Path, old: Mapping[str, Any]
) -> ActiveIndex:
    """Rebuild an index another leadctl version wrote, from the stored contract (JSON or
    YAML, checked again: this version may leave out other operations)."""
    import time

    from leadctl.contract.loading import load_contract, new_budget

    meta = old.get("contract") or {}
    what = str(meta.get("source", "the stored contract"))
    loaded = load_contract(
        contract_path.read_bytes(), what=what, budget=new_budget(what, time.monotonic, flag="")
    )
    return save(env, key, loaded, source=what, imported_at=meta.get("importedAt"))


def save(
    env: Mapping[str, str],
    key: str,
    loaded: Loaded,
    *,
    source: str,
    imported_at: str | None,
    etag: str | None = None,
    budget: Budget | None = None,
) -> ActiveIndex:
    """Compile and store a loaded contract under ``key``, within ``budget`` when given.

    Its raw bytes are kept as they came (JSON or YAML, any OpenAPI 3 version)."""
    from leadctl.contract.index import compile_index, curated_command_names, dump, groups_text

    index, schemas = compile_index(
        loaded.document,
        raw=loaded.raw,
        source=source,
        imported_at=imported_at,
        curated_verbs=curated_command_names(),
        leadctl_version=__version__,
        budget=budget,
    )
    contract = {**index["contract"], **({"etag": etag} if etag else {})}
    files = str(contract["sha256"])[:16]
    index = {
        **index,
        "contract": contract,
        # What `contract show` lists besides the commands: operations left out and why,
        # and the defaults their schemas do not admit.
        "leftOut": loaded.left_out,
        "ignored": loaded.ignored,
        "warnings": loaded.warnings,
        "files": files,
    }
    directory = key_dir(env, key)
    ensure_private_dir(directory)
    ensure_private_dir(directory / files)
    write_private_file(directory / files / CONTRACT_FILE, loaded.raw)
    write_private_file(directory / files / SCHEMAS_FILE, dump(schemas).encode("utf-8"))
    head, slices = sliced(index, dump)
    operations = dump(index.get("operations", [])).encode("utf-8")
    write_private_file(directory / files / OPERATIONS_FILE, operations)
    write_private_file(directory / files / SLICES_FILE, slices)
    write_private_file(directory / GROUPS_FILE, groups_text(index).encode("utf-8"))
    write_private_file(directory / INDEX_FILE, dump(head).encode("utf-8"))
    _remove_other_versions(directory, keep=files)
    return ActiveIndex(index, directory / files / SCHEMAS_FILE, key)


def remove(env: Mapping[str, str], key: str) -> bool:
    """Forget the imported contract stored under ``key``; False when there was none."""
    import shutil

    directory = key_dir(env, key)
    if not directory.is_dir():
        return False
    shutil.rmtree(directory)
    return True


def _remove_other_versions(directory: Path, *, keep: str) -> None:
    import shutil

    for entry in directory.iterdir():
        if entry.is_dir() and entry.name != keep:
            shutil.rmtree(entry, ignore_errors=True)


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
    env: Mapping[str, str], key: Callable[[], str | None], *, maybe_sandbox: bool = False
) -> list[tuple[str, str]]:
    """What `leadctl --help` shows of generated groups, without a JSON parser: the bundled
    groups file unless the profile's service has an imported contract."""
    if not maybe_sandbox and not candidate_keys(env, maybe_sandbox=False):
        return read_groups(BUNDLED_GROUPS_FILE)
    name = key()
    if name is not None and (key_dir(env, name) / GROUPS_FILE).is_file():
        return read_groups(key_dir(env, name) / GROUPS_FILE)
    if name == SANDBOX_KEY:
        active_index(env, lambda: name, maybe_sandbox=True)
        return read_groups(key_dir(env, name) / GROUPS_FILE)
    return read_groups(BUNDLED_GROUPS_FILE)
