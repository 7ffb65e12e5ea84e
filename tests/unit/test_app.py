"""The root command: version, help, start-up imports, usage errors, output options."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from pytest_httpx import HTTPXMock

from leadctl import __version__
from leadctl.cli.groups import GROUPS
from tests.support.bulk_engine import BULK_ENGINE
from tests.support.cli import BASE_URL, run_cli, token_env

HEAVY = (
    "httpx", "rich", "keyring", "platformdirs", "starlette", "uvicorn", "jsonschema_rs",
    *BULK_ENGINE,
)  # fmt: skip
# What importing the command tree alone must not load either: each was, or would easily
# be, imported by accident (ssl through the client, tomllib through the config module,
# json through the contract index).
NOT_FOR_THE_TREE = (
    *HEAVY,
    "ssl",
    "tomllib",
    "json",
    "leadctl.http.client",
    "leadctl.config.settings",
)


def modules_loaded_by(code: str, modules: tuple[str, ...] = HEAVY) -> list[str]:
    probe = f"import sys\n{code}\nprint(','.join(m for m in {modules!r} if m in sys.modules))"
    out = subprocess.run(
        [sys.executable, "-c", probe], capture_output=True, text=True, check=True
    ).stdout
    last_line = out.splitlines()[-1] if out.strip() else ""
    return [m for m in last_line.split(",") if m]


def test_importing_the_command_tree_loads_no_heavy_library() -> None:
    assert modules_loaded_by("import leadctl.cli.app", NOT_FOR_THE_TREE) == []


def modules_loaded_running(argv: list[str]) -> list[str]:
    code = (
        "import contextlib, io\nfrom leadctl.cli.app import invoke\n"
        f"with contextlib.redirect_stdout(io.StringIO()):\n    invoke({argv!r})"
    )
    return modules_loaded_by(code)


@pytest.mark.parametrize("argv", [["--version"], ["--help"]])
def test_version_and_help_load_no_heavy_library(argv: list[str]) -> None:
    assert modules_loaded_running(argv) == []


@pytest.mark.parametrize("stored", ["nothing", "the sandbox's contract"])
def test_the_root_help_parses_no_config_when_no_contract_could_be_the_profiles(
    stored: str,
) -> None:
    # The config module (dataclasses, its checks) and tempfile (the writers) are for
    # commands; the root help looks at the config only to find an imported contract's groups.
    # The sandbox's contract, which a `-p sandbox` tour leaves behind, is no other profile's.
    if stored != "nothing":
        pulled = run_cli(["-p", "sandbox", "contract", "show"])
        assert pulled.exit_code == 0, pulled.stderr
        assert (Path(os.environ["LEADCTL_CACHE_DIR"]) / "contracts" / "sandbox").is_dir()
    code = (
        "import contextlib, io\nfrom leadctl.cli.app import invoke\n"
        "with contextlib.redirect_stdout(io.StringIO()):\n    invoke(['--help'])"
    )
    assert modules_loaded_by(code, ("leadctl.config.settings", "tempfile")) == []


@pytest.mark.parametrize("group", list(GROUPS))
def test_group_help_loads_no_heavy_library(group: str) -> None:
    assert modules_loaded_running([group, "--help"]) == []


def test_version() -> None:
    result = run_cli(["--version"])
    assert result.exit_code == 0
    assert result.stdout == f"leadctl {__version__}\n"


def test_help_lists_every_group_from_the_table() -> None:
    result = run_cli(["--help"])
    assert result.exit_code == 0
    shown = result.stdout
    for name, (_module, short_help) in GROUPS.items():
        assert name in shown
        assert short_help.split(".")[0] in shown


def test_unknown_option_is_a_usage_error() -> None:
    result = run_cli(["--bogus"])
    assert result.exit_code == 2
    assert result.stderr.startswith("error: No such option: --bogus")


def test_unknown_output_format_is_exit_2() -> None:
    assert run_cli(["-o", "xml", "auth", "status"]).exit_code == 2
    env_result = run_cli(["auth", "status"], env={"LEADCTL_OUTPUT": "xml"})
    assert env_result.exit_code == 2
    assert "LEADCTL_OUTPUT" in env_result.stderr


def test_unknown_profile_is_exit_2(httpx_mock: HTTPXMock) -> None:
    result = run_cli(["-p", "nope", "api", "GET", "/lead-statuses"], env=token_env())
    assert result.exit_code == 2
    assert "unknown profile 'nope' (configured: none yet)" in result.stderr
    assert "create it with `leadctl auth login --profile NAME`" in result.stderr


@pytest.mark.parametrize(
    "url",
    ["ftp://api.example.test", "api.example.test", "http://api.example.test", "https://"],
)
def test_bad_base_urls_are_refused_before_sending(httpx_mock: HTTPXMock, url: str) -> None:
    result = run_cli(["--base-url", url, "api", "GET", "/lead-statuses"], env=token_env())
    assert result.exit_code == 2, result.stderr
    assert httpx_mock.get_requests() == []


def test_credentials_in_a_base_url_are_refused_and_never_echoed() -> None:
    result = run_cli(
        ["--base-url", "https://me:hunter2@api.example.test", "api", "GET", "/x"],
        env=token_env(),
    )
    assert result.exit_code == 2
    assert "hunter2" not in result.stderr


def test_plain_http_is_allowed_for_loopback_and_with_the_flag(httpx_mock: HTTPXMock) -> None:
    httpx_mock.add_response(url="http://127.0.0.1:9/lead-statuses", json=[])
    httpx_mock.add_response(url="http://intranet.test/lead-statuses", json=[])
    assert (
        run_cli(
            ["--base-url", "http://127.0.0.1:9", "api", "GET", "/lead-statuses"], env=token_env()
        ).exit_code
        == 0
    )
    assert (
        run_cli(
            [
                "--allow-insecure-http",
                "--base-url",
                "http://intranet.test",
                "api",
                "GET",
                "/lead-statuses",
            ],
            env=token_env(),
        ).exit_code
        == 0
    )


def test_output_options_are_accepted_after_the_verb(httpx_mock: HTTPXMock) -> None:
    url = f"{BASE_URL}/leads/all/my"
    httpx_mock.add_response(url=url, json={"items": [{"id": "a"}, {"id": "b"}]})
    result = run_cli(
        ["api", "POST", "/leads/all/my", "--paginate", "-o", "csv", "--columns", "id"],
        env=token_env(),
    )
    assert result.exit_code == 0, result.stderr
    assert result.stdout.splitlines() == ["id", "a", "b"]


def test_api_refuses_an_authorization_header_on_argv(httpx_mock: HTTPXMock) -> None:
    result = run_cli(
        ["api", "GET", "/lead-statuses", "-H", "Authorization: Bearer sk_x"], env=token_env()
    )
    assert result.exit_code == 2
    assert "sk_x" not in result.stderr
    assert httpx_mock.get_requests() == []


@pytest.mark.parametrize(
    "argv",
    [
        ["api", "GET", "lead-statuses"],
        ["api", "FETCH", "/lead-statuses"],
        ["api", "POST", "/leads", "-F", "tags=[oops"],
        ["api", "POST", "/leads", "-F", "novalue"],
        ["api", "POST", "/leads", "--input", "/nonexistent/file.json"],
        ["api", "GET", "/x", "-H", "bad header"],
    ],
)
def test_bad_api_input_is_exit_2_and_sends_nothing(httpx_mock: HTTPXMock, argv: list[str]) -> None:
    result = run_cli(argv, env=token_env())
    assert result.exit_code == 2, result.stderr
    assert result.stderr.startswith("error: ")
    assert "Traceback" not in result.stderr
    assert httpx_mock.get_requests() == []


def test_api_typed_fields_and_query_for_get(httpx_mock: HTTPXMock) -> None:
    httpx_mock.add_response(
        url=f"{BASE_URL}/phone-numbers/%2B15125550100/status?windowDays=7&verbose=true",
        json={"number": "+15125550100"},
    )
    result = run_cli(
        [
            "api",
            "GET",
            "/phone-numbers/%2B15125550100/status",
            "-F",
            "windowDays=7",
            "-F",
            "verbose=true",
        ],
        env=token_env(),
    )
    assert result.exit_code == 0, result.stderr
    assert json.loads(result.stdout) == {"number": "+15125550100"}


def test_api_body_from_fields_and_include(httpx_mock: HTTPXMock) -> None:
    httpx_mock.add_response(method="PUT", json={"id": "src_1"}, headers={"X-Trace": "1"})
    result = run_cli(
        [
            "api",
            "PUT",
            "/sources/src_1",
            "-f",
            "name=42",
            "-F",
            "allowedStates[]=TX",
            "-F",
            "allowedStates[]=CA",
            "-F",
            "requiresConsentCertificate=false",
            "-F",
            "meta.weight=1.5",
            "--include",
        ],
        env=token_env(),
    )
    assert result.exit_code == 0, result.stderr
    request = httpx_mock.get_request()
    assert request is not None
    assert json.loads(request.content) == {
        "name": "42",
        "allowedStates": ["TX", "CA"],
        "requiresConsentCertificate": False,
        "meta": {"weight": 1.5},
    }
    assert result.stdout.startswith("HTTP/1.1 200 OK\n")
    assert "x-trace: 1" in result.stdout


def test_api_input_from_stdin(httpx_mock: HTTPXMock) -> None:
    httpx_mock.add_response(method="POST", json={"ok": True})
    result = run_cli(
        ["api", "POST", "/a2a", "--input", "-"],
        env=token_env(),
        stdin='{"jsonrpc": "2.0", "id": 1, "method": "agent.ping"}',
    )
    assert result.exit_code == 0, result.stderr
    request = httpx_mock.get_request()
    assert request is not None
    assert request.headers["Content-Type"] == "application/json"
    assert json.loads(request.content)["method"] == "agent.ping"


@pytest.mark.parametrize(
    "argv", [["api", "--help"], ["auth", "login", "--help"], ["auth", "--help"]]
)
def test_help_offers_no_typer_completion_options(argv: list[str]) -> None:
    result = run_cli(argv)
    assert result.exit_code == 0
    shown = result.stdout
    assert "--install-completion" not in shown
    assert "-o, --output" in shown or argv[-2] == "auth"
