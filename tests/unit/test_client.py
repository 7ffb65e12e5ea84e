"""The HTTP client through `leadctl api`: auth, retries, errors, redaction, dry run."""

from __future__ import annotations

import json

import httpx
import pytest
from pytest_httpx import HTTPXMock

from leadctl import __version__
from tests.support.cli import BASE_URL, ORG_KEY, FakeClock, run_cli, token_env
from tests.support.keyrings import DictKeyring
from tests.support.profiles import declared_profile

SOURCE_KEY = "src_live_abcdefghijklmnop"


def test_sends_bearer_user_agent_and_prints_json(httpx_mock: HTTPXMock) -> None:
    httpx_mock.add_response(
        method="GET",
        url=f"{BASE_URL}/lead-statuses",
        json=[{"id": "ls_1", "name": "New", "extra": {"kept": True}}],
    )
    result = run_cli(["api", "GET", "/lead-statuses"], env=token_env())
    assert result.exit_code == 0, result.stderr
    request = httpx_mock.get_request()
    assert request is not None
    assert request.headers["Authorization"] == f"Bearer {ORG_KEY}"
    assert request.headers["User-Agent"] == f"leadctl/{__version__}"
    assert json.loads(result.stdout) == [{"id": "ls_1", "name": "New", "extra": {"kept": True}}]
    assert ORG_KEY not in result.stdout + result.stderr


def test_retry_after_is_honoured_exactly_without_jitter(httpx_mock: HTTPXMock) -> None:
    httpx_mock.add_response(status_code=429, headers={"Retry-After": "3"})
    httpx_mock.add_response(status_code=429, headers={"Retry-After": "0"})
    httpx_mock.add_response(json=[])
    clock = FakeClock()
    result = run_cli(["api", "GET", "/lead-statuses"], env=token_env(), clock=clock)
    assert result.exit_code == 0
    assert clock.sleeps == [3.0, 0.0]
    assert "retrying in 3s: 429 rate limited" in result.stderr


def test_quiet_silences_retry_lines(httpx_mock: HTTPXMock) -> None:
    httpx_mock.add_response(status_code=429, headers={"Retry-After": "1"})
    httpx_mock.add_response(json=[])
    result = run_cli(["-q", "api", "GET", "/lead-statuses"], env=token_env())
    assert result.exit_code == 0
    assert result.stderr == ""


def test_429_is_retried_even_for_lead_creation(httpx_mock: HTTPXMock) -> None:
    httpx_mock.add_response(method="POST", status_code=429, headers={"Retry-After": "2"})
    httpx_mock.add_response(method="POST", status_code=201, json={"id": "lead_1"})
    clock = FakeClock()
    result = run_cli(["api", "POST", "/leads", "-f", "firstName=Ada"], env=token_env(), clock=clock)
    assert result.exit_code == 0, result.stderr
    assert clock.sleeps == [2.0]
    assert len(httpx_mock.get_requests()) == 2


def test_rate_limit_outlasting_the_budget_is_exit_7(httpx_mock: HTTPXMock) -> None:
    for _ in range(3):
        httpx_mock.add_response(status_code=429, headers={"Retry-After": "1"})
    result = run_cli(["--max-retries", "2", "api", "GET", "/lead-statuses"], env=token_env())
    assert result.exit_code == 7
    assert len(httpx_mock.get_requests()) == 3
    assert result.stdout == ""


def test_server_errors_are_retried_with_capped_backoff_for_reads(httpx_mock: HTTPXMock) -> None:
    for _ in range(5):
        httpx_mock.add_response(status_code=503)
    clock = FakeClock()
    result = run_cli(["api", "GET", "/lead-statuses"], env=token_env(), clock=clock)
    assert result.exit_code == 8
    assert len(httpx_mock.get_requests()) == 5  # 1 + --max-retries 4
    assert len(clock.sleeps) == 4
    assert all(0 <= s <= 20 for s in clock.sleeps)
    assert "error: 503" in result.stderr


def test_server_error_on_lead_creation_is_outcome_unknown(httpx_mock: HTTPXMock) -> None:
    httpx_mock.add_response(method="POST", status_code=500)
    result = run_cli(["api", "POST", "/leads", "-f", "firstName=Ada"], env=token_env())
    assert result.exit_code == 9
    assert len(httpx_mock.get_requests()) == 1
    assert "may or may not have taken effect" in result.stderr
    assert "leads list" in result.stderr  # tells the user what to check


def test_timeout_on_rotation_is_outcome_unknown_and_not_resent(httpx_mock: HTTPXMock) -> None:
    httpx_mock.add_exception(httpx.ReadTimeout("read timed out"))
    result = run_cli(["api", "POST", "/sources/src_1/credentials/rotate"], env=token_env())
    assert result.exit_code == 9
    assert len(httpx_mock.get_requests()) == 1


def test_an_unreadable_answer_to_lead_creation_is_outcome_unknown(httpx_mock: HTTPXMock) -> None:
    # The service answered (perhaps 201), but its body cannot be decoded: the lead may exist.
    httpx_mock.add_response(
        method="POST", status_code=201, headers={"Content-Encoding": "gzip"}, content=b"not gzip"
    )
    result = run_cli(["api", "POST", "/leads", "-f", "firstName=Ada"], env=token_env())
    assert result.exit_code == 9, result.stderr
    assert len(httpx_mock.get_requests()) == 1
    assert "could not be decoded" in result.stderr
    assert "may or may not have taken effect" in result.stderr


def test_timeout_on_a_read_is_retried(httpx_mock: HTTPXMock) -> None:
    httpx_mock.add_exception(httpx.ReadTimeout("read timed out"))
    httpx_mock.add_response(json=[])
    result = run_cli(["api", "GET", "/lead-statuses"], env=token_env())
    assert result.exit_code == 0
    assert "retrying in" in result.stderr


def test_connect_error_is_retried_even_for_lead_creation(httpx_mock: HTTPXMock) -> None:
    httpx_mock.add_exception(httpx.ConnectError("connection refused"), method="POST")
    httpx_mock.add_response(method="POST", json={"id": "lead_1"})
    result = run_cli(["api", "POST", "/leads", "-f", "firstName=Ada"], env=token_env())
    assert result.exit_code == 0, result.stderr


def test_connection_failures_outlasting_the_budget_are_exit_8(httpx_mock: HTTPXMock) -> None:
    for _ in range(2):
        httpx_mock.add_exception(httpx.ConnectError("connection refused"))
    result = run_cli(["--max-retries", "1", "api", "GET", "/lead-statuses"], env=token_env())
    assert result.exit_code == 8
    assert "cannot connect" in result.stderr


@pytest.mark.parametrize(("status", "code"), [(400, 6), (401, 3), (403, 4), (404, 5)])
def test_client_errors_are_never_retried(httpx_mock: HTTPXMock, status: int, code: int) -> None:
    httpx_mock.add_response(
        status_code=status,
        headers={"Content-Type": "application/problem+json"},
        json={"title": "Nope", "status": status, "traceId": "00-abc-01"},
    )
    result = run_cli(["api", "GET", "/lead-statuses"], env=token_env())
    assert result.exit_code == code
    assert len(httpx_mock.get_requests()) == 1
    assert "trace id: 00-abc-01" in result.stderr


def test_problem_json_field_errors_are_listed(httpx_mock: HTTPXMock) -> None:
    httpx_mock.add_response(
        method="PUT",
        status_code=400,
        headers={"Content-Type": "application/problem+json"},
        json={
            "title": "Validation failed",
            "status": 400,
            "detail": "One or more fields are invalid.",
            "errors": {"name": ["The name may be at most 255 characters."]},
            "traceId": "t-1",
        },
    )
    result = run_cli(["api", "PUT", "/sources/src_1", "-f", "name=x"], env=token_env())
    assert result.exit_code == 6
    lines = result.stderr.splitlines()
    assert lines[0] == "error: 400 Validation failed: One or more fields are invalid."
    assert "  name: The name may be at most 255 characters." in lines
    assert lines[-1] == "trace id: t-1"
    assert result.stdout == ""


def test_json_error_object_when_json_output_was_asked_for(httpx_mock: HTTPXMock) -> None:
    problem = {"title": "Not Found", "status": 404, "traceId": "t-9", "custom": 1}
    httpx_mock.add_response(
        status_code=404, headers={"Content-Type": "application/problem+json"}, json=problem
    )
    result = run_cli(["-o", "json", "api", "GET", "/automations/a1/runs"], env=token_env())
    assert result.exit_code == 5
    assert json.loads(result.stderr) == {**problem, "exitCode": 5}
    assert result.stdout == ""


def test_piped_default_json_still_gives_a_text_error(httpx_mock: HTTPXMock) -> None:
    httpx_mock.add_response(status_code=404)
    result = run_cli(["api", "GET", "/automations/a1/runs"], env=token_env())
    assert result.exit_code == 5
    assert result.stderr.startswith("error: 404")


def test_html_error_page_from_a_proxy_is_a_clean_error(httpx_mock: HTTPXMock) -> None:
    for _ in range(5):
        httpx_mock.add_response(
            status_code=502,
            headers={"Content-Type": "text/html"},
            text="<html><body><h1>502 Bad Gateway</h1></body></html>",
        )
    result = run_cli(["api", "GET", "/lead-statuses"], env=token_env())
    assert result.exit_code == 8
    assert "error: 502 Bad Gateway: the response was not a problem document (text/html" in (
        result.stderr
    )
    assert "Traceback" not in result.stderr


def test_empty_error_body_is_a_clean_error(httpx_mock: HTTPXMock) -> None:
    httpx_mock.add_response(status_code=403, content=b"")
    result = run_cli(["api", "GET", "/lead-statuses"], env=token_env())
    assert result.exit_code == 4
    assert "empty body" in result.stderr


def test_source_key_is_refused_before_sending_anywhere_but_intake(
    httpx_mock: HTTPXMock, memory_keyring: DictKeyring
) -> None:
    declared_profile(memory_keyring, value=SOURCE_KEY, kind="source")
    result = run_cli(["api", "GET", "/lead-statuses"])
    assert result.exit_code == 4
    assert httpx_mock.get_requests() == []
    assert "source keys are only for lead intake" in result.stderr


def test_dry_run_refuses_what_the_real_run_would(memory_keyring: DictKeyring) -> None:
    declared_profile(memory_keyring, value=SOURCE_KEY, kind="source")
    result = run_cli(["--dry-run", "api", "GET", "/lead-statuses"])
    assert result.exit_code == 4
    assert result.stdout == ""
    assert "source keys are only for lead intake" in result.stderr


def test_a_value_of_no_recognised_kind_is_sent_and_the_service_decides(
    httpx_mock: HTTPXMock,
) -> None:
    httpx_mock.add_response(status_code=403, json={"title": "Forbidden", "status": 403})
    result = run_cli(["api", "GET", "/lead-statuses"], env=token_env(SOURCE_KEY))
    assert result.exit_code == 4
    request = httpx_mock.get_request()
    assert request is not None
    assert request.headers["Authorization"] == f"Bearer {SOURCE_KEY}"
    assert "source keys are only for lead intake" not in result.stderr


def test_source_key_may_create_leads(httpx_mock: HTTPXMock, memory_keyring: DictKeyring) -> None:
    declared_profile(memory_keyring, value=SOURCE_KEY, kind="source")
    httpx_mock.add_response(method="POST", url=f"{BASE_URL}/leads", json={"id": "lead_1"})
    result = run_cli(["api", "POST", "/leads", "-f", "firstName=Ada"])
    assert result.exit_code == 0, result.stderr
    request = httpx_mock.get_request()
    assert request is not None
    assert request.headers["Authorization"] == f"Bearer {SOURCE_KEY}"


def test_source_key_header_can_be_overridden_by_the_profile(
    httpx_mock: HTTPXMock, memory_keyring: DictKeyring
) -> None:
    declared_profile(
        memory_keyring,
        value=SOURCE_KEY,
        kind="source",
        extra='source_key_header = "X-Source-Key"\n',
    )
    httpx_mock.add_response(method="POST", json={"id": "lead_1"})
    result = run_cli(["api", "POST", "/leads", "-f", "a=b"])
    assert result.exit_code == 0, result.stderr
    request = httpx_mock.get_request()
    assert request is not None
    assert request.headers["X-Source-Key"] == SOURCE_KEY
    assert "Authorization" not in request.headers


def test_no_credential_is_exit_3(httpx_mock: HTTPXMock) -> None:
    result = run_cli(
        ["api", "GET", "/lead-statuses"],
        env={"LEADCTL_BASE_URL": BASE_URL, "LEADCTL_TOKEN": ""},
    )
    assert result.exit_code == 3
    assert httpx_mock.get_requests() == []


def test_debug_trace_redacts_credentials_and_secrets(httpx_mock: HTTPXMock) -> None:
    new_secret = "src_live_NEWSECRETVALUE123456"
    httpx_mock.add_response(
        method="POST",
        json={"source": {"id": "src_1", "apiKeyPreview": "src_…3456"}, "secret": new_secret},
    )
    result = run_cli(
        ["--debug", "-o", "json", "api", "POST", "/sources/src_1/credentials/rotate"],
        env=token_env(),
    )
    assert result.exit_code == 0, result.stderr
    assert "> POST https://api.example.test/sources/src_1/credentials/rotate" in result.stderr
    assert "< 200 OK" in result.stderr
    assert "authorization: ***" in result.stderr.lower()
    assert ORG_KEY not in result.stderr
    assert new_secret not in result.stderr
    # The user asked for the response: stdout has it.
    assert new_secret in result.stdout


def test_dry_run_prints_curl_and_sends_nothing(httpx_mock: HTTPXMock) -> None:
    result = run_cli(
        ["--dry-run", "api", "PUT", "/sources/src 1", "-F", "requiresConsentCertificate=true"],
        env=token_env(),
    )
    assert result.exit_code == 0, result.stderr
    assert httpx_mock.get_requests() == []
    assert result.stdout.startswith("curl ")
    assert '"Authorization: Bearer $LEADCTL_TOKEN"' in result.stdout
    assert "-X PUT" in result.stdout
    assert "/sources/src%201" in result.stdout
    assert '{"requiresConsentCertificate": true}' in result.stdout
    assert ORG_KEY not in result.stdout


def test_non_json_success_body_in_a_paged_read_is_exit_8(httpx_mock: HTTPXMock) -> None:
    httpx_mock.add_response(method="POST", text="<html>oops</html>")
    result = run_cli(["--debug", "api", "POST", "/leads/all/my", "--paginate"], env=token_env())
    assert result.exit_code == 8
    assert "not JSON" in result.stderr
    assert "raw body start: <html>oops</html>" in result.stderr


def test_dry_run_of_a_paged_read_prints_only_the_first_request(httpx_mock: HTTPXMock) -> None:
    result = run_cli(
        ["--dry-run", "api", "POST", "/leads/all/my", "--paginate", "-o", "json"],
        env=token_env(),
    )
    assert result.exit_code == 0
    assert result.stdout.startswith("curl ") and result.stdout.count("\n") == 1
    assert result.stderr == ""


def test_a_huge_body_is_a_clean_error(httpx_mock: HTTPXMock) -> None:
    from leadctl.http.client import MAX_BODY_BYTES

    httpx_mock.add_response(content=b"[" + b" " * MAX_BODY_BYTES + b"]")
    result = run_cli(["api", "GET", "/lead-statuses"], env=token_env())
    assert result.exit_code == 8
    assert "too large" in result.stderr
    assert result.stdout == ""
