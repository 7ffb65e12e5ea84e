"""``leadctl notifications``: announcements for the current user."""

from __future__ import annotations

from leadctl.commands._group import group_app
from leadctl.commands.notifications import announcements

app = group_app("notifications", one_verb=True)


app.command("announcements", epilog=announcements.EPILOG)(announcements.announcements)
