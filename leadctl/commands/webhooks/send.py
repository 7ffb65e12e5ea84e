"""``leadctl webhooks send``: sign and POST a test delivery, retried as a real sender does."""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import TYPE_CHECKING, Annotated, Any

import typer

from leadctl.commands._verb import verb_command
from leadctl.commands.webhooks._shared import SecretFileOption, read_bytes, secret_for
from leadctl.config.request_limits import DEFAULT_TIMEOUT
from leadctl.errors import DryRunDone, UsageError
from leadctl.http.client import Client, tls_verification
from leadctl.http.curl import curl_command
from leadctl.http.retry import RetryPolicy
from leadctl.output import emit_object
from leadctl.output.columns import Column
from leadctl.util.safetext import safe_text
from leadctl.webhooks.sender import Delivery, check_msg_id, send_delivery, signed_headers
from leadctl.webhooks.targets import check_target_url

if TYPE_CHECKING:
    from leadctl.context import Context
    from leadctl.webhooks.secret import WebhookSecret

RESULT_COLUMNS = (
    Column("webhookId"),
    Column("status"),
    Column("attempts"),
    Column("url"),
)
TEST_EVENT_TYPE = "leadctl.test"

EPILOG = (
    "Examples:\n\n"
    "  leadctl webhooks send http://127.0.0.1:3000/hook\n\n"
    "  leadctl webhooks send https://staging.example.com/hooks --data @lead-created.json\n\n"
    "  jq -c . event.json | leadctl webhooks send https://hooks.example.com/in --data - "
    "--id msg_retry_test"
)


@dataclass(frozen=True)
class Options:
    url: Annotated[str, typer.Argument(metavar="URL", help="The receiver's endpoint.")]
    # JSON, @FILE or - (stdin), sent byte for byte; None: a test event.
    data: Annotated[
        str | None,
        typer.Option(
            "--data",
            metavar="JSON|@FILE|-",
            help="The payload, sent byte for byte (it must be JSON) [default: a test event "
            '{"type": "leadctl.test", "timestamp": ..., "data": {...}}].',
        ),
    ] = None
    # The webhook-id; None: a new msg_... id.
    msg_id: Annotated[
        str | None,
        typer.Option(
            "--id",
            metavar="ID",
            help="The webhook-id, to test the receiver's deduplication [default: a new "
            "msg_... id].",
        ),
    ] = None
    secret_file: SecretFileOption = None


def run(opts: Options, ctx: Context) -> None:
    """Exit 0 once the receiver answered 2xx; its error's exit code otherwise (4xx: 3/4/5/6,
    5xx or no answer after the retries: 8)."""
    import uuid

    url = check_target_url(
        opts.url, what="URL", allow_insecure_http=ctx.options.allow_insecure_http
    )
    msg_id = check_msg_id(opts.msg_id) if opts.msg_id is not None else f"msg_{uuid.uuid4().hex}"
    body = _body(ctx, opts.data)
    secret = secret_for(ctx, opts.secret_file)
    delivery = Delivery(msg_id=msg_id, body=body, url=url)
    if ctx.options.dry_run:
        _print_dry_run(ctx, secret, delivery)
    client = _client(ctx, url)
    try:
        delivered = send_delivery(
            client,
            secret,
            delivery,
            policy=client.policy,
            wall_clock=lambda: ctx.clock.now().timestamp(),
            sleep=ctx.clock.sleep,
            notify=ctx.ios.info,
        )
    finally:
        client.close()
    result = {
        "webhookId": msg_id,
        "status": delivered.status,
        "attempts": delivered.attempts,
        "url": url,
    }
    emit_object(ctx, result, columns=RESULT_COLUMNS, view=_show_delivered)


def _body(ctx: Context, data: str | None) -> bytes:
    if data is None:
        return json.dumps(_test_event(ctx), separators=(",", ":")).encode("utf-8")
    if data == "-" or data.startswith("@"):
        source = "-" if data == "-" else data[1:]
        body = read_bytes(ctx, source, what="--data")
    else:
        body = data.encode("utf-8")
    try:
        json.loads(body.decode("utf-8"))
    except UnicodeDecodeError:
        raise UsageError("--data: not UTF-8 text") from None
    except ValueError as error:
        raise UsageError(f"--data: invalid JSON: {error}") from None
    return body


def _test_event(ctx: Context) -> dict[str, Any]:
    moment = ctx.clock.now().isoformat().replace("+00:00", "Z")
    return {
        "type": TEST_EVENT_TYPE,
        "timestamp": moment,
        "data": {"message": "a test delivery sent with `leadctl webhooks send`"},
    }


def _client(ctx: Context, url: str) -> Any:

    debug = ctx.options.debug
    stderr = ctx.ios.stderr

    def trace(line: str) -> None:
        stderr.write(line + "\n")

    return Client(
        # A plain-http URL then loads no certificate store.
        base_url=url,
        # Deliveries carry a signature, never the profile's credential.
        credential=lambda: None,
        timeout=ctx.options.timeout or DEFAULT_TIMEOUT,
        policy=RetryPolicy(max_retries=ctx.options.max_retries),
        sleep=ctx.clock.sleep,
        monotonic=ctx.clock.monotonic,
        wall_clock=lambda: ctx.clock.now().timestamp(),
        notify=ctx.ios.info,
        trace=trace if debug else None,
        transport=ctx.transport,
        verify=lambda: tls_verification(None, ctx.env),
    )


def _print_dry_run(ctx: Context, secret: WebhookSecret, delivery: Delivery) -> None:
    headers = signed_headers(secret, delivery, int(ctx.clock.now().timestamp()))
    command = curl_command("POST", delivery.url, headers=headers, body=delivery.body)
    ctx.ios.data_out().write(command + "\n")
    ctx.ios.info("the signature above is valid for the receiver's tolerance (usually 5 minutes)")
    raise DryRunDone("dry run")


def _show_delivered(ctx: Context, result: Any) -> None:

    attempts = result["attempts"]
    webhook_id = safe_text(result["webhookId"], one_line=True)
    url = safe_text(result["url"], one_line=True)
    ctx.ios.stdout.write(
        f"delivered webhook-id {webhook_id} to {url}: "
        f"{result['status']} ({attempts} attempt{'s' * (attempts > 1)})\n"
    )
    ctx.ios.stdout.flush()


HELP = """Sign a delivery with the webhook secret and POST it to URL (Standard Webhooks).

    Every attempt has the same webhook-id and a fresh webhook-timestamp and signature. A 5xx,
    a 429, a connection failure or a lost answer is retried with backoff (Retry-After
    honoured; --max-retries); only a 2xx is a delivery (exit 0), and redirects are not
    followed. A 4xx is exit 6 (400 and other 4xx), 3 (401), 4 (403) or 5 (404); 5xx or no
    answer after the retries is exit 8. --dry-run prints a signed curl command instead.

    The secret (whsec_...) comes from --secret-file, LEADCTL_WEBHOOK_SECRET, or the
    profile's OS keyring entry (`leadctl webhooks secret set`); never from an argument.
    Deliveries carry no profile credential.
    """

command = verb_command(Options, run, help=HELP)
