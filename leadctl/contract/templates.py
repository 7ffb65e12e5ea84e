"""When two operations are one: METHOD and path template, parameter names aside.

Curated verbs, the compiler, the validator and the client all match operations this way, so
it sits below all of them.
"""

from __future__ import annotations

import re

PATH_PARAM = re.compile(r"\{[^}/]*\}")


def template_key(method: str, path: str) -> tuple[str, str]:
    """METHOD and path template with parameter names dropped and literal segments in lower
    case: ``/sources/{sourceId}`` and ``/Sources/{id}`` are one template."""
    bare = path.split("?", 1)[0].rstrip("/") or "/"
    return method.upper(), PATH_PARAM.sub("{}", bare).lower()
