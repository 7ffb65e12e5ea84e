"""Command names from a contract: groups from tags, verbs from operationIds, flags from
parameter names (cli.md "Generated verb names").

``PhoneNumbers`` -> ``phone-numbers``; ``listTags`` in group ``tags`` -> ``list``;
``sendSms`` in ``sms`` -> ``send``; ``getPhoneNumberStatus`` in ``phone-numbers`` ->
``get-status``; ASP.NET's ``Leads_GetAllForCurrentUser`` (a collection read) in ``leads``
-> ``list`` and ``Leads_GetForCurrentUser`` (GET /leads/{id}) -> ``get``;
``Calls_HangupCall`` in ``calls`` -> ``hangup``. An operation without an id is named by
its method and literal path segments (``POST /sms/{id}/cancel`` in ``sms`` ->
``post-cancel``).
"""

from __future__ import annotations

import re
from collections.abc import Sequence

# An upper-case run before a capitalised word (SMSStatus -> SMS, Status), a capitalised
# or lower-case word, an upper-case run, or digits.
_WORD = re.compile(r"[A-Z]+(?=[A-Z][a-z])|[A-Z]?[a-z]+|[A-Z]+|[0-9]+")


def words(name: str) -> list[str]:
    """The lower-case words of a camelCase, PascalCase, snake_case or kebab-case name."""
    return [word.lower() for word in _WORD.findall(name)]


def kebab(name: str) -> str:
    return "-".join(words(name))


def _same_word(a: str, b: str) -> bool:
    """Equal up to a plural ending: lead/leads, status/statuses, category/categories."""
    if a == b:
        return True
    short, long = sorted((a, b), key=len)
    if long in (short + "s", short + "es"):
        return True
    return short.endswith("y") and long == short[:-1] + "ies"


def strip_words(tokens: Sequence[str], remove: Sequence[str]) -> list[str]:
    """``tokens`` without the first run equal (up to plurals) to ``remove``; unchanged when
    there is none or nothing would be left."""
    size = len(remove)
    if not size:
        return list(tokens)
    for start in range(len(tokens) - size + 1):
        window = tokens[start : start + size]
        if all(_same_word(t, r) for t, r in zip(window, remove, strict=True)):
            rest = [*tokens[:start], *tokens[start + size :]]
            return rest if rest else list(tokens)
    return list(tokens)


# Words that say whose resources an operation reads, which every call of the CLI implies
# (the credential's user or organization): dropped from verbs, longest first.
QUALIFIERS: tuple[tuple[str, ...], ...] = (
    ("for", "current", "organization"),
    ("for", "current", "organisation"),
    ("for", "current", "user"),
    ("for", "current", "tenant"),
    ("for", "current", "org"),
    ("current", "organization"),
    ("current", "organisation"),
    ("current", "user"),
    ("for", "organization"),
    ("for", "user"),
)
# No verb is named by an article.
ARTICLES = frozenset({"a", "an", "the"})
_POSSESSIVE = re.compile(r"['\u2019]s\b")
# What remains of a collection read's name once its resource is dropped: it is `list`.
COLLECTION_WORDS = frozenset({"get", "all", "list", "paged", "page"})
# What remains of a read of one resource by id: it is `get`.
ITEM_WORDS = frozenset({"get", "by", "id", "single", "one", "details", "detail"})


def _without_prefix(operation_id: str, group_names: Sequence[Sequence[str]]) -> str:
    """``Leads_GetAll`` -> ``GetAll`` when the part before ``_`` names the tag or group."""
    prefix, sep, rest = operation_id.partition("_")
    if not sep or not rest:
        return operation_id
    head = words(prefix)
    if any(
        len(head) == len(group) and all(_same_word(a, b) for a, b in zip(head, group, strict=True))
        for group in group_names
    ):
        return rest
    return operation_id


def _drop_runs(tokens: list[str], run: Sequence[str]) -> list[str]:
    """``tokens`` without every occurrence of ``run`` (up to plurals), unless nothing would
    be left."""
    while True:
        stripped = strip_words(tokens, run)
        if stripped == tokens:
            return tokens
        tokens = stripped


def verb_words(
    operation_id: str | None,
    method: str,
    path: str,
    group_names: Sequence[Sequence[str]],
    kind: str = "other",
) -> list[str]:
    """The verb's words: the operationId's (without a tag prefix such as ``Leads_`` and
    qualifiers such as ``ForCurrentUser``), or the method and literal path segments',
    without the group's own name (singular or plural); ``list`` for a collection read
    (``kind`` "collection") and ``get`` for a read of one resource by id ("item") when
    nothing else is left."""
    if operation_id:
        # "List an Organization's Members": the possessive is no word of its own.
        tokens = words(_POSSESSIVE.sub("", _without_prefix(operation_id, group_names)))
    else:
        tokens = [method.lower()]
        for segment in path.strip("/").split("/"):
            if segment and not segment.startswith("{"):
                tokens += words(segment)
    # "Delete an Organization Member" in group organization-members is `delete`, never
    # `delete-an`.
    tokens = [t for t in tokens if t not in ARTICLES] or tokens
    for qualifier in QUALIFIERS:
        tokens = _drop_runs(tokens, qualifier)
    for group in group_names:
        stripped = _drop_runs(tokens, group)
        if stripped != tokens:
            tokens = stripped
            break
    if kind == "collection" and set(tokens) <= COLLECTION_WORDS:
        return ["list"]
    if kind == "item" and set(tokens) <= ITEM_WORDS:
        return ["get"]
    if tokens[:2] == ["get", "all"]:
        # `get-all-archived` is a list of something: `list-archived`.
        return ["list", *tokens[2:]] if len(tokens) > 2 else ["list"]
    return tokens


# Leading path segments that name a version or the API itself, not a resource.
_VERSION_SEGMENT = re.compile(
    r"v\d+([a-z]+\d*)?|\d+(\.\d+)*|\d{4}-\d{2}-\d{2}|api|rest", re.IGNORECASE
)


def shared_prefix(paths: Sequence[str]) -> list[str]:
    """The leading literal segments every path shares, as long as each path still has a
    literal segment after them (``/v1/customers``, ``/v1/charges`` share ``v1``;
    ``/widgets``, ``/widgets/{id}`` share nothing: ``widgets`` is the resource)."""
    split = [[s for s in path.strip("/").split("/") if s] for path in paths]
    prefix: list[str] = []
    for segments in zip(*split, strict=False):
        if len(set(segments)) != 1 or "{" in segments[0]:
            break
        prefix.append(segments[0])
    while prefix and not all(
        any("{" not in s for s in segments[len(prefix) :]) for segments in split
    ):
        prefix.pop()
    return prefix


def path_group(path: str, prefix: Sequence[str] = ()) -> str | None:
    """The group of an untagged operation: the first literal segment of its path after the
    shared ``prefix`` and any version segment (``v1``, ``2024-01-01``, ``api``)."""
    segments = [s for s in path.strip("/").split("/") if s]
    if segments[: len(prefix)] == list(prefix):
        segments = segments[len(prefix) :]
    for segment in segments:
        if "{" in segment or _VERSION_SEGMENT.fullmatch(segment):
            continue
        return segment
    return None


def fallback_verb(operation_id: str | None, method: str, path: str) -> str:
    """A longer name for when the short one is taken: the whole operationId, or the method
    and the whole path with parameters as ``by-NAME``."""
    if operation_id:
        return kebab(operation_id)
    tokens = [method.lower()]
    for segment in path.strip("/").split("/"):
        if segment.startswith("{") and segment.endswith("}"):
            tokens += ["by", *words(segment[1:-1])]
        elif segment:
            tokens += words(segment)
    return "-".join(tokens)


def option_name(parameter: str) -> str:
    """``--window-days`` for ``windowDays``; names with no word characters keep theirs."""
    return "--" + (kebab(parameter) or parameter)


def metavar(parameter: str) -> str:
    """``PHONE_NUMBER`` for ``phoneNumber``."""
    return "_".join(words(parameter)).upper() or parameter.upper()
