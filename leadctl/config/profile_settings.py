"""The active profile's settings: the profile named by -p, LEADCTL_PROFILE or the config,
resolved against the global flags and the environment, with a hint when it does not exist.

Standard library only at module level, plain classes: every command resolves its settings,
and the contract ``leadctl --help`` shows depends on them.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from leadctl.config.request_limits import DEFAULT_TIMEOUT
from leadctl.config.service_target import SANDBOX_PROFILE, service_target
from leadctl.config.urls import validate_base_url
from leadctl.errors import UsageError

if TYPE_CHECKING:
    from leadctl.config.settings import Config

DEFAULT_PROFILE = "default"


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
        # Said once, when the service is first used (see leadctl.config.service_target).
        self.notice = notice
        self.warning = warning

    def get(self, key: str, default: Any = None) -> Any:
        return self.profile_values.get(key, default)


def profile_name(named: str | None, config: Config) -> str:
    """The profile this invocation uses: the one ``named`` (-p, LEADCTL_PROFILE), the
    config's current one, or ``default``."""
    return named or config.current_profile or DEFAULT_PROFILE


def resolve_settings(
    config: Config,
    env: Mapping[str, str],
    *,
    named: str | None,
    named_from_env: bool,
    base_url: str | None,
    base_url_from_env: bool,
    timeout: float | None,
    allow_insecure_http: bool,
) -> Settings:
    """The settings of the profile :func:`profile_name` chooses, given the global options
    (``named_from_env``: the profile came from LEADCTL_PROFILE, not -p; likewise the base
    URL). A profile named explicitly that is not configured is a usage error (the sandbox
    profile always exists)."""
    name = profile_name(named, config)
    values = config.profiles.get(name)
    explicitly_named = named is not None
    if values is None:
        if explicitly_named and name != SANDBOX_PROFILE:
            known = ", ".join(sorted(config.profiles)) or "none yet"
            raise UsageError(
                f"unknown profile {name!r} (configured: {known})",
                hint="create it with `leadctl auth login --profile NAME` or `leadctl profile set`",
            )
        values = {}
    if timeout is None:
        timeout = float(values.get("timeout", DEFAULT_TIMEOUT))
    target = service_target(
        name,
        values,
        base_url_flag=None if base_url_from_env else base_url,
        base_url_env=base_url if base_url_from_env else None,
        env=env,
        named_with_flag=explicitly_named and not named_from_env,
    )
    resolved = target.base_url
    if resolved is not None:
        resolved = validate_base_url(resolved, allow_insecure_http=allow_insecure_http)
    return Settings(
        profile=name,
        profile_values=dict(values),
        base_url=resolved,
        timeout=timeout,
        output=values.get("output"),
        # Settings of the sandbox profile (region, output...) are layered on the embedded
        # sandbox, which nothing points elsewhere.
        embedded_sandbox=target.embedded_sandbox,
        notice=target.notice,
        warning=target.warning,
    )
