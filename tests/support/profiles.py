"""A profile whose credential was saved with a stated kind (``auth login --kind``), written
the way leadctl writes it: the secret in the (test) keyring, the rest in config.toml."""

from __future__ import annotations

import os
from pathlib import Path

from tests.support.cli import BASE_URL
from tests.support.keyrings import DictKeyring


def declared_profile(
    keyring: DictKeyring,
    *,
    value: str,
    kind: str,
    profile: str = "default",
    base_url: str = BASE_URL,
    extra: str = "",
) -> None:
    """``profile`` holds ``value`` as a credential of ``kind``, and is the current one."""
    keyring.store[("leadctl", profile)] = value
    config = Path(os.environ["LEADCTL_CONFIG_DIR"])
    config.mkdir(parents=True, exist_ok=True)
    (config / "config.toml").write_text(
        f'current_profile = "{profile}"\n[profiles.{profile}]\nbase_url = "{base_url}"\n'
        f'credential_store = "keyring"\ncredential_kind = "{kind}"\n{extra}',
        encoding="utf-8",
    )
