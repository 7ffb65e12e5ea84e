"""``leadctl webhooks secret set``: keep the profile's webhook signing secret in the OS keyring."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from leadctl.commands._verb import verb_command
from leadctl.errors import UsageError
from leadctl.webhooks.secret import parse_secret, store_secret

if TYPE_CHECKING:
    from leadctl.context import Context

EPILOG = (
    "Examples:\n\n"
    "  leadctl webhooks secret set\n\n"
    "  vault read -field=secret secret/hooks | leadctl -p staging webhooks secret set"
)


@dataclass(frozen=True)
class Options:
    """Nothing to choose: the secret itself is never a flag (hidden prompt or stdin)."""


def run(opts: Options, ctx: Context) -> None:
    """Read the secret, check its shape (exit 2), store it; say where, never what."""
    ios = ctx.ios
    if ios.stdin_is_tty:
        if not ios.can_prompt:
            raise UsageError(
                "cannot prompt for the secret (--no-input, or stderr is not a terminal)",
                hint="pipe it in: ... | leadctl webhooks secret set",
            )
        raw = ios.prompt_secret("Paste the webhook signing secret, whsec_... (input hidden): ")
        origin = "the prompt"
    else:
        raw = ios.stdin.read()
        origin = "stdin"
    secret = parse_secret(raw, origin=origin)
    where = store_secret(profile=ctx.profile_name, secret=secret)
    ios.info(f"webhook secret for profile {ctx.profile_name!r} stored in the {where}")


HELP = """Store the profile's webhook signing secret, for verify, listen and send.

    On a terminal the secret is read from a hidden prompt, otherwise from stdin; it is never
    an argument, and never printed. It goes to the OS keyring (service leadctl-webhook,
    user = the profile's name), replacing the profile's previous webhook secret.
    A secret that is not whsec_ followed by base64 is exit 2, nothing stored. Where there is
    no keyring, give the secret with LEADCTL_WEBHOOK_SECRET or --secret-file on each command.
    """

command = verb_command(Options, run, help=HELP)
