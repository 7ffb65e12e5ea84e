"""A stored index read by group: a command reads the operations of its own group only.

A compiled index holds every operation of the contract (3 MB and 40 ms of decoding for
3,000 operations); a command uses the few of one group. So the store keeps the index's top
level as ``index.json`` (the groups, the contract's facts: its head), every operation in
contract order in ``<sha16>/operations.json`` for what needs all of them (``contract
show``, a search over every operation), and each group's operations as its own JSON array
in ``<sha16>/by-group.json``, found by the byte offset and length the head gives. A
group's help or a generated verb decodes the head and one array.

Every part is JSON the store wrote itself (0600, in the 0700 cache dir); one that cannot
be read as the head says is an error the caller turns into a full read.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import Any

SLICES_FILE = "by-group.json"
OPERATIONS_FILE = "operations.json"
# Keys of the head beside the index's own top level.
SLICES = "slices"  # {group: [offset, length]} into SLICES_FILE
GENERATED_GROUPS = "generatedGroups"  # groups with generated verbs, in contract order
OPERATION_GROUPS = "operationGroups"  # [offset, length] of {operationId: group}
HEAD_ONLY = (SLICES, GENERATED_GROUPS, OPERATION_GROUPS)


def sliced(index: Mapping[str, Any], dump: Any) -> tuple[dict[str, Any], bytes]:
    """The head of ``index`` and the bytes of its slices file (``dump``: the index's own
    JSON writer, so both read as the index does)."""
    by_group: dict[str, list[Any]] = {}
    for entry in index.get("operations", ()):
        by_group.setdefault(str(entry["group"]), []).append(entry)
    chunks: list[bytes] = []
    offset = 0
    slices: dict[str, list[int]] = {}

    def add(value: Any) -> list[int]:
        nonlocal offset
        data = dump(value).encode("utf-8")
        chunks.append(data)
        where = [offset, len(data)]
        offset += len(data)
        return where

    for group, entries in by_group.items():
        slices[group] = add(entries)
    operation_groups = {
        str(entry["operationId"]): str(entry["group"])
        for entry in index.get("operations", ())
        if entry.get("operationId")
    }
    head = {key: value for key, value in index.items() if key != "operations"}
    head[SLICES] = slices
    head[GENERATED_GROUPS] = [
        group
        for group, entries in by_group.items()
        if any(entry.get("curated") is None for entry in entries)
    ]
    head[OPERATION_GROUPS] = add(operation_groups)
    return head, b"".join(chunks)


def read_chunk(path: Path, where: Iterable[int]) -> Any:
    """The JSON value at ``[offset, length]`` of a slices file."""
    import json  # not at the top: `leadctl --help` loads this module, and parses no JSON

    offset, length = (int(n) for n in where)
    with path.open("rb") as file:
        file.seek(offset)
        data = file.read(length)
    if len(data) != length:
        raise ValueError(f"{path} is shorter than its head says")
    return json.loads(data)
