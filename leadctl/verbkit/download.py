"""A read whose answer is bytes, not a resource: follow its redirect and write what it sends.

Export downloads answer 302 with a ``Location`` on a storage host and a time-limited
signature in its query. leadctl follows up to MAX_REDIRECTS hops (301, 302, 303, 307,
308), sending the profile's credential only to the service's own origin (scheme, host and
port of the base URL): never to the storage host, which has no business with it. The
bytes stream to ``--output-file PATH`` (a temporary file beside it, renamed into place
once complete: an interrupted download leaves nothing that looks finished) or to stdout
when stdout is not a terminal. A terminal gets text, made safe; binary bytes there are
refused (exit 2) before any is written, as curl does. Exit 0 only when every byte was
written; a download that breaks off is exit 8.

The query of a followed URL (its signature) never reaches ``--debug`` output or errors.
"""

from __future__ import annotations

import contextlib
import itertools
import os
import uuid
from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING, Protocol, TextIO

from leadctl.config.urls import is_loopback_host
from leadctl.errors import BadResponse, ServiceFailure, UsageError
from leadctl.http.client import problem_from_response, tls_verification
from leadctl.iostreams import safe_text

if TYPE_CHECKING:
    import ssl

    import httpx

    from leadctl.contract.operations import Operation
    from leadctl.verbkit.invocation import RequestInvocation
else:
    # A stand-in that loads httpx the first time it is used: importing stays light.
    from leadctl.http._httpx import httpx
REDIRECT_STATUSES = frozenset({301, 302, 303, 307, 308})
MAX_REDIRECTS = 10
CHUNK_BYTES = 64 * 1024
TEXT_MEDIA_SUFFIXES = ("json", "xml", "csv", "yaml")
TO_FILE_HINT = "write it to a file with --output-file PATH, or redirect stdout: > FILE"


class Sink(Protocol):
    def write(self, data: bytes, /) -> int: ...

    def flush(self) -> None: ...


def is_redirect(response: httpx.Response) -> bool:
    return response.status_code in REDIRECT_STATUSES


def deliver(
    ctx: RequestInvocation, op: Operation, response: httpx.Response, *, output_file: str | None
) -> None:
    """Write the bytes ``response`` stands for: its own body, or, for a read's redirect,
    the body at the end of it."""
    if not is_redirect(response) or op.method != "GET":
        body = response.content
        _write(ctx, iter([body]), _media(response), output_file, declared=len(body))
        return
    with httpx.Client(
        timeout=ctx.settings.timeout,
        follow_redirects=False,
        transport=ctx.transport,
        verify=_verify(ctx),
        headers={"User-Agent": response.request.headers.get("User-Agent", "leadctl")},
    ) as http:
        _follow(ctx, op, http, response, output_file)


def _follow(
    ctx: RequestInvocation,
    op: Operation,
    http: httpx.Client,
    response: httpx.Response,
    output_file: str | None,
) -> None:
    origin = _origin(httpx.URL(ctx.base_url()))
    for hop in range(1, MAX_REDIRECTS + 1):
        target = _location(ctx, response)
        same_origin = _origin(target) == origin
        headers = ctx.client().credential_headers(op) if same_origin else []
        _trace(
            ctx,
            f"> GET {_shown(target)} (redirect {hop}; credential "
            f"{'sent' if same_origin else 'not sent: another origin'})",
        )
        try:
            with http.stream("GET", target, headers=headers) as response:
                _trace(ctx, f"< {response.status_code} {response.reason_phrase}")
                if is_redirect(response):
                    continue
                if response.status_code >= 400:
                    response.read()

                    raise problem_from_response(
                        response, hint=f"the download URL ({_shown(target)}) refused it"
                    )
                declared = response.headers.get("Content-Length", "")
                if response.headers.get("Content-Encoding", "identity") != "identity":
                    declared = ""  # the length of the compressed bytes, not of the file
                _write(
                    ctx,
                    response.iter_bytes(CHUNK_BYTES),
                    _media(response),
                    output_file,
                    declared=int(declared) if declared.isdigit() else None,
                )
                return
        except httpx.TransportError as error:
            raise ServiceFailure(
                f"the download from {_shown(target)} failed: {type(error).__name__}",
                hint="run the command again; nothing complete was written",
            ) from None
    raise BadResponse(f"more than {MAX_REDIRECTS} redirects: the download was not found")


def _location(ctx: RequestInvocation, response: httpx.Response) -> httpx.URL:
    location = response.headers.get("Location")
    if not location:
        raise BadResponse(f"the service answered {response.status_code} without a Location")
    try:
        target = response.url.join(location)
    except httpx.InvalidURL:
        raise BadResponse("the service redirected to a URL that is not valid") from None
    if target.scheme not in ("http", "https"):
        raise BadResponse(f"the service redirected to a {target.scheme}: URL, not http(s)")
    plain = target.scheme == "http" and not is_loopback_host(target.host)
    if plain and not ctx.options.allow_insecure_http:
        raise UsageError(
            f"refusing to follow a redirect to plain http://{target.host}",
            hint="pass --allow-insecure-http if the download may cross the network unencrypted",
        )
    return target


def _origin(url: httpx.URL) -> tuple[str, str, int | None]:
    default = {"http": 80, "https": 443}.get(url.scheme)
    return url.scheme, url.host, url.port or default


def _shown(url: httpx.URL) -> str:
    """A followed URL without its query, where a download's signature travels."""

    shown = str(url.copy_with(query=None, fragment=None))
    return safe_text(shown + ("?…" if url.query else ""), one_line=True)


def _verify(ctx: RequestInvocation) -> ssl.SSLContext | bool:

    return tls_verification(ctx.settings.get("ca_bundle"), ctx.env)


def _trace(ctx: RequestInvocation, line: str) -> None:
    if ctx.options.debug:
        ctx.ios.stderr.write(line + "\n")


def _media(response: httpx.Response) -> str:
    media: str = response.headers.get("Content-Type", "")
    return media.split(";")[0].strip().lower()


# -- writing ---------------------------------------------------------------------------


def _write(
    ctx: RequestInvocation,
    chunks: Iterator[bytes],
    media: str,
    output_file: str | None,
    *,
    declared: int | None,
) -> None:
    first = next((chunk for chunk in chunks if chunk), b"")
    if output_file is not None:
        written = _to_file(Path(output_file).expanduser(), first, chunks, declared)
        ctx.ios.info(f"wrote {written} bytes to {output_file}")
        return
    if ctx.ios.stdout_is_tty:
        if not _is_text(media, first):
            raise UsageError(
                f"the answer is binary ({media or 'no content type'}): not written to the terminal",
                hint=TO_FILE_HINT,
            )
        _text_to_terminal(ctx, first, chunks, declared)
        return
    _check_length(_to_stream(_binary_stdout(ctx), first, chunks), declared)


def _is_text(media: str, first: bytes) -> bool:
    if b"\x00" in first:
        return False
    if media.startswith("text/") or media.endswith(TEXT_MEDIA_SUFFIXES):
        return True
    if media:
        return False
    try:
        first.decode("utf-8")
    except UnicodeDecodeError:
        return False
    return True


def _to_file(path: Path, first: bytes, chunks: Iterator[bytes], declared: int | None) -> int:
    # Created as any file the user makes (the umask decides), renamed over PATH once whole.
    temporary = path.parent / f".{path.name}.{uuid.uuid4().hex[:8]}.part"
    try:
        fd = os.open(temporary, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o666)
    except OSError as error:
        raise UsageError(
            f"--output-file {path}: cannot write there: {error.strerror or error}; "
            "nothing was downloaded"
        ) from None
    try:
        with os.fdopen(fd, "wb") as handle:
            written = _check_length(_to_stream(handle, first, chunks), declared)
            os.fsync(handle.fileno())
        os.replace(temporary, path)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(temporary)
        raise
    return written


def _to_stream(stream: Sink, first: bytes, chunks: Iterator[bytes]) -> int:
    stream.write(first)
    written = len(first)
    for chunk in chunks:
        stream.write(chunk)
        written += len(chunk)
    stream.flush()
    return written


def _check_length(written: int, declared: int | None) -> int:
    if declared is not None and written != declared:
        raise ServiceFailure(
            f"the download broke off: {written} of {declared} bytes arrived",
            hint="run the command again",
        )
    return written


def _binary_stdout(ctx: RequestInvocation) -> Sink:
    stdout = ctx.ios.stdout
    stdout.flush()
    buffer: Sink | None = getattr(stdout, "buffer", None)
    if buffer is not None:
        return buffer
    return _TextAsBinary(stdout)  # an in-memory stream (tests): bytes as Latin-1 text


def _text_to_terminal(
    ctx: RequestInvocation, first: bytes, chunks: Iterator[bytes], declared: int | None
) -> None:
    import codecs

    decoder = codecs.getincrementaldecoder("utf-8")("replace")
    written = 0
    shown: list[str] = []
    for chunk in itertools.chain([first], chunks):
        written += len(chunk)
        shown.append(safe_text(decoder.decode(chunk)))
        ctx.ios.stdout.write(shown[-1])
        del shown[:-1]
    shown.append(safe_text(decoder.decode(b"", final=True)))
    ctx.ios.stdout.write(shown[-1])
    tail = "".join(shown)
    if tail and not tail.endswith("\n"):
        ctx.ios.stdout.write("\n")  # the shell's prompt starts on a line of its own
    ctx.ios.stdout.flush()
    _check_length(written, declared)


class _TextAsBinary:
    """A text stream taking bytes, each byte one Latin-1 character (nothing is lost)."""

    def __init__(self, stream: TextIO) -> None:
        self._stream = stream

    def write(self, data: bytes, /) -> int:
        self._stream.write(data.decode("latin-1"))
        return len(data)

    def flush(self) -> None:
        self._stream.flush()
