"""What an operation says it does (issue 21.8): the verb of its operationId or summary, as a
whole word, decides whether a read acts."""

from __future__ import annotations

import pytest

from leadctl.contract.effects import acting_verb


@pytest.mark.parametrize(
    ("operation_id", "summary", "verb"),
    [
        ("Leads_CreateFromQuery", None, "create"),
        ("runReport", None, "run"),
        ("rerunJob", None, "rerun"),
        ("resendInvitation", None, "resend"),
        ("leads.create", None, "create"),
        ("create_lead", None, "create"),
        ("LeadIntake_Submit", None, "submit"),
        ("deleteById", None, "delete"),
        (None, "Create a lead from query parameters", "create"),
        (None, "Sends the digest now", "sends"),
        ("getReport", "Runs the report and returns it", "runs"),
        # Reads whose words hold an acting word elsewhere, or inside another word.
        ("Transcripts_GetTranscripts", "List transcripts", None),
        ("getWorkflowRun", "Get a workflow run", None),
        ("actions/get-workflow-run", None, None),
        ("get_workflow_run", None, None),
        ("GetAutomationRuns", "List runs of an automation", None),
        ("Runs_List", None, None),
        ("listSubmissions", "Submissions received", None),
        (None, None, None),
    ],
)
def test_only_the_verb_of_the_id_or_summary_counts(
    operation_id: str | None, summary: str | None, verb: str | None
) -> None:
    assert acting_verb(operation_id, summary) == verb
