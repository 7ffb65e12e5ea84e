"""Generated commands in-process: the exact requests, bad input, retries, paging, --wait."""

from __future__ import annotations

import json
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
import typer
from pytest_httpx import HTTPXMock

from leadctl.cli.app import root
from tests.generated.contracts import widgets, write
from tests.support.cli import BASE_URL, FakeClock, Result, run_cli, token_env
from tests.support.e2e import base_env, leadctl_executable

Importer = Callable[..., Result]
WIDGET = {"id": "w1", "name": "Gear", "state": "ready", "apiKey": "wk_live_secret_value"}


@pytest.fixture
def help_of() -> Callable[..., str]:
    """Help text, as the command prints it."""

    def run(*args: str) -> str:
        result = run_cli([*args, "--help"]) if args[:1] != ("-p",) else run_cli([*args])
        assert result.exit_code == 0, result.stderr
        return result.stdout

    return run


def sent(httpx_mock: HTTPXMock) -> list[tuple[str, str, Any]]:
    return [
        (r.method, str(r.url), json.loads(r.content) if r.content else None)
        for r in httpx_mock.get_requests()
    ]


@pytest.fixture
def imported(import_contract: Importer) -> Result:
    return import_contract()


# -- contract import / show --------------------------------------------------------------


def test_import_stores_the_contract_and_help_lists_its_groups(
    imported: Result, help_of: Callable[..., str]
) -> None:
    summary = json.loads(imported.stdout)
    assert summary["title"] == "Widgets" and summary["version"] == "2.0"
    assert summary["operations"] == 10 and summary["generated"] == 10
    assert "now uses" in imported.stderr
    named = help_of("-p", "default", "--help")
    assert "Generated from the service's contract:" in named
    assert "widgets  Widgets of the organization." in named
    # The current profile's service has the imported contract: its groups are listed.
    assert "widgets  Widgets of the organization." in help_of()
    group = help_of("widgets")
    for verb in ("list", "create", "search", "get", "delete", "post-refresh", "build"):
        assert f"  {verb} " in group


def test_a_contract_with_no_sound_operation_is_exit_2_and_changes_nothing(
    tmp_path: Path,
) -> None:
    document = widgets()
    document["openapi"] = "3.0.3"  # with 3.1-only schemas (type lists) in every operation
    for item in document["paths"].values():
        for method, spec in item.items():
            if method != "parameters":
                q = {"name": "q", "in": "query", "schema": {"type": ["string"]}}
                spec.setdefault("parameters", []).append(q)
    result = run_cli(["contract", "import", str(write(tmp_path / "bad.json", document))])
    assert result.exit_code == 2
    assert "is not a usable OpenAPI 3.0 contract" in result.stderr
    shown = json.loads(run_cli(["contract", "show", "-o", "json"]).stdout)
    assert shown["source"] == "bundled"


def test_show_operations_lists_curated_and_generated_commands(imported: Result) -> None:
    rows = json.loads(run_cli(["contract", "show", "--operations"]).stdout)
    kinds = {row["command"]: row["kind"] for row in rows}
    assert kinds["widgets create"] == "generated"
    assert kinds["leads list-everything"] == "generated"
    assert "leads list" not in kinds  # the imported contract does not have listMyLeads


def test_reset_goes_back_to_the_bundled_contract(imported: Result) -> None:
    assert run_cli(["contract", "reset"]).exit_code == 0
    assert run_cli(["widgets", "--help"]).exit_code == 2


# -- parameters -------------------------------------------------------------------------


def test_query_parameters_are_typed_options(imported: Result, httpx_mock: HTTPXMock) -> None:
    httpx_mock.add_response(json=[WIDGET])
    result = run_cli(
        [
            "widgets",
            "list",
            "--state",
            "open",
            "--max-items",
            "5",
            "--archived",
            "--include",
            "a",
            "--include",
            "b",
        ],
        env=token_env(),
    )
    assert result.exit_code == 0, result.stderr
    assert sent(httpx_mock) == [
        (
            "GET",
            f"{BASE_URL}/widgets?state=open&maxItems=5&archived=true&include=a&include=b",
            None,
        )
    ]
    assert json.loads(result.stdout) == [WIDGET]


@pytest.mark.parametrize(
    "args",
    [
        ["--state", "bogus"],  # an enum is a choice
        ["--state", "open", "--max-items", "50"],  # the schema's maximum
        ["--state", "open", "--include", "c"],
        [],  # --state is required
    ],
)
def test_bad_parameters_are_exit_2_and_nothing_is_sent(
    imported: Result, httpx_mock: HTTPXMock, args: list[str]
) -> None:
    result = run_cli(["widgets", "list", *args], env=token_env())
    assert result.exit_code == 2, result.stderr
    assert httpx_mock.get_requests() == []


def test_path_argument_and_header_option(imported: Result, httpx_mock: HTTPXMock) -> None:
    httpx_mock.add_response(method="GET", url=f"{BASE_URL}/widgets/w%201", json=WIDGET)
    result = run_cli(
        ["widgets", "get", "w 1", "--x-request-source", "cron"], env=token_env(), tty=True
    )
    assert result.exit_code == 0, result.stderr
    assert httpx_mock.get_requests()[0].headers["X-Request-Source"] == "cron"
    assert "Gear" in result.stdout and "ready" in result.stdout
    assert "wk_live_secret_value" not in result.stdout  # apiKey is masked in a table


def test_no_content_prints_nothing_on_stdout(imported: Result, httpx_mock: HTTPXMock) -> None:
    httpx_mock.add_response(method="DELETE", url=f"{BASE_URL}/widgets/w1", status_code=204)
    result = run_cli(["widgets", "delete", "w1", "--yes"], env=token_env())
    assert (result.exit_code, result.stdout) == (0, "")
    assert "answered 204 with no content" in result.stderr


# -- bodies -----------------------------------------------------------------------------


def test_body_from_fields_keeps_strings_the_contract_types_as_strings(
    imported: Result, httpx_mock: HTTPXMock
) -> None:
    httpx_mock.add_response(method="POST", url=f"{BASE_URL}/widgets", status_code=201, json=WIDGET)
    result = run_cli(
        [
            "widgets",
            "create",
            "--data",
            '{"size": "S"}',
            "--field",
            "name=W",
            "--field",
            "zip=02134",
            "--field",
            "count=3",
        ],
        env=token_env(),
    )
    assert result.exit_code == 0, result.stderr
    assert sent(httpx_mock)[0][2] == {"size": "S", "name": "W", "zip": "02134", "count": 3}


def test_a_body_that_breaks_the_schema_is_exit_2_and_nothing_is_sent(
    imported: Result, httpx_mock: HTTPXMock
) -> None:
    result = run_cli(["widgets", "create", "--field", "count=-1"], env=token_env())
    assert result.exit_code == 2
    assert httpx_mock.get_requests() == []
    assert "does not match the contract's schema; nothing was sent" in result.stderr
    assert "  count: -1 is less than the minimum of 0" in result.stderr
    assert '  body: "name" is a required property' in result.stderr
    errors = run_cli(
        ["-o", "json", "widgets", "create", "--field", "count=-1"], env=token_env()
    ).stderr
    assert json.loads(errors)["errors"]["count"] == ["-1 is less than the minimum of 0"]
    # A field the schema does not list is a typo, named before the schema is checked.
    typo = run_cli(["widgets", "create", "--field", "nme=W"], env=token_env())
    assert typo.exit_code == 2
    assert "--field 'nme' is not a field of the request body" in typo.stderr
    assert "did you mean name?" in typo.stderr


def test_a_required_body_must_be_given(imported: Result, httpx_mock: HTTPXMock) -> None:
    result = run_cli(["widgets", "create"], env=token_env())
    assert result.exit_code == 2
    assert "--field name=..." in result.stderr


def test_dry_run_prints_the_request_after_validating_it(imported: Result) -> None:
    result = run_cli(["--dry-run", "widgets", "create", "--field", "name=W"], env=token_env())
    assert result.exit_code == 0, result.stderr
    assert result.stdout.startswith("curl ")
    assert f"{BASE_URL}/widgets" in result.stdout and '{"name": "W"}' in result.stdout
    bad = run_cli(["--dry-run", "widgets", "create", "--field", "nme=W"], env=token_env())
    assert (bad.exit_code, bad.stdout) == (2, "")


# -- retries and credentials ------------------------------------------------------------


def test_a_post_is_not_retried_after_sending(imported: Result, httpx_mock: HTTPXMock) -> None:
    httpx_mock.add_response(status_code=500, json={"title": "boom"})
    result = run_cli(["widgets", "post-refresh", "w1"], env=token_env())
    assert result.exit_code == 9
    assert len(httpx_mock.get_requests()) == 1


def test_a_profile_can_mark_an_operation_retry_safe(
    imported: Result, httpx_mock: HTTPXMock
) -> None:
    assert run_cli(["profile", "set", "retry_safe_operations", "buildWidget"]).exit_code == 0
    httpx_mock.add_response(status_code=500, json={"title": "boom"})
    httpx_mock.add_response(status_code=202, json=WIDGET)
    clock = FakeClock()
    result = run_cli(["widgets", "build", "w1"], env=token_env(), clock=clock)
    assert result.exit_code == 0, result.stderr
    assert len(httpx_mock.get_requests()) == 2 and len(clock.sleeps) == 1


def test_a_profile_can_mark_a_read_not_retry_safe(imported: Result, httpx_mock: HTTPXMock) -> None:
    assert run_cli(["profile", "set", "retry_unsafe_operations", "getWidget"]).exit_code == 0
    httpx_mock.add_response(status_code=503, json={"title": "busy"})
    assert run_cli(["widgets", "get", "w1"], env=token_env()).exit_code == 9


def test_reads_are_retried(imported: Result, httpx_mock: HTTPXMock) -> None:
    httpx_mock.add_response(status_code=503, json={"title": "busy"})
    httpx_mock.add_response(json=WIDGET)
    result = run_cli(["widgets", "get", "w1"], env=token_env(), clock=FakeClock())
    assert result.exit_code == 0, result.stderr
    assert "retrying in" in result.stderr


def login_source_key(value: str = "srckey_0123456789abcdef") -> None:
    """The default profile holds a source key, stated as one (`auth login --kind source`)."""
    login = ["auth", "login", "--kind", "source", "--with-token", "--no-contract"]
    result = run_cli([*login, "--insecure-storage", "--base-url", BASE_URL], stdin=value)
    assert result.exit_code == 0, result.stderr


def test_credential_kinds_come_from_the_contract(imported: Result, httpx_mock: HTTPXMock) -> None:
    refused = run_cli(["widgets", "ping-intake"], env=token_env())
    assert refused.exit_code == 4 and httpx_mock.get_requests() == []
    login_source_key()
    httpx_mock.add_response(json={"pong": True})
    source = run_cli(["widgets", "ping-intake"])
    assert source.exit_code == 0, source.stderr
    refused_source = run_cli(["widgets", "list", "--state", "open"])
    assert refused_source.exit_code == 4
    assert len(httpx_mock.get_requests()) == 1


def test_a_value_of_no_recognised_kind_goes_wherever_a_credential_is_needed(
    imported: Result, httpx_mock: HTTPXMock
) -> None:
    httpx_mock.add_response(json={"pong": True})
    httpx_mock.add_response(status_code=403, json={"title": "Forbidden", "status": 403})
    intake = run_cli(["widgets", "ping-intake"], env=token_env("srckey_x1"))
    listed = run_cli(["widgets", "list", "--state", "open"], env=token_env("srckey_x1"))
    assert intake.exit_code == 0, intake.stderr
    assert listed.exit_code == 4  # the service's answer, not a guess
    assert [r.headers["Authorization"] for r in httpx_mock.get_requests()] == [
        "Bearer srckey_x1"
    ] * 2


# -- paging -----------------------------------------------------------------------------


def test_a_request_data_options_operation_pages(imported: Result, httpx_mock: HTTPXMock) -> None:
    url = f"{BASE_URL}/widgets/all"
    httpx_mock.add_response(url=url, json={"items": [WIDGET], "continuationToken": "t2"})
    httpx_mock.add_response(url=url, json={"items": [{**WIDGET, "id": "w2"}]})
    result = run_cli(
        ["widgets", "search", "--all", "--page-size", "1", "--filter", "state=ready"],
        env=token_env(),
    )
    assert result.exit_code == 0, result.stderr
    assert [item["id"] for item in json.loads(result.stdout)] == ["w1", "w2"]
    first, second = (body for _m, _u, body in sent(httpx_mock))
    assert first == {"filters": [{"field": "state", "value": "ready"}], "pageSize": 1}
    assert second == {**first, "continuationToken": "t2"}


def test_paging_input_is_checked_against_the_schema(
    imported: Result, httpx_mock: HTTPXMock
) -> None:
    result = run_cli(["widgets", "search", "--page-size", "99"], env=token_env())
    assert result.exit_code == 2 and httpx_mock.get_requests() == []
    assert "pageSize: 99 is greater than the maximum of 50" in result.stderr


@pytest.mark.parametrize("extra", [["--all"], ["--limit", "3"]])
def test_count_takes_no_limit_nor_all(
    imported: Result, httpx_mock: HTTPXMock, extra: list[str]
) -> None:
    result = run_cli(["widgets", "search", "--count", *extra], env=token_env())
    assert result.exit_code == 2 and httpx_mock.get_requests() == []
    assert "--count prints only the total: it takes no --limit or --all" in result.stderr


# -- --wait -----------------------------------------------------------------------------


def test_wait_polls_until_the_status_settles(imported: Result, httpx_mock: HTTPXMock) -> None:
    building = {**WIDGET, "state": "building"}
    httpx_mock.add_response(method="POST", status_code=202, json=building)
    httpx_mock.add_response(method="GET", url=f"{BASE_URL}/widgets/w1", json=building)
    httpx_mock.add_response(method="GET", url=f"{BASE_URL}/widgets/w1", json=WIDGET)
    clock = FakeClock()
    result = run_cli(["widgets", "build", "w1", "--wait"], env=token_env(), clock=clock)
    assert result.exit_code == 0, result.stderr
    assert json.loads(result.stdout) == WIDGET
    assert clock.sleeps == [0.25, 0.4]


def test_wait_ends_in_exit_6_on_a_failed_status(imported: Result, httpx_mock: HTTPXMock) -> None:
    httpx_mock.add_response(method="POST", status_code=202, json={"id": "w1", "state": "building"})
    httpx_mock.add_response(method="GET", json={"id": "w1", "state": "broken", "error": "jammed"})
    result = run_cli(["widgets", "build", "w1", "--wait"], env=token_env(), clock=FakeClock())
    assert (result.exit_code, result.stdout) == (6, "")
    assert "error: widgets w1 ended broken: jammed" in result.stderr


def test_wait_timeout_is_exit_8_with_the_last_state(
    imported: Result, httpx_mock: HTTPXMock
) -> None:
    building = {"id": "w1", "state": "building"}
    httpx_mock.add_response(method="POST", status_code=202, json=building)
    httpx_mock.add_response(method="GET", json=building, is_reusable=True)
    clock = FakeClock()
    result = run_cli(
        ["-o", "json", "widgets", "build", "w1", "--wait", "--wait-timeout", "2"],
        env=token_env(),
        clock=clock,
    )
    assert (result.exit_code, result.stdout) == (8, "")
    error = json.loads(result.stderr)
    assert error["resource"] == building and error["exitCode"] == 8
    assert sum(clock.sleeps) == pytest.approx(2.0)


def test_leads_create_wait_on_the_bundled_contract_reads_the_lead_list(
    httpx_mock: HTTPXMock,
) -> None:
    pending = {"id": "lead_1", "processingStatus": "Pending"}
    accepted = {"id": "lead_1", "processingStatus": "Accepted", "phone": "+15125550143"}
    httpx_mock.add_response(method="POST", url=f"{BASE_URL}/leads", status_code=202, json=pending)
    listing = f"{BASE_URL}/leads/all/my"
    httpx_mock.add_response(method="POST", url=listing, json={"items": []})
    httpx_mock.add_response(method="POST", url=listing, json={"items": [accepted]})
    result = run_cli(
        ["leads", "create", "--field", "phone=+15125550143", "--wait"],
        env=token_env(),
        clock=FakeClock(),
    )
    assert result.exit_code == 0, result.stderr
    assert json.loads(result.stdout) == accepted
    polls = [body for _m, url, body in sent(httpx_mock) if url == listing]
    assert polls == [{"filters": [{"field": "id", "value": "lead_1"}], "pageSize": 1}] * 2


def test_leads_create_wait_refuses_a_source_key_before_sending(httpx_mock: HTTPXMock) -> None:
    login_source_key()
    result = run_cli(["leads", "create", "--field", "phone=+15125550143", "--wait"])
    assert result.exit_code == 2 and httpx_mock.get_requests() == []


def test_wait_shows_a_spinner_only_on_a_terminal(imported: Result, httpx_mock: HTTPXMock) -> None:
    httpx_mock.add_response(method="POST", status_code=202, json={"id": "w1", "state": "building"})
    httpx_mock.add_response(method="GET", json=WIDGET)
    result = run_cli(["widgets", "build", "w1", "--wait"], env=token_env(), clock=FakeClock())
    assert result.stderr == ""


# -- curated commands win ---------------------------------------------------------------


def test_curated_verbs_keep_their_names(
    imported: Result, httpx_mock: HTTPXMock, help_of: Callable[..., str]
) -> None:
    leads_help = help_of("leads")
    assert "  list-everything " in leads_help and "  list " in leads_help
    httpx_mock.add_response(method="POST", url=f"{BASE_URL}/leads/all/my", json={"items": []})
    assert run_cli(["leads", "list"], env=token_env()).exit_code == 0


def test_a_renamed_group_answers_to_its_tag_name_too(
    imported: Result, httpx_mock: HTTPXMock, help_of: Callable[..., str]
) -> None:
    httpx_mock.add_response(method="GET", url=f"{BASE_URL}/phone-numbers/search", json=[])
    assert run_cli(["phone-numbers", "search"], env=token_env()).exit_code == 0
    numbers_help = help_of("numbers")
    assert "  status " in numbers_help and "  search " in numbers_help
    assert "phone-numbers" not in help_of()


# -- contract pull and diff -------------------------------------------------------------


def test_pull_fetches_base_url_openapi_json_with_the_credential(
    httpx_mock: HTTPXMock, help_of: Callable[..., str]
) -> None:
    httpx_mock.add_response(method="GET", url=f"{BASE_URL}/", json={})  # no Link header
    httpx_mock.add_response(method="GET", url=f"{BASE_URL}/openapi.json", json=widgets())
    result = run_cli(["contract", "pull"], env=token_env())
    assert result.exit_code == 0, result.stderr
    assert httpx_mock.get_requests()[1].headers["Authorization"].startswith("Bearer sk_")
    assert json.loads(result.stdout)["source"] == f"{BASE_URL}/openapi.json"
    assert "  build " in help_of("widgets")


def test_pull_from_contract_url_on_the_profile_host_with_the_credential(
    httpx_mock: HTTPXMock,
) -> None:
    assert run_cli(["profile", "set", "contract_url", f"{BASE_URL}/v2/spec"]).exit_code == 0
    httpx_mock.add_response(method="GET", url=f"{BASE_URL}/v2/spec", json=widgets())
    assert run_cli(["contract", "pull"], env=token_env()).exit_code == 0
    assert httpx_mock.get_requests()[0].headers["Authorization"].startswith("Bearer sk_")
    assert len(httpx_mock.get_requests()) == 1


def test_pull_dry_run_prints_the_request_and_stores_nothing() -> None:
    result = run_cli(["--dry-run", "contract", "pull"], env=token_env())
    assert result.exit_code == 0
    assert f"{BASE_URL}/openapi.json" in result.stdout
    assert json.loads(run_cli(["contract", "show", "-o", "json"]).stdout)["source"] == "bundled"


def test_diff_names_the_commands_of_added_operations(tmp_path: Path, imported: Result) -> None:
    newer = widgets()
    del newer["paths"]["/widgets/{widgetId}"]["delete"]
    newer["paths"]["/gizmos"] = {
        "get": {
            "operationId": "listGizmos",
            "tags": ["Gizmos"],
            "responses": {"200": {"description": "ok"}},
        }
    }
    result = run_cli(["contract", "diff", str(write(tmp_path / "new.json", newer))])
    assert result.exit_code == 0, result.stderr
    rows = json.loads(result.stdout)
    assert [(r["change"], r["operation"], r["command"]) for r in rows] == [
        ("removed", "deleteWidget", "widgets delete"),
        ("added", "listGizmos", "gizmos list"),
    ]
    assert "1 added, 1 removed, 0 changed" in result.stderr


# -- the command tree (completions and man pages walk it) -------------------------------


def test_the_tree_lists_generated_groups_and_verbs_with_output_options(imported: Result) -> None:
    command: Any = typer.main.get_command(root)
    ctx = typer.Context(command, info_name="leadctl")
    assert command.list_commands(ctx)[-1] == "widgets"
    group = command.get_command(ctx, "widgets")
    group_ctx = typer.Context(group, parent=ctx, info_name="widgets")
    verbs = group.list_commands(group_ctx)
    assert verbs[:2] == ["list", "create"]
    create = group.get_command(group_ctx, "create")
    options = {name for param in create.params for name in param.opts}
    assert {"--field", "--data", "-o", "--columns", "-q"} <= options


def test_help_with_an_imported_contract_loads_no_heavy_library(
    imported: Result, cache_dir: Path
) -> None:
    heavy = ("httpx", "rich", "pydantic", "keyring", "platformdirs", "jsonschema_rs")

    def loaded(argv: list[str]) -> list[str]:
        probe = (
            "import contextlib, io, sys\nfrom leadctl.cli.app import invoke\n"
            "with contextlib.redirect_stdout(io.StringIO()) as out:\n"
            f"    invoke({argv!r})\n"
            "assert 'widgets' in out.getvalue()\n"
            f"print([m for m in {(*heavy, 'json', 'tomllib')!r} if m in sys.modules])"
        )
        found = subprocess.run(
            [sys.executable, "-c", probe], capture_output=True, text=True, check=True
        )
        return list(json.loads(found.stdout.replace("'", '"')))

    # The root help reads only the small groups files: no JSON parser, no config.
    assert loaded(["--help"]) == []
    assert loaded(["-p", "default", "--help"]) == []
    assert set(loaded(["widgets", "--help"])) <= {"json", "tomllib"}


def test_help_on_an_operators_machine_with_an_imported_contract_loads_no_heavy_library(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The test above sets LEADCTL_BASE_URL and the dirs; an operator sets neither, so the
    root help finds the current profile's service through config.toml at its default place.
    Run through the installed console script."""
    home = tmp_path / "operator"
    monkeypatch.setenv("HOME", str(home))
    for name in ("LEADCTL_CONFIG_DIR", "LEADCTL_CACHE_DIR", "LEADCTL_DATA_DIR"):
        monkeypatch.delenv(name)
    for name in ("XDG_CONFIG_HOME", "XDG_CACHE_HOME", "XDG_DATA_HOME"):
        monkeypatch.delenv(name, raising=False)
    config = home / ".config" / "leadctl" / "config.toml"
    config.parent.mkdir(parents=True)
    config.write_text(f'current_profile = "ops"\n\n[profiles.ops]\nbase_url = "{BASE_URL}"\n')
    imported = run_cli(["contract", "import", str(write(tmp_path / "c.json", widgets()))])
    assert imported.exit_code == 0, imported.stderr
    assert (home / ".cache" / "leadctl" / "contracts").is_dir()

    heavy = ("httpx", "rich", "pydantic", "keyring", "platformdirs", "tempfile", "json")
    probe = (
        "import atexit, runpy, sys\n"
        f"atexit.register(lambda: print([m for m in {heavy!r} if m in sys.modules]))\n"
        f"sys.argv = [{leadctl_executable()!r}, '--help']\n"
        f"runpy.run_path({leadctl_executable()!r}, run_name='__main__')\n"
    )
    found = subprocess.run(
        [sys.executable, "-c", probe], capture_output=True, text=True, env=base_env()
    )
    assert found.returncode == 0, found.stderr
    *shown, loaded = found.stdout.splitlines()
    assert "widgets" in "\n".join(shown)  # the config was read: the profile's groups show
    assert loaded == "[]"


OTHER_URL = "https://other.example.test"


def test_eager_profile_help_lists_that_profiles_groups(
    import_contract: Importer, help_of: Callable[..., str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv("LEADCTL_BASE_URL")
    assert run_cli(["profile", "set", "base_url", BASE_URL]).exit_code == 0  # current: default
    assert run_cli(["-p", "same", "profile", "set", "base_url", BASE_URL + "/"]).exit_code == 0
    assert run_cli(["-p", "elsewhere", "profile", "set", "base_url", OTHER_URL]).exit_code == 0
    import_contract(None, "-p", "same")
    # Contracts are kept per service: every profile of BASE_URL sees the import.
    assert "widgets  Widgets of the organization." in help_of("-p", "same", "--help")
    assert "widgets  Widgets of the organization." in help_of("-p", "default", "--help")
    assert "widgets" in help_of()
    assert "widgets" not in help_of("-p", "elsewhere", "--help")


def test_every_operation_of_the_active_contract_is_a_command(tmp_path: Path) -> None:
    from leadctl_sandbox.published import published_contract

    path = write(tmp_path / "published.json", published_contract())
    assert run_cli(["contract", "import", str(path)]).exit_code == 0
    shown = json.loads(run_cli(["contract", "show", "--operations"]).stdout)
    command: Any = typer.main.get_command(root)
    ctx = typer.Context(command, info_name="leadctl")
    for row in shown:
        group_name, verb_name = row["command"].split(" ")
        group = command.get_command(ctx, group_name)
        group_ctx = typer.Context(group, parent=ctx, info_name=group_name)
        assert group.get_command(group_ctx, verb_name) is not None, row
    methods = ("get", "put", "post", "delete", "patch")
    operations = [
        m for item in published_contract()["paths"].values() for m in item if m in methods
    ]
    assert len(shown) == len(operations) == 27
