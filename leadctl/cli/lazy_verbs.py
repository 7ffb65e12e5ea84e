"""A group's verbs as a mapping that builds each verb's command on first lookup.

A group's help lists its verbs without building them (a curated verb's one-line help is
declared beside its name), and running one verb builds that verb only: its module, and
whatever that module imports, load for it alone.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping, MutableMapping
from typing import Any


class LazyVerbs(MutableMapping[str, Any]):
    """A group's ``commands``: the built ones, then the pending ones (built on first
    lookup), always listed in that order (curated verbs first, then the contract's)."""

    def __init__(
        self,
        built: Mapping[str, Any],
        pending: Mapping[str, Callable[[], Any]],
        aliases: Mapping[str, str] | None = None,
        summaries: Mapping[str, str] | None = None,
    ):
        self._built = dict(built)
        self._pending: dict[str, Callable[[], Any]] = {}
        self._order = list(self._built)
        self._aliases: dict[str, str] = {}
        # A pending verb's one-line help, when it is known without building the verb.
        self._summaries: dict[str, str] = {}
        self.add_pending(pending, aliases, summaries)

    def add_pending(
        self,
        pending: Mapping[str, Callable[[], Any]],
        aliases: Mapping[str, str] | None = None,
        summaries: Mapping[str, str] | None = None,
    ) -> None:
        """More verbs, listed after those already here; a name already here keeps its verb."""
        for name, factory in pending.items():
            if name not in self:
                self._pending[name] = factory
                self._order.append(name)
                if summaries and name in summaries:
                    self._summaries[name] = summaries[name]
        # Names that reach a verb without being listed (x-cli-aliases, the operationId).
        for alias, name in (aliases or {}).items():
            if alias not in self:
                self._aliases[alias] = name

    def summary(self, name: str) -> str | None:
        """The one-line help of a verb not built yet, when it was declared."""
        return self._summaries.get(name) if name in self._pending else None

    def __getitem__(self, name: str) -> Any:
        if name not in self._built and name not in self._pending and name in self._aliases:
            name = self._aliases[name]
        if name not in self._built:
            factory = self._pending.pop(name)  # KeyError: no such verb
            self._built[name] = factory()
        return self._built[name]

    def __setitem__(self, name: str, command: Any) -> None:
        if name not in self._built and name not in self._pending:
            self._order.append(name)
        self._pending.pop(name, None)
        self._built[name] = command

    def __delitem__(self, name: str) -> None:
        if name in self._built:
            del self._built[name]
        else:
            del self._pending[name]
        self._order.remove(name)

    def __iter__(self) -> Iterator[str]:
        return iter(list(self._order))

    def __len__(self) -> int:
        return len(self._order)

    def __contains__(self, name: object) -> bool:
        return name in self._built or name in self._pending or name in self._aliases
