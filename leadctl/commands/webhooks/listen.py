"""``leadctl webhooks listen``: receive deliveries on this machine, verify them, pass them on."""

from __future__ import annotations

import contextlib
import threading
from dataclasses import dataclass
from typing import TYPE_CHECKING, Annotated, TextIO

import typer

from leadctl.commands._common import HostOption, PortOption
from leadctl.commands._verb import verb_command
from leadctl.commands.webhooks._shared import (
    DEFAULT_TOLERANCE,
    SecretFileOption,
    ToleranceOption,
    secret_for,
    tolerance_seconds,
)
from leadctl.config.request_limits import DEFAULT_TIMEOUT
from leadctl.config.urls import is_loopback_host
from leadctl.errors import UsageError
from leadctl.formats import TABLE
from leadctl.http.client import tls_verification
from leadctl.output import display_zone_of
from leadctl.util.safetext import safe_text
from leadctl.webhooks.forwarding import Forwarder
from leadctl.webhooks.http_server import bind, listening_url
from leadctl.webhooks.receiver import Receiver, Record
from leadctl.webhooks.targets import check_target_url

if TYPE_CHECKING:
    from collections.abc import Callable, Iterator
    from datetime import tzinfo

    import httpx

    from leadctl.context import Context
else:
    # A stand-in that loads httpx the first time it is used: importing stays light.
    from leadctl.http._httpx import httpx

DEFAULT_PORT = 9000
# What the table's lines start with; each delivery's line lines up under it.
TABLE_HEADER = f"{'TIME':<8}  {'WEBHOOK-ID':<36}  {'TYPE':<24}  {'VERIFIED':<28}  FORWARD"

EPILOG = (
    "Examples:\n\n"
    "  leadctl webhooks listen --port 9000 --forward-to http://localhost:3000/hook\n\n"
    "  leadctl webhooks listen --port 0 | jq -c 'select(.verified | not)'\n\n"
    "  leadctl webhooks listen --events lead.created --forward-to http://localhost:3000/hook\n\n"
    "  leadctl webhooks listen --host 0.0.0.0 --allow-remote --secret-file hook.key"
)


@dataclass(frozen=True)
class Options:
    host: HostOption = "127.0.0.1"
    port: PortOption = DEFAULT_PORT
    forward_to: Annotated[
        str | None,
        typer.Option(
            "--forward-to",
            metavar="URL",
            help="POST each verified delivery here, body and headers unchanged, and answer "
            "the sender with its status.",
        ),
    ] = None
    tolerance: ToleranceOption = DEFAULT_TOLERANCE
    allow_remote: Annotated[
        bool,
        typer.Option(
            "--allow-remote", help="Allow a non-loopback --host (deliveries from other machines)."
        ),
    ] = False
    secret_file: SecretFileOption = None
    events: Annotated[
        str | None,
        typer.Option(
            "--events",
            metavar="TYPE,...",
            help="Forward only deliveries of these types (the payload's `type`, as stripe "
            "listen --events); others are verified, answered 204 and shown, not forwarded.",
        ),
    ] = None


def event_types(raw: str | None) -> frozenset[str] | None:
    """``--events a,b`` as a set of types; None when not given."""
    if raw is None:
        return None
    types = frozenset(part.strip() for part in raw.split(",") if part.strip())
    if not types:
        raise UsageError("--events needs at least one type, e.g. --events lead.created")
    return types


def run(opts: Options, ctx: Context, *, stop: threading.Event | None = None) -> None:
    """Serve until Ctrl-C, SIGTERM or ``stop`` is set; then return (exit 0)."""
    if not is_loopback_host(opts.host.strip("[]")) and not opts.allow_remote:
        raise UsageError(
            f"refusing to listen on {opts.host}: it is not a loopback address",
            hint="pass --allow-remote to accept deliveries from other machines",
        )
    tolerance = tolerance_seconds(opts.tolerance)
    events = event_types(opts.events)
    if opts.forward_to is not None:
        check_target_url(
            opts.forward_to,
            what="--forward-to",
            allow_insecure_http=ctx.options.allow_insecure_http,
        )
    secret = secret_for(ctx, opts.secret_file)
    forwarder = _forwarder(ctx, opts.forward_to) if opts.forward_to is not None else None
    receiver = Receiver(
        secret,
        tolerance=tolerance,
        wall_clock=lambda: ctx.clock.now().timestamp(),
        forwarder=forwarder,
        events=events,
    )
    ios = ctx.ios
    server = bind(opts.host, opts.port, receiver, on_record=_line_writer(ctx), on_error=ios.warn)
    stop = stop or threading.Event()
    thread = threading.Thread(target=server.serve_forever, name="leadctl-webhooks-listen")
    try:
        # Before the address is printed: whoever read it may stop us at once.
        with _sigterm_sets(stop):
            thread.start()
            try:
                _announce(ctx, listening_url(server), opts)
                stop.wait()
            except KeyboardInterrupt:
                pass  # Ctrl-C is how a listener is meant to stop: a normal end, exit 0
            finally:
                server.shutdown()
                thread.join()
    finally:
        server.server_close()
        if forwarder is not None:
            forwarder.close()
    ios.info("stopped listening")


@contextlib.contextmanager
def _sigterm_sets(stop: threading.Event) -> Iterator[None]:
    """SIGTERM (a supervisor, `timeout`) stops as Ctrl-C does; only the main thread may
    install a handler, so elsewhere (tests calling run) it is left alone."""
    import signal

    if threading.current_thread() is not threading.main_thread():
        yield
        return
    previous = signal.signal(signal.SIGTERM, lambda _signum, _frame: stop.set())
    try:
        yield
    finally:
        signal.signal(signal.SIGTERM, previous)


def _announce(ctx: Context, url: str, opts: Options) -> None:
    """The address first, on stderr whatever -q says: it is what the operator (or a test
    waiting on it, with --port 0) needs before the first delivery."""

    ios = ctx.ios
    forward_to = opts.forward_to
    target = (
        f", forwarding verified deliveries to {safe_text(forward_to, one_line=True)}"
        if forward_to
        else ""
    )
    ios.stderr.write(f"listening on {url}{target}\n")
    ios.stderr.flush()
    if opts.forward_to is None:
        ios.info("no --forward-to: verified deliveries are answered 204 and shown only")
    ios.info("Ctrl-C to stop")
    if ctx.output_format == TABLE:
        ios.stdout.write(TABLE_HEADER + "\n")
        ios.stdout.flush()


def _forwarder(ctx: Context, url: str) -> Forwarder:
    client = httpx.Client(
        timeout=ctx.options.timeout or DEFAULT_TIMEOUT,
        verify=tls_verification(None, ctx.env) if url.lower().startswith("https:") else True,
        follow_redirects=False,
        transport=ctx.transport,
    )
    return Forwarder(url, client=client)


def _line_writer(ctx: Context) -> Callable[[Record], None]:
    """One line per delivery, written whole under a lock (deliveries arrive on many threads):
    a table line on a terminal, NDJSON otherwise."""
    import json

    stdout = ctx.ios.stdout
    lock = threading.Lock()
    as_table = ctx.output_format == TABLE
    zone = display_zone_of(ctx) if as_table else None

    def write(record: Record) -> None:
        line = table_line(record, zone) if as_table else json.dumps(record.to_json())
        with lock:
            _write_line(stdout, line)

    return write


def _write_line(stdout: TextIO, line: str) -> None:
    try:
        stdout.write(line + "\n")
        stdout.flush()
    except (BrokenPipeError, ValueError):
        pass  # the reader went away; deliveries are still answered


def table_line(record: Record, zone: tzinfo | None) -> str:
    from datetime import datetime

    time = datetime.fromtimestamp(record.received_at, zone).strftime("%H:%M:%S")
    webhook_id = safe_text(record.webhook_id, one_line=True) if record.webhook_id else "-"
    kind = safe_text(record.event_type, one_line=True) if record.event_type else "-"
    verified = "yes" if record.verified else f"no: {record.reason}"
    return f"{time:<8}  {webhook_id:<36}  {kind:<24}  {verified:<28}  {_forward_text(record)}"


def _forward_text(record: Record) -> str:
    if not record.verified:
        return f"not forwarded, answered {record.status}"
    if record.duplicate:
        return f"duplicate, not forwarded again, answered {record.status}"
    if record.forwarded:
        return f"forwarded: {record.forward_status}"
    if record.reason is not None:
        return f"{record.reason}, answered {record.status}"
    return f"answered {record.status} (no --forward-to)"


HELP = """Receive webhook deliveries, verify each, and forward the genuine ones to your app.

    Prints the address it listens on (stderr) first, then one line per delivery: on a
    terminal a table line (time, webhook-id, type, verified, forward status), otherwise one
    NDJSON object ({time, webhookId, type, verified, reason, status, forwarded,
    forwardStatus, duplicate}). The sender gets: 401 for a bad signature, 400 for a missing
    or malformed header or a timestamp outside --tolerance (neither is forwarded); for a
    verified delivery the --forward-to target's status (its body too), 502 when the target
    cannot be reached and 504 when it does not answer in time (the sender retries, and the
    retry is forwarded), 204 without --forward-to. A webhook-id accepted before (a retry of
    a delivery that already got a 2xx) is answered 204 and not forwarded again; the last
    10,000 ids are remembered. With --events, a verified delivery of another type is
    answered 204 and not forwarded (its line says "not in --events"). Only POST with a
    Content-Length is accepted (411 otherwise, 413 over 16 MiB).

    Ctrl-C or SIGTERM stops it cleanly with exit 0: stopping is how a listener ends, not a
    failure. Listens on loopback only unless --allow-remote. The secret (whsec_...) comes
    from --secret-file, LEADCTL_WEBHOOK_SECRET, or the profile's OS keyring entry (`leadctl
    webhooks secret set`).

    The service publishes no catalog of its events: a delivery's type and body are passed
    on as received, whatever they are. The sandbox (`sandbox serve --webhook-url URL`)
    sends lead.created and automation_run.status_changed as {"type", "timestamp", "data"}
    (Standard Webhooks' recommended payload), an assumption, not the service's word.
    """

command = verb_command(Options, run, help=HELP)
