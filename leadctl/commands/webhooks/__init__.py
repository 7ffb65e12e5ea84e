"""``leadctl webhooks``: verify, receive (and forward) and send Standard Webhooks deliveries."""

from __future__ import annotations

import typer

from leadctl.commands.webhooks import listen, secret_set, send, verify

HELP = "Verify, receive and send signed webhook deliveries."

app = typer.Typer(help=HELP, no_args_is_help=True)
secret_app = typer.Typer(help="Store the profile's webhook signing secret.", no_args_is_help=True)


@secret_app.callback()
def secret_group() -> None:
    """Store the profile's webhook signing secret."""
    # One verb: without a callback Typer would collapse the group into it.


# The order here is the order of `leadctl webhooks --help`.
app.command("verify", epilog=verify.EPILOG)(verify.verify)
app.command("listen", epilog=listen.EPILOG)(listen.listen)
app.command("send", epilog=send.EPILOG)(send.send)
secret_app.command("set", epilog=secret_set.EPILOG)(secret_set.set_)
app.add_typer(secret_app, name="secret")
