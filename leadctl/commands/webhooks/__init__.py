"""``leadctl webhooks``: verify, receive (and forward) and send Standard Webhooks deliveries,
and have the sandbox deliver an example (trigger)."""

from __future__ import annotations

from leadctl.cli.verb_table import Entry, SubGroup, Verb

# The order here is the order of `leadctl webhooks --help`.
VERBS: tuple[Entry, ...] = (
    Verb("verify", "Check that one webhook delivery is genuine and fresh (Standard Webhooks)."),
    Verb(
        "listen",
        "Receive webhook deliveries, verify each, and forward the genuine ones to your app.",
    ),
    Verb("send", "Sign a delivery with the webhook secret and POST it to URL (Standard Webhooks)."),
    Verb("trigger", "Have the sandbox deliver a signed example of EVENT to its webhook URL."),
    SubGroup(
        "secret",
        "Store the profile's webhook signing secret.",
        (Verb("set", "Store the profile's webhook signing secret, for verify, listen and send."),),
    ),
)
