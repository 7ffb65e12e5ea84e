"""Issue 22 point 6 (and 21.4 on the paths a unit can reach): secrets in odd places.

In process, with pytest-httpx stubs (every stub used): a header given with ``-H`` under
``--debug`` and ``--dry-run``; a service echoing the credential without its kind prefix,
base64-encoded or percent-encoded, in text and JSON errors and in the trace; ``auth login
--with-token`` with a key the service refuses in its own words; members masked by a secret
word anywhere in their name, never timestamps, previews or ids; the pager's environment.
"""

from __future__ import annotations

import base64
import json
import sys
from pathlib import Path
from urllib.parse import quote

import httpx
import pytest
from pytest_httpx import HTTPXMock

from tests.security.secrets import leaks
from tests.support.cli import BASE_URL, run_cli, token_env

TOKEN = "sk_live_Zq8uWc3pLr5tVx7yNb2mKd4f"
HEADER_KEY = "hk_4Tq9Wm2Xr7Yp3Lc8Vb6Nd1Za"
PLAIN = {
    "clientSecret": "cs-plain-value-0001",
    "newApiKey": "nak-plain-value-0002",
    "refresh_token": "rt-plain-value-0003",
    "x-api-key": "xak-plain-value-0004",
    "apiKeyValue": "akv-plain-value-0005",
    "secretAnswer": "sa-plain-value-0006",
}
SHOWN = {
    "apiKeyRotatedAt": "2026-11-20T10:00:00Z",
    "apiKeyPreview": "sk_…9f2a",
    "keyId": "key_77",
    "token_type": "Bearer-ish",
    "continuationToken": "page-2-token",
}


def echoes(request: httpx.Request) -> httpx.Response:
    """A gateway that quotes the key it refused in every form it could."""
    key = request.headers["Authorization"].split()[-1]
    bare = key.removeprefix("sk_")
    encoded = base64.b64encode(f"user:{key}".encode()).decode()
    return httpx.Response(
        403,
        headers={"Content-Type": "application/problem+json"},
        json={
            "title": "Forbidden",
            "detail": f"key {bare} refused (basic {encoded})",
            "errors": {"key": [f"see /keys?k={quote(key, safe='')}"]},
            "traceId": "t-1",
            "echo": {"apiKey": key, "keyId": "key_9"},
        },
    )


@pytest.mark.parametrize("output", [[], ["-o", "json"], ["--debug"]], ids=["text", "json", "debug"])
def test_a_service_echoing_the_key_in_other_forms_does_not_get_it_printed(
    httpx_mock: HTTPXMock, output: list[str]
) -> None:
    httpx_mock.add_callback(echoes, url=f"{BASE_URL}/lead-statuses")

    result = run_cli([*output, "lead-statuses", "list"], env=token_env(TOKEN))

    assert result.exit_code == 4
    assert leaks(result.stdout + result.stderr, [TOKEN]) == []
    assert "refused" in result.stderr  # the rest of the service's words stay
    if output:
        assert "key_9" in result.stderr  # an id is not a secret (text shows no extensions)


def test_auth_login_with_token_never_echoes_the_refused_key(httpx_mock: HTTPXMock) -> None:
    httpx_mock.add_callback(echoes, url=f"{BASE_URL}/lead-statuses")

    result = run_cli(
        ["--base-url", BASE_URL, "auth", "login", "--with-token", "--insecure-storage"],
        stdin=TOKEN + "\n",
        env={"LEADCTL_TOKEN": ""},
    )

    assert result.exit_code == 4, result.stderr
    assert leaks(result.stdout + result.stderr, [TOKEN]) == []


def test_debug_masks_a_secret_header_given_with_h_and_secret_members_by_name(
    httpx_mock: HTTPXMock,
) -> None:
    httpx_mock.add_response(
        url=f"{BASE_URL}/credentials/x", json={**PLAIN, **SHOWN, "nested": [{"clientSecret": "n"}]}
    )

    result = run_cli(
        [
            *("--debug", "api", "POST", "/credentials/x"),
            *("-H", f"X-Api-Key: {HEADER_KEY}", "-H", "X-Request-Id: req-1"),
            *("-f", f"clientSecret={PLAIN['clientSecret']}", "-f", "name=web"),
        ],
        env=token_env(TOKEN),
    )

    assert result.exit_code == 0, result.stderr
    trace = result.stderr
    assert "> X-Api-Key: ***" in trace or "> x-api-key: ***" in trace
    assert "req-1" in trace
    assert leaks(trace, [TOKEN, HEADER_KEY, *PLAIN.values()]) == []
    for value in SHOWN.values():
        assert value in trace
    assert '"name": "web"' in trace


def test_dry_run_masks_secret_headers_and_fields_but_not_the_rest() -> None:
    result = run_cli(
        [
            *("--dry-run", "api", "POST", "/credentials/x", "-H", f"X-Api-Key: {HEADER_KEY}"),
            *("-f", f"newApiKey={PLAIN['newApiKey']}", "-f", "keyId=key_77"),
        ],
        env=token_env(TOKEN),
    )

    assert result.exit_code == 0, result.stderr
    assert leaks(result.stdout, [TOKEN, HEADER_KEY, PLAIN["newApiKey"]]) == []
    assert "X-Api-Key: ***" in result.stdout
    assert '"keyId": "key_77"' in result.stdout


def test_the_pager_gets_no_credential(httpx_mock: HTTPXMock, tmp_path: Path) -> None:
    dumped = tmp_path / "pager-env.json"
    script = (
        "import json, os, sys; sys.stdin.read(); "
        f"open({str(dumped)!r}, 'w').write(json.dumps(dict(os.environ)))"
    )
    rows = [{"id": f"st_{n}", "name": f"Status {n}"} for n in range(40)]
    httpx_mock.add_response(url=f"{BASE_URL}/lead-statuses", json=rows)

    result = run_cli(
        ["lead-statuses", "list"],
        env={
            **token_env(TOKEN),
            "LEADCTL_WEBHOOK_SECRET": "whsec_" + "A" * 32,
            "GITHUB_TOKEN": "ghp_" + "B" * 30,
            "LEADCTL_PAGER": f"{sys.executable} -c {json.dumps(script)}",
            "LINES": "5",
        },
        tty=True,
    )

    assert result.exit_code == 0, result.stderr
    environment = json.loads(dumped.read_text(encoding="utf-8"))
    hidden = {"LEADCTL_TOKEN", "LEADCTL_WEBHOOK_SECRET", "GITHUB_TOKEN"}
    assert hidden.isdisjoint(environment)
    assert environment.get("LINES") == "5"  # the rest is passed on


def test_dry_run_masks_a_field_the_contract_describes_as_a_key(tmp_path: Path) -> None:
    """By the contract, not the name: ``intakeCode`` says nothing, its description does."""
    contract = {
        "openapi": "3.1.0",
        "info": {"title": "vendors", "version": "1"},
        "paths": {
            "/vendors": {
                "post": {
                    "operationId": "Vendors_Create",
                    "tags": ["Vendors"],
                    "requestBody": {
                        "required": True,
                        "content": {
                            "application/json": {
                                "schema": {
                                    "type": "object",
                                    "properties": {
                                        "name": {"type": "string"},
                                        "intakeCode": {
                                            "type": "string",
                                            "description": "The vendor's intake API key.",
                                        },
                                    },
                                }
                            }
                        },
                    },
                    "responses": {"201": {"description": "Created"}},
                }
            }
        },
    }
    path = tmp_path / "vendors.json"
    path.write_text(json.dumps(contract), encoding="utf-8")
    env = token_env(TOKEN)
    imported = run_cli(["contract", "import", str(path)], env=env)
    assert imported.exit_code == 0, imported.stderr

    code = "vc-" + "Q" * 24
    args = ["--dry-run", "vendors", "create", "--field", f"intakeCode={code}", "--field", "name=V"]
    result = run_cli(args, env=env)

    assert result.exit_code == 0, result.stderr
    assert '"intakeCode": "***"' in result.stdout
    assert '"name": "V"' in result.stdout
    assert leaks(result.stdout + result.stderr, [code]) == []
