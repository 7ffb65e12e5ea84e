"""The generated part of the command tree: the groups and verbs of the active contract,
built lazily (the catalogue they come from: ``leadctl.contract.catalogue``).

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
from leadctl.contract.catalogue import OperationCatalogue
from leadctl.contract.store import active_index, bundled_index
from leadctl.generated.assumptions import BUNDLED_ASSUMPTIONS
from leadctl.generated.prose import contract_prose, contract_words, operation_line
from leadctl.generated.startup import startup_key
from leadctl.iostreams import safe_text

if TYPE_CHECKING:
    from leadctl.contract.listing import Listing

META_KEY = "leadctl.generated"
Prepare = Callable[[Any], None]


class GeneratedTree(OperationCatalogue):
    """The generated groups of the command tree, built from the catalogue: a group's verbs
    are built one at a time, when looked up."""

    def short_help(self, group: str) -> str:
        found = self.active.group(group)
        text = contract_prose(found.help) if found is not None else ""
        return text or f"Operations of the service's {group} group (from its contract)."

    def _factories(
        self, group: str, prepare: Prepare, curated: Collection[str] = ()
    ) -> tuple[dict[str, Callable[[], Any]], dict[str, str], dict[str, str]]:
        """Each verb's factory, the aliases that reach it, and its one-line help. A
        generated verb whose name a curated verb has (one added after the index was
        compiled) takes its first alias instead, so it stays reachable."""

        def factory(listing: Listing, name: str) -> Callable[[], Any]:
            def build() -> Any:
                from leadctl.generated.command import build_verb

                command = build_verb(self._operation(listing), self, name=name)
                prepare(command)
                return command

            return build

        factories: dict[str, Callable[[], Any]] = {}
        aliases: dict[str, str] = {}
        summaries: dict[str, str] = {}
        for all_names, listing in self._verbs(group):
            names = [n for n in all_names if n not in curated]
            if not names:
                continue
            factories[names[0]] = factory(listing, names[0])
            summaries[names[0]] = self._summary(listing)
            for alias in names[1:]:
                aliases[alias] = names[0]
        return factories, aliases, summaries

    @staticmethod
    def _summary(listing: Listing) -> str:
        """A verb's line in its group's help, as its built command would show it (Click
        marks a deprecated command so), from its listing without decoding the operation."""
        line = operation_line(listing.summary, listing.description, listing.method, listing.path)
        return f"{line} (DEPRECATED)" if listing.deprecated else line

    def group_command(self, name: str, prepare: Prepare) -> Any | None:
        """A group made only of generated verbs, or None when there is no such group."""
        if name not in self._generated_groups:
            return None

        found = self.active.group(name)
        tag = found.tag if found is not None else None
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
        group.commands = LazyVerbs({}, *self._factories(name, prepare))
        return group

    def add_verbs(self, command: Any, group: str, prepare: Prepare) -> None:
        """Give a curated group the generated verbs it lacks (a curated verb always wins)."""
        verbs = getattr(command, "commands", None)
        if group not in self._generated_groups or not isinstance(verbs, LazyVerbs):
            return
        verbs.add_pending(*self._factories(group, prepare, curated=verbs))

    def prepare_curated(self, command: Any, group: str, verb: str) -> None:
        """What the active contract changes in a curated verb, once it is built: the note
        on what it takes from leadctl's bundled contract, and the active operation's
        parameters it lacks."""
        self.note_bundled(command, group, verb)
        if self.active.key is not None:
            from leadctl.generated.curated_params import add_contract_params

            add_contract_params(command, group, verb, self.active)

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
            if self.active.find(method, path) is None:
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
