"""Turning an authorization server's error answers into leadctl's exit codes."""

from __future__ import annotations

from leadctl.errors import BadResponse, LeadctlError, NotAuthenticated, ServiceFailure


def oauth_error_code(error: BaseException) -> tuple[str, str | None] | None:
    """(error, description) of an authlib OAuthError, else None."""
    code = getattr(error, "error", None)
    if isinstance(code, str) and code:
        description = getattr(error, "description", None)
        return code, description if isinstance(description, str) and description else None
    return None


def transport_failure(error: BaseException, what: str) -> LeadctlError | None:
    """A ServiceFailure / BadResponse for network trouble and unusable answers, else None."""
    import httpx

    if isinstance(error, httpx.HTTPStatusError):
        return ServiceFailure(
            f"{what}: the authorization server answered {error.response.status_code}"
        )
    if isinstance(error, httpx.HTTPError):
        return ServiceFailure(
            f"{what}: cannot reach the authorization server ({type(error).__name__})"
        )
    if isinstance(error, (ValueError, RecursionError)):  # not JSON, or nested too deeply
        return BadResponse(f"{what}: the authorization server's answer is not usable")
    return None


def refused(what: str, code: str, description: str | None, *, hint: str) -> NotAuthenticated:
    reason = f"{code}: {description}" if description else code
    return NotAuthenticated(f"{what} was refused ({reason})", hint=hint)
