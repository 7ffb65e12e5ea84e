"""What ``leadctl --help`` needs of the generated groups: the store key of this
invocation's service and the groups' one-line summaries.

Kept apart from ``leadctl.generated.tree`` because the root help runs on every
``leadctl --help``: it reads a small groups file and must not load the tree's machinery.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Mapping
from typing import Any


def startup_key(click_ctx: Any) -> tuple[Callable[[], str | None], bool]:
    """The store key of this invocation's service, as a function (it may read the config,
    which start-up avoids unless a contract was imported), and whether it may be the
    embedded sandbox."""
    from leadctl.context import SANDBOX_PROFILE
    from leadctl.contract.store import key_for_base_url, key_for_profile

    root = click_ctx.find_root()
    obj = root.obj
    env: Mapping[str, str] = getattr(obj, "env", None) or os.environ
    params: Mapping[str, Any] = root.params or {}
    explicit = params.get("profile") or env.get("LEADCTL_PROFILE") or None
    base_flag = params.get("base_url") or env.get("LEADCTL_BASE_URL") or None

    def key() -> str | None:
        if base_flag is not None:
            return key_for_base_url(str(base_flag))  # no config needed
        from leadctl.config import load_config
        from leadctl.errors import LeadctlError

        try:
            config = load_config(env)
        except LeadctlError:
            return None  # the command itself reports a broken config
        name = str(explicit or config.current_profile or "default")
        values = config.profiles.get(name)
        embedded = name == SANDBOX_PROFILE and values is None and base_flag is None
        base = base_flag or (values or {}).get("base_url")
        return key_for_profile(name, str(base) if base else None, embedded_sandbox=embedded)

    return key, explicit == SANDBOX_PROFILE and base_flag is None


def write_help_sections(click_ctx: Any, formatter: Any) -> None:
    """The generated groups in `leadctl --help`, from the small groups files only."""
    from leadctl.contract.store import help_groups

    root = click_ctx.find_root()
    env: Mapping[str, str] = getattr(root.obj, "env", None) or os.environ
    key, maybe_sandbox = startup_key(click_ctx)
    active = help_groups(env, key, maybe_sandbox=maybe_sandbox)
    if active:
        from leadctl.generated.prose import contract_prose

        with formatter.section("Generated from the service's contract"):
            formatter.write_dl([(name, contract_prose(text)) for name, text in active])
