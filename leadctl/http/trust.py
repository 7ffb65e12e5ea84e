"""The roots a service's certificate is checked against (the profile's ca_bundle,
SSL_CERT_FILE, else httpx's default), each loaded once a process."""

from __future__ import annotations

import functools
import os
import ssl
from collections.abc import Mapping
from typing import Any

from leadctl.errors import UsageError


def tls_verification(ca_bundle: Any, env: Mapping[str, str]) -> ssl.SSLContext | bool:
    """The roots the service's certificate is checked against: the profile's ca_bundle,
    else SSL_CERT_FILE, else httpx's default (SSL_CERT_DIR, then certifi).

    Loaded here so that a bundle that is missing or not PEM is a usage error naming it,
    before anything is sent, rather than a crash inside httpx.
    """
    if ca_bundle:
        return _trust_context(
            str(ca_bundle),
            f"the profile's ca_bundle {ca_bundle}",
            hint="fix it with `leadctl profile set ca_bundle PATH` (a PEM file)",
        )
    cert_file = env.get("SSL_CERT_FILE")
    if cert_file:
        return _trust_context(
            cert_file,
            f"SSL_CERT_FILE={cert_file}",
            hint="point SSL_CERT_FILE at a PEM file of CA certificates, or unset it",
        )
    return _default_trust(os.environ.get("SSL_CERT_FILE"), os.environ.get("SSL_CERT_DIR"))


@functools.cache
def _default_trust(_cert_file: str | None, _cert_dir: str | None) -> ssl.SSLContext:
    """httpx's default roots, built as httpx 0.28's ``create_ssl_context()`` builds them
    (SSL_CERT_FILE, else SSL_CERT_DIR, else certifi's bundle) without loading httpx: the
    one-shot transport uses them too. Loaded once a process for the environment that chose
    them: loading them costs about 30 ms, and one process may build several clients (a
    refresh, a download, a redirect)."""
    if _cert_file:
        return ssl.create_default_context(cafile=_cert_file)
    if _cert_dir:
        return ssl.create_default_context(capath=_cert_dir)
    import certifi

    return ssl.create_default_context(cafile=certifi.where())


def ssl_context(verify: ssl.SSLContext | bool) -> ssl.SSLContext:
    """The context httpx makes of ``verify``: itself, the default roots for True, no
    verification at all for False."""
    if isinstance(verify, ssl.SSLContext):
        return verify
    if verify:
        return _default_trust(os.environ.get("SSL_CERT_FILE"), os.environ.get("SSL_CERT_DIR"))
    unverified = ssl.SSLContext(ssl.PROTOCOL_TLS_CLIENT)
    unverified.check_hostname = False
    unverified.verify_mode = ssl.CERT_NONE
    return unverified


def _trust_context(cafile: str, what: str, *, hint: str) -> ssl.SSLContext:
    try:
        return _bundle_context(cafile, _file_identity(cafile))
    except OSError as error:
        # ssl.SSLError is an OSError: a file that holds no PEM certificate lands here too.
        reason = (
            "it holds no PEM certificate"
            if isinstance(error, ssl.SSLError)
            else error.strerror or str(error)
        )
        raise UsageError(f"cannot use {what}: {reason}", hint=hint) from None


def _file_identity(path: str) -> tuple[int, int, int, int] | None:
    """Which file ``path`` is now: a bundle replaced or edited in place is loaded again."""
    try:
        found = os.stat(path)
    except OSError:
        return None  # loading it reports why
    return found.st_dev, found.st_ino, found.st_mtime_ns, found.st_size


@functools.cache
def _bundle_context(cafile: str, _identity: tuple[int, int, int, int] | None) -> ssl.SSLContext:
    """A bundle's roots, loaded once a process for one version of the file, as
    ``_default_trust`` does for httpx's: SSL_CERT_FILE is commonly set, parsing it costs
    about 30 ms, and one process may build several clients. A bundle that fails to load
    raises, so it is never kept."""
    return ssl.create_default_context(cafile=cafile)
