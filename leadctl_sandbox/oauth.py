"""The sandbox's small OAuth 2.0 authorization server, so ``auth login --device`` and
``--web`` run end to end with no network.

What it offers, at the sandbox's own base URL:

- ``GET /.well-known/oauth-protected-resource`` (RFC 9728): the API names this server;
- ``GET /.well-known/oauth-authorization-server/oauth`` (RFC 8414), issuer ``BASE/oauth``;
- ``POST /oauth/register`` (RFC 7591): public clients only (``token_endpoint_auth_method``
  ``none``); the client ``leadctl`` is registered from the start;
- ``POST /oauth/device_authorization`` (RFC 8628) and ``GET|POST /oauth/device``: the page
  where a person approves or denies a pending user code (a form; tests POST
  ``{"user_code": ..., "decision": "approve" | "deny"}``);
- ``GET /oauth/authorize``: the authorization code grant with PKCE (S256 required); the
  sandbox has no login page, so the request is approved at once for the demo owner and the
  browser is redirected to the (loopback) ``redirect_uri`` with the code;
- ``POST /oauth/token``: ``authorization_code``, device code and ``refresh_token`` grants;
  refresh tokens rotate on every use, and presenting a used one revokes its whole family;
- ``POST /oauth/revoke`` (RFC 7009): a refresh token, and the rest of its family.

Access tokens are the HS256 user JWTs the sandbox's API already verifies (same signing
key), short-lived: 300 s by default. With the ``openid`` scope an ID token says who signed
in (email, name, organization); its issuer is this server's, so the API refuses it. The
grants live in memory, for as long as the server runs.

With ``--faults`` (tests), ``GET|POST /oauth/_sandbox`` shows the number of grants of each
type (``?secrets=1``: also the device codes, codes, PKCE verifiers and ID tokens it saw,
for the secret audit) and sets ``accessTokenLifetime``, ``deviceInterval``,
``deviceCodeLifetime``, ``decision`` (``approve``/``deny`` for ``/oauth/authorize``) and
``revokeAll``.

No secret is logged: the request log keeps no form body (it is not JSON), and code, token
and verifier values are never written anywhere but the answers.
"""

from __future__ import annotations

import base64
import hashlib
import html
import json
import secrets
import time
from collections import Counter
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import parse_qsl, urlencode, urlsplit, urlunsplit

from starlette.requests import Request
from starlette.responses import HTMLResponse, JSONResponse, RedirectResponse, Response
from starlette.types import Receive, Scope, Send

from leadctl_sandbox import keys
from leadctl_sandbox.db import loads
from leadctl_sandbox.oauth_routes import (
    ISSUER_PATH,
    METADATA_PATH,
    PROTECTED_RESOURCE_PATH,
)
from leadctl_sandbox.state import SandboxState

DEVICE_GRANT = "urn:ietf:params:oauth:grant-type:device_code"
BUILT_IN_CLIENT = "leadctl"
SCOPES = ("openid", "offline_access", "leads")
LOOPBACK_HOSTS = frozenset({"127.0.0.1", "localhost", "[::1]", "::1"})
CODE_LIFETIME = 120.0
REFRESH_LIFETIME = 30 * 24 * 3600.0
_NO_STORE = {"Cache-Control": "no-store", "Pragma": "no-cache"}


@dataclass
class OAuthSettings:
    access_token_lifetime: int = 300
    device_interval: float = 5.0
    device_code_lifetime: float = 600.0
    decision: str = "approve"


@dataclass
class _Client:
    client_id: str
    redirect_uris: tuple[str, ...] = ()  # empty: any loopback redirect (the built-in client)


@dataclass
class _Grant:
    """An approved authorization: who, for which client and scope."""

    client_id: str
    user_id: str
    scope: str


@dataclass
class _DeviceCode:
    user_code: str
    client_id: str
    scope: str
    expires_at: float
    status: str = "pending"  # approved, denied
    user_id: str | None = None
    last_poll: float = 0.0


@dataclass
class _AuthCode:
    grant: _Grant
    redirect_uri: str
    challenge: str
    expires_at: float


@dataclass
class _RefreshToken:
    grant: _Grant
    family: str
    expires_at: float
    active: bool = True


class OAuthError(Exception):
    def __init__(self, error: str, description: str, status: int = 400) -> None:
        super().__init__(description)
        self.error = error
        self.description = description
        self.status = status

    def response(self) -> Response:
        body = {"error": self.error, "error_description": self.description}
        return JSONResponse(body, self.status, headers=_NO_STORE)


@dataclass
class AuthorizationServer:
    state: SandboxState
    control: bool = False
    settings: OAuthSettings = field(default_factory=OAuthSettings)
    clients: dict[str, _Client] = field(default_factory=dict)
    device_codes: dict[str, _DeviceCode] = field(default_factory=dict)
    auth_codes: dict[str, _AuthCode] = field(default_factory=dict)
    refresh_tokens: dict[str, _RefreshToken] = field(default_factory=dict)
    grants_issued: Counter[str] = field(default_factory=Counter)
    # With --faults only: the one-time secrets of the exchanges (device codes, codes, PKCE
    # verifiers), for the secret audit to look for; never kept otherwise.
    secrets_seen: list[str] = field(default_factory=list)

    def _saw(self, value: str) -> None:
        if self.control and value:
            self.secrets_seen.append(value)

    def __post_init__(self) -> None:
        self.clients[BUILT_IN_CLIENT] = _Client(BUILT_IN_CLIENT)

    # -- routing ----------------------------------------------------------------------

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        request = Request(scope, receive)
        routes = {
            ("GET", PROTECTED_RESOURCE_PATH): self._protected_resource,
            ("GET", METADATA_PATH): self._metadata,
            ("POST", "/oauth/register"): self._register,
            ("POST", "/oauth/device_authorization"): self._device_authorization,
            ("GET", "/oauth/device"): self._device_page,
            ("POST", "/oauth/device"): self._device_decision,
            ("GET", "/oauth/authorize"): self._authorize,
            ("POST", "/oauth/token"): self._token,
            ("POST", "/oauth/revoke"): self._revoke,
        }
        if self.control:
            routes[("GET", "/oauth/_sandbox")] = self._control
            routes[("POST", "/oauth/_sandbox")] = self._control
        handler = routes.get((request.method, request.url.path.rstrip("/") or "/"))
        if handler is None:
            response: Response = JSONResponse({"error": "not_found"}, 404)
        else:
            try:
                response = await handler(request)
            except OAuthError as error:
                response = error.response()
        await response(scope, receive, send)

    # -- metadata ---------------------------------------------------------------------

    @staticmethod
    def _base(request: Request) -> str:
        return str(request.base_url).rstrip("/")

    async def _protected_resource(self, request: Request) -> Response:
        base = self._base(request)
        return JSONResponse(
            {
                "resource": base,
                "authorization_servers": [base + ISSUER_PATH],
                "bearer_methods_supported": ["header"],
                "scopes_supported": list(SCOPES),
            }
        )

    async def _metadata(self, request: Request) -> Response:
        issuer = self._base(request) + ISSUER_PATH
        return JSONResponse(
            {
                "issuer": issuer,
                "authorization_endpoint": issuer + "/authorize",
                "token_endpoint": issuer + "/token",
                "device_authorization_endpoint": issuer + "/device_authorization",
                "registration_endpoint": issuer + "/register",
                "revocation_endpoint": issuer + "/revoke",
                "scopes_supported": list(SCOPES),
                "response_types_supported": ["code"],
                "grant_types_supported": ["authorization_code", "refresh_token", DEVICE_GRANT],
                "code_challenge_methods_supported": ["S256"],
                "token_endpoint_auth_methods_supported": ["none"],
                "revocation_endpoint_auth_methods_supported": ["none"],
            }
        )

    # -- clients ----------------------------------------------------------------------

    async def _register(self, request: Request) -> Response:
        try:
            body = json.loads(await request.body())
        except ValueError:
            body = None
        if not isinstance(body, dict):
            raise OAuthError("invalid_client_metadata", "the body must be a JSON object")
        method = body.get("token_endpoint_auth_method", "none")
        if method != "none":
            raise OAuthError("invalid_client_metadata", "the sandbox registers public clients only")
        uris = body.get("redirect_uris", [])
        if not isinstance(uris, list) or not all(isinstance(u, str) for u in uris):
            raise OAuthError("invalid_redirect_uri", "redirect_uris must be a list of URLs")
        for uri in uris:
            if urlsplit(uri).hostname not in LOOPBACK_HOSTS:
                raise OAuthError("invalid_redirect_uri", "only loopback redirect URIs")
        client = _Client("dyn_" + secrets.token_hex(8), tuple(uris))
        self.clients[client.client_id] = client
        answer = {
            "client_id": client.client_id,
            "client_id_issued_at": int(time.time()),
            "token_endpoint_auth_method": "none",
            "redirect_uris": list(uris),
            "grant_types": body.get("grant_types", []),
        }
        return JSONResponse(answer, 201, headers=_NO_STORE)

    def _client(self, client_id: Any) -> _Client:
        client = self.clients.get(client_id) if isinstance(client_id, str) else None
        if client is None:
            raise OAuthError("invalid_client", "unknown client_id", status=401)
        return client

    @staticmethod
    def _redirect_allowed(client: _Client, uri: str) -> bool:
        """RFC 8252 section 7.3: a loopback redirect matches whatever its port."""
        parts = urlsplit(uri)
        if parts.scheme != "http" or parts.hostname not in LOOPBACK_HOSTS:
            return False
        if not client.redirect_uris:
            return True

        def portless(value: str) -> tuple[str, str | None, str]:
            p = urlsplit(value)
            return (p.scheme, p.hostname, p.path)

        return portless(uri) in {portless(allowed) for allowed in client.redirect_uris}

    def _scope(self, raw: Any) -> str:
        requested = str(raw or "").split()
        unknown = [s for s in requested if s not in SCOPES]
        if unknown:
            raise OAuthError("invalid_scope", f"unknown scope {unknown[0]!r}")
        return " ".join(requested)

    def _demo_user(self) -> str:
        return str(self.state.meta("demo_user_id"))

    # -- device authorization ---------------------------------------------------------

    async def _device_authorization(self, request: Request) -> Response:
        form = await _form(request)
        client = self._client(form.get("client_id"))
        scope = self._scope(form.get("scope"))
        device_code = secrets.token_urlsafe(32)
        alphabet = "BCDFGHJKLMNPQRSTVWXZ"
        letters = "".join(secrets.choice(alphabet) for _ in range(8))
        user_code = f"{letters[:4]}-{letters[4:]}"
        lifetime = self.settings.device_code_lifetime
        self._saw(device_code)
        self.device_codes[device_code] = _DeviceCode(
            user_code, client.client_id, scope, time.time() + lifetime
        )
        verification = self._base(request) + ISSUER_PATH + "/device"
        complete = f"{verification}?{urlencode({'user_code': user_code})}"
        return JSONResponse(
            {
                "device_code": device_code,
                "user_code": user_code,
                "verification_uri": verification,
                "verification_uri_complete": complete,
                "expires_in": int(lifetime),
                "interval": self.settings.device_interval,
            },
            headers=_NO_STORE,
        )

    async def _device_page(self, request: Request) -> Response:
        code = html.escape(request.query_params.get("user_code", ""))
        return HTMLResponse(
            "<!doctype html><meta charset=utf-8><title>Sandbox sign-in</title>"
            "<h1>Approve leadctl</h1><form method=post action=device>"
            f"<label>Code <input name=user_code value='{code}'></label>"
            "<button name=decision value=approve>Approve</button>"
            "<button name=decision value=deny>Deny</button></form>"
        )

    async def _device_decision(self, request: Request) -> Response:
        if request.headers.get("content-type", "").startswith("application/json"):
            try:
                body = json.loads(await request.body())
            except ValueError:
                body = None
            form = body if isinstance(body, dict) else {}
        else:
            form = await _form(request)
        user_code = str(form.get("user_code", "")).strip().upper()
        decision = form.get("decision", "approve")
        if decision not in ("approve", "deny"):
            raise OAuthError("invalid_request", "decision must be approve or deny")
        pending = next(
            (
                d
                for d in self.device_codes.values()
                if d.user_code == user_code and d.status == "pending"
            ),
            None,
        )
        if pending is None or pending.expires_at <= time.time():
            raise OAuthError("invalid_request", "no pending sign-in has this code", status=404)
        pending.status = "approved" if decision == "approve" else "denied"
        pending.user_id = str(form.get("user_id") or self._demo_user())
        return JSONResponse({"user_code": user_code, "status": pending.status})

    # -- authorization code -----------------------------------------------------------

    async def _authorize(self, request: Request) -> Response:
        query = request.query_params
        client = self._client(query.get("client_id"))
        redirect_uri = query.get("redirect_uri", "")
        if not self._redirect_allowed(client, redirect_uri):
            # Never redirect to an unchecked URI (RFC 6749 section 4.1.2.1).
            raise OAuthError("invalid_request", "redirect_uri is not registered for this client")
        state = query.get("state")

        def back(**params: str) -> Response:
            if state is not None:
                params["state"] = state
            parts = urlsplit(redirect_uri)
            joined = "&".join(filter(None, [parts.query, urlencode(params)]))
            target = urlunsplit((parts.scheme, parts.netloc, parts.path, joined, ""))
            return RedirectResponse(target, status_code=302, headers=_NO_STORE)

        if query.get("response_type") != "code":
            return back(error="unsupported_response_type")
        challenge = query.get("code_challenge")
        if not challenge or query.get("code_challenge_method") != "S256":
            return back(error="invalid_request", error_description="PKCE with S256 is required")
        try:
            scope = self._scope(query.get("scope"))
        except OAuthError as error:
            return back(error=error.error)
        if self.settings.decision == "deny":
            return back(error="access_denied", error_description="the user denied the request")
        code = secrets.token_urlsafe(32)
        self._saw(code)
        grant = _Grant(client.client_id, self._demo_user(), scope)
        expires_at = time.time() + CODE_LIFETIME
        self.auth_codes[code] = _AuthCode(grant, redirect_uri, challenge, expires_at)
        return back(code=code)

    # -- tokens -----------------------------------------------------------------------

    async def _token(self, request: Request) -> Response:
        form = await _form(request)
        client = self._client(form.get("client_id"))
        grant_type = form.get("grant_type")
        if grant_type == "authorization_code":
            grant = self._redeem_code(client, form)
        elif grant_type == DEVICE_GRANT:
            grant = self._redeem_device_code(client, form)
        elif grant_type == "refresh_token":
            return self._refresh(client, form, issuer=self._base(request) + ISSUER_PATH)
        else:
            raise OAuthError("unsupported_grant_type", f"grant_type {grant_type!r}")
        self.grants_issued[str(grant_type)] += 1
        issuer = self._base(request) + ISSUER_PATH
        return self._issue(grant, family=secrets.token_hex(8), issuer=issuer)

    def _redeem_code(self, client: _Client, form: dict[str, str]) -> _Grant:
        found = self.auth_codes.pop(form.get("code", ""), None)  # single use
        if found is None or found.expires_at <= time.time():
            raise OAuthError("invalid_grant", "the authorization code is unknown or expired")
        if found.grant.client_id != client.client_id:
            raise OAuthError("invalid_grant", "the code was issued to another client")
        if form.get("redirect_uri") != found.redirect_uri:
            raise OAuthError("invalid_grant", "redirect_uri differs from the authorization's")
        verifier = form.get("code_verifier", "")
        self._saw(verifier)
        digest = hashlib.sha256(verifier.encode("ascii", "replace")).digest()
        if base64.urlsafe_b64encode(digest).rstrip(b"=").decode() != found.challenge:
            raise OAuthError("invalid_grant", "code_verifier does not match the challenge")
        return found.grant

    def _redeem_device_code(self, client: _Client, form: dict[str, str]) -> _Grant:
        code = form.get("device_code", "")
        pending = self.device_codes.get(code)
        if pending is None or pending.client_id != client.client_id:
            raise OAuthError("invalid_grant", "unknown device_code")
        now = time.time()
        if pending.expires_at <= now:
            del self.device_codes[code]
            raise OAuthError("expired_token", "the device code expired")
        if pending.status == "denied":
            del self.device_codes[code]
            raise OAuthError("access_denied", "the user denied the request")
        if pending.status == "pending":
            # Polling much faster than asked is answered with slow_down (RFC 8628 3.5).
            interval = self.settings.device_interval
            too_soon = interval >= 1 and now - pending.last_poll < interval - 0.5
            pending.last_poll = now
            if too_soon:
                raise OAuthError("slow_down", "poll less often")
            raise OAuthError("authorization_pending", "not approved yet")
        del self.device_codes[code]  # single use
        assert pending.user_id is not None
        return _Grant(client.client_id, pending.user_id, pending.scope)

    def _refresh(self, client: _Client, form: dict[str, str], *, issuer: str) -> Response:
        presented = form.get("refresh_token", "")
        found = self.refresh_tokens.get(presented)
        if found is None or found.grant.client_id != client.client_id:
            raise OAuthError("invalid_grant", "unknown refresh token")
        if not found.active:
            # A rotated token presented again: stolen or replayed. Revoke the family.
            self._revoke_family(found.family)
            raise OAuthError("invalid_grant", "the refresh token was already used")
        if found.expires_at <= time.time():
            raise OAuthError("invalid_grant", "the refresh token expired")
        found.active = False
        self.grants_issued["refresh_token"] += 1
        return self._issue(found.grant, family=found.family, issuer=issuer)

    def _id_token(self, grant: _Grant, issuer: str, lifetime: int) -> str:
        """OpenID Connect: who signed in (email, name, organization)."""
        import jwt

        row = self.state.conn.execute(
            "SELECT u.email, u.first_name, u.last_name, o.id AS org_id, o.name AS org_name "
            "FROM users u JOIN organizations o ON o.id = u.org_id WHERE u.id = ?",
            (grant.user_id,),
        ).fetchone()
        issued = int(time.time())
        name = " ".join(part for part in (row["first_name"], row["last_name"]) if part)
        claims = {
            "iss": issuer,
            "sub": grant.user_id,
            "aud": grant.client_id,
            "iat": issued,
            "exp": issued + lifetime,
            "email": row["email"],
            "name": name or None,
            "org_id": row["org_id"],
            "org_name": row["org_name"],
        }
        return jwt.encode(claims, self.state.secret, algorithm=keys.JWT_ALGORITHM)

    def _issue(self, grant: _Grant, *, family: str, issuer: str) -> Response:
        row = self.state.conn.execute(
            "SELECT org_id, roles FROM users WHERE id = ?", (grant.user_id,)
        ).fetchone()
        if row is None:
            raise OAuthError("invalid_grant", "the user no longer exists")
        lifetime = self.settings.access_token_lifetime
        access = _access_token(
            self.state.secret, grant.user_id, row["org_id"], loads(row["roles"]), lifetime
        )
        answer: dict[str, Any] = {
            "access_token": access,
            "token_type": "Bearer",
            "expires_in": lifetime,
            "scope": grant.scope,
        }
        if "openid" in grant.scope.split():
            answer["id_token"] = self._id_token(grant, issuer, lifetime)
            self._saw(answer["id_token"])
        if "offline_access" in grant.scope.split() or not grant.scope:
            refresh = secrets.token_urlsafe(32)
            self.refresh_tokens[refresh] = _RefreshToken(
                grant, family, time.time() + REFRESH_LIFETIME
            )
            answer["refresh_token"] = refresh
        return JSONResponse(answer, headers=_NO_STORE)

    # -- revocation -------------------------------------------------------------------

    def _revoke_family(self, family: str) -> None:
        for token in self.refresh_tokens.values():
            if token.family == family:
                token.active = False

    async def _revoke(self, request: Request) -> Response:
        form = await _form(request)
        client = self._client(form.get("client_id"))
        found = self.refresh_tokens.get(form.get("token", ""))
        # RFC 7009 2.2: an unknown token (or an access token, which is a stateless JWT
        # here and simply expires) is answered 200 all the same.
        if found is not None and found.grant.client_id == client.client_id:
            self._revoke_family(found.family)
            self.grants_issued["revocation"] += 1
        return Response(status_code=200, headers=_NO_STORE)

    # -- tests ------------------------------------------------------------------------

    async def _control(self, request: Request) -> Response:
        if request.method == "POST":
            try:
                body = json.loads(await request.body() or b"{}")
            except ValueError:
                body = None
            if not isinstance(body, dict):
                raise OAuthError("invalid_request", "the body must be a JSON object")
            self._configure(body)
        shown: dict[str, Any] = {}
        if request.query_params.get("secrets"):
            shown["secretsSeen"] = list(self.secrets_seen)
        return JSONResponse(
            {
                **shown,
                "grants": dict(self.grants_issued),
                "accessTokenLifetime": self.settings.access_token_lifetime,
                "deviceInterval": self.settings.device_interval,
                "deviceCodeLifetime": self.settings.device_code_lifetime,
                "decision": self.settings.decision,
                "activeRefreshTokens": sum(t.active for t in self.refresh_tokens.values()),
            }
        )

    def _configure(self, body: dict[str, Any]) -> None:
        lifetime = body.get("accessTokenLifetime")
        if lifetime is not None:
            if not isinstance(lifetime, int) or isinstance(lifetime, bool):
                raise OAuthError("invalid_request", "accessTokenLifetime: whole seconds")
            self.settings.access_token_lifetime = lifetime
        for key, attribute in (
            ("deviceInterval", "device_interval"),
            ("deviceCodeLifetime", "device_code_lifetime"),
        ):
            value = body.get(key)
            if value is not None:
                if not isinstance(value, (int, float)) or isinstance(value, bool) or value < 0:
                    raise OAuthError("invalid_request", f"{key}: a number of seconds")
                setattr(self.settings, attribute, float(value))
        decision = body.get("decision")
        if decision is not None:
            if decision not in ("approve", "deny"):
                raise OAuthError("invalid_request", "decision: approve or deny")
            self.settings.decision = decision
        if body.get("revokeAll"):
            for token in self.refresh_tokens.values():
                token.active = False


def _access_token(secret: bytes, user_id: str, org_id: str, roles: Any, lifetime: int) -> str:
    """A user JWT the API accepts (the claims and key of ``keys.mint_user_token``), with a
    ``jti`` so two tokens issued within one second still differ."""
    import jwt

    issued = int(time.time())
    claims = {
        "iss": keys.JWT_ISSUER,
        "sub": user_id,
        "org": org_id,
        "roles": list(roles),
        "iat": issued,
        "exp": issued + lifetime,
        "jti": secrets.token_hex(8),
    }
    return jwt.encode(claims, secret, algorithm=keys.JWT_ALGORITHM)


async def _form(request: Request) -> dict[str, str]:
    raw = (await request.body()).decode("utf-8", "replace")
    return dict(parse_qsl(raw, keep_blank_values=True))
