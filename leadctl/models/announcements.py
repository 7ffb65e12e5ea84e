"""Announcement, an item of POST /notifications/announcements' collection page."""

from __future__ import annotations

from leadctl.models.base import Flag, Instant, Resource, Text


class Announcement(Resource):
    id: Text = None
    name: Text = None
    message: Text = None
    created_at_display: Text = None
    read_at_display: Text = None
    action_url: Text = None
    action_button_text: Text = None
    created_at: Instant = None
    modified_at: Instant = None
    # Unread only when the service says false: an answer without it marks nothing.
    is_read: Flag = None
