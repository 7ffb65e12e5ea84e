"""``leadctl sources update`` in process.

``leadctl sources update`` and ``sources rotate``, in process against pytest-httpx stubs."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from pytest_httpx import HTTPXMock

from tests.commands.sources._support import OLD_SOURCE_KEY, SOURCE, SOURCE_URL, sent_json
from tests.support.cli import BASE_URL, ORG_KEY, run_cli, token_env
from tests.support.keyrings import DictKeyring
from tests.support.profiles import declared_profile
from tests.support.run_context import direct_context, stdout_of


def test_update_sends_the_given_flags_and_prints_the_service_json(httpx_mock: HTTPXMock) -> None:
    httpx_mock.add_response(method="PUT", url=SOURCE_URL, json=SOURCE)
    result = run_cli(
        [
            "sources",
            "update",
            "src_1",
            "--name",
            "Web form",
            "--description",
            "Landing page",
            "--allowed-state",
            "CA",
            "--allowed-state",
            "NV",
            "--allowed-product",
            "solar",
            "--default-tag-id",
            "tag_1",
            "--default-tag-name",
            "web",
            "--default-tag-name",
            "hot lead",
            "--requires-consent-certificate",
        ],
        env=token_env(),
    )
    assert result.exit_code == 0, result.stderr
    request = httpx_mock.get_request()
    assert request is not None
    assert request.method == "PUT"
    assert request.url == SOURCE_URL
    assert request.headers["Authorization"] == f"Bearer {ORG_KEY}"
    assert request.headers["Content-Type"] == "application/json"
    assert sent_json(request) == {
        "name": "Web form",
        "description": "Landing page",
        "allowedStates": ["CA", "NV"],
        "allowedProducts": ["solar"],
        "defaultTagIds": ["tag_1"],
        "defaultTagNames": ["web", "hot lead"],
        "requiresConsentCertificate": True,
    }
    # Piped: the service's JSON unchanged, unknown fields included.
    assert json.loads(result.stdout) == SOURCE


def test_update_sends_only_what_was_given(httpx_mock: HTTPXMock) -> None:
    httpx_mock.add_response(method="PUT", url=SOURCE_URL, json=SOURCE)
    result = run_cli(
        ["sources", "update", "src_1", "--no-requires-consent-certificate"], env=token_env()
    )
    assert result.exit_code == 0, result.stderr
    request = httpx_mock.get_request()
    assert request is not None
    assert sent_json(request) == {"requiresConsentCertificate": False}


def test_update_merges_flags_over_data(httpx_mock: HTTPXMock) -> None:
    httpx_mock.add_response(method="PUT", url=SOURCE_URL, json=SOURCE)
    data = {"name": "Old name", "enabled": False, "businessId": "biz_1", "allowedStates": []}
    result = run_cli(
        ["sources", "update", "src_1", "--data", json.dumps(data), "--name", "New name"],
        env=token_env(),
    )
    assert result.exit_code == 0, result.stderr
    request = httpx_mock.get_request()
    assert request is not None
    assert sent_json(request) == {
        "name": "New name",
        "enabled": False,
        "businessId": "biz_1",
        "allowedStates": [],
    }


def test_update_reads_data_from_a_file_and_from_stdin(
    httpx_mock: HTTPXMock, tmp_path: Path
) -> None:
    httpx_mock.add_response(method="PUT", url=SOURCE_URL, json=SOURCE)
    httpx_mock.add_response(method="PUT", url=SOURCE_URL, json=SOURCE)
    body_file = tmp_path / "body.json"
    body_file.write_text('{"allowedProducts": ["solar", "roofing"]}', encoding="utf-8")
    from_file = run_cli(["sources", "update", "src_1", "--data", f"@{body_file}"], env=token_env())
    from_stdin = run_cli(
        ["sources", "update", "src_1", "--data", "-"],
        env=token_env(),
        stdin='{"description": "from stdin"}',
    )
    assert from_file.exit_code == 0, from_file.stderr
    assert from_stdin.exit_code == 0, from_stdin.stderr
    first, second = httpx_mock.get_requests()
    assert sent_json(first) == {"allowedProducts": ["solar", "roofing"]}
    assert sent_json(second) == {"description": "from stdin"}


def test_a_name_of_255_characters_is_sent(httpx_mock: HTTPXMock) -> None:
    httpx_mock.add_response(method="PUT", url=SOURCE_URL, json=SOURCE)
    result = run_cli(["sources", "update", "src_1", "--name", "é" * 255], env=token_env())
    assert result.exit_code == 0, result.stderr
    request = httpx_mock.get_request()
    assert request is not None
    assert sent_json(request) == {"name": "é" * 255}


@pytest.mark.parametrize(
    ("args", "stdin", "message"),
    [
        (["--name", "x" * 256], "", "the name is 256 characters long"),
        (["--data", json.dumps({"name": "y" * 300})], "", "the name is 300 characters long"),
        ([], "", "nothing to update"),
        (["--data", "{}"], "", "nothing to update"),
        (["--data", "{not json"], "", "--data: invalid JSON"),
        (["--data", "[1, 2]"], "", "--data must be a JSON object"),
        (["--data", "@/nonexistent/body.json"], "", "cannot read"),
        (["--data", '{"enabled": false}'], "", "enabled belong to the older form"),
        (["--data", '{"businessId": "b", "id": "x"}'], "", "requires the name as well"),
        (["--data", '{"name": "n", "apiKey": "src_chosen_by_me_1234"}'], "", "apiKey cannot"),
        (["--allowed-state"], "", "requires an argument"),
        (["--bogus"], "", "No such option"),
    ],
)
def test_update_bad_input_is_exit_2_and_sends_nothing(
    httpx_mock: HTTPXMock, args: list[str], stdin: str, message: str
) -> None:
    result = run_cli(["sources", "update", "src_1", *args], env=token_env(), stdin=stdin)
    assert result.exit_code == 2, result.stderr
    assert message in result.stderr
    assert result.stdout == ""
    assert httpx_mock.get_requests() == []
    assert "src_chosen_by_me_1234" not in result.stderr


def test_update_without_credentials_is_exit_3(httpx_mock: HTTPXMock) -> None:
    result = run_cli(
        ["sources", "update", "src_1", "--name", "x"], env={"LEADCTL_BASE_URL": BASE_URL}
    )
    assert result.exit_code == 3
    assert httpx_mock.get_requests() == []


def test_update_with_a_source_key_is_exit_4_before_sending(
    httpx_mock: HTTPXMock, memory_keyring: DictKeyring
) -> None:
    declared_profile(memory_keyring, value=OLD_SOURCE_KEY, kind="source")
    result = run_cli(["sources", "update", "src_1", "--name", "x"])
    assert result.exit_code == 4
    assert httpx_mock.get_requests() == []


def test_update_dry_run_prints_curl_and_sends_nothing(httpx_mock: HTTPXMock) -> None:
    result = run_cli(
        ["--dry-run", "sources", "update", "src_1", "--name", "Web form"], env=token_env()
    )
    assert result.exit_code == 0, result.stderr
    assert result.stdout.startswith("curl")
    assert "-X PUT" in result.stdout
    assert "/sources/src_1" in result.stdout
    assert '--data-binary \'{"name": "Web form"}\'' in result.stdout
    assert ORG_KEY not in result.stdout
    assert httpx_mock.get_requests() == []


@pytest.mark.parametrize(
    ("status", "exit_code"), [(400, 6), (401, 3), (403, 4), (404, 5), (500, 8)]
)
def test_update_error_statuses_map_to_exit_codes(
    httpx_mock: HTTPXMock, status: int, exit_code: int
) -> None:
    problem = {
        "title": "Validation failed",
        "status": status,
        "errors": {"name": ["too long"]},
        "traceId": "t-1",
    }
    httpx_mock.add_response(
        method="PUT",
        url=SOURCE_URL,
        status_code=status,
        json=problem,
        headers={"Content-Type": "application/problem+json"},
        is_reusable=status >= 500,
    )
    result = run_cli(
        ["--max-retries", "0", "sources", "update", "src_1", "--name", "x"], env=token_env()
    )
    assert result.exit_code == exit_code
    assert result.stdout == ""
    assert f"error: {status}" in result.stderr
    assert "trace id: t-1" in result.stderr


def test_update_on_a_terminal_shows_the_source_as_a_table(httpx_mock: HTTPXMock) -> None:
    httpx_mock.add_response(method="PUT", url=SOURCE_URL, json=SOURCE)
    result = run_cli(
        ["sources", "update", "src_1", "--name", "Web form"],
        env={**token_env(), "NO_COLOR": "1"},
        tty=True,
    )
    assert result.exit_code == 0, result.stderr
    out = result.stdout
    for expected in (
        "src_1",
        "Web form",
        "CA, NV",
        "solar",
        "requiresConsentCertificate",
        "src_…cdef",
        "2026-11-21 11:59 UTC",
        "2026-11-21 12:00 UTC",
    ):
        assert expected in out
    assert "\x1b[" not in out


def test_update_csv_has_the_default_columns(httpx_mock: HTTPXMock) -> None:
    httpx_mock.add_response(method="PUT", url=SOURCE_URL, json=SOURCE)
    result = run_cli(["sources", "update", "src_1", "--name", "x", "-o", "csv"], env=token_env())
    assert result.exit_code == 0, result.stderr
    header, row = result.stdout.splitlines()
    assert header == (
        "id,name,enabled,allowedStates,allowedProducts,requiresConsentCertificate,"
        "apiKeyPreview,apiKeyRotatedAt,modifiedAt"
    )
    assert row.startswith("src_1,Web form,true,")


def test_run_update_sends_the_options_over_data_and_prints_the_source(
    httpx_mock: HTTPXMock,
) -> None:
    from leadctl.commands.sources import update

    httpx_mock.add_response(method="PUT", url=SOURCE_URL, json=SOURCE)
    ctx = direct_context(output="json")
    opts = update.Options(
        source_id="src_1",
        allowed_states=("TX", "OK"),
        data='{"description": "from data", "allowedStates": ["CA"]}',
    )
    try:
        update.run(opts, ctx)
    finally:
        ctx.close()
    (request,) = httpx_mock.get_requests()
    assert sent_json(request) == {"description": "from data", "allowedStates": ["TX", "OK"]}
    assert json.loads(stdout_of(ctx)) == SOURCE
