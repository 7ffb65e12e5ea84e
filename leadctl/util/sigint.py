"""Ctrl-C handled by a function of the caller's for the length of a block.

Paging (stop at the end of the page) and secret rotation (hold Ctrl-C until the new secret
is safe) each decide what a SIGINT means; installing their handler only where Python can
(the main thread) and putting the previous one back is done here, once.
"""

from __future__ import annotations

import contextlib
import signal
import threading
from collections.abc import Callable, Iterator
from types import FrameType
from typing import Any

Handler = Callable[[int, FrameType | None], None]


@contextlib.contextmanager
def sigint_handled_by(handler: Handler) -> Iterator[bool]:
    """Within the block SIGINT calls ``handler`` (which may raise KeyboardInterrupt itself);
    after it, the handler from before is back.

    Yields whether the handler was installed: outside the main thread signals cannot be
    handled and nothing changes.
    """
    if threading.current_thread() is not threading.main_thread():
        yield False
        return
    previous: Any = signal.signal(signal.SIGINT, handler)
    try:
        yield True
    finally:
        # None means the old handler was not installed from Python; the default is closest.
        signal.signal(signal.SIGINT, previous if previous is not None else signal.SIG_DFL)
