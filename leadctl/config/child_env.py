"""The environment a child process (the pager, a browser) gets: without credentials.

A pager or browser has no use for leadctl's credential, and a child can pass its
environment on (``less`` runs ``LESSOPEN`` filters and shell escapes, a browser its
helpers). So leadctl's credential variables, and any variable whose name says it holds a
secret (by the one rule, :func:`leadctl.util.secret_fields.is_secret`), stay behind.
"""

from __future__ import annotations

import contextlib
import os
from collections.abc import Iterator, Mapping, MutableMapping

from leadctl.util.secret_fields import is_secret

CREDENTIAL_VARIABLES = frozenset({"LEADCTL_TOKEN", "LEADCTL_TOKEN_FILE", "LEADCTL_WEBHOOK_SECRET"})


def is_credential_variable(name: str) -> bool:
    return name in CREDENTIAL_VARIABLES or is_secret(name)


def child_environment(env: Mapping[str, str]) -> dict[str, str]:
    """``env`` without credential variables."""
    return {name: value for name, value in env.items() if not is_credential_variable(name)}


@contextlib.contextmanager
def credentials_hidden(environ: MutableMapping[str, str] = os.environ) -> Iterator[None]:
    """For a library that starts children from ``os.environ`` itself (webbrowser): the
    credential variables are out of it while the block runs, and back after."""
    hidden = {name: environ[name] for name in list(environ) if is_credential_variable(name)}
    for name in hidden:
        del environ[name]
    try:
        yield
    finally:
        environ.update(hidden)
