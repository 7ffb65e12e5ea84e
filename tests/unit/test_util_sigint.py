"""SIGINT handled by the caller's function for a block, then the old handler back; and the
secret rotation's deferral built on it (the interrupt is kept, and acted on after the block)."""

from __future__ import annotations

import io
import os
import signal
import threading
from types import FrameType

import pytest

from leadctl.config.secrets_out import deferred_sigint, stderr_notice
from leadctl.util.sigint import sigint_handled_by


def test_within_the_block_sigint_calls_the_handler_and_after_it_interrupts_again() -> None:
    seen: list[int] = []

    def handler(signum: int, _frame: FrameType | None) -> None:
        seen.append(signum)

    with sigint_handled_by(handler) as installed:
        assert installed
        signal.raise_signal(signal.SIGINT)
        assert seen == [signal.SIGINT]
    with pytest.raises(KeyboardInterrupt):
        signal.raise_signal(signal.SIGINT)
    assert seen == [signal.SIGINT]


def test_the_previous_handler_is_put_back_even_when_the_block_fails() -> None:
    def previous(_signum: int, _frame: FrameType | None) -> None:
        pass

    before = signal.signal(signal.SIGINT, previous)
    try:
        with pytest.raises(RuntimeError), sigint_handled_by(lambda *_: None):
            raise RuntimeError("boom")
        assert signal.getsignal(signal.SIGINT) is previous
    finally:
        signal.signal(signal.SIGINT, before)


def test_outside_the_main_thread_nothing_is_installed() -> None:
    results: list[object] = []

    def work() -> None:
        with sigint_handled_by(lambda *_: None) as installed:
            results.append(installed)
            results.append(signal.getsignal(signal.SIGINT))

    thread = threading.Thread(target=work)
    thread.start()
    thread.join()
    assert results == [False, signal.default_int_handler]


def test_a_deferred_sigint_is_recorded_during_the_block_and_delivered_after_it() -> None:
    notices = io.StringIO()
    read, write = os.pipe()
    try:
        with os.fdopen(write, "w") as stream:
            notice = stderr_notice(stream, "finishing first")
            with deferred_sigint(notice) as interrupts:
                signal.raise_signal(signal.SIGINT)  # no KeyboardInterrupt here
                signal.raise_signal(signal.SIGINT)
                assert interrupts.received == 2
        notices.write(os.read(read, 1000).decode())
    finally:
        os.close(read)
    # The notice is written once, however many interrupts arrive.
    assert notices.getvalue() == "finishing first\n"
    # After the block, Ctrl-C interrupts again: what was deferred is the caller's to act on.
    with pytest.raises(KeyboardInterrupt):
        signal.raise_signal(signal.SIGINT)
