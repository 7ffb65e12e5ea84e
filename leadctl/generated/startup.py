"""What ``leadctl --help`` needs of the generated groups: the store key of this
invocation's service and the groups' one-line summaries.

Kept apart from ``leadctl.cli.generated_tree`` because the root help runs on every
``leadctl --help``: it reads a small groups file and must not load the tree's machinery.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Mapping
from typing import Any

from leadctl.config.dirs import config_mentions
from leadctl.config.service_target import ENV_BASE_URL, SANDBOX_PROFILE
from leadctl.contract.profile_keys import profile_keys
from leadctl.contract.store import (
    SANDBOX_KEY,
    help_groups,
    stored_key_for_base_url,
    stored_keys,
)

# Where the root keeps the global options that choose the service, as read from the line.
LINE_PARAMS = "leadctl.line_params"
LINE_PARAMS_NAMES = ("profile", "base_url")


def startup_key(click_ctx: Any) -> tuple[Callable[[], str | None], bool]:
    """The store key of this invocation's service, as a function (it may read the config,
    which start-up avoids unless a contract was imported; None when no contract is stored
    for the service), and whether it may be the embedded sandbox."""

    root = click_ctx.find_root()
    obj = root.obj
    env: Mapping[str, str] = getattr(obj, "env", None) or os.environ
    # A profile or base URL given after the verb counts (it is read ahead of the parse).
    line = {key: value for key, value in root.meta.get(LINE_PARAMS, {}).items() if value}
    params: Mapping[str, Any] = {**(root.params or {}), **line}
    flag_profile = params.get("profile") or None
    explicit = flag_profile or env.get("LEADCTL_PROFILE") or None
    base_flag = params.get("base_url") or None
    base_env = env.get(ENV_BASE_URL) or None

    maybe_sandbox = explicit == SANDBOX_PROFILE or (
        explicit is None and _config_mentions_sandbox(env)
    )

    def key() -> str | None:
        if explicit == SANDBOX_PROFILE:
            return SANDBOX_KEY  # nothing points the sandbox profile elsewhere
        if (base_flag or base_env) is not None and not maybe_sandbox:
            # No config needed; None: nothing is stored for it (the bundled contract).
            return stored_key_for_base_url(str(base_flag or base_env), stored_keys(env))

        # Only here, when a contract was imported: the config's profiles as remembered
        # for its current stamp (leadctl.contract.profile_keys), parsed only once it changed.
        keys = profile_keys(env)
        if keys is None:
            return None  # the command itself reports a broken config
        name = str(explicit or keys.current or "default")
        if name == SANDBOX_PROFILE:
            return SANDBOX_KEY
        if base_flag or base_env:
            return stored_key_for_base_url(str(base_flag or base_env), stored_keys(env))
        return keys.key_of(name)

    return key, maybe_sandbox


def _config_mentions_sandbox(env: Mapping[str, str]) -> bool:
    """Whether config.toml may make the sandbox the current profile (`profile use
    sandbox`): a look at its bytes, not a parse, which start-up cannot afford; a yes is
    settled by the parse in ``key()``."""
    return config_mentions(env, b"sandbox")


def write_help_sections(click_ctx: Any, formatter: Any) -> None:
    """The generated groups in `leadctl --help`, from the small groups files only."""

    root = click_ctx.find_root()
    env: Mapping[str, str] = getattr(root.obj, "env", None) or os.environ
    key, maybe_sandbox = startup_key(click_ctx)
    active = help_groups(env, key, maybe_sandbox=maybe_sandbox)
    if active:
        from leadctl.generated.prose import contract_prose

        with formatter.section("Generated from the service's contract"):
            formatter.write_dl([(name, contract_prose(text)) for name, text in active])
