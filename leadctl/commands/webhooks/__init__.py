"""``leadctl webhooks``: verify, receive (and forward) and send Standard Webhooks deliveries."""

from __future__ import annotations

from leadctl.commands._group import group_app, subgroup_app
from leadctl.commands.webhooks import listen, secret_set, send, verify

app = group_app("webhooks")
secret_app = subgroup_app("Store the profile's webhook signing secret.", one_verb=True)


# The order here is the order of `leadctl webhooks --help`.
app.command("verify", epilog=verify.EPILOG)(verify.verify)
app.command("listen", epilog=listen.EPILOG)(listen.listen)
app.command("send", epilog=send.EPILOG)(send.send)
secret_app.command("set", epilog=secret_set.EPILOG)(secret_set.set_)
app.add_typer(secret_app, name="secret")
