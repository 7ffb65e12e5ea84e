"""PhoneNumberStatus (GET /phone-numbers/{phoneNumber}/status), as the reference shows it.

Field types follow :mod:`leadctl.models.base`'s lenient rules. Counters the reference
calls integers are :data:`~leadctl.models.base.Number` here: the view draws gauges and
sums with them, and an odd non-integral count is still shown as sent.
"""

from __future__ import annotations

from typing import Literal, NamedTuple

from leadctl.models.base import Flag, Instant, Number, Obj, Objs, Resource, String, Text

Channel = Literal["sms", "voice"]
Period = Literal["this_minute", "this_hour", "today"]

# Which reset time goes with which counter period (``smsUsedThisHour`` resets at
# ``smsHourlyResetsAt``).
_RESETS: dict[str, str] = {"this_minute": "minutely", "this_hour": "hourly", "today": "daily"}


class Usage(NamedTuple):
    """One channel's counters for one period."""

    used: float | None
    limit: float | None
    remaining: float | None
    resets_at: str | None


class UiState(Resource):
    label: Text = None
    tone: Text = None
    description: Text = None


class SmsWarmup(Resource):
    phone_number_id: Text = None
    phone_number: Text = None
    status: Text = None
    health_status: Text = None
    health_score: Number = None
    progress_percent: Number = None
    warmup_enabled: Flag = None
    ui_state: Obj[UiState] = None


class OutboundCapacity(Resource):
    capacity_available: Flag = None
    phone_number_id: Text = None
    phone_number: Text = None
    health_status: Text = None
    health_reason: Text = None
    sms_approved: Flag = None
    sms_ramping: Flag = None
    voice_ramping: Flag = None

    sms_remaining_this_minute: Number = None
    sms_used_this_minute: Number = None
    sms_limit_this_minute: Number = None
    sms_remaining_this_hour: Number = None
    sms_used_this_hour: Number = None
    sms_limit_this_hour: Number = None
    sms_remaining_today: Number = None
    sms_used_today: Number = None
    sms_limit_today: Number = None
    sms_minutely_resets_at: Instant = None
    sms_hourly_resets_at: Instant = None
    sms_daily_resets_at: Instant = None

    voice_remaining_this_minute: Number = None
    voice_used_this_minute: Number = None
    voice_limit_this_minute: Number = None
    voice_remaining_this_hour: Number = None
    voice_used_this_hour: Number = None
    voice_limit_this_hour: Number = None
    voice_remaining_today: Number = None
    voice_used_today: Number = None
    voice_limit_today: Number = None
    voice_minutely_resets_at: Instant = None
    voice_hourly_resets_at: Instant = None
    voice_daily_resets_at: Instant = None

    def usage(self, channel: Channel, period: Period) -> Usage:
        """The counters of ``channel`` for ``period``: the reference spells them as 24
        flat fields, a view wants them by channel and period."""
        return Usage(
            used=getattr(self, f"{channel}_used_{period}"),
            limit=getattr(self, f"{channel}_limit_{period}"),
            remaining=getattr(self, f"{channel}_remaining_{period}"),
            resets_at=getattr(self, f"{channel}_{_RESETS[period]}_resets_at"),
        )


class OptOutMetrics(Resource):
    window_days: Number = None
    window_started_at: Instant = None
    distinct_contacted_count: Number = None
    opt_out_count: Number = None
    opt_out_rate_percent: Number = None


class TrafficCounts(Resource):
    """The counts a traffic window and each of its trend buckets both report."""

    sms_sent_count: Number = None
    sms_failed_count: Number = None
    mms_sent_count: Number = None
    mms_failed_count: Number = None
    call_placed_count: Number = None
    call_failed_count: Number = None


class TrafficBucket(TrafficCounts):
    start_at: Instant = None
    end_at: Instant = None
    # Not text: the view names the bucket by its start time instead.
    label: String = None


class TrafficMetrics(TrafficCounts):
    window_days: Number = None
    window_started_at: Instant = None
    call_connected_count: Number = None
    call_short_count: Number = None
    call_invalid_number_count: Number = None
    # A trend that is not an array reads as none (the view crashed on a number here).
    trend: Objs[TrafficBucket] = None


class RecentEvent(Resource):
    id: Text = None
    label: Text = None
    event_type: Text = None
    direction: Text = None
    from_phone_number: Text = None
    to_phone_number: Text = None
    text_preview: Text = None
    created_at: Instant = None
    is_opt_out: Flag = None


class PhoneNumberStatus(Resource):
    number: Text = None
    # "whether/how many": the reference describes a count and a yes/no at once.
    messages_possible: Number = None
    calls_possible: Number = None
    sms_warmup: Obj[SmsWarmup] = None
    outbound_capacity: Obj[OutboundCapacity] = None
    opt_out_metrics: Obj[OptOutMetrics] = None
    traffic_metrics: Obj[TrafficMetrics] = None
    # Absent when not an array ("not reported"); an empty array is "no recent events".
    recent_events: Objs[RecentEvent] = None
