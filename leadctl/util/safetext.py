"""Text from outside (a service, a contract, an authorization server) made safe for a terminal.

A terminal acts on some characters instead of showing them: ESC starts a sequence that can
clear the screen, retitle the window, write the clipboard (OSC 52) or plant a link whose
target is not its text (OSC 8); CR and backspace overwrite what was printed; C1 controls
(U+0080-U+009F) are ESC sequences in one byte for some terminals; bidirectional overrides
and isolates reorder the line (U+202E makes ``exe.txt`` read ``txt.exe``); zero-width and
other format characters hide text or tell two different names apart invisibly. Every such
character is shown instead as its escape (``\\x1b``, ``\\u202e``), so a person sees that it
is there and nothing on the terminal changes.

:func:`safe_text` is the one function for text; :func:`safe_json` does the same for JSON
text, with JSON's own escape (``\\u001b``), so that the output still parses to the same
value. Standard library only, and cheap when there is nothing to do (most text).
"""

from __future__ import annotations

import functools
import re
from typing import Any

# Every control (Cc), format (Cf), line/paragraph separator (Zl, Zp) and surrogate (Cs)
# code point of Unicode 14 (Python 3.11's unicodedata), Egyptian format controls of
# Unicode 15 included; tab and newline are layout, handled by the caller's choice.
# tests/unit/test_safetext.py checks this class against the running Python's unicodedata.
_UNSAFE_CLASS = (
    "\x00-\x08\x0b-\x1f\x7f-\x9f\xad"
    "\u0600-\u0605\u061c\u06dd\u070f\u0890\u0891\u08e2\u180e"
    "\u200b-\u200f\u2028-\u202e\u2060-\u2064\u2066-\u206f"
    "\ud800-\udfff\ufeff\ufff9-\ufffb"
    "\U000110bd\U000110cd\U00013430-\U0001343f\U0001bca0-\U0001bca3"
    "\U0001d173-\U0001d17a\U000e0001\U000e0020-\U000e007f"
)


@functools.cache
def _unsafe() -> re.Pattern[str]:
    # Compiled on first need (about 1.5 ms): most runs print nothing that needs it.
    return re.compile(f"[{_UNSAFE_CLASS}]")


def _visible(match: re.Match[str]) -> str:
    code = ord(match.group())
    if code == 0x0D:
        return "\\r"  # as Python and most tools spell it
    if code < 0x100:
        return f"\\x{code:02x}"
    if code < 0x10000:
        return f"\\u{code:04x}"
    return f"\\U{code:08x}"


def _json_escape(match: re.Match[str]) -> str:
    code = ord(match.group())
    if code < 0x10000:
        return f"\\u{code:04x}"
    # Beyond the BMP JSON spells a character as its UTF-16 surrogate pair.
    code -= 0x10000
    return f"\\u{0xD800 + (code >> 10):04x}\\u{0xDC00 + (code & 0x3FF):04x}"


def safe_text(text: str, *, one_line: bool = False) -> str:
    """``text`` with every control, escape, bidirectional and zero-width character shown
    as its escape (``\\x1b``, ``\\u202e``).

    Newlines and tabs are layout: kept (a CRLF becomes a newline), or with ``one_line``
    each turned into a space, for a table cell or a line that must stay one. A CR on its
    own is shown (``\\r``): it would move the cursor back over what was printed.
    """
    if text.isprintable():  # no control, format or separator character: nothing to do
        return text
    if not one_line and text.replace("\n", "").replace("\t", "").isprintable():
        return text  # layout only (help, multi-line messages): no pattern to compile
    if one_line:
        text = text.replace("\r\n", " ").replace("\n", " ").replace("\t", " ")
    elif "\r\n" in text:
        text = text.replace("\r\n", "\n")
    return _unsafe().sub(_visible, text)


def safe_json(encoded: str) -> str:
    """JSON text safe for a terminal and still the same JSON value.

    The encoder already escapes C0 controls inside strings; DEL, C1, bidirectional and
    zero-width characters it leaves raw. They can only occur inside strings (JSON's own
    syntax is ASCII), where ``\\uXXXX`` means the same character.
    """
    return _unsafe().sub(_json_escape, encoded)


def safe_data(value: Any) -> Any:
    """A JSON value with every key and string as :func:`safe_text` shows it on one line:
    for a drawing that prints the service's names as well as its values (a list's field
    path as a title, a series' name), so no part of it reaches the terminal raw."""
    if isinstance(value, str):
        return safe_text(value, one_line=True)
    if isinstance(value, dict):
        return {safe_text(str(key), one_line=True): safe_data(item) for key, item in value.items()}
    if isinstance(value, list):
        return [safe_data(item) for item in value]
    return value
