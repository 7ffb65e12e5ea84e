"""HTTPie's request items after ``leadctl api [METHOD] PATH``, and where the method and path
are among the words typed.

    name=value    a string field of the JSON body (as -f)
    count:=3      a field whose value is JSON (true, 3, [1, 2], {"a": 1})
    X-Trace:abc   a header (as -H 'X-Trace: abc')
    state==TX     a query parameter, whatever the method

An item's separator is the first ``=`` or ``:`` in it, read as the longest of ``==``,
``:=``, ``=`` and ``:`` that starts there (HTTPie's rule), so ``url:=\"http://x\"`` is a
JSON field and ``note=a:b`` a string. A word that is no item, after PATH, or an item
before it, is said to be misplaced: it is never taken for a method.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from leadctl.errors import UsageError

# Longest first: at one position, `==` wins over `=` and `:=` over `:`.
SEPARATORS = ("==", ":=", "=", ":")
USAGE = "leadctl api [METHOD] PATH [name=value | name:=json | Header:value | name==query ...]"


@dataclass
class RequestItems:
    raw_fields: list[str] = field(default_factory=list)  # KEY=VALUE, as -f takes them
    json_fields: list[tuple[str, str]] = field(default_factory=list)
    headers: list[str] = field(default_factory=list)  # 'Name: value', as -H takes them
    query: list[tuple[str, str]] = field(default_factory=list)

    @property
    def has_body(self) -> bool:
        return bool(self.raw_fields or self.json_fields)


def split_item(word: str) -> tuple[str, str, str] | None:
    """(key, separator, value) of a request item, or None when ``word`` is none."""
    for index, char in enumerate(word):
        if char in "=:":
            separator = next(sep for sep in SEPARATORS if word.startswith(sep, index))
            key = word[:index]
            return (key, separator, word[index + len(separator) :]) if key else None
    return None


def is_item(word: str) -> bool:
    return not word.startswith("/") and split_item(word) is not None


def read_items(words: list[str]) -> RequestItems:
    items = RequestItems()
    for word in words:
        found = split_item(word) if not word.startswith("/") else None
        if found is None:
            raise UsageError(
                f"{word!r} after PATH is no request item",
                hint=f"the method goes before PATH (or -X METHOD); items are: {USAGE}",
            )
        key, separator, value = found
        if separator == "==":
            items.query.append((key, value))
        elif separator == ":=":
            items.json_fields.append((key, value))
        elif separator == "=":
            items.raw_fields.append(f"{key}={value}")
        else:
            items.headers.append(f"{key}: {value}")
    return items


def method_path_items(
    words: list[str], *, method_flag: str | None, methods: tuple[str, ...]
) -> tuple[str | None, str, RequestItems]:
    """``[METHOD] PATH [ITEM...]``: the method named (by the first word or -X), the path and
    the items after it."""
    if not words:
        raise UsageError("missing PATH", hint="for example: leadctl api /lead-statuses")
    method: str | None = None
    rest = list(words)
    first = rest[0]
    if first.upper() in methods and not first.startswith("/"):
        method = rest.pop(0)
    elif is_item(first):
        raise UsageError(
            f"request item {first!r} comes before PATH",
            hint=f"items follow the path: {USAGE}",
        )
    elif len(rest) > 1 and not first.startswith("/") and rest[1].startswith("/"):
        raise UsageError(f"unknown method {first!r}", hint=f"use one of {', '.join(methods)}")
    if method is not None and method_flag is not None and method.upper() != method_flag.upper():
        raise UsageError(f"two methods: {method} and -X {method_flag}: name one")
    if not rest:
        raise UsageError("missing PATH", hint="for example: leadctl api /lead-statuses")
    path = rest.pop(0)
    if is_item(path):
        raise UsageError(f"request item {path!r} comes before PATH", hint=f"usage: {USAGE}")
    return method or method_flag, path, read_items(rest)
