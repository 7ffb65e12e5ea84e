"""RFC 8628 device authorization: ask for a device code, show the user code, poll.

authlib has no client for this grant's polling, so the loop is here: it honours
``authorization_pending`` and ``slow_down``, and ends on ``access_denied`` (exit 10),
``expired_token`` or the code's lifetime (exit 3). Time is the injected clock's: the loop
counts what it slept, so a test runs it without waiting.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from leadctl.errors import BadResponse, Cancelled, NotAuthenticated, ServiceFailure
from leadctl.oauth.errors import oauth_error_code, transport_failure
from leadctl.oauth.registration import DEVICE_GRANT
from leadctl.util.jsontext import loads_service

DEFAULT_INTERVAL = 5.0
SLOW_DOWN_STEP = 5.0  # RFC 8628 section 3.5


@dataclass(frozen=True, repr=False)
class DeviceCode:
    device_code: str
    user_code: str
    verification_uri: str
    verification_uri_complete: str | None
    expires_in: float
    interval: float


def request_device_code(client: Any, endpoint: str, *, scope: str | None) -> DeviceCode:
    import httpx

    data = {"client_id": client.client_id}
    if scope:
        data["scope"] = scope
    if client.client_secret:
        data["client_secret"] = client.client_secret
    try:
        # withhold_token: no access token exists yet (authlib would insist on one).
        response = client.request(
            "POST", endpoint, data=data, headers={"Accept": "application/json"}, withhold_token=True
        )
    except httpx.HTTPError as error:
        raise ServiceFailure(
            f"cannot reach the device authorization endpoint ({type(error).__name__})"
        ) from None
    try:
        answer = loads_service(response.content)
    except ValueError:
        answer = None
    if not isinstance(answer, dict):
        raise BadResponse(f"the device authorization endpoint answered {response.status_code}")
    if "error" in answer or response.status_code >= 400:
        code = str(answer.get("error", response.status_code))
        raise NotAuthenticated(f"the device authorization request was refused ({code})")
    return _device_code(answer)


def _device_code(answer: Mapping[str, Any]) -> DeviceCode:
    def text(key: str) -> str:
        value = answer.get(key)
        if not isinstance(value, str) or not value:
            raise BadResponse(f"the device authorization answer has no {key}")
        return value

    def number(key: str, default: float) -> float:
        value = answer.get(key, default)
        if isinstance(value, bool) or not isinstance(value, (int, float)) or value < 0:
            raise BadResponse(f"the device authorization answer's {key} is not a number")
        return float(value)

    complete = answer.get("verification_uri_complete")
    return DeviceCode(
        device_code=text("device_code"),
        user_code=text("user_code"),
        verification_uri=text("verification_uri"),
        verification_uri_complete=complete if isinstance(complete, str) and complete else None,
        expires_in=number("expires_in", 0.0) or 1800.0,
        interval=number("interval", DEFAULT_INTERVAL),
    )


def poll_for_token(
    client: Any,
    token_endpoint: str,
    code: DeviceCode,
    *,
    sleep: Callable[[float], None],
    relogin_hint: str,
) -> dict[str, Any]:
    """Poll until the user approves (the token answer), denies (exit 10) or the code
    expires (exit 3). Ctrl-C raises KeyboardInterrupt from ``sleep``: nothing is saved."""
    interval = code.interval
    waited = 0.0
    while True:
        if waited >= code.expires_in:
            raise NotAuthenticated(
                f"the device code expired after {code.expires_in:g} s without an approval",
                hint=relogin_hint,
            )
        sleep(interval)
        waited += interval
        try:
            token: dict[str, Any] = dict(
                client.fetch_token(
                    token_endpoint, grant_type=DEVICE_GRANT, device_code=code.device_code
                )
            )
        except Exception as error:
            oauth = oauth_error_code(error)
            if oauth is None:
                failure = transport_failure(error, "waiting for the approval")
                if failure is None:
                    raise
                raise failure from None
            reason, description = oauth
            if reason == "authorization_pending":
                continue
            if reason == "slow_down":
                interval += SLOW_DOWN_STEP
                continue
            if reason == "access_denied":
                raise Cancelled("the sign-in was denied at the authorization server") from None
            if reason == "expired_token":
                raise NotAuthenticated(
                    "the device code expired before it was approved", hint=relogin_hint
                ) from None
            shown = f"{reason}: {description}" if description else reason
            raise NotAuthenticated(f"the sign-in failed ({shown})", hint=relogin_hint) from None
        return token
