"""``leadctl users``: the current user's compliance settings."""

from __future__ import annotations

from leadctl.commands._group import group_app
from leadctl.commands.users import compliance

app = group_app("users", one_verb=True)


app.command("compliance", epilog=compliance.EPILOG)(compliance.compliance)
