"""What the compiled index lists of each operation and group, decoded into typed values
where the index is read (``leadctl.contract.store``): every reader outside the decoders
reads attributes mypy checks, not string keys of JSON.

A :class:`Listing` is the part of an operation a group's help and the command tree need
(its command's names, its one line of help, where it is); the whole operation, parameters
and body included, is ``leadctl.contract.operations.Operation``, decoded from the same
entry only when a verb is built or a request sent. Named tuples: this module loads with
every group's help (see ``leadctl.contract.entries`` on what a dataclass would cost).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, NamedTuple


class GroupInfo(NamedTuple):
    """A command group of the index: its tag, its one-line help, the names that reach it."""

    tag: str | None = None
    help: str = ""
    aliases: tuple[str, ...] = ()


class Listing(NamedTuple):
    """One operation as the index lists it."""

    id: str  # the operationId, else "METHOD path"
    operation_id: str | None
    group: str
    verb: str | None
    curated: str | None  # the curated command ("group verb") that calls it, if one does
    method: str
    path: str
    summary: str
    description: str
    deprecated: bool
    aliases: tuple[str, ...]
    retry_safe: bool
    retry_reason: str
    # The credential kinds it admits, in the contract's order; none: it takes no credential.
    kinds: tuple[str, ...]
    # The entry as stored, for the decoder of the whole operation (Operation.of) alone.
    entry: Mapping[str, Any]

    @property
    def generated(self) -> bool:
        """A generated verb runs it (no curated command does)."""
        return self.curated is None

    @property
    def command(self) -> str:
        return f"{self.group} {self.verb}"


def listing_of(entry: Mapping[str, Any]) -> Listing:
    operation_id = entry.get("operationId")
    verb = entry.get("verb")
    curated = entry.get("curated")
    return Listing(
        str(entry["id"]),
        None if operation_id is None else str(operation_id),
        str(entry.get("group") or ""),
        None if verb is None else str(verb),
        None if curated is None else str(curated),
        str(entry.get("method") or ""),
        str(entry.get("path") or ""),
        str(entry.get("summary") or ""),
        str(entry.get("description") or ""),
        bool(entry.get("deprecated")),
        tuple(str(a) for a in entry.get("aliases", ())),
        bool(entry.get("retrySafe")),
        str(entry.get("retryReason") or ""),
        tuple(str(k) for k in entry.get("kinds", ())),
        entry,
    )


def group_info_of(raw: Mapping[str, Any]) -> GroupInfo:
    tag = raw.get("tag")
    return GroupInfo(
        None if tag is None else str(tag),
        str(raw.get("help") or ""),
        tuple(str(a) for a in raw.get("aliases", ())),
    )
