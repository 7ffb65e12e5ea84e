"""``leadctl numbers``: what an organization phone number can do right now."""

from __future__ import annotations

from leadctl.commands._group import group_app
from leadctl.commands.numbers import status

app = group_app("numbers", one_verb=True)


app.command("status", epilog=status.EPILOG)(status.status)
