"""What the hostile suite sends and what it checks: text a terminal would act on.

``HOSTILE`` holds one of each kind of character a terminal acts on instead of showing:
the escape sequences that clear the screen (CSI 2J), write the clipboard (OSC 52), plant a
link (OSC 8) or set the window title; BEL, a bare CR that rewrites the line, DEL, a C1
control (U+009B is CSI in one character), a right-to-left override, an isolate and
zero-width characters. :func:`acted_on` is the oracle: Unicode's own categories (controls,
format characters, separators, surrogates), not leadctl's table.
"""

from __future__ import annotations

import json
import re
import unicodedata
from pathlib import Path
from typing import Any

from tests.support.hostile_server import json_response

CLEAR_SCREEN = "\x1b[2J"
CLIPBOARD = "\x1b]52;c;cm0gLXJmIH4=\x07"  # OSC 52: puts "rm -rf ~" on the clipboard
LINK = "\x1b]8;;https://evil.example/\x1b\\docs\x1b]8;;\x1b\\"  # OSC 8: text != target
TITLE = "\x1b]0;owned\x07"
HOSTILE = (
    f"Ada{CLEAR_SCREEN}{CLIPBOARD}{LINK}{TITLE}\rFAKE\x7f\x9b31m"
    "\u202etxt.exe\u2066x\u2069pay\u200bpal\ufeff\u200d"
)
# What a person sees of HOSTILE's start once it is made safe.
SHOWN = "Ada\\x1b[2J\\x1b]52;c;cm0gLXJmIH4=\\x07"

# leadctl's own styling on a terminal (SGR: bold, dim, colors).
_SGR = re.compile(r"\x1b\[[0-9;]*m")
# leadctl's own progress drawing: hide/show the cursor, erase the line (after a CR, or
# going up one line first). HOSTILE's bare CR is never followed by an erase.
_CURSOR = re.compile(r"\x1b\[\?25[lh]")
_ERASE = re.compile(r"\r?(?:\x1b\[1A)?\x1b\[2?K")
_LAYOUT = "\n\t"


def screen_lines(text: str) -> list[str]:
    """The lines a person sees once leadctl's progress drawing is done: on each line, what
    was written after its last erase."""
    return [_ERASE.split(_CURSOR.sub("", line))[-1] for line in text.split("\n")]


def acted_on(text: str, *, own_styling: bool = False, own_progress: bool = False) -> list[str]:
    """The characters of ``text`` that a terminal would act on (newline and tab are
    layout); leadctl's own SGR styling and progress drawing are allowed when asked."""
    if own_styling:
        text = _SGR.sub("", text)
    if own_progress:
        text = _ERASE.sub("", _CURSOR.sub("", text))
    return [
        ch
        for ch in text
        if ch not in _LAYOUT and unicodedata.category(ch) in ("Cc", "Cf", "Zl", "Zp", "Cs")
    ]


def problem(status: int = 400, text: str = HOSTILE) -> dict[str, Any]:
    """A problem+json document with ``text`` in every field a person reads."""
    return {
        "type": "https://tools.ietf.org/html/rfc9110#section-15.5.1",
        "title": f"Bad {text}",
        "status": status,
        "detail": f"detail {text}",
        "errors": {f"name{text}": [f"message {text}"]},
        "traceId": f"trace-{text}",
    }


def refused(status: int = 400) -> Any:
    """The service's refusal of one row: a problem document quoting HOSTILE."""
    return json_response(problem(status), status, content_type="application/problem+json")


def ndjson_rows(path: Path, count: int = 3) -> Path:
    """``count`` leads as NDJSON at ``path``, for `leads import` and `batch` to send."""
    path.write_text(
        "".join(json.dumps({"email": f"a{n}@example.com"}) + "\n" for n in range(count))
    )
    return path
