"""``leadctl profile``: list, switch, inspect, edit and delete profiles.

Profiles hold settings only; the credential lives in the keyring or the file store, so
only ``delete`` (which removes it) ever reaches a credential store.
"""

from __future__ import annotations

from leadctl.commands._group import group_app
from leadctl.commands.profile import delete, list_, set_, show, unset, use

app = group_app("profile")

# The order here is the order of `leadctl profile --help`.
app.command("list", epilog=list_.EPILOG)(list_.list_)
app.command("use", epilog=use.EPILOG)(use.use)
app.command("show", epilog=show.EPILOG)(show.show)
app.command("set", epilog=set_.EPILOG)(set_.set_)
app.command("unset", epilog=unset.EPILOG)(unset.unset)
app.command("delete", epilog=delete.EPILOG)(delete.delete)
