"""Automation run history (GET /automations/{id}/runs): runs, their actions and events.

Run, action and event status words, trigger types and reason codes are not enumerated by
the reference: they are :data:`~leadctl.models.base.Text`, shown as sent.
"""

from __future__ import annotations

from leadctl.models.base import IdNamePair, Instant, Number, Obj, Objs, Resource, Text


class WithStatus(Resource):
    """What runs, actions and events share: a status word and its display text."""

    status: Text = None
    status_display: Text = None


class RunAction(WithStatus):
    id: Text = None
    step_id: Text = None
    step_display_name: Text = None
    action_type: Text = None
    action_type_display: Text = None
    user_summary: Text = None
    safe_reason: Text = None
    failure_code: Text = None
    step_order: Number = None
    retry_count: Number = None
    scheduled_at: Instant = None
    started_at: Instant = None
    completed_at: Instant = None
    failed_at: Instant = None
    skipped_at: Instant = None
    next_retry_at: Instant = None


class RunEvent(WithStatus):
    id: Text = None
    step_id: Text = None
    action_id: Text = None
    event_type: Text = None
    summary: Text = None
    reason_code: Text = None
    occurred_at: Instant = None


class AutomationRun(WithStatus):
    id: Text = None
    organization_id: Text = None
    lead_id: Text = None
    automation: Obj[IdNamePair] = None
    trigger_type: Text = None
    trigger_display: Text = None
    current_step: Obj[IdNamePair] = None
    current_step_order: Number = None
    next_execution_at: Instant = None
    last_execution_at: Instant = None
    started_at: Instant = None
    updated_at: Instant = None
    completed_at: Instant = None
    failed_at: Instant = None
    cancelled_at: Instant = None
    next_retry_at: Instant = None
    retry_count: Number = None
    max_retry_count: Number = None
    last_error_code: Text = None
    last_error_message: Text = None
    skip_reason_code: Text = None
    skip_reason_display: Text = None
    last_action_summary: Text = None
    # Not an array: no actions (events); objects only, as the tree drew them.
    actions: Objs[RunAction] = None
    events: Objs[RunEvent] = None


class RunHistory(Resource):
    automation_id: Text = None
    # The command checks that runs is an array of objects before anything is drawn
    # (exit 8 otherwise); here a wrong one reads as absent.
    runs: Objs[AutomationRun] = None
