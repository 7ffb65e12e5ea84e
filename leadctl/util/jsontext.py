"""JSON read exactly and written exactly: what is not JSON is refused with its reason.

Python's json module is lenient where a request must not be: it reads ``NaN`` and
``Infinity`` (not JSON; written back they make a body the service cannot parse), lets the
last of two equal keys win silently (``{"a": 1, "a": 2}`` would send ``a`` as 2 without a
word), and fails on deep nesting or a number of thousands of digits with a RecursionError
or a message about ``sys.set_int_max_str_digits``. Here every such case is a
:class:`NotJson` (a ValueError, so callers that catch malformed JSON catch it too) whose
message names the problem in the user's terms.
"""

from __future__ import annotations

import json
import math
import sys
from typing import Any

# Python refuses to convert longer digit strings to int (CVE-2020-10735 protection).
MAX_INTEGER_DIGITS: int = getattr(sys, "get_int_max_str_digits", lambda: 0)()


class NotJson(ValueError):
    """Text that is not exactly one JSON value; ``str()`` says why."""


def _no_constant(name: str) -> Any:
    raise NotJson(f"{name} is not a JSON number (JSON has no NaN or Infinity)")


def _float(text: str) -> float:
    number = float(text)
    if not math.isfinite(number):
        raise NotJson(f"the number {text} is beyond what a double-precision number holds")
    return number


def _integer(text: str) -> int:
    digits = len(text.lstrip("-"))
    if MAX_INTEGER_DIGITS and digits > MAX_INTEGER_DIGITS:
        raise NotJson(f"a number of {digits} digits is longer than {MAX_INTEGER_DIGITS}")
    return int(text)


def _unique_keys(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    found: dict[str, Any] = {}
    for key, value in pairs:
        if key in found:
            raise NotJson(f"the key {key!r} appears twice in one object")
        found[key] = value
    return found


def loads_input(text: str | bytes) -> Any:
    """JSON the user gave (``--data``, ``-F``, ``--params``, ``--input``, batch lines):
    NaN/Infinity, repeated keys, numbers too long to hold and nesting too deep to read
    are :class:`NotJson`; other malformed JSON is json's own ValueError."""
    try:
        return json.loads(
            text,
            parse_constant=_no_constant,
            parse_float=_float,
            parse_int=_integer,
            object_pairs_hook=_unique_keys,
        )
    except RecursionError:
        raise NotJson("it is nested too deeply to read") from None


def loads_service(content: str | bytes) -> Any:
    """JSON a service (or any server) answered: as lenient as json about repeated keys,
    but NaN/Infinity and nesting too deep to read are :class:`NotJson`, and a number too
    long to hold is a ValueError like any other malformed body."""
    try:
        return json.loads(content, parse_constant=_no_constant)
    except RecursionError:
        raise NotJson("it is nested too deeply to read") from None


def dumps_body(value: Any) -> bytes:
    """``value`` as the JSON body of a request, UTF-8. A string holding a lone surrogate
    (``"\\ud800"`` given as JSON) is sent in JSON's escaped spelling, the value as given;
    a float that is not finite is :class:`NotJson`, never sent as ``NaN``."""
    try:
        text = json.dumps(value, ensure_ascii=False, allow_nan=False)
    except ValueError as error:
        reason = "NaN and Infinity are not JSON numbers" if "float" in str(error) else str(error)
        raise NotJson(reason) from None
    except RecursionError:
        raise NotJson("it is nested too deeply to write") from None
    try:
        return text.encode("utf-8")
    except UnicodeEncodeError:
        return json.dumps(value, ensure_ascii=True, allow_nan=False).encode("ascii")
