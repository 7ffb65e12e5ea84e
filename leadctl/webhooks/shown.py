"""Text a sender chose (a webhook-id, a header, an event type), made safe for a terminal.

Stands in for the shared safe-text function of iostreams (issue 22) until that lands; it
then replaces this module. Every character that is not printable (C0/C1 controls, ESC,
DEL, bidirectional overrides, zero-width characters: Unicode's Cc, Cf, Zl, Zp, Co, Cn) is
shown as its escape (``\\x1b``, ``\\u202e``), so a delivery cannot move the cursor, retitle
the window, write the clipboard or reorder what the operator reads.
"""

from __future__ import annotations


def shown(text: str) -> str:
    return "".join(ch if ch == " " or ch.isprintable() else _escape(ch) for ch in text)


def _escape(ch: str) -> str:
    code = ord(ch)
    if code <= 0xFF:
        return f"\\x{code:02x}"
    if code <= 0xFFFF:
        return f"\\u{code:04x}"
    return f"\\U{code:08x}"
