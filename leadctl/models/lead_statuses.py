"""LeadStatus (GET /lead-statuses) and LeadStatusChange (PUT /lead-status-changes/{id}).

Categories, change sources, types and outcomes are Text: the enumerated ones may grow,
and a view shows a word it does not know rather than refusing the answer.
"""

from __future__ import annotations

from leadctl.models.base import Flag, Instant, Integer, Resource, Text


class LeadStatus(Resource):
    id: Text = None
    organization_id: Text = None
    name: Text = None
    color: Text = None
    category: Text = None  # Open, Qualified, Converted, Lost, Invalid, Duplicate
    # Display order; a non-integer reads as absent, and such statuses sort last.
    sort_order: Integer = None
    is_archived: Flag = None
    modified_at: Instant = None


class LeadStatusChange(Resource):
    id: Text = None
    lead_id: Text = None
    lead_name: Text = None
    type: Text = None
    outcome: Text = None
    category: Text = None  # as LeadStatus.category
    old_lead_status_change_id: Text = None
    old_lead_status_change_type: Text = None
    old_lead_status_change_outcome: Text = None
    new_lead_status_change_id: Text = None
    notes: Text = None
    reason: Text = None
    changed_by_user_id: Text = None
    changed_by_automation_id: Text = None
    changed_at: Instant = None
    change_source: Text = None  # User, AI, Automation, System, API
    timestamp: Instant = None
    created_at: Instant = None
    updated_at: Instant = None
    follow_up_status: Text = None
    callback_at: Instant = None
    task_due_at: Instant = None
    appointment_start_at: Instant = None
    appointment_end_at: Instant = None
    appointment_notes: Text = None
    assigned_to_user_id: Text = None
    related_call_event_id: Text = None
    is_missed_call_follow_up: Flag = None
    source_id: Text = None
