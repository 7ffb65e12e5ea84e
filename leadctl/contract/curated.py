"""Where the contract meets the hand-written commands.

A curated command is an overlay on one operation of the active contract, bound by METHOD
and path template (parameter names aside: ``/sources/{sourceId}`` is ``/sources/{id}``),
never by operationId, which real contracts choose freely. Its operation gets no
generated verb, and a tag whose curated group has another name adds its generated verbs
to that group (its kebab-case name stays an alias).
"""

from __future__ import annotations

from leadctl.contract.templates import template_key

# METHOD and path template -> (group, verb) of the curated command that calls it. A test
# checks that every command exists and calls this operation.
CURATED_COMMANDS: dict[tuple[str, str], tuple[str, str]] = {
    ("PUT", "/users/compliance"): ("users", "compliance"),
    ("PUT", "/sources/{id}"): ("sources", "update"),
    ("POST", "/sources/{id}/credentials/rotate"): ("sources", "rotate"),
    ("PUT", "/lead-status-changes/{id}"): ("status-changes", "update"),
    ("DELETE", "/lead-status-changes/{id}"): ("status-changes", "delete"),
    ("GET", "/phone-numbers/{phoneNumber}/status"): ("numbers", "status"),
    ("GET", "/automations/{id}/runs"): ("automations", "runs"),
    ("GET", "/lead-statuses"): ("lead-statuses", "list"),
    ("POST", "/a2a"): ("a2a", "call"),
    ("POST", "/notifications/announcements"): ("notifications", "announcements"),
    ("POST", "/leads"): ("leads", "create"),
    ("POST", "/leads/all/my"): ("leads", "list"),
}

# Contract tag -> curated group, where the kebab-case tag is not already its name.
TAG_GROUPS: dict[str, str] = {
    "LeadStatusChanges": "status-changes",
    "PhoneNumbers": "numbers",
    "Agent": "a2a",
}


def curated_command(method: str, path: str) -> tuple[str, str] | None:
    """The curated (group, verb) bound to METHOD + path template, if any."""
    wanted = template_key(method, path)
    for (m, p), command in CURATED_COMMANDS.items():
        if template_key(m, p) == wanted:
            return command
    return None


# Every curated group's verbs (empty: a single command such as `api`), which generated
# verbs do not take. Written out rather than read from the command tree, so that
# compiling an index imports no command module (leadctl.contract never imports
# leadctl.commands); a test compares it with the tree. A curated verb added later and
# missing here still wins: the tree gives the generated verb its longer name at run time.
CURATED_VERBS: dict[str, tuple[str, ...]] = {
    "auth": ("login", "logout", "refresh", "status", "token"),
    "profile": ("delete", "list", "set", "show", "unset", "use"),
    "leads": ("create", "import", "list"),
    "sources": ("rotate", "update"),
    "status-changes": ("delete", "update"),
    "lead-statuses": ("get", "list"),
    "numbers": ("status",),
    "automations": ("runs",),
    "notifications": ("announcements",),
    "users": ("compliance",),
    "a2a": ("call",),
    "contract": ("diff", "import", "pull", "reset", "show"),
    "api": (),
    "sandbox": ("reset", "serve"),
    "webhooks": ("listen", "secret", "send", "trigger", "verify"),
    "alias": ("delete", "import", "list", "set"),
    "completion": (),
    "batch": (),
    "help": (),
    "version": (),
}
