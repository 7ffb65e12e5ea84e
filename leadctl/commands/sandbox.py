"""``leadctl sandbox serve|reset``: the local stand-in for the service."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from leadctl.commands._common import get_context

app = typer.Typer(
    help="Run the local sandbox server.",
    no_args_is_help=True,
    # Plain help, as the root app's; keeps rich out of the sandbox commands.
    rich_markup_mode=None,
)


@app.command(
    "serve",
    epilog="Examples:\n\n"
    "  leadctl sandbox serve\n\n"
    "  leadctl sandbox serve --memory --port 0 --seed 7 --faults -o json\n\n"
    "  leadctl sandbox serve --rate-limit 5 --data-dir ./sandbox-state\n\n"
    "  leadctl sandbox serve --memory --leads 100000 --rate-limit 200\n\n"
    "  leadctl sandbox serve --rate-limit 300/60s --no-retry-after",
)
def serve(
    typer_ctx: typer.Context,
    host: Annotated[
        str,
        typer.Option(
            metavar="HOST", help="Address to listen on; non-loopback needs --allow-remote."
        ),
    ] = "127.0.0.1",
    port: Annotated[
        int,
        typer.Option(
            min=0, max=65535, metavar="PORT", help="Port to listen on (0: any free port)."
        ),
    ] = 8765,
    data_dir: Annotated[
        Path | None,
        typer.Option(
            "--data-dir",
            metavar="DIR",
            help="Where the state lives [default: the user data dir's sandbox/].",
        ),
    ] = None,
    memory: Annotated[
        bool, typer.Option("--memory", help="Keep the state in memory only.")
    ] = False,
    rate_limit: Annotated[
        str | None,
        typer.Option(
            "--rate-limit",
            metavar="N|N/WINDOWs",
            help="Allow N requests per second per credential, or N per fixed window "
            "(300/60s); more get 429 with Retry-After.",
        ),
    ] = None,
    no_retry_after: Annotated[
        bool,
        typer.Option(
            "--no-retry-after",
            help="Send the rate limit's 429s without Retry-After, to test a client's backoff.",
        ),
    ] = False,
    seed: Annotated[
        int | None, typer.Option(metavar="N", help="Seed of the demo data (first start only).")
    ] = None,
    faults: Annotated[
        bool,
        typer.Option(
            "--faults",
            help="Enable fault injection (X-Leadctl-Fault header, /_sandbox/ endpoints).",
        ),
    ] = False,
    allow_remote: Annotated[
        bool, typer.Option("--allow-remote", help="Allow a non-loopback --host.")
    ] = False,
    intake_delay: Annotated[
        float,
        typer.Option(
            "--intake-delay",
            min=0.0,
            metavar="SECONDS",
            help="How long a new lead stays Pending before it is processed.",
        ),
    ] = 1.0,
    leads: Annotated[
        int,
        typer.Option(
            "--leads",
            metavar="N",
            help="Add N generated leads (0 to 10,000,000) to the demo organization (first "
            "start only), for load tests.",
        ),
    ] = 0,
    print_json: Annotated[
        bool,
        typer.Option(
            "--print-json", help="Print the ready line as JSON (baseUrl, credentials), as -o json."
        ),
    ] = False,
) -> None:
    """Serve the sandbox in the foreground and print its URL and demo credentials.

    With -o json (or --print-json) one JSON line {"baseUrl", "credentials"} is printed when
    the server is ready. Ctrl-C stops it.
    """
    from leadctl import sandbox_entry

    ctx = get_context(typer_ctx)
    as_json = print_json or (ctx.output_explicit and ctx.output_format == "json")
    sandbox_entry.serve(
        ios=ctx.ios,
        env=ctx.env,
        as_json=as_json,
        host=host,
        port=port,
        data_dir=data_dir,
        memory=memory,
        rate_limit=rate_limit,
        no_retry_after=no_retry_after,
        seed=seed,
        faults=faults,
        allow_remote=allow_remote,
        intake_delay=intake_delay,
        leads=leads,
    )


@app.command(
    "reset",
    epilog="Examples:\n\n"
    "  leadctl sandbox reset\n\n"
    "  leadctl sandbox reset --yes --data-dir ./sandbox-state",
)
def reset(
    typer_ctx: typer.Context,
    data_dir: Annotated[
        Path | None,
        typer.Option(
            "--data-dir",
            metavar="DIR",
            help="The state to wipe [default: the user data dir's sandbox/].",
        ),
    ] = None,
    yes: Annotated[
        bool, typer.Option("--yes", "-y", help="Do not ask; required without a terminal.")
    ] = False,
) -> None:
    """Wipe the sandbox state; the next start seeds fresh demo data.

    Asks for confirmation on a terminal and needs --yes without one. Refused while a
    `leadctl sandbox serve` uses the state (the error names its pid).
    """
    from leadctl import sandbox_entry

    ctx = get_context(typer_ctx)
    state_dir = data_dir or sandbox_entry.default_state_dir(ctx.env)
    if not sandbox_entry.has_state(state_dir):
        ctx.ios.info(f"no sandbox state at {state_dir}")
        return
    sandbox_entry.check_not_served(state_dir)
    ctx.ios.confirm(f"Wipe the sandbox state at {state_dir}?", assume_yes=yes)
    if sandbox_entry.reset(state_dir):
        ctx.ios.info(f"sandbox state removed: {state_dir}")
    else:
        ctx.ios.info(f"no sandbox state at {state_dir}")
