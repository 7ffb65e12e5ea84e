"""The global options of a command (cli.md "Global flags"), after flags and environment
variables were merged: a leaf, so every room can read them without the invocation's Context.
"""

from __future__ import annotations

from typing import Any

from leadctl.config.request_limits import DEFAULT_MAX_RETRIES


class GlobalOptions:
    """The global options of cli.md, after flags and environment variables were merged.

    A plain class, not a dataclass: this module loads on every command that runs, and
    generating dataclass methods costs about a millisecond a class there.
    """

    __slots__ = (
        "allow_formulas",
        "allow_insecure_http",
        "base_url",
        "base_url_from_env",
        "columns",
        "debug",
        "dry_run",
        "jq",
        "max_retries",
        "no_color",
        "no_input",
        "no_pager",
        "output",
        "profile",
        "profile_from_env",
        "quiet",
        "timeout",
        "utc",
    )  # fmt: skip

    def __init__(
        self,
        *,
        profile: str | None = None,
        base_url: str | None = None,
        output: str | None = None,
        columns: list[str] | None = None,
        quiet: bool = False,
        no_color: bool = False,
        no_input: bool = False,
        no_pager: bool = False,
        debug: bool = False,
        timeout: float | None = None,
        max_retries: int = DEFAULT_MAX_RETRIES,
        dry_run: bool = False,
        allow_insecure_http: bool = False,
        jq: str | None = None,
        utc: bool = False,
        allow_formulas: bool = False,
        profile_from_env: bool = False,
        base_url_from_env: bool = False,
    ) -> None:
        self.profile = profile
        self.base_url = base_url
        # Where profile and base_url came from: LEADCTL_PROFILE / LEADCTL_BASE_URL rather
        # than -p / --base-url (the sandbox profile ignores the environment's base URL).
        self.profile_from_env = profile_from_env
        self.base_url_from_env = base_url_from_env
        self.output = output
        self.columns = columns
        self.quiet = quiet
        self.no_color = no_color
        self.no_input = no_input
        self.no_pager = no_pager
        self.debug = debug
        self.timeout = timeout
        self.max_retries = max_retries
        self.dry_run = dry_run
        self.allow_insecure_http = allow_insecure_http
        # A jq expression applied to the JSON output (gh's --jq); implies JSON.
        self.jq = jq
        # Show times in UTC rather than the profile's or the system's zone.
        self.utc = utc
        # csv/tsv cells that a spreadsheet would run as a formula are written as they are.
        self.allow_formulas = allow_formulas

    def replaced(self, **changes: Any) -> GlobalOptions:
        """A copy with some options changed."""
        values = {name: getattr(self, name) for name in self.__slots__}
        values.update(changes)
        return GlobalOptions(**values)

    def __repr__(self) -> str:
        shown = ", ".join(f"{name}={getattr(self, name)!r}" for name in self.__slots__)
        return f"GlobalOptions({shown})"
