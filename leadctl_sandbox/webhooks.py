"""Webhook deliveries of ``sandbox serve --webhook-url URL``, signed with Standard Webhooks.

The service publishes no event catalog; the sandbox assumes Standard Webhooks' recommended
payload, ``{"type", "timestamp", "data"}``, with ``data`` the resource as the API shows it:

- ``lead.created``: a lead was received by intake (``data``: the lead, as POST /leads
  answered it, processingStatus Pending);
- ``automation_run.status_changed``: a run of an automation changed status (``data``: the
  run, as GET /automations/{id}/runs lists it; its ``status`` is the new one).

Events are queued after the request that caused them is committed and sent by one
background thread, never in the request. Each delivery keeps its ``webhook-id`` and gets
a fresh ``webhook-timestamp`` and signature on every attempt; anything but a 2xx is tried
again after RETRY_DELAYS (a real sender's schedule spans hours; the sandbox's spans about
two minutes, so a laptop session sees every retry). The signing is the ``standardwebhooks``
library's.
"""

from __future__ import annotations

import base64
import hashlib
import heapq
import hmac
import itertools
import json
import logging
import threading
import time
import uuid
from collections.abc import Callable, Iterable
from datetime import datetime, timezone
from typing import Any, NamedTuple

from leadctl_sandbox.times import iso

LEAD_CREATED = "lead.created"
RUN_STATUS_CHANGED = "automation_run.status_changed"
# Seconds before retry 1, 2, ...: eight attempts in all.
RETRY_DELAYS = (0.5, 1.0, 2.0, 5.0, 10.0, 30.0, 60.0)
TIMEOUT = 10.0
USER_AGENT = "leadctl-sandbox-webhooks"

logger = logging.getLogger("leadctl_sandbox")


# A NamedTuple, not a dataclass: every `-p sandbox` command defines it again at its start,
# and a frozen dataclass costs five times as much to define (issue 32).
class Event(NamedTuple):
    type: str
    at: datetime
    data: dict[str, Any]

    def payload(self) -> bytes:
        body = {"type": self.type, "timestamp": iso(self.at), "data": self.data}
        return json.dumps(body, ensure_ascii=False, separators=(",", ":")).encode("utf-8")


def state_secret(state_secret_bytes: bytes) -> str:
    """The whsec_ secret of a sandbox state: derived from its own secret, so it stays the
    same across restarts of one state (a listener configured once keeps working)."""
    key = hmac.new(state_secret_bytes, b"webhook-signing-secret", hashlib.sha256).digest()
    return "whsec_" + base64.b64encode(key).decode("ascii")


# A plain class, not a dataclass: every `-p sandbox` command defines it again at its start,
# and a dataclass costs five times as much to define (issue 32).
class _Pending:
    """A delivery waiting in the heap, ordered by when it is due, then by when queued."""

    __slots__ = ("attempts", "body", "due", "event", "msg_id", "order")

    def __init__(
        self, due: float, order: int, msg_id: str, event: Event, body: bytes, attempts: int = 0
    ) -> None:
        self.due, self.order, self.msg_id = due, order, msg_id
        self.event, self.body, self.attempts = event, body, attempts

    def __lt__(self, other: _Pending) -> bool:
        return (self.due, self.order) < (other.due, other.order)


class WebhookSender:
    """Queues events and delivers them from one thread, retrying on its own schedule."""

    def __init__(
        self,
        url: str,
        secret: str,
        *,
        delays: Iterable[float] = RETRY_DELAYS,
        clock: Callable[[], float] = time.time,
    ) -> None:
        from standardwebhooks.webhooks import Webhook

        self.url = url
        self.secret = secret
        self._webhook = Webhook(secret)
        self._delays = tuple(delays)
        self._clock = clock
        self._queue: list[_Pending] = []
        self._order = itertools.count()
        self._ready = threading.Condition()
        self._stopping = False
        self._thread: threading.Thread | None = None
        self._http: Any = None

    def start(self) -> None:
        import httpx

        self._http = httpx.Client(timeout=TIMEOUT, follow_redirects=False, trust_env=False)
        self._thread = threading.Thread(
            target=self._work, name="leadctl-sandbox-webhooks", daemon=True
        )
        self._thread.start()

    def publish(self, events: Iterable[Event]) -> list[str]:
        """Queue ``events``; returns their webhook-ids, in order."""
        ids = []
        with self._ready:
            for event in events:
                msg_id = f"msg_{uuid.uuid4().hex}"
                pending = _Pending(
                    time.monotonic(), next(self._order), msg_id, event, event.payload()
                )
                heapq.heappush(self._queue, pending)
                ids.append(msg_id)
            self._ready.notify()
        return ids

    def publish_one(self, event: Event) -> str:
        """Queue one event; returns its webhook-id."""
        return self.publish([event])[0]

    def stop(self) -> int:
        """Stop sending; returns how many deliveries were still waiting (not delivered)."""
        with self._ready:
            self._stopping = True
            self._ready.notify()
            left = len(self._queue)
        if self._thread is not None:
            self._thread.join(TIMEOUT + 1)
        if self._http is not None:
            self._http.close()
        return left

    def _work(self) -> None:
        while True:
            with self._ready:
                while not self._stopping and (
                    not self._queue or self._queue[0].due > time.monotonic()
                ):
                    wait = self._queue[0].due - time.monotonic() if self._queue else None
                    self._ready.wait(wait)
                if self._stopping:
                    return
                pending = heapq.heappop(self._queue)
            self._attempt(pending)

    def _attempt(self, pending: _Pending) -> None:
        pending.attempts += 1
        outcome = self._send(pending)
        if outcome is None:
            return
        if pending.attempts > len(self._delays):
            logger.warning(
                "webhook %s (%s) not delivered after %d attempts: %s",
                pending.msg_id,
                pending.event.type,
                pending.attempts,
                outcome,
            )
            return
        delay = self._delays[pending.attempts - 1]
        logger.warning(
            "webhook %s (%s): %s; retrying in %gs",
            pending.msg_id,
            pending.event.type,
            outcome,
            delay,
        )
        pending.due = time.monotonic() + delay
        with self._ready:
            heapq.heappush(self._queue, pending)
            self._ready.notify()

    def _send(self, pending: _Pending) -> str | None:
        """None when delivered (2xx); otherwise what went wrong."""
        import httpx

        now = self._clock()
        signature = self._webhook.sign(
            msg_id=pending.msg_id,
            timestamp=datetime.fromtimestamp(int(now), timezone.utc),
            data=pending.body.decode("utf-8"),
        )
        headers = {
            "Content-Type": "application/json",
            "User-Agent": USER_AGENT,
            "webhook-id": pending.msg_id,
            "webhook-timestamp": str(int(now)),
            "webhook-signature": signature,
        }
        try:
            response = self._http.post(self.url, content=pending.body, headers=headers)
        except httpx.HTTPError as error:
            return f"{type(error).__name__} from {self.url}"
        if 200 <= response.status_code < 300:
            return None
        return f"{self.url} answered {response.status_code}"
