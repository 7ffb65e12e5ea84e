"""``leadctl sources``, what its verbs share.

``leadctl sources update`` and ``sources rotate``, in process against pytest-httpx stubs."""

from __future__ import annotations

import json
import os
from collections.abc import Callable

from keyring.backend import KeyringBackend
from pytest_httpx import HTTPXMock

from leadctl.config.settings import load_config
from tests.commands.sources._support import (
    NEW_KEY,
    ROTATE_URL,
    ROTATION,
    KeyringThatCannotStore,
    mode_of,
    recovery_files,
)
from tests.support.cli import BASE_URL, ORG_KEY, run_cli, token_env
from tests.support.run_context import direct_context, stderr_of


def test_debug_trace_never_shows_the_new_key(httpx_mock: HTTPXMock) -> None:
    httpx_mock.add_response(method="POST", url=ROTATE_URL, json=ROTATION)
    result = run_cli(["--debug", "sources", "rotate", "src_1", "--yes"], env=token_env())
    assert result.exit_code == 0, result.stderr
    assert "> POST" in result.stderr
    assert "< 200" in result.stderr
    assert NEW_KEY not in result.stderr
    assert ORG_KEY not in result.stderr
    assert json.loads(result.stdout)["secret"] == NEW_KEY


def test_deliver_keeps_the_key_in_a_recovery_file_when_the_profile_store_fails(
    use_keyring: Callable[[KeyringBackend], KeyringBackend],
) -> None:
    from leadctl.commands.sources.key_delivery import ProfileTarget, deliver, delivery_error

    use_keyring(KeyringThatCannotStore())
    ctx = direct_context(output="json")
    target = ProfileTarget(name="intake", store="keyring", base_url=BASE_URL)
    delivery = deliver(ctx, source_id="src_1", secret=NEW_KEY, pending=None, target=target)
    (kept,) = recovery_files()
    assert kept.read_text(encoding="utf-8") == NEW_KEY + "\n"
    assert mode_of(kept) == 0o600
    assert delivery.safe_in == [str(kept)] and delivery.recovery == str(kept)
    assert "intake" not in load_config(os.environ).profiles
    failure = delivery_error(target, delivery)
    assert failure is not None
    assert failure.message.startswith("could not save it for profile intake")
    assert f"the new key is in {kept}" in failure.message
    assert failure.hint is not None and f"--with-token < {kept}" in failure.hint
    assert NEW_KEY not in stderr_of(ctx) + failure.message + failure.hint


def test_a_closed_pipe_before_the_key_was_stored_anywhere_keeps_it_in_a_recovery_file() -> None:
    from leadctl.commands.sources.key_delivery import Delivery, delivery_error, printing_failed

    ctx = direct_context(output="json")
    delivery = Delivery(safe_in=[], problems=[])
    printing_failed(ctx, BrokenPipeError(), "src_1", NEW_KEY, delivery)
    (kept,) = recovery_files()
    assert kept.read_text(encoding="utf-8") == NEW_KEY + "\n"
    assert f"the new key was kept in {kept} (0600)" in stderr_of(ctx)
    failure = delivery_error(None, delivery)
    assert failure is not None
    assert failure.message == (
        f"could not print the new key: the output was closed; the key was rotated and the "
        f"new key is in {kept}"
    )
