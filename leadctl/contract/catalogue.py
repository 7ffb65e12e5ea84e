"""The active index's generated groups and operations, as a command reads them: an
operation by its id, the single read of a collection, every operation for a search.

The data of the generated command tree (``leadctl.cli.generated_tree`` builds the Typer
groups from it): it reads the active index and nothing else. Verbs, waiting and bulk runs
take this type, not the tree, so nothing below the command tree's building depends on it.
"""

from __future__ import annotations

from collections.abc import Collection
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from leadctl.contract.listing import Listing
    from leadctl.contract.operations import Operation
    from leadctl.contract.store import ActiveIndex


class OperationCatalogue:
    """The active index's groups and operations. A group's operations are read when the
    group is first used (a stored index is read by group: ``leadctl.contract.index_slices``)
    and each is decoded into an :class:`Operation` when it is first used (its verb built,
    waited on): a contract of thousands of operations costs a command the few it needs."""

    def __init__(self, active: ActiveIndex) -> None:
        self.active = active
        self._new_groups = active.generated_groups()
        self._generated_groups = set(self._new_groups)
        self._decoded: dict[str, Operation] = {}
        self._aliases = active.group_aliases()

    def _operation(self, listing: Listing) -> Operation:
        found = self._decoded.get(listing.id)
        if found is None:
            from leadctl.contract.operations import Operation

            found = self._decoded[listing.id] = Operation.of(listing)
        return found

    def _verbs(self, group: str) -> list[tuple[list[str], Listing]]:
        """A group's generated verbs: each one's names (its verb, then its aliases)."""
        return [
            ([str(op.verb), *op.aliases], op)
            for op in self.active.group_listings(group)
            if op.generated
        ]

    def all_operations(self) -> list[Operation]:
        """Every operation of the index, decoded (a search over all of them)."""
        return [self._operation(listing) for listing in self.active.listings()]

    def canonical(self, name: str) -> str:
        """The group a name stands for: the kebab-case tag of a renamed group is an alias."""
        return str(self._aliases.get(name, name))

    def new_groups(self, curated: Collection[str]) -> list[str]:
        """Groups that only generated verbs make up, in contract order."""
        return [name for name in self._new_groups if name not in curated]

    def operation(self, operation_id: str) -> Operation | None:
        group = self.active.group_of_operation(operation_id)
        for listing in self.active.group_listings(group) if group is not None else ():
            if listing.operation_id == operation_id:
                return self._operation(listing)
        return None

    def single_read(self, collection: str) -> Operation | None:
        """A GET of ``collection/{id}`` (one path parameter), e.g. GET /leads/{id}."""
        for listing in self.active.listings():
            if not listing.operation_id:
                continue
            op = self._operation(listing)
            rest = (
                op.path.removeprefix(collection + "/")
                if op.path.startswith(collection + "/")
                else ""
            )
            if (
                op.method == "GET"
                and rest.startswith("{")
                and rest.endswith("}")
                and "/" not in rest
            ):
                return op
        return None
