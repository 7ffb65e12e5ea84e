"""Which generated groups and verbs exist for this invocation, and their lazy commands.

The root group asks this module at ``get_command`` time. Only the active index is read
(see ``leadctl.contract.store``), and a verb's command is built only when that verb is
looked up, so the start-up cost does not grow with the size of the contract.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Callable, Collection, Mapping
from typing import TYPE_CHECKING, Any

from leadctl.cli.verb_group import LazyVerbs, VerbGroup
from leadctl.contract.operations import Operation, find_entry
from leadctl.contract.store import ActiveIndex, active_index, bundled_index
from leadctl.generated.assumptions import BUNDLED_ASSUMPTIONS
from leadctl.generated.prose import contract_prose, contract_words
from leadctl.generated.startup import startup_key
from leadctl.iostreams import safe_text

if TYPE_CHECKING:
    from leadctl.contract.operations import Operation

META_KEY = "leadctl.generated"
Prepare = Callable[[Any], None]


class GeneratedTree:
    """The active index's groups and operations. An operation is decoded into an
    :class:`Operation` when it is first used (its verb built, waited on), not all at
    once: a contract of hundreds of operations costs a command only the few it needs."""

    def __init__(self, active: ActiveIndex) -> None:
        self.active = active
        index = active.index
        self._groups: Mapping[str, Mapping[str, Any]] = index.get("groups", {})
        self._entries: list[Mapping[str, Any]] = list(index.get("operations", ()))
        self._decoded: dict[int, Operation] = {}
        # Per group, each generated verb's names (its verb, then its aliases) and position:
        # what listing a group needs, read without decoding its operations.
        self._by_group: dict[str, list[tuple[list[str], int]]] = {}
        self._by_id: dict[str, int] = {}
        for position, entry in enumerate(self._entries):
            if entry.get("operationId"):
                self._by_id[entry["operationId"]] = position
            if entry.get("curated") is None:
                names = [str(entry["verb"]), *entry.get("aliases", ())]
                self._by_group.setdefault(entry["group"], []).append((names, position))
        self._aliases = {
            alias: name
            for name, group in self._groups.items()
            for alias in group.get("aliases", ())
        }

    def _operation(self, position: int) -> Operation:
        found = self._decoded.get(position)
        if found is None:
            found = self._decoded[position] = Operation.from_entry(self._entries[position])
        return found

    def all_operations(self) -> list[Operation]:
        """Every operation of the index, decoded (a search over all of them)."""
        return [self._operation(position) for position in range(len(self._entries))]

    def canonical(self, name: str) -> str:
        """The group a name stands for: the kebab-case tag of a renamed group is an alias."""
        return str(self._aliases.get(name, name))

    def new_groups(self, curated: Collection[str]) -> list[str]:
        """Groups that only generated verbs make up, in contract order."""
        return [name for name in self._by_group if name not in curated]

    def short_help(self, group: str) -> str:
        text = contract_prose(str(self._groups.get(group, {}).get("help") or ""))
        return text or f"Operations of the service's {group} group (from its contract)."

    def operation(self, operation_id: str) -> Operation | None:
        position = self._by_id.get(operation_id)
        return None if position is None else self._operation(position)

    def single_read(self, collection: str) -> Operation | None:
        """A GET of ``collection/{id}`` (one path parameter), e.g. GET /leads/{id}."""
        for position in self._by_id.values():
            op = self._operation(position)
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

    def _factories(
        self, group: str, prepare: Prepare, curated: Collection[str] = ()
    ) -> tuple[dict[str, Callable[[], Any]], dict[str, str]]:
        """Each verb's factory, and the aliases that reach it. A generated verb whose name
        a curated verb has (one added after the index was compiled) takes its first alias
        instead, so it stays reachable."""

        def factory(position: int, name: str) -> Callable[[], Any]:
            def build() -> Any:
                from leadctl.generated.command import build_verb

                command = build_verb(self._operation(position), self, name=name)
                prepare(command)
                return command

            return build

        factories: dict[str, Callable[[], Any]] = {}
        aliases: dict[str, str] = {}
        for all_names, position in self._by_group.get(group, ()):
            names = [n for n in all_names if n not in curated]
            if not names:
                continue
            factories[names[0]] = factory(position, names[0])
            for alias in names[1:]:
                aliases[alias] = names[0]
        return factories, aliases

    def group_command(self, name: str, prepare: Prepare) -> Any | None:
        """A group made only of generated verbs, or None when there is no such group."""
        if name not in self._by_group:
            return None

        tag = self._groups.get(name, {}).get("tag")
        help_text = self.short_help(name)
        if tag:
            help_text += (
                f"\n\nGenerated from the operations tagged {contract_words(tag)} in the "
                "service's contract"
            )
            help_text += " (see `leadctl contract show`)."
        group = VerbGroup(
            name=name,
            help=help_text,
            short_help=self.short_help(name),
            rich_markup_mode=None,
        )
        factories, aliases = self._factories(name, prepare)
        group.commands = LazyVerbs({}, factories, aliases)
        return group

    def add_verbs(self, command: Any, group: str, prepare: Prepare) -> None:
        """Give a curated group the generated verbs it lacks (a curated verb always wins)."""
        verbs = getattr(command, "commands", None)
        if group not in self._by_group or not isinstance(verbs, LazyVerbs):
            return
        factories, aliases = self._factories(group, prepare, curated=verbs)
        verbs.add_pending(factories, aliases)

    def prepare_curated(self, command: Any, group: str, verb: str) -> None:
        """What the active contract changes in a curated verb, once it is built: the note
        on what it takes from leadctl's bundled contract, and the active operation's
        parameters it lacks."""
        self.note_bundled(command, group, verb)
        if self.active.key is not None:
            from leadctl.generated.curated_params import add_contract_params

            add_contract_params(command, group, verb, self.active.index)

    def note_bundled(self, command: Any, group: str, verb: str) -> None:
        """Tell in a curated verb's --help what it takes from leadctl's bundled contract:
        with that contract active, what it assumes about the service; with another, when
        that one lacks the verb's operation (the verb then works on leadctl's bundled
        description of it)."""
        if self.active.key is None:
            note = BUNDLED_ASSUMPTIONS.get(group, {}).get(verb)
            if note is not None:
                command.help = f"{command.help or ''}\n\n{note}".strip()
            return
        from leadctl.contract.curated import CURATED_COMMANDS

        for (method, path), (owner, name) in CURATED_COMMANDS.items():
            if (owner, name) != (group, verb):
                continue
            if find_entry(self.active.index, method, path) is None:
                note = (
                    f"The active contract has no {method} {path}: this command uses "
                    "leadctl's bundled description of that operation."
                )
                command.help = f"{command.help or ''}\n\n{note}".strip()


def pin_bundled(click_ctx: Any) -> None:
    """Build this invocation's tree from the bundled contract, whatever any profile
    imported: for artifacts generated from the command tree (completions, man pages)."""

    click_ctx.find_root().meta[META_KEY] = GeneratedTree(bundled_index())


def generated_tree(click_ctx: Any) -> GeneratedTree:
    """The tree of this invocation, read once and kept on the root context."""
    root = click_ctx.find_root()
    found = root.meta.get(META_KEY)
    if isinstance(found, GeneratedTree):
        return found
    obj = root.obj
    env: Mapping[str, str] = getattr(obj, "env", None) or os.environ
    key, maybe_sandbox = startup_key(click_ctx)
    tree = GeneratedTree(active_index(env, key, maybe_sandbox=maybe_sandbox))
    if tree.active.problem:
        ios = getattr(obj, "ios", None)
        if ios is not None:
            ios.warn(tree.active.problem)
        else:
            sys.stderr.write(f"warning: {safe_text(tree.active.problem)}\n")
    root.meta[META_KEY] = tree
    return tree
