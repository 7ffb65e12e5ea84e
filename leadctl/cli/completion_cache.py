"""What `leads get <TAB>` offered, kept a minute per profile in the cache dir.

One 0600 file per profile (``<cache dir>/completion/<profile>.json``), replaced atomically,
holding for each argument completed (``leads get 0``, and the base URL it was read from)
the candidates and when they were read. Candidates are ids and display names only
(``value_completion.candidates_of`` drops what ``util/secret_fields`` calls a secret); no
credential is ever written. A file
that cannot be read or written is no cache: completion never fails for it.
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import TYPE_CHECKING, Any

from leadctl.config.dirs import cache_dir
from leadctl.config.private_files import ensure_private_dir, write_private_file

if TYPE_CHECKING:
    from leadctl.context import Context

CACHE_SECONDS = 60.0
SUBDIR = "completion"
_SAFE_NAME = re.compile(r"[^A-Za-z0-9_.-]")

Candidate = tuple[str, str]


def argument_key(group: str, verb: str, position: int) -> str:
    return f"{group} {verb} {position}"


def cache_path(context: Context) -> Path:
    name = _SAFE_NAME.sub("_", context.profile_name) or "_"
    return cache_dir(context.env) / SUBDIR / f"{name}.json"


class CompletionCache:
    """The cache of one profile, read at most once per process."""

    def __init__(self, context: Context) -> None:
        self.path = cache_path(context)
        self._clock = context.clock
        # The same profile pointed elsewhere (LEADCTL_BASE_URL) has other ids.
        self._service = str(context.settings.base_url or "embedded")
        self._entries: dict[str, Any] | None = None

    def _read(self) -> dict[str, Any]:
        if self._entries is None:
            try:
                loaded = json.loads(self.path.read_text(encoding="utf-8"))
            except (OSError, ValueError):
                loaded = {}
            self._entries = loaded if isinstance(loaded, dict) else {}
        return self._entries

    def get(self, key: str) -> list[Candidate] | None:
        """The candidates read for ``key`` less than CACHE_SECONDS ago, else None."""
        entry = self._read().get(f"{self._service} {key}")
        if not isinstance(entry, dict):
            return None
        at, items = entry.get("at"), entry.get("items")
        if not isinstance(at, (int, float)) or not isinstance(items, list):
            return None
        if not 0 <= self._clock.now().timestamp() - at < CACHE_SECONDS:
            return None
        return [(str(item[0]), str(item[1])) for item in items if _pair(item)]

    def put(self, key: str, items: list[Candidate]) -> None:
        entries = self._read()
        now = self._clock.now().timestamp()
        # Entries past their life are dropped as the file is rewritten.
        kept = {
            k: v
            for k, v in entries.items()
            if isinstance(v, dict)
            and isinstance(v.get("at"), (int, float))
            and 0 <= now - v["at"] < CACHE_SECONDS
        }
        kept[f"{self._service} {key}"] = {"at": now, "items": [list(item) for item in items]}
        self._entries = kept
        try:
            ensure_private_dir(self.path.parent)
            write_private_file(self.path, json.dumps(kept).encode("utf-8"))
        except Exception:  # an unwritable cache is no cache
            pass


def _pair(item: Any) -> bool:
    return isinstance(item, list) and len(item) == 2
