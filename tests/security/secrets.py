"""Looking for a secret in every form it could be printed in.

``leaks(text, secrets)`` names the forms found (never the secret itself, so a failing
assertion cannot print it): raw; base64 standard and URL-safe, with and without padding,
at each of the three alignments a value can have inside a longer base64 text; the same for
``Bearer <secret>`` and ``<secret>`` as a Basic-auth style ``user:secret``; and
percent-encoded (``quote`` and ``quote_plus``, upper and lower case hex).
"""

from __future__ import annotations

import base64
import re
from collections.abc import Iterable
from pathlib import Path
from urllib.parse import quote, quote_plus


def _base64_cores(data: bytes) -> set[str]:
    """Substrings that appear in the base64 (either alphabet, padded or not) of any text
    holding ``data``: for each alignment, the characters that depend on ``data`` alone."""
    cores = set()
    for shift in range(3):
        encoded = base64.b64encode(b"\0" * shift + data).decode("ascii")
        # Leading characters mix in the bytes before; trailing ones the bytes after.
        start = -(-shift * 4 // 3)
        end = len(encoded) - 4
        core = encoded[start:end]
        if len(core) >= 8:
            cores.add(core)
            cores.add(core.translate(str.maketrans("+/", "-_")))
    whole = base64.b64encode(data).decode("ascii")
    cores |= {whole, whole.rstrip("="), base64.urlsafe_b64encode(data).decode("ascii")}
    cores.add(base64.urlsafe_b64encode(data).decode("ascii").rstrip("="))
    return cores


def forms(secret: str) -> dict[str, set[str]]:
    """Every printed form of ``secret``, by a name for it."""
    raw = secret.encode("utf-8")
    found = {
        "raw": {secret},
        "base64": _base64_cores(raw),
        "base64 of 'Bearer ...'": _base64_cores(b"Bearer " + raw),
        "base64 of 'user:...'": _base64_cores(b":" + raw),
        "percent-encoded": {quote(secret, safe=""), quote_plus(secret)},
    }
    found["percent-encoded"] |= {
        re.sub(r"%[0-9A-F]{2}", lambda m: m.group(0).lower(), text)
        for text in found["percent-encoded"]
    }
    return found


def leaks(text: str, secrets: Iterable[str]) -> list[str]:
    """The forms of the secrets found in ``text``, as "secret #N: form" (no values)."""
    found = []
    for index, secret in enumerate(secrets, 1):
        for name, variants in forms(secret).items():
            if any(variant and variant in text for variant in variants):
                found.append(f"secret #{index}: {name}")
    return found


def scan_tree(root: Path, secrets: Iterable[str], *, skip: Iterable[str] = ()) -> list[str]:
    """``leaks`` for every file under ``root``, except paths under ``skip``."""
    base = root
    skipped = [base / name for name in skip]
    values = list(secrets)
    found: list[str] = []
    if not base.exists():
        return found
    for path in sorted(base.rglob("*")):
        if not path.is_file() or any(path.is_relative_to(s) for s in skipped):
            continue
        text = path.read_bytes().decode("utf-8", "replace")
        found += [f"{path.relative_to(base)}: {leak}" for leak in leaks(text, values)]
    return found
