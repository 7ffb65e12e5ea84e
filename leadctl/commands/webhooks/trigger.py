"""``leadctl webhooks trigger EVENT``: the sandbox delivers a signed example of EVENT to its
webhook URL, as ``stripe trigger`` has the service send one."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Annotated

import typer

from leadctl.commands._verb import verb_command
from leadctl.contract.operations import operation_for
from leadctl.errors import ApiError, UsageError
from leadctl.inputs.fields import build_fields
from leadctl.output import emit_object
from leadctl.output.columns import Column

if TYPE_CHECKING:
    from leadctl.context import Context

# The sandbox's route (leadctl_sandbox/trigger.py, which leadctl does not import: only
# sandbox_entry.py may); tests/webhooks/test_trigger.py sends through both.
TRIGGER_PATH = "/_sandbox/webhooks/trigger"
EVENT_TYPES = ("lead.created", "automation_run.status_changed")
SERVE_HINT = (
    "start a sandbox that delivers webhooks with `leadctl sandbox serve --webhook-url URL` "
    "(e.g. the address of `leadctl webhooks listen`) and trigger on a profile whose "
    "base URL is that sandbox's"
)
COLUMNS = (Column("webhookId"), Column("type"), Column("url"))

EPILOG = (
    "Examples:\n\n"
    "  leadctl webhooks trigger lead.created\n\n"
    "  leadctl webhooks trigger automation_run.status_changed --field status=Failed\n\n"
    "  leadctl webhooks trigger lead.created --field state=TX --field 'tags:=[]'"
)


def _complete_event(incomplete: str) -> list[str]:
    return [kind for kind in EVENT_TYPES if kind.startswith(incomplete)]


@dataclass(frozen=True)
class Options:
    event: Annotated[
        str,
        typer.Argument(
            metavar="EVENT",
            help="The event type: " + ", ".join(EVENT_TYPES) + ".",
            autocompletion=_complete_event,
        ),
    ]
    fields: Annotated[
        list[str] | None,
        typer.Option(
            "-F",
            "--field",
            metavar="KEY=VALUE",
            help="Change a field of the example's data (a.b for a nested one; "
            "true/false/null, numbers and JSON are typed, as api -F).",
        ),
    ] = None


def run(opts: Options, ctx: Context) -> None:
    if opts.event not in EVENT_TYPES:
        raise UsageError(
            f"no example of event {opts.event!r}",
            hint="the sandbox sends " + ", ".join(EVENT_TYPES),
        )
    if ctx.settings.embedded_sandbox:
        raise UsageError(
            "the embedded sandbox (-p sandbox) delivers no webhooks: it has no URL to send them to",
            hint=SERVE_HINT,
        )
    data = build_fields((), opts.fields or (), stdin=ctx.ios.stdin, typed_flag="--field")
    try:
        response = ctx.client().call(
            operation_for(ctx, "POST", TRIGGER_PATH),
            json_body={"type": opts.event, "data": data},
        )
    except ApiError as error:
        if error.status == 404:
            raise UsageError(
                "this service has no example events: only a sandbox triggers them",
                hint=SERVE_HINT,
            ) from None
        raise
    answer = response.json()
    emit_object(ctx, answer, columns=COLUMNS)
    ctx.ios.info(
        f"the sandbox is delivering {answer.get('type')} {answer.get('webhookId')}, signed, "
        f"to {answer.get('url')}"
    )


HELP = """Have the sandbox deliver a signed example of EVENT to its webhook URL.

    As `stripe trigger`: the sandbox of the profile (`leadctl sandbox serve --webhook-url
    URL`) sends an example delivery of the event type, signed with its whsec_ secret and
    retried as any of its deliveries. The example is the organization's newest lead (for
    lead.created) or automation run (for automation_run.status_changed), as the API shows
    it, with each --field changed; prints the delivery's webhook-id, type and URL. With
    `leadctl webhooks listen --events EVENT` on that URL, a handler can be tried one event
    type at a time. The embedded sandbox (-p sandbox) sends no webhooks; a service other
    than the sandbox has no example events (exit 2).
    """

command = verb_command(Options, run, help=HELP)
