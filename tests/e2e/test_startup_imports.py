"""What a command imports, read from ``python -X importtime`` of a real run.

A single read command with LEADCTL_TOKEN loads leadctl's own modules and http.client, not
httpx (one request needs no keep-alive pool: leadctl/http/one_shot.py); paging, a proxy
variable or LEADCTL_HTTP_TRANSPORT=httpx load httpx. Never rich (that
is for tables), keyring (the token is in the environment), phonenumbers (no phone
involved), the sandbox's SQLite and Starlette, the click/rich/pygments of httpx's own
command-line tool, tomllib (there is no config file to parse), the body validator, the
contract compiler, the bulk engine, nor pydantic and the resource models (for views only).
"""

from __future__ import annotations

import json

import pytest

from tests.support.bulk_engine import BULK_ENGINE
from tests.support.importtime import imported, loaded
from tests.support.sandbox_fixtures import CredentialEnv

pytestmark = pytest.mark.e2e

NEVER_FOR_READS = (
    "rich", "click", "pygments", "keyring", "phonenumbers", "sqlite3", "starlette", "uvicorn",
    "leadctl_sandbox", "tomllib", "jsonschema_rs", "leadctl.contract.index", *BULK_ENGINE,
    "pydantic", "leadctl.models",
)  # fmt: skip


def test_a_read_command_with_a_token_loads_only_what_it_uses(org_env: CredentialEnv) -> None:
    names = imported(["lead-statuses", "list", "-o", "json"], org_env)
    # One request, one answer: the standard library's http.client sends it (http/one_shot.py).
    assert "http.client" in names
    # (ssl still loads: http.client imports it; uuid: Typer does.)
    assert loaded(names, ("httpx", "httpcore", "h11", "anyio", "certifi")) == []
    assert loaded(names, NEVER_FOR_READS) == []


@pytest.mark.parametrize(
    "variable",
    [{"LEADCTL_HTTP_TRANSPORT": "httpx"}, {"HTTPS_PROXY": "http://proxy.invalid:3128"},
     {"no_proxy": "example.com"}],
    ids=["chosen", "proxy", "no_proxy"],
)  # fmt: skip
def test_a_read_goes_through_httpx_when_the_user_or_a_proxy_variable_says_so(
    org_env: CredentialEnv, variable: dict[str, str]
) -> None:
    # The sandbox is on 127.0.0.1, which the proxy variable's NO_PROXY below keeps direct.
    env = {**org_env, "NO_PROXY": "127.0.0.1,localhost", **variable}
    names = imported(["lead-statuses", "list", "-o", "json"], env)
    assert "httpx" in names
    assert loaded(names, NEVER_FOR_READS) == []


def test_streaming_every_page_loads_no_more(org_env: CredentialEnv) -> None:
    names = imported(["leads", "list", "--all", "--page-size", "200", "-o", "ndjson"], org_env)
    # Paging reuses one keep-alive connection: httpx's pool, never the one-shot transport.
    assert "httpx" in names
    assert loaded(names, NEVER_FOR_READS) == []


def test_a_piped_import_draws_no_progress_bar_and_loads_no_rich(org_env: CredentialEnv) -> None:
    row = json.dumps({"email": "startup-imports@e2e.example"}) + "\n"
    names = imported(["leads", "import", "-"], org_env, stdin=row)
    assert loaded(names, ("rich", "keyring", "phonenumbers", "sqlite3")) == []


def test_version_loads_no_command_tree() -> None:
    names = imported(["--version"])
    assert loaded(names, ("typer", "httpx", "leadctl.cli.app")) == []


def test_help_loads_no_http_client() -> None:
    names = imported(["--help"])
    assert "typer" in names
    assert loaded(names, ("httpx", "rich", "keyring", "pydantic", "leadctl.models")) == []


def test_json_of_a_resource_with_a_view_loads_no_models(org_env: CredentialEnv) -> None:
    demo_number = "+15125550101"  # the sandbox's demo number in warmup
    names = imported(["numbers", "status", demo_number, "-o", "json"], org_env)
    assert loaded(names, ("pydantic", "leadctl.models")) == []
    # The view (asked for on a pipe) reads the same answer through its model.
    drawn = imported(["numbers", "status", demo_number, "-o", "table"], org_env)
    assert "leadctl.models.phone_number_status" in drawn


def test_json_of_a_list_with_a_table_view_loads_no_models(org_env: CredentialEnv) -> None:
    names = imported(["notifications", "announcements", "-o", "json"], org_env)
    assert loaded(names, ("pydantic", "leadctl.models")) == []
