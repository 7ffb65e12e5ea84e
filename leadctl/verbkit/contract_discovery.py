"""Finding and fetching a service's contract (cli.md "contract").

``contract pull`` tries, in order: the profile's ``contract_url``; the URL a
``Link: <...>; rel="service-desc"`` header of the base URL names (RFC 8631); then
``/openapi.json``, ``/openapi/v1.json`` and ``/swagger/v1/swagger.json`` under the base
URL. The first that answers with a document wins; a 404 moves on. A stored ETag goes out
as ``If-None-Match``, and 304 leaves the stored contract as it is.

The credential goes only to the profile's own host (scheme, host and port), and only an
organization key or user token; a URL anywhere else (a docs site) is fetched without
any. Plain http is refused except on loopback (or with --allow-insecure-http).
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Protocol
from urllib.parse import urljoin, urlsplit, urlunsplit

from leadctl.config.credentials import CredentialKind
from leadctl.config.urls import is_loopback_host
from leadctl.contract.loading import load_contract, new_budget
from leadctl.contract.operations import STAFF, Operation
from leadctl.contract.store import key_for_base_url, save
from leadctl.errors import ApiError, DryRunDone, LeadctlError, ServiceFailure, UsageError
from leadctl.http.client import (
    USER_AGENT,
    Client,
    RetryPolicy,
    problem_from_response,
    tls_verification,
)
from leadctl.http.curl import curl_command

if TYPE_CHECKING:
    import httpx

    from leadctl.config.credentials import Credential
    from leadctl.contract.budget import Budget
    from leadctl.contract.loading import Loaded
    from leadctl.http.client import Client
    from leadctl.verbkit.invocation import RequestInvocation

    # Only a type: what a caller hands in (the Context is one).
    class DiscoveryInvocation(RequestInvocation, Protocol):
        """What finding and fetching a service's contract reads of a command: also its
        credential (sent only to the profile's own host) and its profile's stored settings."""

        @property
        def profile_name(self) -> str: ...

        def credential(self) -> Credential | None: ...

else:
    # A stand-in that loads httpx the first time it is used: importing stays light.
    from leadctl.http._httpx import httpx


WELL_KNOWN_PATHS = ("/openapi.json", "/openapi/v1.json", "/swagger/v1/swagger.json")
ACCEPT = "application/openapi+json, application/json;q=0.9, application/yaml;q=0.8, */*;q=0.5"


@dataclass(frozen=True)
class Fetched:
    url: str
    raw: bytes | None  # None: 304, the stored contract is current
    etag: str | None


def label(url: str) -> str:
    """The URL without query or fragment (which may carry a token), for messages."""
    parts = urlsplit(url)
    return urlunsplit((parts.scheme, parts.netloc, parts.path, "", ""))


def origin(url: str) -> tuple[str, str, int]:
    parts = urlsplit(url)
    port = parts.port or (443 if parts.scheme == "https" else 80)
    return parts.scheme, (parts.hostname or "").lower(), port


def check_contract_url(url: str, *, allow_insecure_http: bool) -> None:

    parts = urlsplit(url)
    if "@" in parts.netloc:
        raise UsageError("a contract URL must not carry credentials")
    if parts.scheme not in ("http", "https") or not parts.hostname:
        raise UsageError(f"not an http(s) URL: {label(url)}")
    if parts.scheme == "http" and not is_loopback_host(parts.hostname) and not allow_insecure_http:
        raise UsageError(
            f"refusing plain http:// to {parts.hostname} for a contract",
            hint="use https:// (plain http only on loopback, or with --allow-insecure-http)",
        )


def _contract_operation(url: str, *, with_credential: bool) -> Any:

    return Operation(
        id="GET contract",
        method="GET",
        path=url,
        retry_safe=True,
        retry_reason="a read",
        kinds=STAFF if with_credential else frozenset(),
    )


@dataclass
class Discovery:
    """What fetching a contract needs: the invocation, the service's base URL, a client
    for its host, and whether the credential may go along."""

    ctx: DiscoveryInvocation
    base_url: str | None
    client: Client | None
    send_credential: bool
    contract_url: str | None = None
    ca_bundle: Any = None

    @classmethod
    def from_context(cls, ctx: DiscoveryInvocation) -> Discovery:

        try:
            base: str | None = ctx.base_url()
        except UsageError:
            base = None
        try:
            found = ctx.credential()
        except LeadctlError:
            found = None
        configured = _settings_value(ctx, "contract_url")
        return cls(
            ctx=ctx,
            base_url=base,
            client=ctx.client() if base is not None else None,
            send_credential=found is not None and found.kind is not CredentialKind.SOURCE,
            contract_url=configured if isinstance(configured, str) and configured else None,
            ca_bundle=_settings_value(ctx, "ca_bundle"),
        )

    def fetch(self, url: str, *, etag: str | None = None) -> Fetched:
        """GET a contract: with the profile's client (and credential) on its host, with a
        bare client and no credential anywhere else."""
        ctx = self.ctx
        check_contract_url(url, allow_insecure_http=ctx.options.allow_insecure_http)
        headers = [("Accept", ACCEPT)]
        if etag:
            headers.append(("If-None-Match", etag))
        if self.client is not None and self.base_url and origin(url) == origin(self.base_url):
            op = _contract_operation(url, with_credential=self.send_credential)
            response = self.client.call(op, headers=headers)
        else:
            response = self._fetch_elsewhere(url, headers)
        if response.status_code == 304:
            return Fetched(url, None, etag)
        return Fetched(url, bytes(response.content), response.headers.get("ETag"))

    def _fetch_elsewhere(self, url: str, headers: list[tuple[str, str]]) -> Any:
        """A host that is not the profile's: no credential, redirects followed."""
        ctx = self.ctx
        if ctx.options.dry_run:
            command = curl_command("GET", url, headers=headers, body=None)
            ctx.ios.data_out().write(command + "\n")
            raise DryRunDone("dry run")
        with httpx.Client(
            timeout=ctx.options.timeout or 30.0,
            verify=tls_verification(self.ca_bundle, ctx.env),
            follow_redirects=True,
            transport=ctx.transport,
            headers={"User-Agent": USER_AGENT},
        ) as client:
            try:
                response = client.get(url, headers=headers)
            except httpx.HTTPError as error:
                raise ServiceFailure(f"cannot fetch {label(url)}: {type(error).__name__}") from None
        check_contract_url(str(response.url), allow_insecure_http=ctx.options.allow_insecure_http)
        if response.status_code >= 400:
            raise problem_from_response(response)
        return response

    def candidates(self) -> Iterator[str]:
        """Where `contract pull` looks, in order; the base URL is asked for its Link
        header only once the profile's contract_url was not found."""
        seen: set[str] = set()
        if self.contract_url:
            seen.add(self.contract_url)
            yield self.contract_url
        if self.base_url is None:
            return
        linked = self._service_desc(self.base_url)
        for url in [linked] if linked else []:
            if url not in seen:
                seen.add(url)
                yield url
        for path in WELL_KNOWN_PATHS:
            if self.base_url + path not in seen:
                yield self.base_url + path

    def _service_desc(self, base_url: str) -> str | None:
        """The ``rel="service-desc"`` link of the base URL, if the service sends one."""
        if self.ctx.options.dry_run or self.client is None:
            return None
        try:
            response = self.client.call(
                _contract_operation(base_url + "/", with_credential=self.send_credential),
                headers=[("Accept", ACCEPT)],
            )
        except LeadctlError:
            return None
        link = response.links.get("service-desc", {}).get("url")
        return urljoin(base_url + "/", link) if link else None

    def discover(self, *, etag_for: dict[str, str]) -> Fetched:
        """The first candidate that answers; 404 (and 405, 406, 410) moves on."""
        tried = []
        for url in self.candidates():
            try:
                return self.fetch(url, etag=etag_for.get(label(url)))
            except ApiError as error:
                if error.status not in (404, 405, 406, 410):
                    raise
                tried.append(label(url))
        raise UsageError(
            "found no contract: " + (", ".join(tried) or "nothing to try") + " answered not found",
            hint="set the profile's contract_url (`leadctl profile set contract_url URL`), "
            "or `leadctl contract import FILE|URL`",
        )


def _settings_value(ctx: DiscoveryInvocation, key: str) -> Any:
    try:
        return ctx.settings.get(key)
    except UsageError:
        return None


def pull_after_login(ctx: DiscoveryInvocation, base_url: str, credential: Any) -> None:
    """`auth login`'s last step: pull the new profile's contract and keep it for the
    service. Anything short of a stored contract is one line on stderr, never a failed
    login."""

    values = ctx.config.profiles.get(ctx.profile_name, {})
    try:
        client = Client(
            base_url=base_url,
            credential=lambda: credential,
            timeout=ctx.options.timeout or 30.0,
            verify=tls_verification(values.get("ca_bundle"), ctx.env),
            policy=RetryPolicy(max_retries=ctx.options.max_retries),
            sleep=ctx.clock.sleep,
            notify=ctx.ios.info,
            transport=ctx.transport,
        )
        discovery = Discovery(
            ctx=ctx,
            base_url=base_url,
            client=client,
            send_credential=credential.kind is not CredentialKind.SOURCE,
            contract_url=values.get("contract_url") or None,
            ca_bundle=values.get("ca_bundle"),
        )
        found = discovery.discover(etag_for={})
        if found.raw is None:
            return
        what = label(found.url)
        budget = new_budget(what, ctx.clock.monotonic, flag="")
        loaded = load_contract(found.raw, what=what, budget=budget)
        store(ctx, key_for_base_url(base_url), found, loaded, budget)
        if loaded.left_out:
            ctx.ios.info(
                f"note: {len(loaded.left_out)} operations of the contract were left out "
                "(`leadctl contract show` says why)"
            )
    except LeadctlError as error:
        ctx.ios.info(f"note: no contract pulled ({error.message}); the bundled one is used")


def store(
    ctx: DiscoveryInvocation, key: str, found: Fetched, loaded: Loaded, budget: Budget
) -> Any:
    """Keep a fetched, checked contract for the service ``key`` names."""

    return save(
        ctx.env,
        key,
        loaded,
        budget=budget,
        source=label(found.url),
        imported_at=ctx.clock.now().isoformat(timespec="seconds").replace("+00:00", "Z"),
        etag=found.etag,
    )
