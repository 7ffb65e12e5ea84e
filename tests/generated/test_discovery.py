"""Finding the contract: contract_url, Link rel="service-desc", the well-known paths;
If-None-Match; docs hosts get no credential; http only on loopback; `auth login` pulls."""

from __future__ import annotations

import json
from typing import Any

import pytest
from pytest_httpx import HTTPXMock

from tests.generated.aspnet import aspnet
from tests.support.cli import BASE_URL, ORG_KEY, run_cli, token_env

DOCS = "https://docs.example.test/api/openapi.json"
CONTRACT = json.dumps(aspnet()).encode()


def shown(**env: str) -> dict[str, Any]:
    return dict(json.loads(run_cli(["contract", "show", "-o", "json"], env=env).stdout))


def test_pull_tries_the_well_known_paths_in_order(httpx_mock: HTTPXMock) -> None:
    httpx_mock.add_response(method="GET", url=f"{BASE_URL}/", status_code=404)
    httpx_mock.add_response(url=f"{BASE_URL}/openapi.json", status_code=404)
    httpx_mock.add_response(url=f"{BASE_URL}/openapi/v1.json", status_code=404)
    httpx_mock.add_response(
        url=f"{BASE_URL}/swagger/v1/swagger.json", content=CONTRACT, headers={"ETag": '"v1"'}
    )
    result = run_cli(["contract", "pull"], env=token_env())
    assert result.exit_code == 0, result.stderr
    assert shown()["source"] == f"{BASE_URL}/swagger/v1/swagger.json"
    # Every profile of the service sees it, a source-key one too.
    assert shown(LEADCTL_TOKEN="srckey_0123456789abcdef")["title"] == "LeadService.Api"


def test_pull_follows_a_service_desc_link_and_sends_if_none_match(httpx_mock: HTTPXMock) -> None:
    link = '</specs/lead-api.json>; rel="service-desc"'
    httpx_mock.add_response(method="GET", url=f"{BASE_URL}/", headers={"Link": link}, json={})
    httpx_mock.add_response(
        url=f"{BASE_URL}/specs/lead-api.json", content=CONTRACT, headers={"ETag": '"abc"'}
    )
    assert run_cli(["contract", "pull"], env=token_env()).exit_code == 0
    httpx_mock.add_response(method="GET", url=f"{BASE_URL}/", headers={"Link": link}, json={})
    httpx_mock.add_response(url=f"{BASE_URL}/specs/lead-api.json", status_code=304)
    again = run_cli(["contract", "pull"], env=token_env())
    assert again.exit_code == 0, again.stderr
    assert "unchanged" in again.stderr
    last = httpx_mock.get_requests(url=f"{BASE_URL}/specs/lead-api.json")[-1]
    assert last.headers["If-None-Match"] == '"abc"'
    assert shown()["source"] == f"{BASE_URL}/specs/lead-api.json"


def test_the_profile_contract_url_comes_first_and_a_docs_host_gets_no_credential(
    httpx_mock: HTTPXMock,
) -> None:
    assert run_cli(["profile", "set", "contract_url", DOCS]).exit_code == 0
    httpx_mock.add_response(url=DOCS, content=CONTRACT)
    result = run_cli(["contract", "pull"], env=token_env())
    assert result.exit_code == 0, result.stderr
    docs_request = httpx_mock.get_requests(url=DOCS)[0]
    assert "Authorization" not in docs_request.headers
    assert ORG_KEY not in str(docs_request.headers)
    assert shown()["source"] == DOCS


def test_import_from_a_docs_url_sends_no_credential(httpx_mock: HTTPXMock) -> None:
    httpx_mock.add_response(url=DOCS, content=CONTRACT)
    result = run_cli(["contract", "import", DOCS], env=token_env())
    assert result.exit_code == 0, result.stderr
    assert "Authorization" not in httpx_mock.get_requests()[0].headers
    own = f"{BASE_URL}/openapi.json"
    httpx_mock.add_response(url=own, content=CONTRACT)
    assert run_cli(["contract", "import", own], env=token_env()).exit_code == 0
    assert httpx_mock.get_requests(url=own)[0].headers["Authorization"] == f"Bearer {ORG_KEY}"


@pytest.mark.parametrize(
    ("url", "code"),
    [("http://docs.example.test/openapi.json", 2), ("ftp://docs.example.test/x.json", 2)],
)
def test_plain_http_is_only_for_loopback(url: str, code: int, httpx_mock: HTTPXMock) -> None:
    result = run_cli(["contract", "import", url], env=token_env())
    assert result.exit_code == code
    assert httpx_mock.get_requests() == []


def test_a_loopback_http_url_is_fetched(httpx_mock: HTTPXMock) -> None:
    url = "http://127.0.0.1:9/openapi.json"
    httpx_mock.add_response(url=url, content=CONTRACT)
    assert run_cli(["contract", "import", url], env=token_env()).exit_code == 0


def test_auth_login_pulls_the_contract_and_a_missing_one_is_a_note(
    httpx_mock: HTTPXMock, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv("LEADCTL_BASE_URL")
    login = ["auth", "login", "--base-url", BASE_URL, "--with-token", "--insecure-storage"]
    httpx_mock.add_response(url=f"{BASE_URL}/lead-statuses", json=[{"id": "s1", "name": "New"}])
    httpx_mock.add_response(method="GET", url=f"{BASE_URL}/", json={})
    httpx_mock.add_response(url=f"{BASE_URL}/openapi.json", content=CONTRACT)
    result = run_cli(login, stdin=ORG_KEY + "\n")
    assert result.exit_code == 0, result.stderr
    assert shown()["title"] == "LeadService.Api"
    # Another service publishes none: the login still succeeds, with one line saying so.
    other = "https://other.example.test"
    httpx_mock.add_response(url=f"{other}/lead-statuses", json=[{"id": "s1", "name": "New"}])
    for path in ("/", "/openapi.json", "/openapi/v1.json", "/swagger/v1/swagger.json"):
        httpx_mock.add_response(method="GET", url=f"{other}{path}", status_code=404)
    second = ["-p", "other", "auth", "login", "--base-url", other, "--with-token"]
    result = run_cli([*second, "--insecure-storage"], stdin=ORG_KEY + "\n")
    assert result.exit_code == 0, result.stderr
    assert "note: no contract pulled (found no contract" in result.stderr
    httpx_mock.add_response(url=f"{other}/lead-statuses", json=[{"id": "s1", "name": "New"}])
    skipped = run_cli([*second, "--insecure-storage", "--no-contract"], stdin=ORG_KEY + "\n")
    assert skipped.exit_code == 0, skipped.stderr  # only the check: no discovery stubs


def test_the_sandbox_profile_uses_the_contract_the_sandbox_publishes(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.delenv("LEADCTL_BASE_URL")
    found = shown(LEADCTL_PROFILE="sandbox")
    assert found["source"] == "published by the sandbox"
    assert found["generated"] > 0
    tags = run_cli(["-p", "sandbox", "tags", "--help"])
    assert tags.exit_code == 0
    assert "list" in tags.stdout
    assert shown()["source"] == "bundled"  # the default profile is another service
