"""The resource models: the service's camelCase, unknown fields kept, and per field type
what a value of the wrong JSON type reads as (a view draws it, never crashes on it)."""

from __future__ import annotations

import io
from datetime import datetime, timezone
from typing import Any

import pytest
from rich.console import Console, RenderableType

from leadctl.commands.sources.rotate import show_rotation
from leadctl.models.automation_runs import AutomationRun, RunHistory
from leadctl.models.base import Flag, Instant, Integer, Number, Obj, Objs, Resource, Text
from leadctl.models.phone_number_status import OutboundCapacity, PhoneNumberStatus
from leadctl.models.sources import Rotation, Source
from leadctl.views.automation_runs import render_run_tree, render_runs_table
from leadctl.views.number_status import render_number_status
from tests.commands.automations._support import failed_run, history
from tests.commands.numbers._support import number_status
from tests.support.run_context import direct_context, stdout_of

NOW = datetime(2026, 11, 21, 12, 0, tzinfo=timezone.utc)


class Inner(Resource):
    name: Text = None


class Sample(Resource):
    text: Text = None
    number: Number = None
    integer: Integer = None
    flag: Flag = None
    when: Instant = None
    inner: Obj[Inner] = None
    inners: Objs[Inner] = None


def draw(renderable: RenderableType) -> str:
    out = io.StringIO()
    Console(file=out, width=200, color_system=None).print(renderable)
    return out.getvalue()


# -- names and unknown fields -------------------------------------------------------------


def test_fields_read_the_services_camel_case_and_unknown_fields_survive() -> None:
    data = number_status()
    data["windowNote"] = "new"
    status = PhoneNumberStatus.read(data)
    assert status.number == "+14155550123"
    assert status.outbound_capacity is not None
    assert status.outbound_capacity.sms_used_this_minute == 9
    assert status.model_extra == {"windowNote": "new"}
    assert status.outbound_capacity.model_extra == {"someFutureField": {"kept": True}}
    # Dumped by alias, what was sent comes back under the service's names, extras too.
    dumped = status.model_dump(by_alias=True, exclude_unset=True)
    assert dumped["windowNote"] == "new"
    assert dumped["outboundCapacity"]["someFutureField"] == {"kept": True}
    assert dumped["recentEvents"][0]["isOptOut"] is data["recentEvents"][0]["isOptOut"]


def test_a_model_can_be_built_by_field_name() -> None:
    assert OutboundCapacity(sms_used_today=3).sms_used_today == 3
    assert OutboundCapacity.read({"sms_used_today": 3}).sms_used_today == 3


def test_usage_gathers_one_channels_counters_for_one_period() -> None:
    capacity = PhoneNumberStatus.read(number_status()).outbound_capacity
    assert capacity is not None
    raw = number_status()["outboundCapacity"]
    used, limit, remaining, resets_at = capacity.usage("voice", "this_hour")
    assert (used, limit, remaining) == (
        raw["voiceUsedThisHour"],
        raw["voiceLimitThisHour"],
        raw["voiceRemainingThisHour"],
    )
    assert resets_at == raw["voiceHourlyResetsAt"]


def test_sent_tells_null_from_absent() -> None:
    sample = Sample.read({"text": None})
    assert sample.sent("text") and not sample.sent("number")


# -- leniency, field type by field type ------------------------------------------------------

# (field, value sent, value read)
LENIENT: list[tuple[str, Any, Any]] = [
    ("text", "Ada", "Ada"),
    ("text", 7, "7"),  # a scalar is shown as its text, as the views did
    ("text", True, "True"),
    ("text", {"a": 1}, None),  # was shown as a Python repr
    ("text", [1], None),
    ("number", 5, 5.0),
    ("number", 2.5, 2.5),
    ("number", True, None),  # JSON keeps booleans apart from numbers
    ("number", "5", None),
    ("integer", 5, 5),
    ("integer", 5.0, 5),
    ("integer", 5.5, None),
    ("integer", False, None),
    ("flag", True, True),
    ("flag", False, False),
    ("flag", "yes", None),  # not its truthiness: "no" would read as yes
    ("flag", 1, None),
    ("when", "2026-11-21T10:00:00Z", "2026-11-21T10:00:00Z"),
    ("when", "soon", "soon"),  # kept as sent: views parse it where they show it
    ("inner", "x", None),
    ("inners", 7, None),
]


@pytest.mark.parametrize(("field", "sent", "read"), LENIENT)
def test_a_value_of_the_wrong_type_reads_as_the_model_says(
    field: str, sent: Any, read: Any
) -> None:
    assert getattr(Sample.read({field: sent}), field) == read


def test_nested_objects_and_arrays_of_them() -> None:
    sample = Sample.read({"inner": {"name": "a", "x": 1}, "inners": [{"name": "b"}, 7, "c"]})
    assert sample.inner == Inner(name="a", x=1)
    assert sample.inners == [Inner(name="b")]  # non-objects are left out


def test_anything_but_an_object_reads_as_an_empty_resource() -> None:
    for data in (None, "x", 7, [{"number": "+1"}]):
        status = PhoneNumberStatus.read(data)
        assert status.number is None and status.model_fields_set == set()


# -- the views, on odd values that crashed them before the models ---------------------------


def test_a_trend_that_is_not_an_array_draws_as_no_trend() -> None:
    data = number_status()
    data["trafficMetrics"]["trend"] = 7
    out = draw(render_number_status(data, now=NOW, width=100))
    assert "no trend buckets in the window" in out
    assert "SMS 340 sent" in out  # the rest of the section is still drawn


def test_actions_and_events_that_are_not_arrays_draw_as_none() -> None:
    run = failed_run() | {"actions": 7, "events": True}
    out = draw(render_run_tree(run, now=NOW))
    assert "Run run_failed" in out
    assert "no actions or events recorded" in out


def test_a_run_that_is_not_an_object_draws_as_an_empty_row() -> None:
    data = history()
    runs = [*data["runs"], "not a run"]
    table, _dropped = render_runs_table(data, runs, now=NOW, note="4 runs", width=200)
    lines = draw(table).splitlines()
    assert any("run_failed" in line for line in lines)
    assert sum(1 for line in lines if line.startswith("run_")) == 3


def rotation_view(source: Any) -> str:
    ctx = direct_context(tty=True, env={"NO_COLOR": "1"})
    show_rotation(ctx, {"source": source, "secret": "src_new_key"})
    return stdout_of(ctx)


def test_a_rotated_sources_fields_that_are_objects_show_as_absent_not_as_a_repr() -> None:
    out = rotation_view({"id": "src_1", "name": {"first": "Web"}, "apiKeyPreview": ["src_…cdef"]})
    # The name was shown as "{'first': 'Web'}" and the preview as "['src_…cdef']".
    assert "New intake key for source src_1:" in out
    assert "key preview  \n" in out
    assert "{'" not in out and "['" not in out
    assert "  src_new_key\n" in out  # the key itself, once


def test_a_rotated_sources_time_that_is_not_text_is_shown_as_sent() -> None:
    # Every field reads a scalar as its text; the rotation time was left blank instead.
    out = rotation_view({"id": "src_1", "apiKeyRotatedAt": 1763726340})
    assert "rotated at   1763726340\n" in out


def test_a_rotation_whose_source_is_not_an_object_still_shows_the_key() -> None:
    out = rotation_view(["src_1"])
    assert "New intake key for source :" in out
    assert "  src_new_key\n" in out


# -- the other resources of the reference -----------------------------------------------------


def test_source_and_rotation() -> None:
    source = {
        "id": "src_1",
        "enabled": True,
        "apiKeyPreview": "sk_…abcd",
        "costPerLead": 2,
        "allowedStates": ["TX", "OK"],
        "defaultTags": [{"id": "t1", "normalizedName": "vip", "color": "#f00"}],
        "createdByUser": {"id": "usr_1", "name": "Ada"},
    }
    rotation = Rotation.read({"source": source, "secret": "sk_new_0123456789abcdef"})
    assert rotation.secret == "sk_new_0123456789abcdef"
    assert "sk_new_0123456789abcdef" not in repr(rotation)  # nor in a debug line
    read = rotation.source
    assert isinstance(read, Source)
    assert read.enabled is True and read.cost_per_lead == 2.0
    assert read.allowed_states == ["TX", "OK"]
    assert read.default_tags is not None and read.default_tags[0].normalized_name == "vip"
    assert read.created_by_user is not None and read.created_by_user.name == "Ada"


def test_run_history_reads_runs_and_their_parts() -> None:
    read = RunHistory.read(history())
    assert read.automation_id == "aut_1"
    assert read.runs is not None and len(read.runs) == 3
    run = read.runs[0]
    assert isinstance(run, AutomationRun)
    assert run.automation is not None and run.automation.name == "New lead welcome"
    assert run.actions is not None and run.actions[0].failure_code == "CARRIER_REJECTED"
    assert run.events is not None and run.events[0].reason_code == "RETRIES_PENDING"
    assert run.model_extra == {"futureField": [1, 2]}
