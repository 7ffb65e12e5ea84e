"""Command names from a contract: groups from tags, verbs from operationIds, flags from
parameter names.

``PhoneNumbers`` -> ``phone-numbers``; ``listTags`` in group ``tags`` -> ``list``;
``sendSms`` in ``sms`` -> ``send``; ``getPhoneNumberStatus`` in ``phone-numbers`` ->
``get-status``; an operation without an id is named by its method and literal path
segments (``POST /sms/{id}/cancel`` in ``sms`` -> ``post-cancel``).
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


def verb_words(
    operation_id: str | None, method: str, path: str, group_names: Sequence[Sequence[str]]
) -> list[str]:
    """The verb's words: the operationId's (or the method and literal path segments'),
    without the first of ``group_names`` found in them."""
    if operation_id:
        tokens = words(operation_id)
    else:
        tokens = [method.lower()]
        for segment in path.strip("/").split("/"):
            if segment and not segment.startswith("{"):
                tokens += words(segment)
    for group in group_names:
        stripped = strip_words(tokens, group)
        if stripped != tokens:
            return stripped
    return tokens


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
