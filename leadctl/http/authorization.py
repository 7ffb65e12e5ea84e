"""Which credential a request goes with and where it is put: the operation's security
scheme (or the profile's source_key_header), refused before anything is sent when the
contract does not admit its kind, renewed once after a 401 ``invalid_token``."""

from __future__ import annotations

from collections.abc import Callable

from leadctl.config.credential_use import Place, admits, header_value, places_for
from leadctl.config.credentials import Credential, CredentialKind
from leadctl.contract.operations import Operation
from leadctl.errors import ApiError, Forbidden, LeadctlError, NotAuthenticated


class Authorization:
    def __init__(
        self,
        credential: Callable[[], Credential | None],
        *,
        source_key_header: str | None,
        reauthenticate: Callable[[Credential], Credential | None] | None,
    ) -> None:
        self._credential = credential
        self._source_key_header = source_key_header
        # After a 401 invalid_token: a renewed credential (OAuth refresh), or None.
        self._reauthenticate = reauthenticate

    def places(self, credential: Credential, op: Operation) -> tuple[Place, ...]:
        """Where ``credential`` goes for ``op``: the contract's scheme, or for a source key
        the header the profile's source_key_header names."""
        return places_for(
            op.requirements, credential.kind.value, source_key_header=self._source_key_header
        )

    def authorize(self, op: Operation) -> Credential | None:
        """The credential to send; None for an operation that takes none (``security:
        []``), whose credential is not even looked up. A credential of a kind the operation
        does not admit is exit 4 before anything is sent (or printed, with --dry-run)."""
        if op.anonymous:
            return None
        credential = self._credential()
        if credential is None:
            raise NotAuthenticated(
                "no credential configured",
                hint="run `leadctl auth login`, or set LEADCTL_TOKEN",
            )
        check_admitted(credential, op)
        return credential

    def headers_for(self, op: Operation) -> list[tuple[str, str]]:
        """The credential header ``op`` goes with (none for an anonymous operation): for a
        request leadctl sends on its own, such as a redirect on the same origin."""
        credential = self.authorize(op)
        if credential is None:
            return []
        headers = []
        # A credential the scheme puts in the query is not added: the Location the service
        # answered is the whole URL to follow.
        for place in self.places(credential, op):
            if place.where == "header":
                headers.append((place.name, header_value(place, credential.value)))
            elif place.where == "cookie":
                headers.append(("Cookie", f"{place.name}={credential.value}"))
        return headers

    def renewed_after(self, error: ApiError, credential: Credential) -> Credential | None:
        """A refreshed credential when the service said the token is invalid (RFC 6750
        ``invalid_token``) and one can be had; once per invocation (the context's rule)."""
        if error.status != 401 or self._reauthenticate is None:
            return None
        if "invalid_token" not in (error.challenge or ""):
            return None
        return self._reauthenticate(credential)

    def for_dry_run(self, op: Operation) -> tuple[Credential | None, tuple[Place, ...]]:
        """The credential a dry run shows as $LEADCTL_TOKEN and where it goes; refused as
        the real run would refuse it (a credential of the wrong kind)."""
        if op.anonymous:
            return None, ()
        try:
            credential = self._credential()
        except LeadctlError:
            credential = None  # a dry run never needs a working keyring
        if credential is None:
            return None, places_for(op.requirements, "unknown")
        check_admitted(credential, op)
        return credential, self.places(credential, op)


def check_admitted(credential: Credential, op: Operation) -> None:
    """Exit 4 when the contract does not let this kind of credential call ``op``."""
    if admits(op.kinds, credential.kind.value):
        return
    if credential.kind is CredentialKind.SOURCE:
        hint = (
            "source keys are only for lead intake (`leadctl leads create`, and any "
            "operation whose contract security names a source key); use an "
            "organization key or user token for everything else"
        )
    else:
        hint = "the contract's security for this operation admits only " + " or ".join(
            f"{kind} credentials" for kind in sorted(op.kinds)
        )
    raise Forbidden(
        f"a {credential.kind.value} credential may not call {op.method} {op.path}", hint=hint
    )
