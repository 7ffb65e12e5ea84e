"""Stage 4: the index and the schema bundle of a (validated) OpenAPI document.

Runs the stages in turn (read the document, classify each operation, name the commands),
puts their values together as the index's entries, links each wait rule to the operation
it polls, and writes both as JSON.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Iterable, Mapping, Sequence
from typing import TYPE_CHECKING, Any

from leadctl.contract import (
    BUNDLED_GROUPS_FILE,
    BUNDLED_INDEX_FILE,
    BUNDLED_SCHEMAS_FILE,
    CONTRACT_FILE,
    INDEX_FORMAT,
)
from leadctl.contract.curated import CURATED_VERBS
from leadctl.contract.document import Document
from leadctl.contract.entries import Pending
from leadctl.contract.index.classify import classify
from leadctl.contract.index.encode import clash_json, entry_json, group_json
from leadctl.contract.index.model import Classified, Entry, Naming
from leadctl.contract.index.name import assign_verbs, group_for, groups_of, naming
from leadctl.contract.index.read import bundle, operations, refs_in, tag_help
from leadctl.contract.naming import shared_prefix
from leadctl.contract.security import source_key_prefixes

if TYPE_CHECKING:
    from leadctl.contract.budget import Budget


def contract_hash(raw: bytes) -> str:
    return hashlib.sha256(raw).hexdigest()


def compile_index(
    document: Mapping[str, Any],
    *,
    raw: bytes,
    source: str,
    imported_at: str | None,
    curated_verbs: Mapping[str, Iterable[str]],
    leadctl_version: str,
    budget: Budget | None = None,
) -> tuple[dict[str, Any], dict[str, Any]]:
    """The index and the schema bundle of a (validated) OpenAPI document.

    ``curated_verbs`` maps each curated group to its verb names (or to nothing for a
    single command such as ``api``): generated verbs never take those names.
    """
    doc = Document(document)
    taken = {group: set(verbs) for group, verbs in curated_verbs.items()}
    found = list(operations(doc))
    prefix = shared_prefix([op.path for op in found if not op.spec.get("tags")])
    compiled: list[tuple[Classified, Naming]] = []
    seen_groups: list[tuple[str, Any]] = []
    for op in found:
        if budget is not None:
            budget.check("compiling the commands")
        group, tag_words = group_for(op.tag, op.path, taken, prefix)
        seen_groups.append((group, op.tag))
        what = classify(doc, op)
        compiled.append((what, naming(op, group, tag_words, what)))
    groups = groups_of(seen_groups, tag_help(document), taken)
    named, clashes = assign_verbs(compiled, taken)
    waits = linked_pending([what for what, _naming in compiled])
    entries = [
        Entry(what, names.group, " ".join(names.curated) if names.curated else None, n, wait)
        for (what, names), n, wait in zip(compiled, named, waits, strict=True)
    ]
    generated_groups = {entry.group for entry in entries if entry.curated is None}
    new_groups = [
        [group, info.help or f"Operations tagged {info.tag} in the service's contract."]
        for group, info in groups.items()
        if group not in taken and group in generated_groups
    ]
    info = document.get("info", {})
    index = {
        "format": INDEX_FORMAT,
        "leadctl": leadctl_version,
        "contract": {
            "title": str(info.get("title", "")),
            "version": str(info.get("version", "")),
            "openapi": str(
                document.get("x-leadctl-original-openapi") or document.get("openapi", "")
            ),
            "sha256": contract_hash(raw),
            "source": source,
            "importedAt": imported_at,
        },
        # A value starting with one of these is a source key (cli.md "Credentials").
        "sourceKeyPrefixes": source_key_prefixes(document),
        "groups": {group: group_json(info) for group, info in groups.items()},
        "newGroups": new_groups,
        "clashes": [clash_json(clash) for clash in clashes],
        "operations": [entry_json(entry) for entry in entries],
    }
    return index, schema_bundle(doc, entries)


def linked_pending(operations: Sequence[Classified]) -> list[Pending | None]:
    """Each operation's wait rule, without a poll operation that is missing or does not
    take one id."""
    by_id = {op.operation_id: op for op in operations if op.operation_id}
    found: list[Pending | None] = []
    for op in operations:
        rule = op.pending
        if rule is not None and rule.poll is not None:
            poll = by_id.get(rule.poll)
            path_params = [p for p in poll.params if p.where == "path"] if poll else []
            if poll is None or poll.method != "GET" or len(path_params) != 1:
                rule = rule._replace(poll=None)
        found.append(rule)
    return found


def schema_bundle(doc: Document, entries: Sequence[Entry]) -> dict[str, Any]:
    """The schemas the index keeps none of: generated operations' bodies and checked
    parameters, with the components their $refs need."""
    bodies: dict[str, Any] = {}
    params: dict[str, dict[str, Any]] = {}
    refs: set[str] = set()
    for entry in entries:
        what = entry.what
        if entry.curated is not None:
            continue
        if what.body_schema is not None:
            bodies[what.id] = what.body_schema
            refs |= refs_in(doc, what.body_schema)
        if what.param_schemas:
            params[what.id] = dict(what.param_schemas)
            for _param, schema in what.param_schemas:
                refs |= refs_in(doc, schema)
    return {"bundle": bundle(doc, refs), "bodies": bodies, "params": params}


# -- the bundled contract's prebuilt index ------------------------------------------------


def curated_command_names() -> dict[str, list[str]]:
    """Each curated group's verb names (empty for single commands)."""
    return {group: list(verbs) for group, verbs in CURATED_VERBS.items()}


def build_bundled() -> tuple[dict[str, Any], dict[str, Any]]:
    raw = CONTRACT_FILE.read_bytes()
    return compile_index(
        json.loads(raw),
        raw=raw,
        source="bundled",
        imported_at=None,
        curated_verbs=curated_command_names(),
        # Shipped with the code it belongs to: no version to check it against.
        leadctl_version="bundled",
    )


def dump(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False, separators=(",", ":"), sort_keys=False) + "\n"


def groups_text(index: Mapping[str, Any]) -> str:
    """The new groups of a compiled index as ``groups.tsv`` (name, tab, one-line help)."""
    rows = index.get("newGroups", ())
    return "".join(f"{name}\t{' '.join(str(help_text).split())}\n" for name, help_text in rows)


def main() -> int:
    index, schemas = build_bundled()
    BUNDLED_INDEX_FILE.write_text(dump(index), encoding="utf-8")
    BUNDLED_SCHEMAS_FILE.write_text(dump(schemas), encoding="utf-8")
    BUNDLED_GROUPS_FILE.write_text(groups_text(index), encoding="utf-8")
    print(
        f"wrote {BUNDLED_INDEX_FILE.name}, {BUNDLED_SCHEMAS_FILE.name}, {BUNDLED_GROUPS_FILE.name}"
    )
    return 0
