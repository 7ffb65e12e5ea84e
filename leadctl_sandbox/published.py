"""The contract the sandbox serves and publishes at ``GET /openapi.json``.

It is the reference's operations (``leadctl/contract/openapi.json``, the contract leadctl
bundles, read as package data: the sandbox imports no more of leadctl for it) plus the
operations the sandbox implements as assumed (``extended_contract.json``: lists and reads of
every resource, sending and cancelling SMS, tags), so generated commands have something to
do. This document is all leadctl knows of the sandbox, besides its one entry point
(``leadctl/sandbox_entry.py``).
"""

from __future__ import annotations

import importlib.util
import json
from functools import lru_cache
from pathlib import Path
from typing import Any

from leadctl_sandbox.contract import iter_operations


def _package_dir(name: str) -> Path:
    """Where the package ``name`` is installed, found as the import system finds it: its
    code is not run, and importlib.resources (a tenth of the embedded sandbox's start) is
    not loaded. Every way leadctl installs puts its files in a directory."""
    spec = importlib.util.find_spec(name)
    locations = spec.submodule_search_locations if spec is not None else None
    if not locations:
        raise ImportError(f"package {name!r} is not installed in a directory")
    return Path(next(iter(locations)))


REFERENCE_FILE = _package_dir("leadctl") / "contract" / "openapi.json"
EXTENSION_FILE = Path(__file__).with_name("extended_contract.json")
PUBLISHED_PATH = "/openapi.json"


@lru_cache(maxsize=1)
def published_contract() -> dict[str, Any]:
    """The merged document; callers must not mutate it."""
    with REFERENCE_FILE.open(encoding="utf-8") as handle:
        document: dict[str, Any] = json.load(handle)
    with EXTENSION_FILE.open(encoding="utf-8") as handle:
        extension = json.load(handle)
    info = document["info"]
    info["description"] = f"{info['description']} {extension['description']}"
    known = {tag["name"] for tag in document.get("tags", ())}
    document.setdefault("tags", []).extend(
        tag for tag in extension["tags"] if tag["name"] not in known
    )
    for path, item in extension["paths"].items():
        document["paths"].setdefault(path, {}).update(item)
    components = document.setdefault("components", {})
    for kind, named in extension["components"].items():
        components.setdefault(kind, {}).update(named)
    by_id = {op.operation_id: op for op in iter_operations(document)}
    for operation_id, fields in extension["operationExtensions"].items():
        by_id[operation_id].spec.update(fields)
    return document


@lru_cache(maxsize=1)
def published_bytes() -> bytes:
    return json.dumps(published_contract(), ensure_ascii=False, indent=1).encode("utf-8")
