"""Which service a profile's commands go to, and what the user is told about that choice.

The ``sandbox`` profile is always the sandbox embedded in the process: a
``LEADCTL_BASE_URL`` or ``LEADCTL_TOKEN`` exported for another service (as ``sandbox
serve`` suggests, or in a shell set up for production) never turns a sandbox experiment
into a write to that service. Any other profile takes its base URL from ``--base-url``,
then ``LEADCTL_BASE_URL``, then its own setting; when a profile named with ``-p`` has a
base URL of its own that the environment overrides, the user is warned with both.

Standard library only: ``leadctl --help`` resolves this to find the active contract.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from leadctl.errors import UsageError

SANDBOX_PROFILE = "sandbox"
ENV_BASE_URL = "LEADCTL_BASE_URL"
# What would carry another service's credential into the sandbox's requests.
ENV_CREDENTIALS = ("LEADCTL_TOKEN", "LEADCTL_TOKEN_FILE")


class ServiceTarget:
    """Where requests go: the embedded sandbox, or ``base_url`` (None: none configured).

    ``notice`` is informational (the sandbox ignored something); ``warning`` is about
    where a credential goes. A plain class: it is built on every command's start-up.
    """

    __slots__ = ("base_url", "embedded_sandbox", "notice", "warning")

    def __init__(
        self,
        *,
        base_url: str | None,
        embedded_sandbox: bool,
        notice: str | None = None,
        warning: str | None = None,
    ) -> None:
        self.base_url = base_url
        self.embedded_sandbox = embedded_sandbox
        self.notice = notice
        self.warning = warning


def service_target(
    profile: str,
    values: Mapping[str, Any],
    *,
    base_url_flag: str | None,
    base_url_env: str | None,
    env: Mapping[str, str],
    named_with_flag: bool,
) -> ServiceTarget:
    """The service of ``profile`` (its settings ``values``) for this invocation.

    ``base_url_flag`` is ``--base-url`` as typed, ``base_url_env`` LEADCTL_BASE_URL's
    value; ``named_with_flag`` says the profile was named with ``-p`` on the command line.
    """
    if profile == SANDBOX_PROFILE:
        return _sandbox(values, base_url_flag=base_url_flag, base_url_env=base_url_env, env=env)
    from_env = base_url_env or None
    own = values.get("base_url") or None
    warning = None
    if (
        named_with_flag
        and base_url_flag is None
        and from_env is not None
        and own is not None
        and _normal(from_env) != _normal(str(own))
    ):
        warning = (
            f"{ENV_BASE_URL} ({from_env}) overrides profile {profile!r}'s base URL ({own}): "
            f"requests go to {from_env}; unset {ENV_BASE_URL} to use the profile's"
        )
    return ServiceTarget(
        base_url=base_url_flag or from_env or own, embedded_sandbox=False, warning=warning
    )


def _sandbox(
    values: Mapping[str, Any],
    *,
    base_url_flag: str | None,
    base_url_env: str | None,
    env: Mapping[str, str],
) -> ServiceTarget:
    if base_url_flag is not None:
        raise UsageError(
            "--base-url cannot point the sandbox profile elsewhere: "
            "-p sandbox is always the embedded sandbox",
            hint="for a server started with `leadctl sandbox serve`, use another profile: "
            "`leadctl -p local profile set base_url URL`",
        )
    ignored = [ENV_BASE_URL] if base_url_env else []
    ignored += [name for name in ENV_CREDENTIALS if env.get(name)]
    own = values.get("base_url")
    if own:
        # Written by an older leadctl, which let the sandbox profile point at a server.
        ignored.append(f"its base_url setting ({own}; `leadctl -p sandbox profile unset base_url`)")
    notice = None
    if ignored:
        notice = f"the sandbox profile is the embedded sandbox: ignored {', '.join(ignored)}"
    return ServiceTarget(base_url=None, embedded_sandbox=True, notice=notice)


def _normal(url: str) -> str:
    return url.strip().rstrip("/").lower()
