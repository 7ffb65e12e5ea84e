"""``leadctl sandbox serve`` and ``reset``: the work behind the two commands."""

from __future__ import annotations

import contextlib
import json
import signal
import threading
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from leadctl_sandbox.console import Console
from leadctl_sandbox.db import DB_FILE
from leadctl_sandbox.errors import SandboxUsageError
from leadctl_sandbox.lock import holding
from leadctl_sandbox.ratelimit import RateLimit, parse_rate_limit
from leadctl_sandbox.server import SandboxServer, is_loopback
from leadctl_sandbox.settings import DEFAULT_INTAKE_DELAY, SandboxSettings
from leadctl_sandbox.state import STATE_FILES, SandboxState, default_state_dir, open_state

if TYPE_CHECKING:
    from leadctl_sandbox.webhooks import WebhookSender

# --leads at most: ten million seed in minutes and take a few GB of memory.
MAX_BULK_LEADS = 10_000_000


@dataclass(frozen=True)
class ServeOptions:
    host: str = "127.0.0.1"
    port: int = 8765
    data_dir: Path | None = None
    memory: bool = False
    # "N" per second or "N/WINDOWs" (ratelimit.parse_rate_limit), as --rate-limit gives it.
    rate_limit: str | None = None
    # Send 429s of the rate limit without Retry-After (clients must back off on their own).
    no_retry_after: bool = False
    seed: int | None = None
    faults: bool = False
    allow_remote: bool = False
    intake_delay: float = DEFAULT_INTAKE_DELAY
    # Generated leads added to the demo organization on first start (load tests).
    leads: int = 0
    # Where signed webhook deliveries go (lead created, automation run status changed).
    webhook_url: str | None = None


def state_file(options: ServeOptions, env: Mapping[str, str]) -> Path | None:
    if options.memory:
        if options.data_dir is not None:
            raise SandboxUsageError("--data-dir and --memory cannot be used together")
        return None
    return (options.data_dir or default_state_dir(env)) / DB_FILE


def check_host(options: ServeOptions, ios: Console) -> None:
    if options.faults and options.allow_remote:
        # /_sandbox/ control endpoints hand out owner tokens to whoever asks.
        raise SandboxUsageError(
            "--faults and --allow-remote cannot be used together: the fault and control "
            "endpoints give anyone who reaches them an owner token, without authentication",
            hint="inject faults on a loopback sandbox only (the default --host 127.0.0.1)",
        )
    if is_loopback(options.host):
        return
    if not options.allow_remote:
        raise SandboxUsageError(
            f"refusing to listen on {options.host}: it is not a loopback address",
            hint="the sandbox prints its credentials and has no real security; pass "
            "--allow-remote to expose it to the network anyway",
        )
    ios.warn(f"the sandbox listens on {options.host}: anyone who can reach it can use it")


def serve(options: ServeOptions, *, ios: Console, env: Mapping[str, str], as_json: bool) -> None:
    check_host(options, ios)
    rate_limit = None if options.rate_limit is None else parse_rate_limit(options.rate_limit)
    if not 0 <= options.leads <= MAX_BULK_LEADS:
        raise SandboxUsageError(
            f"--leads {options.leads}: must be between 0 and {MAX_BULK_LEADS:,}"
        )
    if options.webhook_url is not None:
        check_webhook_url(options.webhook_url)
    path = state_file(options, env)
    stop = threading.Event()
    # SIGTERM is caught from the start: a harness may send it as soon as it reads the URL.
    # The lock keeps `sandbox reset` (and a second server) off the state while this runs.
    with _on_sigterm(stop.set), _holding_state(path):
        state = open_state(path, seed=options.seed)
        try:
            _add_bulk_leads(state, options.leads, ios)
            _serve_state(state, path, options, rate_limit, ios=ios, as_json=as_json, stop=stop)
        finally:
            state.close()
    ios.info("sandbox stopped")


def _serve_state(
    state: SandboxState,
    path: Path | None,
    options: ServeOptions,
    rate_limit: RateLimit | None,
    *,
    ios: Console,
    as_json: bool,
    stop: threading.Event,
) -> None:
    if options.seed is not None and not state.seeded_now and state.seed != options.seed:
        ios.warn(
            f"the state was seeded with --seed {state.seed}; --seed {options.seed} is "
            "ignored (run `leadctl sandbox reset` to reseed)"
        )
    credentials = state.credentials().to_json()
    names = _source_names(state)
    settings = SandboxSettings(
        intake_delay=options.intake_delay,
        rate_limit=rate_limit,
        retry_after=not options.no_retry_after,
        faults=options.faults,
    )
    webhooks = _webhook_sender(state, options.webhook_url)
    server = SandboxServer(
        state, settings, host=options.host, port=options.port, quiet=False, webhooks=webhooks
    )
    try:
        server.start()
        ready: dict[str, Any] = {"baseUrl": server.base_url, "credentials": credentials}
        if webhooks is not None:
            ready["webhooks"] = {"url": webhooks.url, "secret": webhooks.secret}
        if as_json:
            ios.stdout.write(json.dumps(ready))
            ios.stdout.write("\n")
        else:
            ios.stdout.write(
                _human_block(server.base_url, path, credentials, names, options, settings, webhooks)
            )
        ios.stdout.flush()
        try:
            while server.alive() and not stop.wait(0.25):
                pass
        except KeyboardInterrupt:
            pass  # Ctrl-C is how a foreground server is meant to stop
    finally:
        server.stop()
        left = webhooks.stop() if webhooks is not None else 0
        if left:
            ios.warn(f"{left} webhook deliveries were still waiting and were not sent")


def check_webhook_url(url: str) -> None:
    from urllib.parse import urlsplit

    try:
        parts = urlsplit(url)
        parts.port  # noqa: B018 - raises ValueError on a malformed port
    except ValueError as error:
        raise SandboxUsageError(f"--webhook-url {url!r}: {error}") from None
    if parts.scheme not in ("http", "https") or not parts.hostname:
        raise SandboxUsageError(f"--webhook-url {url!r}: expected http(s)://HOST[:PORT]/PATH")


def _webhook_sender(state: SandboxState, url: str | None) -> WebhookSender | None:
    if url is None:
        return None
    from leadctl_sandbox.webhooks import WebhookSender, state_secret

    sender = WebhookSender(url, state_secret(state.secret))
    sender.start()
    return sender


def _webhooks_lines(webhooks: WebhookSender) -> list[str]:
    from urllib.parse import urlsplit

    parts = urlsplit(webhooks.url)
    port = parts.port or (443 if parts.scheme == "https" else 80)
    return [
        f"Webhooks: signed deliveries to {webhooks.url} (lead.created,",
        "automation_run.status_changed); receive and verify them with:",
        f"  export LEADCTL_WEBHOOK_SECRET={webhooks.secret}",
        f"  leadctl webhooks listen --port {port} --forward-to http://localhost:3000/hook",
        "",
    ]


def _add_bulk_leads(state: SandboxState, count: int, ios: Console) -> None:
    if count <= 0:
        return
    if not state.seeded_now:
        ios.warn(
            f"the state was seeded before; --leads {count} is ignored "
            "(run `leadctl sandbox reset` first, or use --memory)"
        )
        return
    from leadctl_sandbox.db import transaction
    from leadctl_sandbox.seed_bulk import seed_bulk_leads
    from leadctl_sandbox.times import utcnow

    with transaction(state.conn, immediate=True):
        seed_bulk_leads(state.conn, org_id=state.org_id, count=count, seed=state.seed, now=utcnow())


@contextlib.contextmanager
def _holding_state(path: Path | None) -> Iterator[None]:
    if path is None:
        yield
        return
    with holding(path.parent):
        yield


@contextlib.contextmanager
def _on_sigterm(callback: Any) -> Iterator[None]:
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    previous = signal.signal(signal.SIGTERM, lambda _signum, _frame: callback())
    try:
        yield
    finally:
        signal.signal(signal.SIGTERM, previous)


def _source_names(state: SandboxState) -> dict[str, str]:
    rows = state.conn.execute("SELECT id, name FROM sources WHERE org_id = ?", (state.org_id,))
    return {row["id"]: row["name"] for row in rows}


def _human_block(
    base_url: str,
    path: Path | None,
    credentials: dict[str, Any],
    names: dict[str, str],
    options: ServeOptions,
    settings: SandboxSettings,
    webhooks: WebhookSender | None,
) -> str:
    where = "in memory (gone when it stops)" if path is None else str(path)
    lines = [
        f"leadctl sandbox listening on {base_url}",
        f"  state: {where}",
        "",
        "Demo credentials (they work on this sandbox only):",
        f"  organization key  {credentials['org']}",
        f"  user token        {credentials['user']}",
        f"  read-only token   {credentials['readOnlyUser']}",
    ]
    sources: dict[str, str] = credentials["sources"]
    if sources:
        lines.append("  source keys (lead intake only):")
        width = max(len(names.get(i, "")) for i in sources)
        for source_id, key in sources.items():
            lines.append(f"    {names.get(source_id, ''):<{width}}  {source_id}  {key}")
    lines += [
        "",
        "Try it:",
        f"  export LEADCTL_BASE_URL={base_url} LEADCTL_TOKEN={credentials['org']}",
        "  leadctl lead-statuses list",
        "",
    ]
    if webhooks is not None:
        lines += _webhooks_lines(webhooks)
    if options.faults:
        lines.append("Fault injection is on: X-Leadctl-Fault header and /_sandbox/ endpoints.")
    if settings.rate_limit is not None:
        without = "" if settings.retry_after else ", 429s without Retry-After"
        lines.append(f"Rate limit: {settings.rate_limit.describe()}{without}.")
    lines.append("Press Ctrl-C to stop.")
    return "\n".join(lines) + "\n"


def has_state(state_dir: Path) -> bool:
    return any((state_dir / name).exists() for name in STATE_FILES)


def check_not_served(state_dir: Path) -> None:
    """StateInUse (naming the pid) when a `sandbox serve` holds the state; asked before a
    reset prompts, so nobody confirms a wipe that is then refused."""
    if state_dir.is_dir():
        with holding(state_dir):
            pass


def reset(state_dir: Path) -> bool:
    """Remove the sandbox's state files; True when there was something to remove.

    Only the sandbox's own files go (never a directory tree), so a mistyped --data-dir
    cannot wipe anything else.
    """
    if not state_dir.is_dir():
        return False
    removed = False
    # Refused (StateInUse, naming the pid) while a `sandbox serve` holds the state.
    with holding(state_dir):
        for name in STATE_FILES:
            with contextlib.suppress(FileNotFoundError):
                (state_dir / name).unlink()
                removed = True
    with contextlib.suppress(OSError):
        state_dir.rmdir()  # only when empty
    return removed
