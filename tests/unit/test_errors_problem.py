"""An error answer's problem document, written once for -o json errors and bulk reports."""

from __future__ import annotations

from leadctl.errors import ApiError


def test_the_problem_document_is_the_service_s_with_gaps_filled() -> None:
    error = ApiError(
        422,
        title="Unprocessable",
        detail="email is invalid",
        problem={"type": "about:blank", "title": "Validation failed", "traceId": "t-1"},
        hint="fix the row",
    )
    assert error.problem_document() == {
        "type": "about:blank",
        "title": "Validation failed",  # the service's own words win
        "traceId": "t-1",
        "status": 422,
        "detail": "email is invalid",
    }
    # The -o json error is the same document plus what leadctl adds.
    assert error.to_json() == {**error.problem_document(), "hint": "fix the row", "exitCode": 6}


def test_an_answer_without_a_body_still_has_a_status() -> None:
    assert ApiError(503).problem_document() == {"status": 503}
