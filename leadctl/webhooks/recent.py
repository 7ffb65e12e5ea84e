"""The webhook-ids a receiver already accepted, so a retried delivery is acted on once."""

from __future__ import annotations

import threading
from collections import OrderedDict

# Senders retry one delivery for hours at most; ten thousand ids cover far more deliveries
# than a laptop session receives, in a few megabytes at worst.
DEFAULT_CAPACITY = 10_000


class RecentIds:
    """Accepted ids, oldest forgotten first; ids being handled are tracked too, so two
    copies of one delivery arriving together are not both acted on. Thread-safe."""

    def __init__(self, capacity: int = DEFAULT_CAPACITY) -> None:
        self._capacity = capacity
        self._accepted: OrderedDict[str, None] = OrderedDict()
        self._in_flight: set[str] = set()
        self._lock = threading.Lock()

    def claim(self, msg_id: str) -> str | None:
        """None when the caller may handle ``msg_id`` (it is now in flight); otherwise
        "duplicate" (accepted before) or "in flight" (being handled right now)."""
        with self._lock:
            if msg_id in self._accepted:
                self._accepted.move_to_end(msg_id)
                return "duplicate"
            if msg_id in self._in_flight:
                return "in flight"
            self._in_flight.add(msg_id)
            return None

    def settle(self, msg_id: str, *, accepted: bool) -> None:
        """End the claim; an accepted id is remembered, a failed one may be sent again."""
        with self._lock:
            self._in_flight.discard(msg_id)
            if accepted:
                self._accepted[msg_id] = None
                while len(self._accepted) > self._capacity:
                    self._accepted.popitem(last=False)

    def __len__(self) -> int:
        with self._lock:
            return len(self._accepted)
