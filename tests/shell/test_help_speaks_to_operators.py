"""Every --help speaks to an operator (issue 23 points 6 and 13): what a flag does, what is
assumed about the service and how to override it, in words an operator knows; examples
name ids with placeholders (LEAD_ID), never ids made up to look real.

Checked on every help page of three trees: leadctl's bundled contract, the sandbox's
published contract, and the fixture contract of the service's own kind (its own text is
clean, so whatever jargon appears is leadctl's).
"""

from __future__ import annotations

import os
import re
from pathlib import Path
from types import SimpleNamespace

import pytest
import typer

from leadctl.docgen.text import split_examples
from leadctl.docgen.tree import CommandSpec, active_tree
from leadctl.iostreams import IOStreams
from tests.support.cli import run_cli
from tests.support.imported_contracts import ImportedContracts

FIXTURE = Path(__file__).resolve().parents[1] / "fixtures" / "contracts" / "traits-3.1.json"
# leadctl's internals: extension names, the reference's schema name, how the project
# talks about its own documents.
JARGON = re.compile(
    r"x-leadctl-|RequestDataOptions|API docs|contract's assumption|the reference\b"
    r"|the project's"
)
# An id made up to look real: src_1, aut_123, st_3f9a, a UUID, a bare 123 argument.
FAKE_ID = re.compile(
    r"\b[a-z]{2,5}_[0-9a-f]*[0-9][0-9a-f]*\b"
    r"|\b[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-"
    r"|(?<![\w/.:=+-])123(?![\w.])"
)


def tree_of(profile: str | None) -> CommandSpec:
    from leadctl.cli.app import root

    command = typer.main.get_command(root)
    ctx = typer.Context(command, info_name="leadctl")
    ctx.params.update(profile=profile, base_url=None)
    ctx.obj = SimpleNamespace(env=os.environ, ios=IOStreams.for_test())
    return active_tree(ctx)


def problems(profile: str | None) -> list[str]:
    found = []
    head = ["-p", profile] if profile else []
    for command in tree_of(profile).walk():
        result = run_cli([*head, *command.path, "--help"], env={"COLUMNS": "100"})
        text = result.stdout
        assert result.exit_code == 0 and text.startswith("Usage:"), (command.path, result)
        name = " ".join(command.path) or "leadctl"
        found += [f"{name}: {m.group()!r}" for m in JARGON.finditer(text)]
        _prose, examples = split_examples(text)
        found += [f"{name} example: {m.group()!r}" for m in FAKE_ID.finditer("\n".join(examples))]
    return found


def test_the_bundled_contracts_help() -> None:
    assert problems(None) == []


def test_the_sandboxs_help() -> None:
    assert problems("sandbox") == []


def test_the_help_of_a_contract_of_the_services_kind(
    monkeypatch: pytest.MonkeyPatch,
    imported_contracts: ImportedContracts,
) -> None:
    monkeypatch.setenv("LEADCTL_BASE_URL", "https://leads.example.com")
    bundled = {tuple(command.path) for command in tree_of(None).walk()}
    imported_contracts.install(FIXTURE, "https://leads.example.com")
    # The fixture contract's commands are the ones checked, not the bundled contract's.
    assert {tuple(command.path) for command in tree_of(None).walk()} != bundled
    assert problems(None) == []


def test_placeholders_name_the_collection_the_id_belongs_to() -> None:
    from leadctl.contract.entries import Parameter
    from leadctl.generated.samples import param_args

    def path_param(name: str) -> Parameter:
        return Parameter(name, "path", required=True)

    assert param_args([path_param("id")], "/lead-status-changes/{id}") == " LEAD_STATUS_CHANGE_ID"
    assert param_args([path_param("id")], "/sms/{id}") == " SMS_ID"
    assert param_args([path_param("id")], "/categories/{id}") == " CATEGORY_ID"
    two = [path_param("automationId"), path_param("runId")]
    assert param_args(two, "/automations/{automationId}/runs/{runId}") == " AUTOMATION_ID RUN_ID"
