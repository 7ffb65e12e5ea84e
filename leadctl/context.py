"""What a command gets: IO streams, global options, the clock, and lazily built settings,
credential and HTTP client.

One :class:`Context` exists per invocation, as gh's Factory: data, and collaborators built
on first use, each declared here. What they do lives in their own rooms (profile settings,
the held credential, the embedded sandbox, the client); this module wires them. Nothing here
imports httpx, keyring or rich at module import time; they load when a command first asks
for the client or the credential.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from functools import cached_property
from typing import TYPE_CHECKING, Any

from leadctl.clock import Clock
from leadctl.errors import NotAuthenticated, UsageError
from leadctl.formats import JSON, TABLE
from leadctl.global_options import GlobalOptions

if TYPE_CHECKING:
    from datetime import tzinfo

    from leadctl.config.credentials import Credential
    from leadctl.config.held_credential import HeldCredential
    from leadctl.config.profile_settings import Settings
    from leadctl.config.settings import Config
    from leadctl.contract.entries import Parameter
    from leadctl.contract.operation_secrets import OperationSecrets
    from leadctl.contract.operations import Operation
    from leadctl.contract.store import ActiveIndex
    from leadctl.http.client import Client
    from leadctl.iostreams import IOStreams
    from leadctl.oauth.session import SignedInProfile
    from leadctl.output.checked_columns import CheckedColumns
    from leadctl.sandbox_entry import EmbeddedSandbox, SandboxOnDemand


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
        self._given_transport = transport
        self._sandbox: SandboxOnDemand | None = None
        self._held: HeldCredential | None = None
        self._client: Client | None = None
        self._warned_base_url = False
        # Kept for this invocation by the modules that fill them in.
        # --columns as the response schema confirmed it (leadctl.output.response_columns):
        self.columns_checked: CheckedColumns | None = None
        # The active contract's own query parameters given to a curated verb, by operation
        # template (leadctl.inputs.given):
        self.contract_params_given: dict[tuple[str, str], list[tuple[Parameter, Any]]] = {}

    def with_options(self, options: GlobalOptions) -> Context:
        """A fresh context over the same streams, clock, environment and embedded sandbox,
        with other options: its settings, credential and client are looked up again."""
        copy = Context(self.ios, options, self.clock, self.env, self._given_transport)
        copy._sandbox = self._sandbox
        return copy

    # -- settings ----------------------------------------------------------------------

    @cached_property
    def config(self) -> Config:
        from leadctl.config.settings import load_config

        return load_config(self.env)

    @cached_property
    def profile_name(self) -> str:
        from leadctl.config.profile_settings import profile_name

        return profile_name(self.options.profile, self.config)

    @cached_property
    def settings(self) -> Settings:
        from leadctl.config.profile_settings import resolve_settings

        options = self.options
        return resolve_settings(
            self.config,
            self.env,
            named=options.profile,
            named_from_env=options.profile_from_env,
            base_url=options.base_url,
            base_url_from_env=options.base_url_from_env,
            timeout=options.timeout,
            allow_insecure_http=options.allow_insecure_http,
        )

    @cached_property
    def active_index(self) -> ActiveIndex:
        """The active contract's compiled index (``leadctl.contract.operations``), read once."""
        from leadctl.contract.store import active_for_settings

        return active_for_settings(self.env, lambda: self.settings)

    def use_active_index(self, active: ActiveIndex) -> None:
        """Share an index already read this invocation (the generated command tree's)."""
        self.active_index = active

    def contract_query(self, method: str, path: str) -> str:
        """The query string of the active contract's own parameters given to the curated
        verb of METHOD + path template ("" for none). Only when some were given is the
        reading of their values loaded: `leads list --all` needs none."""
        if not self.contract_params_given:
            return ""
        from leadctl.inputs.given import contract_query

        return contract_query(self, method, path)

    def contract_key(self) -> str | None:
        """The store key of this command's profile's contract; None when the profile's
        settings are unusable (a profile ``auth login`` has not made yet)."""
        from leadctl.contract.store import settings_key

        return settings_key(lambda: self.settings)

    @property
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
        from leadctl.inputs.datetimes import input_zone

        return input_zone(self.settings.get("timezone"), self.env)

    # -- the service -------------------------------------------------------------------

    def sandbox(self) -> EmbeddedSandbox:
        """The sandbox server embedded in this process (``--profile sandbox``)."""
        from leadctl.sandbox_entry import (
            SandboxOnDemand,  # light: loads the sandbox when one starts
        )

        if self._sandbox is None:
            notice = self.settings.notice
            self._sandbox = SandboxOnDemand(self.env, notice=notice, info=self.ios.info)
        return self._sandbox.running()

    @property
    def sandbox_started(self) -> bool:
        """Whether this invocation started the embedded sandbox (its port ends with it)."""
        return self._sandbox is not None and self._sandbox.started

    @property
    def transport(self) -> Any:
        """The httpx transport of every client of the invocation: a test's, else the
        embedded sandbox's (its app answering in this process), else None (the network)."""
        if self._given_transport is not None:
            return self._given_transport
        try:
            embedded = self.settings.embedded_sandbox
        except UsageError:
            return None  # a profile not made yet (auth login makes it) is not the sandbox
        return self.sandbox().transport if embedded else None

    def base_url(self) -> str:
        if self.settings.embedded_sandbox:
            return self.sandbox().base_url
        if self.settings.warning and not self._warned_base_url:
            self._warned_base_url = True
            self.ios.warn(self.settings.warning)
        if self.settings.base_url is None:
            raise UsageError(
                f"no base URL for profile {self.settings.profile!r}",
                hint="pass --base-url, set LEADCTL_BASE_URL, or `leadctl profile set base_url URL`",
            )
        return self.settings.base_url

    # -- the credential ----------------------------------------------------------------

    def credential(self) -> Credential | None:
        """The credential by the lookup order of cli.md, or None when there is none."""
        return self._held_credential().current()

    def looked_up_credential(self) -> Credential | None:
        """The credential if it was already looked up; never looks it up (reporting an
        error must not reach the keyring)."""
        return None if self._held is None else self._held.looked_up()

    def require_credential(self) -> Credential:
        found = self.credential()
        if found is None:
            raise NotAuthenticated(
                f"no credential for profile {self.settings.profile!r}",
                hint="run `leadctl auth login`, or set LEADCTL_TOKEN",
            )
        return found

    def _held_credential(self) -> HeldCredential:
        from leadctl.config.held_credential import HeldCredential

        if self._held is None:
            self._held = HeldCredential(
                look_up=self._look_up_credential,
                renew=self._renewed,
                now=lambda: self.clock.now().timestamp(),
                keep_fresh=not self.options.dry_run,
            )
        return self._held

    def _look_up_credential(self) -> Credential | None:
        from leadctl.config.credentials import Credential, CredentialKind
        from leadctl.config.held_credential import resolve_credential
        from leadctl.contract.operations import source_key_prefixes

        if self.settings.embedded_sandbox:
            # Never a credential from the environment: that belongs to another service.
            return Credential(self.sandbox().org_key, CredentialKind.ORG, "sandbox")
        return resolve_credential(
            env=self.env,
            profile=self.settings.profile,
            profile_values=self.settings.profile_values,
            source_key_prefixes=lambda: source_key_prefixes(self),
        )

    def _renewed(self, credential: Credential, force: bool) -> Credential:
        from leadctl.oauth.session import refresh

        return refresh(self.signed_in_profile(), credential, force=force)

    def signed_in_profile(self, *, as_configured: bool = False) -> SignedInProfile:
        """The profile as OAuth refresh and revocation need it: its resolved settings, or
        with ``as_configured`` its config table as it is (a login or logout works on a
        profile that does not exist yet or whose settings do not resolve)."""
        from leadctl.oauth.session import SignedInProfile, http_settings

        options, ios = self.options, self.ios
        if as_configured:
            values = self.config.profiles.get(self.profile_name, {})
        else:
            values = self.settings.profile_values
        return SignedInProfile(
            profile=self.profile_name,
            values=values,
            env=self.env,
            now=lambda: self.clock.now().timestamp(),
            http=lambda: http_settings(
                values,
                env=self.env,
                timeout=options.timeout,
                transport=self.transport,
                trace=ios.trace if options.debug else None,
            ),
        )

    # -- the client --------------------------------------------------------------------

    def client(self) -> Client:
        """The invocation's client, closed with it."""
        if self._client is None:
            self._client = self.new_client()
        return self._client

    def new_client(self, *, keep_cookies: bool = True) -> Client:
        """A client of the caller's own (who closes it), built from this invocation's pieces;
        ``keep_cookies=False``: the service's Set-Cookie answers are not read."""
        from leadctl.config.rate_limit import known_limit
        from leadctl.http.client import Client, tls_verification
        from leadctl.http.retry import RetryPolicy

        options, settings, clock = self.options, self.settings, self.clock
        ca_bundle = settings.get("ca_bundle")
        out = self.ios.data_out() if options.dry_run else None
        return Client(
            base_url=self.base_url,
            credential=self.credential,
            timeout=settings.timeout,
            policy=RetryPolicy(max_retries=options.max_retries),
            sleep=clock.sleep,
            monotonic=clock.monotonic,
            # Retry-After as an HTTP date is read against the invocation's clock.
            wall_clock=lambda: clock.now().timestamp(),
            notify=self.ios.info,
            trace=self.ios.trace if options.debug else None,
            dry_run_out=None if out is None else lambda line: print(line, file=out),
            source_key_header=settings.get("source_key_header"),
            secret_fields=self._secret_fields if options.debug or options.dry_run else None,
            transport=self.transport,
            # Loaded with the first https URL: a plain-http base URL never reads a bundle
            # (SSL_CERT_FILE is commonly set; loading it was most of a loopback read's
            # start-up). A bad bundle is still an error before anything is sent.
            verify=lambda: tls_verification(ca_bundle, self.env),
            reauthenticate=self._held_credential().after_rejection,
            rate_limit=known_limit(None, settings.get("rate_limit")),
            keep_cookies=keep_cookies,
            env=self.env,
        )

    def _secret_fields(self, op: Operation) -> OperationSecrets:
        """The contract's secret fields of ``op``, for --debug and --dry-run."""
        from leadctl.contract.operation_secrets import operation_secrets

        return operation_secrets(self, op)

    def close(self) -> None:
        if self._client is not None:
            self._client.close()
            self._client = None
        if self._sandbox is not None:
            self._sandbox.stop()
            self._sandbox = None
