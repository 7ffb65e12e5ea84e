"""What a command gets: IO streams, global options, the clock, and lazily built settings,
credential and HTTP client.

One :class:`Context` exists per invocation. Nothing here imports httpx, keyring or rich at
module import time; they load when a command first asks for the client or the credential.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from functools import cached_property
from typing import TYPE_CHECKING, Any

from leadctl.clock import Clock
from leadctl.errors import NotAuthenticated, UsageError
from leadctl.iostreams import IOStreams
from leadctl.output.formats import JSON, TABLE
from leadctl.request_limits import DEFAULT_MAX_RETRIES, DEFAULT_TIMEOUT
from leadctl.service_target import SANDBOX_PROFILE as SANDBOX_PROFILE
from leadctl.service_target import service_target

if TYPE_CHECKING:
    from datetime import tzinfo

    from leadctl.client import Client
    from leadctl.config import Config
    from leadctl.credentials import Credential
    from leadctl.sandbox_entry import EmbeddedSandbox

DEFAULT_PROFILE = "default"


class GlobalOptions:
    """The global options of cli.md, after flags and environment variables were merged.

    A plain class, not a dataclass: this module loads on every invocation, ``--help``
    included, and generating dataclass methods costs about a millisecond a class there.
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


class Settings:
    """The active profile's settings, resolved against flags and environment."""

    def __init__(
        self,
        *,
        profile: str,
        profile_values: dict[str, Any],
        base_url: str | None,
        timeout: float,
        output: str | None,
        embedded_sandbox: bool = False,
        notice: str | None = None,
        warning: str | None = None,
    ) -> None:
        self.profile = profile
        self.profile_values = profile_values
        self.base_url = base_url
        self.timeout = timeout
        self.output = output
        self.embedded_sandbox = embedded_sandbox
        # Said once, when the service is first used (see leadctl.service_target).
        self.notice = notice
        self.warning = warning

    def get(self, key: str, default: Any = None) -> Any:
        return self.profile_values.get(key, default)


class Context:
    """One invocation's state (plain class for start-up, as GlobalOptions)."""

    def __init__(
        self,
        ios: IOStreams,
        options: GlobalOptions | None = None,
        clock: Clock | None = None,
        env: Mapping[str, str] | None = None,
        # Tests hand in an httpx transport; production uses the default one.
        transport: Any = None,
    ) -> None:
        self.ios = ios
        self.options = GlobalOptions() if options is None else options
        self.clock = Clock() if clock is None else clock
        self.env: Mapping[str, str] = os.environ if env is None else env
        self.transport = transport
        self._sandbox: EmbeddedSandbox | None = None
        self._client: Client | None = None

    def with_options(self, options: GlobalOptions) -> Context:
        """A fresh context over the same streams, clock, environment and embedded sandbox,
        with other options: its settings, credential and client are looked up again."""
        copy = Context(self.ios, options, self.clock, self.env, self.transport)
        copy._sandbox = self._sandbox
        return copy

    # -- settings ----------------------------------------------------------------------

    @cached_property
    def config(self) -> Config:
        from leadctl.config import load_config

        return load_config(self.env)

    @cached_property
    def profile_name(self) -> str:
        return self.options.profile or self.config.current_profile or DEFAULT_PROFILE

    @cached_property
    def settings(self) -> Settings:
        name = self.profile_name
        values = self.config.profiles.get(name)
        explicitly_named = self.options.profile is not None
        if values is None:
            if explicitly_named and name != SANDBOX_PROFILE:
                known = ", ".join(sorted(self.config.profiles)) or "none yet"
                raise UsageError(
                    f"unknown profile {name!r} (configured: {known})",
                    hint="create it with `leadctl auth login --profile NAME` "
                    "or `leadctl profile set`",
                )
            values = {}
        timeout = self.options.timeout
        if timeout is None:
            timeout = float(values.get("timeout", DEFAULT_TIMEOUT))
        options = self.options
        target = service_target(
            name,
            values,
            base_url_flag=None if options.base_url_from_env else options.base_url,
            base_url_env=options.base_url if options.base_url_from_env else None,
            env=self.env,
            named_with_flag=explicitly_named and not options.profile_from_env,
        )
        base_url = target.base_url
        if base_url is not None:
            from leadctl.urls import validate_base_url

            base_url = validate_base_url(
                base_url, allow_insecure_http=self.options.allow_insecure_http
            )
        return Settings(
            profile=name,
            profile_values=dict(values),
            base_url=base_url,
            timeout=timeout,
            output=values.get("output"),
            # Settings of the sandbox profile (region, output...) are layered on the embedded
            # sandbox, which nothing points elsewhere.
            embedded_sandbox=target.embedded_sandbox,
            notice=target.notice,
            warning=target.warning,
        )

    @cached_property
    def output_format(self) -> str:
        if self.options.jq is not None:
            return JSON
        chosen = self.options.output or self.settings_output_or_none()
        if chosen is None:
            return TABLE if self.ios.stdout_is_tty else JSON
        return chosen

    @property
    def output_explicit(self) -> bool:
        """Whether the user asked for a format, as opposed to the piped default."""
        return self.options.output is not None or self.settings_output_or_none() is not None

    def settings_output_or_none(self) -> str | None:
        try:
            return self.settings.output
        except UsageError:
            return None

    def input_zone(self) -> tzinfo | None:
        """The zone of a time typed without an offset: the profile's ``timezone``, else the
        system's (None: the C library's local time)."""
        from leadctl.datetimes import input_zone

        return input_zone(self.settings.get("timezone"), self.env)

    # -- the service -------------------------------------------------------------------

    def sandbox(self) -> EmbeddedSandbox:
        """The sandbox server embedded in this process (``--profile sandbox``)."""
        if self._sandbox is None:
            from leadctl.sandbox_entry import start_embedded

            if self.settings.notice:
                self.ios.info(self.settings.notice)
            self._sandbox = start_embedded(self.env)
        return self._sandbox

    @property
    def sandbox_started(self) -> bool:
        """Whether this invocation started the embedded sandbox (its port ends with it)."""
        return self._sandbox is not None

    def base_url(self) -> str:
        if self.settings.embedded_sandbox:
            return self.sandbox().base_url
        if self.settings.warning and not self.__dict__.get("_warned_base_url"):
            self.__dict__["_warned_base_url"] = True
            self.ios.warn(self.settings.warning)
        if self.settings.base_url is None:
            raise UsageError(
                f"no base URL for profile {self.settings.profile!r}",
                hint="pass --base-url, set LEADCTL_BASE_URL, or `leadctl profile set base_url URL`",
            )
        return self.settings.base_url

    def credential(self) -> Credential | None:
        """The credential by the lookup order of cli.md, or None when there is none."""
        # Not cached as "credential": that instance attribute would shadow this method, and
        # a client built after the first lookup would get the Credential, not a callable.
        if "_found_credential" not in self.__dict__:
            self.__dict__["_found_credential"] = self._lookup_credential()
        found: Credential | None = self.__dict__["_found_credential"]
        if found is not None and found.oauth is not None and not self.options.dry_run:
            # Every use, not only the first: an import or --all can outlive a token.
            found = self._kept_fresh(found)
        return found

    def _kept_fresh(self, held: Credential) -> Credential:
        from leadctl.oauth.session import fresh, now

        assert held.oauth is not None
        if not held.oauth.expiring(now(self)):
            return held
        import threading

        # Senders on several threads (leads import) refresh once, not once each.
        guard = self.__dict__.setdefault("_refresh_guard", threading.Lock())
        with guard:
            current: Credential = self.__dict__["_found_credential"]
            renewed = fresh(self, current)
            self.__dict__["_found_credential"] = renewed
        return renewed

    def looked_up_credential(self) -> Credential | None:
        """The credential if it was already looked up; never looks it up (reporting an
        error must not reach the keyring)."""
        found: Credential | None = self.__dict__.get("_found_credential")
        return found

    def _lookup_credential(self) -> Credential | None:
        from leadctl.credentials import (
            Credential,
            CredentialKind,
            lookup_credential,
            with_contract_prefixes,
        )
        from leadctl.operations import source_key_prefixes

        if self.settings.embedded_sandbox:
            # Never a credential from the environment: that belongs to another service.
            return Credential(self.sandbox().org_key, CredentialKind.ORG, "sandbox")
        found = lookup_credential(
            env=self.env,
            profile=self.settings.profile,
            profile_settings=self.settings.profile_values,
        )
        if found is None or found.recognised:
            return found
        return with_contract_prefixes(found, source_key_prefixes(self))

    def refresh_credential(self, rejected: Credential) -> Credential | None:
        """After a 401 invalid_token: the OAuth credential refreshed, once per invocation;
        None when it is not an OAuth token or was already refreshed."""
        if rejected.oauth is None or self.__dict__.get("_refreshed_after_401"):
            return None
        self.__dict__["_refreshed_after_401"] = True
        from leadctl.oauth.session import refresh

        renewed = refresh(self, rejected, force=True)
        self.__dict__["_found_credential"] = renewed
        return renewed

    def require_credential(self) -> Credential:
        found = self.credential()
        if found is None:
            raise NotAuthenticated(
                f"no credential for profile {self.settings.profile!r}",
                hint="run `leadctl auth login`, or set LEADCTL_TOKEN",
            )
        return found

    def client(self) -> Client:
        if self._client is None:
            from leadctl.client import Client

            self._client = Client.from_context(self)
        return self._client

    def close(self) -> None:
        if self._client is not None:
            self._client.close()
            self._client = None
        if self._sandbox is not None:
            self._sandbox.stop()
            self._sandbox = None
