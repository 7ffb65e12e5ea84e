"""What the tests of ``sources`` share."""

from __future__ import annotations

import io
import json
import os
import stat
from pathlib import Path
from typing import Any

import httpx
import keyring.errors

from leadctl.cli.app import invoke
from leadctl.iostreams import IOStreams
from tests.support.cli import BASE_URL, FakeClock
from tests.support.keyrings import DictKeyring

SOURCE_URL = f"{BASE_URL}/sources/src_1"

ROTATE_URL = f"{BASE_URL}/sources/src_1/credentials/rotate"

NEW_KEY = "src_new_0123456789abcdef0123456789abcdef"

OLD_SOURCE_KEY = "src_old_fedcba9876543210fedcba98"

SOURCE = {
    "id": "src_1",
    "name": "Web form",
    "description": "Landing page",
    "enabled": True,
    "apiKeyPreview": "src_…cdef",
    "apiKeyRotatedAt": "2026-11-21T11:59:00.000Z",
    "allowedStates": ["CA", "NV"],
    "allowedProducts": ["solar"],
    "requiresConsentCertificate": True,
    "defaultTagIds": [],
    "modifiedAt": "2026-11-21T12:00:00.000Z",
    "costPerLead": 12.5,
    "futureField": {"kept": True},
}

ROTATION = {"source": SOURCE, "secret": NEW_KEY}


def sent_json(request: httpx.Request) -> Any:
    return json.loads(request.content)


def data_dir() -> Path:
    return Path(os.environ["LEADCTL_DATA_DIR"])


def recovery_files() -> list[Path]:
    directory = data_dir() / "recovered-secrets"
    return sorted(directory.iterdir()) if directory.is_dir() else []


def mode_of(path: Path) -> int:
    return stat.S_IMODE(path.stat().st_mode)


class RecordingStdout(io.StringIO):
    """Remembers what the secret file held when the first output was written."""

    def __init__(self, watched: Path) -> None:
        super().__init__()
        self.watched = watched
        self.file_at_first_write: str | None = None
        self.written = False

    def write(self, text: str) -> int:
        if not self.written:
            self.written = True
            exists = self.watched.exists()
            self.file_at_first_write = self.watched.read_text("utf-8") if exists else None
        return super().write(text)


def run_with_stdout(args: list[str], stdout: io.StringIO, env: dict[str, str]) -> tuple[int, str]:
    merged = {**os.environ, **env}
    ios = IOStreams(
        stdin=io.StringIO(""),
        stdout=stdout,
        stderr=io.StringIO(),
        stdin_is_tty=False,
        stdout_is_tty=False,
        stderr_is_tty=False,
        env=merged,
    )
    code = invoke(args, ios=ios, env=merged, clock=FakeClock())
    return code, ios.stderr.getvalue()  # type: ignore[attr-defined]


class KeyringThatCannotStore(DictKeyring):
    """Reads work (the check before rotating passes); storing fails, as a keyring
    locked in between would."""

    def set_password(self, service: str, username: str, password: str) -> None:
        raise keyring.errors.PasswordSetError("the collection was locked")


class ClosedPipe(io.StringIO):
    def write(self, text: str) -> int:
        raise BrokenPipeError(32, "Broken pipe")
