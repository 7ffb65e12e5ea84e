"""``leadctl sandbox serve``: the sandbox in the foreground, its URL and demo credentials."""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer

from leadctl import sandbox_entry
from leadctl.commands._common import HostOption, PortOption
from leadctl.commands._verb import verb_command
from leadctl.formats import JSON

if TYPE_CHECKING:
    from leadctl.context import Context


@dataclass(frozen=True)
class Options:
    # The server's settings by the field names of leadctl_sandbox.serve.ServeOptions, which
    # checks them: written once there, as leadctl imports the sandbox only through
    # sandbox_entry. --print-json is leadctl's own.
    host: HostOption = "127.0.0.1"
    port: PortOption = 8765
    data_dir: Annotated[
        Path | None,
        typer.Option(
            "--data-dir",
            metavar="DIR",
            help="Where the state lives [default: the user data dir's sandbox/].",
        ),
    ] = None
    memory: Annotated[bool, typer.Option("--memory", help="Keep the state in memory only.")] = False
    rate_limit: Annotated[
        str | None,
        typer.Option(
            "--rate-limit",
            metavar="N|N/WINDOWs",
            help="Allow N requests per second per credential, or N per fixed window "
            "(300/60s); more get 429 with Retry-After.",
        ),
    ] = None
    no_retry_after: Annotated[
        bool,
        typer.Option(
            "--no-retry-after",
            help="Send the rate limit's 429s without Retry-After, to test a client's backoff.",
        ),
    ] = False
    seed: Annotated[
        int | None, typer.Option(metavar="N", help="Seed of the demo data (first start only).")
    ] = None
    faults: Annotated[
        bool,
        typer.Option(
            "--faults",
            help="Enable fault injection (X-Leadctl-Fault header, /_sandbox/ endpoints); "
            "loopback only: refused with --allow-remote.",
        ),
    ] = False
    allow_remote: Annotated[
        bool,
        typer.Option("--allow-remote", help="Allow a non-loopback --host (not with --faults)."),
    ] = False
    intake_delay: Annotated[
        float,
        typer.Option(
            "--intake-delay",
            min=0.0,
            metavar="SECONDS",
            help="How long a new lead stays Pending before it is processed.",
        ),
    ] = 1.0
    leads: Annotated[
        int,
        typer.Option(
            "--leads",
            metavar="N",
            help="Add N generated leads (0 to 10,000,000) to the demo organization (first "
            "start only), for load tests.",
        ),
    ] = 0
    print_json: Annotated[
        bool,
        typer.Option(
            "--print-json",
            help="Print the ready line as JSON (baseUrl, credentials, webhooks), as -o json.",
        ),
    ] = False
    webhook_url: Annotated[
        str | None,
        typer.Option(
            "--webhook-url",
            metavar="URL",
            help="POST a signed webhook delivery (Standard Webhooks) to URL when a lead is "
            "created and when an automation run changes status; the whsec_ secret is printed "
            "when the server is ready.",
        ),
    ] = None


def run(opts: Options, ctx: Context) -> None:
    # The ready line is not data the registry prints: the sandbox writes it once it
    # listens. JSON only when asked for (-o json or --print-json), not as a pipe's default.
    as_json = opts.print_json or (ctx.output_explicit and ctx.output_format == JSON)
    server = {
        field.name: getattr(opts, field.name)
        for field in dataclasses.fields(opts)
        if field.name != "print_json"
    }
    sandbox_entry.serve(ios=ctx.ios, env=ctx.env, as_json=as_json, **server)


EPILOG = (
    "Examples:\n\n"
    "  leadctl sandbox serve\n\n"
    "  leadctl sandbox serve --memory --port 0 --seed 7 --faults -o json\n\n"
    "  leadctl sandbox serve --rate-limit 5 --data-dir ./sandbox-state\n\n"
    "  leadctl sandbox serve --memory --leads 100000 --rate-limit 200\n\n"
    "  leadctl sandbox serve --rate-limit 300/60s --no-retry-after\n\n"
    "  leadctl sandbox serve --webhook-url http://127.0.0.1:9000/"
)


HELP = """Serve the sandbox in the foreground and print its URL and demo credentials.

    With -o json (or --print-json) one JSON line {"baseUrl", "credentials"} is printed when
    the server is ready ("webhooks": {"url", "secret"} too with --webhook-url). Ctrl-C
    stops it.

    Webhooks: the service publishes no event catalog, so the sandbox assumes Standard
    Webhooks' payload {"type", "timestamp", "data"} with two types: lead.created (data: the
    lead as POST /leads answered it) and automation_run.status_changed (data: the run as
    `automations runs` shows it, with its new status). With --webhook-url, a lead that intake
    accepts starts a run of the demo "New lead welcome" automation (Running, then Waiting at
    its one-day wait). Deliveries are sent in the background, each with a stable webhook-id
    and a fresh timestamp and signature per attempt, retried on anything but a 2xx after
    0.5s, 1s, 2s, 5s, 10s, 30s and 60s. The secret stays the same for one state (a new one
    with --memory).
    """

command = verb_command(Options, run, help=HELP)
