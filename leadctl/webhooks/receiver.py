"""What a receiver does with one delivery: verify, deduplicate, forward, answer.

No sockets here (http_server.py owns them): a delivery's headers and body in, the answer
and a record of what happened out. Answers follow Standard Webhooks' receiver rules: a bad
signature is 401; a missing or malformed header or a stale timestamp is 400; neither is
forwarded. A verified delivery is forwarded once, and the sender gets the target's status
(2xx when there is no target); a webhook-id accepted before is answered 2xx and not
forwarded again. A failed forward is not remembered, so the sender's retry is forwarded.
With ``events`` (``listen --events``, as ``stripe listen --events``), a verified delivery
of another type is answered 2xx and not forwarded: the sender has nothing to retry.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from leadctl.webhooks.forwarding import Forwarder
from leadctl.webhooks.recent import RecentIds
from leadctl.webhooks.secret import WebhookSecret
from leadctl.webhooks.verification import (
    BAD_SIGNATURE,
    ID_HEADER,
    WebhookInvalid,
    header_value,
    verify_delivery,
)

PROBLEM_JSON = "application/problem+json"
NOT_SELECTED = "not in --events"


@dataclass
class Record:
    """One delivery as the operator sees it (a table line, or an NDJSON object)."""

    received_at: float
    # As the sender claimed it; verified only when ``verified`` is true.
    webhook_id: str | None
    verified: bool
    status: int
    # Why it was refused (verification.py's reasons), or why the forward failed.
    reason: str | None = None
    event_type: str | None = None
    forward_status: int | None = None
    forwarded: bool = False
    duplicate: bool = False

    def to_json(self) -> dict[str, Any]:
        from datetime import datetime, timezone

        moment = datetime.fromtimestamp(self.received_at, timezone.utc)
        return {
            "time": moment.isoformat(timespec="milliseconds").replace("+00:00", "Z"),
            "webhookId": self.webhook_id,
            "type": self.event_type,
            "verified": self.verified,
            "reason": self.reason,
            "status": self.status,
            "forwarded": self.forwarded,
            "forwardStatus": self.forward_status,
            "duplicate": self.duplicate,
        }


@dataclass
class Answer:
    status: int
    record: Record
    body: bytes = b""
    content_type: str | None = None


class Receiver:
    def __init__(
        self,
        secret: WebhookSecret,
        *,
        tolerance: float,
        wall_clock: Callable[[], float],
        forwarder: Forwarder | None = None,
        recent: RecentIds | None = None,
        events: frozenset[str] | None = None,
    ) -> None:
        self._secret = secret
        self._events = events
        self._tolerance = tolerance
        self._wall_clock = wall_clock
        self._forwarder = forwarder
        self._recent = RecentIds() if recent is None else recent

    def receive(self, headers: list[tuple[str, str]], body: bytes) -> Answer:
        now = self._wall_clock()
        try:
            verified = verify_delivery(
                self._secret, headers, body, now=now, tolerance=self._tolerance
            )
        except WebhookInvalid as error:
            status = 401 if error.reason == BAD_SIGNATURE else 400
            record = Record(now, _claimed_id(headers), False, status, reason=error.reason)
            return _refused(status, error.message, record)
        msg_id = verified.msg_id
        record = Record(now, msg_id, True, 0, event_type=_event_type(body))
        if self._events is not None and record.event_type not in self._events:
            record.status, record.reason = 204, NOT_SELECTED
            return Answer(204, record)
        claim = self._recent.claim(msg_id)
        if claim == "duplicate":
            record.status, record.duplicate = 204, True
            return Answer(204, record)
        if claim == "in flight":
            # The first copy is still being handled; its outcome decides. Try again later.
            record.status, record.reason = 409, "in flight"
            why = "in flight: a delivery with this webhook-id is being handled"
            return _refused(409, why, record)
        accepted = False
        try:
            answer = self._deliver(headers, body, record)
            accepted = 200 <= answer.status < 300
            return answer
        finally:
            self._recent.settle(msg_id, accepted=accepted)

    def refused(self, headers: list[tuple[str, str]], status: int, reason: str) -> Record:
        """The record of a request refused before it could be verified (too large)."""
        return Record(self._wall_clock(), _claimed_id(headers), False, status, reason=reason)

    def _deliver(self, headers: list[tuple[str, str]], body: bytes, record: Record) -> Answer:
        if self._forwarder is None:
            record.status = 204
            return Answer(204, record)
        forwarded = self._forwarder.forward(headers, body)
        if forwarded.status is None:
            status = forwarded.gateway_status or 502
            record.status, record.reason = status, forwarded.failure
            return _refused(status, f"forward failed: {forwarded.failure}", record)
        record.status = record.forward_status = forwarded.status
        record.forwarded = True
        return Answer(forwarded.status, record, forwarded.body, forwarded.content_type)


def _refused(status: int, message: str, record: Record) -> Answer:
    """A problem document (RFC 9457) the sender can show: ``title`` is the reason."""
    title, _colon, detail = message.partition(": ")
    problem = {"status": status, "title": title, "detail": detail or None}
    return Answer(status, record, json.dumps(problem).encode("utf-8"), PROBLEM_JSON)


def _claimed_id(headers: list[tuple[str, str]]) -> str | None:
    try:
        return header_value(headers, ID_HEADER)
    except WebhookInvalid:
        return None


def _event_type(body: bytes) -> str | None:
    """The payload's ``type`` (Standard Webhooks' event name), read only once verified."""
    try:
        payload = json.loads(body)
    except ValueError:
        return None
    kind = payload.get("type") if isinstance(payload, dict) else None
    return kind if isinstance(kind, str) else None
