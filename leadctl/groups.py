"""The command groups and their one-line help, so ``leadctl --help`` imports none of them."""

from __future__ import annotations

# name -> (module, short help). Order is the order shown in --help.
GROUPS: dict[str, tuple[str, str]] = {
    "auth": ("leadctl.commands.auth", "Log in, show and remove the credential of a profile."),
    "profile": ("leadctl.commands.profile", "List, switch and edit profiles."),
    "api": ("leadctl.commands.api", "Call any API operation with a raw request."),
    "sandbox": ("leadctl.commands.sandbox", "Run the local sandbox server."),
    "completion": ("leadctl.commands.completion", "Print the shell completion script."),
}

# Groups that are a single command rather than a group of verbs.
SINGLE_COMMANDS = frozenset({"api", "completion"})
