"""Generated help that teaches (issue 12, point 3), on the ASP.NET fixture contract: nested
required objects list their fields, lines fill the terminal, the credential is named, enums
list their values, and the examples are real commands the contract accepts."""

from __future__ import annotations

import json
import shlex
from collections.abc import Callable
from typing import cast

import pytest

from leadctl.contract.formats import to_31
from leadctl.contract.index import compile_index, curated_command_names
from tests.generated.fixture_verbs import FIXTURE
from tests.support.cli import BASE_URL, run_cli, token_env
from tests.support.imported_contracts import ImportedContracts

HelpOf = Callable[..., str]


@pytest.fixture
def help_of(imported_contracts: ImportedContracts) -> HelpOf:
    # The fixture contract as `contract import` leaves it for BASE_URL (tests/generated/
    # conftest.py), imported once per session.
    imported_contracts.install(FIXTURE, BASE_URL)

    def run(group: str, verb: str, width: int = 100) -> str:
        result = run_cli([group, verb, "--help"], env={"COLUMNS": str(width), "NO_COLOR": "1"})
        assert result.exit_code == 0, result.stderr
        return result.stdout

    return run


def fixture_operations() -> list[dict[str, object]]:
    raw = FIXTURE.read_bytes()
    index, _schemas = compile_index(
        to_31(json.loads(raw)),
        raw=raw,
        source="fixture",
        imported_at=None,
        curated_verbs=curated_command_names(),
        leadctl_version="test",
    )
    return [op for op in index["operations"] if op["curated"] is None]


def examples(text: str) -> list[list[str]]:
    """The example command lines of a help text, continuations joined, as argv words."""
    tail = text.rsplit("Examples:", 1)[1]
    joined = tail.replace(" \\\n", " ")
    return [shlex.split(line)[1:] for line in joined.splitlines() if line.strip()]


def test_required_nested_objects_list_their_fields_as_dot_paths(help_of: HelpOf) -> None:
    text = help_of("leads", "validate-external")
    assert "contact (object, required)" in text
    assert "contact.firstName (string, required)" in text
    assert "contact.phone.number (string, required)" in text
    assert "metadata.consentCertificateUrl (uri, required)" in text
    assert "steps[].actionType (string, required)" in help_of("automations", "create")


def test_field_lines_use_the_terminal_width(help_of: HelpOf) -> None:
    wide = help_of("leads", "validate-external", 160)
    line = next(ln for ln in wide.splitlines() if "metadata.consentCertificateUrl" in ln)
    # Whole on one line at 160 columns (it was cut at 74 with an ellipsis).
    assert line.endswith("recorded with the form.") and len(line) > 74
    narrow = help_of("leads", "validate-external", 60)
    assert all(len(ln) <= 60 for ln in narrow.split("Options:")[0].splitlines())
    assert "…" not in wide + narrow
    assert "recorded with the form." in " ".join(narrow.split())


def test_each_operation_names_the_credential_it_needs(help_of: HelpOf) -> None:
    assert "Credential: a source key, sent in the X-Source-Key header." in help_of(
        "leads", "validate-external"
    )
    assert "Credential: an organization key or a user token." in help_of("automations", "create")
    anonymous = next(op for op in fixture_operations() if not op["kinds"])
    text = help_of(str(anonymous["group"]), str(anonymous["verb"]))
    assert "Credential: none" in text


def test_enums_list_their_values(help_of: HelpOf) -> None:
    text = help_of("leads", "validate-external")
    assert "contact.phone.type (string: one of Mobile, Landline, Voip)" in text


JSON_BODIES = [
    op
    for op in fixture_operations()
    if (op.get("body") or {}).get("json")  # type: ignore[union-attr]
    and not op["body"].get("paged")  # type: ignore[index]
    and any(f.get("required") for f in op["body"].get("fields", ()))  # type: ignore[index]
]


@pytest.mark.parametrize("op", JSON_BODIES, ids=lambda op: f"{op['group']}-{op['verb']}")
def test_the_first_example_is_a_body_the_contract_accepts(
    op: dict[str, object], help_of: HelpOf
) -> None:
    """--dry-run validates the body against the contract's schema and sends nothing."""
    first = examples(help_of(str(op["group"]), str(op["verb"])))[0]
    assert "--field" in first
    # An operation for source keys only is shown without a credential: an organization key
    # would be refused before anything is printed, as it would be before anything is sent.
    kinds = cast(list[str], op.get("kinds") or [])
    env = token_env() if "org" in kinds else {"LEADCTL_BASE_URL": BASE_URL}
    result = run_cli(["--dry-run", *first], env=env)
    assert result.exit_code == 0, (first, result.stderr)


def test_examples_fill_path_and_required_query_parameters(help_of: HelpOf) -> None:
    op = next(
        op
        for op in fixture_operations()
        if any(p["in"] == "path" for p in op["params"])  # type: ignore[attr-defined]
        and not op.get("body")
    )
    first = examples(help_of(str(op["group"]), str(op["verb"])))[0]
    result = run_cli(["--dry-run", *first], env=token_env())
    assert result.exit_code == 0, (first, result.stderr)
    # An id is a placeholder to replace, named after what it identifies (LEAD_ID), never
    # a made-up id that would pass for a real one.
    ids = [word for word in first[2:] if word.endswith("_ID")]
    assert ids and all(word.isupper() for word in ids), first
