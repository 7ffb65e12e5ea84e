"""The command groups and their one-line help, so ``leadctl --help`` imports none of them."""

from __future__ import annotations

# name -> (module, short help). Order is the order shown in --help.
GROUPS: dict[str, tuple[str, str]] = {
    "auth": ("leadctl.commands.auth", "Log in, show and remove the credential of a profile."),
    "profile": ("leadctl.commands.profile", "List, switch and edit profiles."),
    "leads": ("leadctl.commands.leads", "List, create and import leads."),
    "sources": ("leadctl.commands.sources", "Update lead sources and rotate their intake keys."),
    "status-changes": (
        "leadctl.commands.status_changes",
        "Update or delete entries of a lead's status history.",
    ),
    "lead-statuses": (
        "leadctl.commands.lead_statuses",
        "List lead statuses and find one by name.",
    ),
    "numbers": ("leadctl.commands.numbers", "Inspect phone numbers: capacity, warmup, traffic."),
    "automations": ("leadctl.commands.automations", "Inspect automation runs."),
    "notifications": ("leadctl.commands.notifications", "Read announcements."),
    "users": ("leadctl.commands.users", "Update the current user's compliance settings."),
    "a2a": ("leadctl.commands.a2a", "Call an agent operation over JSON-RPC."),
    "contract": (
        "leadctl.commands.contract",
        "Show, import, pull and diff the service's OpenAPI contract.",
    ),
    "api": ("leadctl.commands.api", "Call any API operation with a raw request."),
    "batch": (
        "leadctl.commands.batch",
        "One request per NDJSON input line, paced to the service.",
    ),
    "webhooks": (
        "leadctl.commands.webhooks",
        "Verify, receive and send signed webhook deliveries.",
    ),
    "sandbox": ("leadctl.commands.sandbox", "Run the local sandbox server."),
    "alias": ("leadctl.commands.alias", "Make a word stand for a command line, as gh's aliases."),
    "completion": ("leadctl.commands.completion", "Print the completion script for SHELL."),
    "help": ("leadctl.commands.help", "Show the help of leadctl, a group or a verb, or a topic."),
    "version": ("leadctl.commands.version", "Print leadctl's version, as --version does."),
}
