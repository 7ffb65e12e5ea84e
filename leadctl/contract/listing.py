"""What the compiled index lists of each operation and group, decoded into typed values
where the index is read (``leadctl.contract.store``): every reader outside the decoders
reads attributes mypy checks, not string keys of JSON.

A :class:`Listing` is the part of an operation a group's help and the command tree need
(its command's names, its one line of help, where it is); the whole operation, parameters
and body included, is ``leadctl.contract.operations.Operation``, decoded from the same
entry only when a verb is built or a request sent.

Slotted classes with ``Final`` attributes (immutable to mypy), not named tuples: this
module loads with every command, and defining a 15-field ``typing.NamedTuple`` costs
hundreds of microseconds where a slotted class costs a few.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from typing import Final


class GroupInfo:
    """A command group of the index: its tag, its one-line help, the names that reach it."""

    __slots__ = ("aliases", "help", "tag")

    def __init__(self, tag: str | None, help: str, aliases: tuple[str, ...]) -> None:
        self.tag: Final = tag
        self.help: Final = help
        self.aliases: Final = aliases

    def __repr__(self) -> str:
        return f"GroupInfo({self.tag!r}, {self.help!r}, {self.aliases!r})"


def group_info_of(raw: Mapping[str, Any]) -> GroupInfo:
    tag = raw.get("tag")
    return GroupInfo(
        None if tag is None else str(tag),
        str(raw.get("help") or ""),
        tuple(str(a) for a in raw.get("aliases", ())),
    )


class Listing:
    """One operation as the index lists it, decoded from its entry."""

    __slots__ = ("aliases", "curated", "deprecated", "description", "entry", "group", "id",
                 "kinds", "method", "operation_id", "path", "retry_reason", "retry_safe",
                 "summary", "verb")  # fmt: skip

    def __init__(self, entry: Mapping[str, Any]) -> None:
        operation_id = entry.get("operationId")
        verb = entry.get("verb")
        curated = entry.get("curated")
        self.id: Final = str(entry["id"])  # the operationId, else "METHOD path"
        self.operation_id: Final = None if operation_id is None else str(operation_id)
        self.group: Final = str(entry.get("group") or "")
        self.verb: Final = None if verb is None else str(verb)
        # The curated command ("group verb") that calls it, if one does.
        self.curated: Final = None if curated is None else str(curated)
        self.method: Final = str(entry.get("method") or "")
        self.path: Final = str(entry.get("path") or "")
        self.summary: Final = str(entry.get("summary") or "")
        self.description: Final = str(entry.get("description") or "")
        self.deprecated: Final = bool(entry.get("deprecated"))
        self.aliases: Final = tuple(str(a) for a in entry.get("aliases", ()))
        self.retry_safe: Final = bool(entry.get("retrySafe"))
        self.retry_reason: Final = str(entry.get("retryReason") or "")
        # The credential kinds it admits, in the contract's order; none: it takes none.
        self.kinds: Final = tuple(str(k) for k in entry.get("kinds", ()))
        # The entry as stored, for the decoder of the whole operation (Operation.of) alone.
        self.entry: Final = entry

    def __repr__(self) -> str:
        return f"Listing({self.method} {self.path}: {self.command})"

    @property
    def generated(self) -> bool:
        """A generated verb runs it (no curated command does)."""
        return self.curated is None

    @property
    def command(self) -> str:
        return f"{self.group} {self.verb}"


def listing_of(entry: Mapping[str, Any]) -> Listing:
    return Listing(entry)
