"""Stage 3: each operation's group and command names, the same on every run.

A group is the curated command's, else its tag's, else its path's resource. A verb is the
contract's x-cli-name, else short words from the operationId or path, unique in their
group; where several operations want one name, the one with the shortest path keeps it
and the others get a longer one. The names curated commands have are never given out.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping, Sequence
from typing import Any

from leadctl.contract.curated import TAG_GROUPS, curated_command
from leadctl.contract.index.model import Clash, Classified, Found, Named, Naming
from leadctl.contract.index.read import first_sentence
from leadctl.contract.listing import GroupInfo
from leadctl.contract.naming import (
    fallback_verb,
    kebab,
    path_group,
    verb_words,
    words,
)

# Each curated group's verb names (none: a single command such as `api`).
Taken = Mapping[str, set[str]]


def group_for(tag: Any, path: str, taken: Taken, prefix: list[str]) -> tuple[str, list[list[str]]]:
    """The group's name, and the word runs a verb drops when it repeats them. An untagged
    operation is grouped by its path (its resource, not the API's version)."""
    if tag is None:
        first = path_group(path, prefix) or "default"
        name = kebab(first) or "default"
        if name in taken and not taken[name]:
            name = f"{name}-operations"  # a single command (e.g. `api`) cannot hold verbs
        segments = [s for s in path.strip("/").split("/") if s and "{" not in s]
        skipped = segments[: segments.index(first)] if first in segments else []
        # A verb named from the path drops the group and what came before it (v1...).
        return name, [words(first), *(words(s) for s in skipped if words(s))]
    tag_text = str(tag)
    name = TAG_GROUPS.get(tag_text, kebab(tag_text) or "default")
    if name in taken and not taken[name]:
        name = f"{name}-operations"  # a single command (e.g. `api`) cannot hold verbs
    return name, [words(tag_text), name.split("-")]


def groups_of(
    seen: Iterable[tuple[str, Any]], tag_help: Mapping[str, str], taken: Taken
) -> dict[str, GroupInfo]:
    """Each group, in the order first seen, from its operations' (group, tag): its tag and
    help the first time, and each kebab-case tag as an alias where the group has another
    name."""
    found: dict[str, tuple[Any, str, list[str]]] = {}
    for group, tag in seen:
        _tag, _help, aliases = found.setdefault(
            group, (tag, first_sentence(tag_help.get(str(tag), "")), [])
        )
        alias = kebab(str(tag)) if tag is not None else group
        if alias != group and alias not in aliases and alias not in taken:
            aliases.append(alias)
    return {
        name: GroupInfo(None if tag is None else str(tag), help_text, tuple(aliases))
        for name, (tag, help_text, aliases) in found.items()
    }


def naming(found: Found, group: str, tag_words: list[list[str]], what: Classified) -> Naming:
    """What the operation's command may be called."""
    operation_id, method, path = found.operation_id, found.method, found.path
    curated = curated_command(method, path)
    cli_name = found.spec.get("x-cli-name")
    cli_aliases = found.spec.get("x-cli-aliases")
    return Naming(
        group=curated[0] if curated is not None else group,
        curated=curated,
        words=tuple(verb_words(operation_id, method, path, tag_words, what.read_kind)),
        long_words=tuple(verb_words(operation_id, method, path, [], what.read_kind)),
        fallback=fallback_verb(operation_id, method, path),
        cli_name=kebab(cli_name) if isinstance(cli_name, str) and kebab(cli_name) else None,
        cli_aliases=tuple(kebab(str(a)) for a in cli_aliases if kebab(str(a)))
        if isinstance(cli_aliases, list)
        else (),
        group_words=tuple(w for run in tag_words for w in run),
    )


def assign_verbs(
    operations: Sequence[tuple[Classified, Naming]], taken: Taken
) -> tuple[list[Named], list[Clash]]:
    """Each operation's verb and aliases (a curated one's is its curated command's): an
    x-cli-name first, then short names unique in their group; where several want one
    name, the operation with the shortest path keeps it and the others get a longer one
    (their distinguishing path words, ``by-PARAM``, the method, the whole operationId, a
    number). And the clashes, for `contract show`."""
    generated = [i for i, (_what, name) in enumerate(operations) if name.curated is None]
    used: dict[str, set[str]] = {group: set(verbs) for group, verbs in taken.items()}
    wanted: dict[tuple[str, str], list[int]] = {}
    for i in generated:
        wanted.setdefault((operations[i][1].group, operations[i][1].wanted), []).append(i)

    def precedence(i: int) -> tuple[bool, int, str, str]:
        what, name = operations[i]
        return (name.cli_name is None, len(what.path.strip("/").split("/")), what.path, what.method)

    verbs: dict[int, str] = {}
    for i in sorted(generated, key=precedence):
        what, name = operations[i]
        group_used = used.setdefault(name.group, set())
        verb = name.wanted
        if verb in group_used:
            verb = next(c for c in _candidates(what, name) if c not in group_used)
        group_used.add(verb)
        verbs[i] = verb
    clashes = [
        Clash(
            group=group,
            verb=verb,
            operations=tuple(f"{operations[i][0].method} {operations[i][0].path}" for i in ops),
            resolved=tuple(f"{operations[i][1].group} {verbs[i]}" for i in ops),
            explicit=any(operations[i][1].cli_name == verb for i in ops),
        )
        for (group, verb), ops in wanted.items()
        if any(verbs[i] != verb for i in ops)
    ]
    named: list[Named] = []
    for i, (_what, name) in enumerate(operations):
        if name.curated is not None:
            named.append(Named(name.curated[1]))
            continue
        aliases: list[str] = []
        for alias in [*name.cli_aliases, name.fallback]:
            if alias != verbs[i] and alias not in used[name.group] and alias not in aliases:
                aliases.append(alias)
        used[name.group].update(aliases)
        hidden = tuple(a for a in aliases if a == name.fallback)
        named.append(Named(verbs[i], tuple(aliases), hidden))
    return named, clashes


def _candidates(what: Classified, name: Naming) -> Iterator[str]:
    short = name.wanted
    skip = {*name.group_words, *short.split("-")}
    literal = [
        w
        for segment in what.path.strip("/").split("/")
        if segment and not segment.startswith("{")
        for w in words(segment)
        if w not in skip
    ]
    if literal:
        yield f"{short}-{'-'.join(literal[-2:])}"
    params = [s[1:-1] for s in what.path.strip("/").split("/") if s.startswith("{")]
    if params:
        yield f"{short}-by-{kebab(params[-1])}"
    long = "-".join(name.long_words)
    if long != short:
        yield long
    yield f"{short}-{what.method.lower()}"
    yield name.fallback
    number = 2
    while True:
        yield f"{short}-{number}"
        number += 1
