"""``leadctl automations``: what an automation's recent runs did."""

from __future__ import annotations

from leadctl.commands._group import group_app
from leadctl.commands.automations import runs

app = group_app("automations", one_verb=True)


app.command("runs", epilog=runs.EPILOG)(runs.runs)
