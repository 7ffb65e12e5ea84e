"""What leadctl(1) says that the command tree cannot: environment, files, exit codes, and
the examples of the whole tool. Tests check these against the code (every exit code is
described; every example names real commands and options)."""

from __future__ import annotations

from leadctl.errors import ExitCode
from leadctl.formats import OUTPUT_FORMATS

ENVIRONMENT: tuple[tuple[str, str], ...] = (
    ("LEADCTL_PROFILE", "Profile to use when -p is not given."),
    ("LEADCTL_BASE_URL", "Service base URL; overrides the profile's base_url."),
    (
        "LEADCTL_OUTPUT",
        "Default output format: " + ", ".join(OUTPUT_FORMATS[:-1]) + f" or {OUTPUT_FORMATS[-1]}.",
    ),
    (
        "LEADCTL_TOKEN",
        "The credential to use, before any stored one: for cron jobs and CI. "
        "A credential is never accepted as a command-line argument.",
    ),
    (
        "LEADCTL_TOKEN_FILE",
        "A file holding the credential, read when LEADCTL_TOKEN is not set.",
    ),
    (
        "LEADCTL_CONFIG_DIR",
        "Directory of config.toml and credentials/ "
        "(default: $XDG_CONFIG_HOME/leadctl, that is ~/.config/leadctl; "
        "~/Library/Application Support/leadctl on macOS).",
    ),
    (
        "LEADCTL_DATA_DIR",
        "Directory of the embedded sandbox's state "
        "(default: $XDG_DATA_HOME/leadctl, that is ~/.local/share/leadctl; "
        "~/Library/Application Support/leadctl on macOS).",
    ),
    (
        "LEADCTL_DEBUG",
        "Any value but empty or 0 prints HTTP traces and tracebacks on stderr, credentials "
        "redacted, like --debug.",
    ),
    (
        "LEADCTL_HELP_CACHE",
        "0 turns off the cache of rendered --help pages (kept in the cache dir, answered "
        "before the command tree is built; any change to leadctl, the config or a stored "
        "contract renders the page again).",
    ),
    ("LEADCTL_TIMEOUT", "Per-request timeout in seconds (default 30), like --timeout."),
    (
        "LEADCTL_HTTP_TRANSPORT",
        "httpx sends every request through httpx's connection pool. Otherwise a single "
        "request (not a page of --all, a bulk run, a download or a webhook) is sent with "
        "Python's http.client, which starts faster; the certificate roots, retries, "
        "--debug trace and error messages are the same. A proxy variable (HTTP_PROXY, "
        "HTTPS_PROXY, ALL_PROXY, NO_PROXY, any case) always selects httpx. With -p sandbox "
        "that single request is handed to the sandbox inside leadctl, and httpx only when "
        "this is httpx.",
    ),
    (
        "LEADCTL_PAGER",
        "Pager for long table output on a terminal; empty or cat turns paging off.",
    ),
    ("PAGER", "Pager used when LEADCTL_PAGER is not set (default: less -FRX)."),
    ("NO_COLOR", "Any non-empty value turns color off, like --no-color."),
    (
        "CLICOLOR_FORCE",
        "Any value but 0 turns color on even when the stream is not a terminal "
        "(NO_COLOR and --no-color still win).",
    ),
    ("FORCE_COLOR", "The same as CLICOLOR_FORCE."),
    ("CLICOLOR", "0 turns color off, like NO_COLOR."),
)

FILES: tuple[tuple[str, str], ...] = (
    (
        "$LEADCTL_CONFIG_DIR/config.toml",
        "Profiles and the current profile (base URL, output, timeout, region, ...); "
        "never a secret. Written atomically, mode 0600.",
    ),
    (
        "$LEADCTL_CONFIG_DIR/credentials/PROFILE",
        "The credential of a profile saved with auth login --insecure-storage "
        "(mode 0600, directory 0700). Other profiles keep theirs in the OS keyring "
        "(service leadctl, user = profile name).",
    ),
    (
        "$LEADCTL_DATA_DIR/sandbox/",
        "State of the sandbox that --profile sandbox runs inside the process; "
        "leadctl sandbox reset wipes it.",
    ),
)

EXIT_CODES: dict[ExitCode, str] = {
    ExitCode.OK: "Success; an empty list is success.",
    ExitCode.UNEXPECTED: "Unexpected error (run with --debug for a traceback).",
    ExitCode.USAGE: "Usage error or bad input caught before sending "
    "(bad flag, bad phone number, invalid JSON, name over 255 characters).",
    ExitCode.NOT_AUTHENTICATED: "Not authenticated: 401, no credential configured, "
    "or the OS keyring is not usable.",
    ExitCode.FORBIDDEN: "Forbidden: 403, or a credential kind that may not call this operation.",
    ExitCode.NOT_FOUND: "Not found: 404.",
    ExitCode.REJECTED: "Rejected by the service: 400.",
    ExitCode.RATE_LIMITED: "Rate limited: 429 still returned after the retry budget.",
    ExitCode.SERVICE_FAILURE: "Service or network failure (5xx, connection, timeout) "
    "after retries.",
    ExitCode.OUTCOME_UNKNOWN: "Outcome unknown: an operation that is not retry-safe may or "
    "may not have happened; the message says what to check.",
    ExitCode.CANCELLED: "Cancelled at a confirmation prompt.",
    ExitCode.INTERRUPTED: "Interrupted (Ctrl-C); paging prints the cursor to resume from.",
}

# (what it shows, the command lines)
EXAMPLES: tuple[tuple[str, tuple[str, ...]], ...] = (
    (
        "Try any command against the built-in sandbox, no login needed:",
        ("leadctl --profile sandbox leads list",),
    ),
    (
        "Log in once; the key goes to the OS keyring:",
        ("leadctl auth login --base-url https://api.example.com",),
    ),
    (
        "Rotate a source's intake key and keep only the new secret:",
        ("NEW=$(leadctl sources rotate SOURCE_ID --yes --secret-only)",),
    ),
    (
        "From cron, with the credential in a file: every lead, one JSON object per line:",
        (
            "export LEADCTL_TOKEN_FILE=$HOME/.leadctl-token",
            "leadctl leads list --all -o ndjson | jq -r .phone",
        ),
    ),
    (
        "A filtered CSV export:",
        ("leadctl leads list --filter state=TX --all -o csv > tx.csv",),
    ),
)
