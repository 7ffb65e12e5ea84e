"""Bad input, fuzzed: every parser of what people type, fed near misses and noise.

The property, for every example: never a traceback nor an "unexpected" error; the exit
code is 0 (the input was good and the request went out) or 2 (refused); and when refused,
one ``error:`` line that names the bad part (the flag, the argument or the field), stdout
empty, and nothing sent. In process: the service is a pytest-httpx callback that answers
every request, so the requests of each example can be counted.

Examples per parser: the run's hypothesis profile (tests/support/hypothesis_profiles.py),
derandomized (the same every run).
"""

from __future__ import annotations

import json
import re
from collections.abc import Sequence
from typing import Any

import httpx
import pytest
from hypothesis import example, given
from hypothesis import strategies as st
from pytest_httpx import HTTPXMock

from tests.fuzz.strategies import (
    FUZZ,
    base_urls,
    date_times,
    filters,
    headers,
    json_texts,
    noise,
    phone_numbers,
    profile_names,
    range_expressions,
    typed_fields,
)
from tests.support.cli import Result, run_cli, token_env


def respond(request: httpx.Request) -> httpx.Response:
    """A service that accepts whatever reaches it, in the shape each command expects."""
    path = request.url.path
    if path.endswith("/leads/all/my"):
        return httpx.Response(200, json={"items": [], "pageSize": 25})
    if path.startswith("/phone-numbers/"):
        return httpx.Response(200, json={"number": path.split("/")[2]})
    if path == "/leads":
        return httpx.Response(202, json={"id": "lead_1", "processingStatus": "Accepted"})
    if path.startswith("/lead-status-changes/"):
        return httpx.Response(200, json={"id": "chg_1", "leadId": "lead_1"})
    if path.endswith("/lead-statuses"):
        return httpx.Response(200, json=[])
    if path == "/a2a":
        call = json.loads(request.content)
        return httpx.Response(200, json={"jsonrpc": "2.0", "id": call["id"], "result": {}})
    return httpx.Response(200, json={})


@pytest.fixture
def service(httpx_mock: HTTPXMock) -> HTTPXMock:
    httpx_mock.add_callback(respond, is_reusable=True, is_optional=True)
    return httpx_mock


def attempt(
    service: HTTPXMock,
    args: Sequence[str],
    *,
    names: Sequence[str],
    env: dict[str, str] | None = None,
) -> tuple[Result, list[httpx.Request]]:
    """Run leadctl once; check the property; return the result and what it sent."""
    before = len(service.get_requests())
    result = run_cli(args, env=env if env is not None else token_env())
    sent = service.get_requests()[before:]
    assert "Traceback" not in result.stderr
    assert "unexpected" not in result.stderr, result.stderr
    assert result.exit_code in (0, 2), result.stderr
    if result.exit_code == 2:
        assert sent == []
        assert result.stdout == ""
        assert result.stderr.startswith("error: ")
        assert any(name in result.stderr for name in names), result.stderr
    else:
        assert len(sent) >= 1
    return result, sent


def body_of(request: httpx.Request) -> Any:
    return json.loads(request.content)


@FUZZ
@given(field=typed_fields())
def test_typed_fields(service: HTTPXMock, field: str) -> None:
    _result, sent = attempt(
        service, ["api", "POST", "/fuzz", f"--field={field}"], names=("-F", "field")
    )
    if sent:
        # Whatever was accepted went out as one JSON object.
        assert isinstance(body_of(sent[0]), dict)


@FUZZ
@given(expression=range_expressions())
def test_range_expressions(service: HTTPXMock, expression: str) -> None:
    _, sent = attempt(
        service, ["leads", "list", f"--range={expression}"], names=("--range", "field")
    )
    if sent:
        (bounds,) = body_of(sent[0])["rangeFilters"]
        assert set(bounds) - {"field"} <= {
            "greaterThan",
            "greaterThanOrEqual",
            "lessThan",
            "lessThanOrEqual",
        }
        assert len(bounds) == 2 and bounds["field"] == bounds["field"].strip()


@FUZZ
@given(expression=filters())
def test_filters(service: HTTPXMock, expression: str) -> None:
    _, sent = attempt(
        service, ["leads", "list", f"--filter={expression}"], names=("--filter", "field")
    )
    if sent:
        (accepted,) = body_of(sent[0])["filters"]
        assert set(accepted) == {"field", "value"}


@FUZZ
@given(number=phone_numbers)
def test_phone_numbers(service: HTTPXMock, number: str) -> None:
    _, sent = attempt(service, ["numbers", "status", "--", number], names=("NUMBER",))
    if sent:
        # Only E.164 goes out, percent-encoded in the path.
        assert re.fullmatch(
            r"/phone-numbers/%2B[1-9]\d{6,14}/status", sent[0].url.raw_path.decode()
        )


@FUZZ
@given(number=phone_numbers)
def test_phone_numbers_in_a_new_lead(service: HTTPXMock, number: str) -> None:
    lead = json.dumps({"firstName": "Fuzz", "phone": number})
    _, sent = attempt(service, ["leads", "create", f"--data={lead}"], names=("phone",))
    if sent:
        assert re.fullmatch(r"\+[1-9]\d{6,14}", body_of(sent[0])["phone"])


@FUZZ
@given(moment=date_times())
def test_date_times(service: HTTPXMock, moment: str) -> None:
    _, sent = attempt(
        service,
        ["status-changes", "update", "chg_1", f"--callback-at={moment}"],
        names=("--callback-at",),
        env={**token_env(), "TZ": "UTC"},
    )
    if sent:
        sent_at = body_of(sent[0])["callbackAt"]
        assert re.fullmatch(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d{1,6})?Z", sent_at)


@FUZZ
@given(data=json_texts())
def test_data_json(service: HTTPXMock, data: str) -> None:
    _, sent = attempt(
        service,
        ["status-changes", "update", "chg_1", f"--data={data}"],
        names=("--data", "appointment", "nothing to update"),
    )
    if sent:
        assert body_of(sent[0]) == json.loads(data)


@FUZZ
@given(params=json_texts(), call_id=st.one_of(noise, st.from_regex(r"-?\d{1,25}", fullmatch=True)))
def test_a2a_params_and_id(service: HTTPXMock, params: str, call_id: str) -> None:
    _, sent = attempt(
        service,
        ["a2a", "call", "agent.ping", f"--params={params}", f"--id={call_id}"],
        names=("--params", "--id"),
    )
    if sent:
        assert body_of(sent[0])["params"] == json.loads(params)


@FUZZ
@example(name="")  # `-p "$PROFILE"` with PROFILE unset
@example(name=" ")
@given(name=profile_names)
def test_profile_names(service: HTTPXMock, name: str) -> None:
    result, _ = attempt_offline(
        service, [f"--profile={name}", "profile", "set", "output", "json"], names=("profile",)
    )
    if result.exit_code == 0:
        shown = run_cli(["profile", "show", "-o", "json", "--", name], env=token_env())
        assert shown.exit_code == 0, (repr(name), shown.stderr)
        assert json.loads(shown.stdout)["output"] == "json"


@FUZZ
@example(url="")  # `--base-url "$URL"` with URL unset
@given(url=base_urls())
def test_base_urls(service: HTTPXMock, url: str) -> None:
    _result, sent = attempt(
        service,
        [f"--base-url={url}", "lead-statuses", "list"],
        names=("base URL", "--base-url", "http://"),
    )
    if sent:
        assert str(sent[0].url).endswith("/lead-statuses")


@FUZZ
@given(url=base_urls())
def test_base_urls_in_a_profile(service: HTTPXMock, url: str) -> None:
    attempt_offline(service, ["profile", "set", "base_url", url], names=("base URL", "http://"))


@FUZZ
@given(header=headers)
def test_headers(service: HTTPXMock, header: str) -> None:
    _, sent = attempt(service, ["api", "GET", "/fuzz", f"--header={header}"], names=("-H",))
    if sent:
        name = header.partition(":")[0].strip()
        assert sent[0].headers.get(name) is not None


@FUZZ
@given(value=noise, variable=st.sampled_from(["LEADCTL_TIMEOUT", "LEADCTL_OUTPUT"]))
def test_environment_settings(service: HTTPXMock, value: str, variable: str) -> None:
    if "\x00" in value:
        value = value.replace("\x00", "")
    attempt(
        service, ["lead-statuses", "list"], names=(variable,), env={**token_env(), variable: value}
    )


def attempt_offline(
    service: HTTPXMock, args: Sequence[str], *, names: Sequence[str]
) -> tuple[Result, list[httpx.Request]]:
    """For commands that never send anything: the same property, minus the request."""
    before = len(service.get_requests())
    result = run_cli(args, env=token_env())
    assert service.get_requests()[before:] == []
    assert "Traceback" not in result.stderr
    assert "unexpected" not in result.stderr, result.stderr
    assert result.exit_code in (0, 2), result.stderr
    if result.exit_code == 2:
        assert result.stderr.startswith("error: ")
        assert any(name in result.stderr for name in names), result.stderr
    return result, []


@FUZZ
@given(
    token=st.one_of(
        noise.filter(lambda text: "\x00" not in text),
        st.from_regex(r"sk_[\w\-\u00e9 \t]{8,30}", fullmatch=True),
    )
)
def test_credentials_from_the_environment(service: HTTPXMock, token: str) -> None:
    """A credential is sent as it is (trimmed) or refused without being echoed."""
    lead = ["leads", "create", "--field", "firstName=Fuzz"]
    before = len(service.get_requests())
    result = run_cli(lead, env={**token_env(), "LEADCTL_TOKEN": token})
    sent = service.get_requests()[before:]
    assert "Traceback" not in result.stderr
    assert "unexpected" not in result.stderr, result.stderr
    if not token.strip():
        assert result.exit_code == 3  # no credential at all
    elif result.exit_code == 3:
        assert sent == []
        assert "LEADCTL_TOKEN" in result.stderr
    else:
        assert result.exit_code == 0, result.stderr
        assert sent[0].headers["Authorization"] == f"Bearer {token.strip()}"
    if len(token.strip()) >= 8:
        assert (token.strip() in result.stderr) is False
