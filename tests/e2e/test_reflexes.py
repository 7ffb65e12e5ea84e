"""The reflexes of gh, aws, Stripe and HTTPie users (issue 33 point 5), through the installed
leadctl against the embedded sandbox (`-p sandbox`): each works, or is answered in one line
with the leadctl way and exit 2."""

from __future__ import annotations

import json

import pytest

from tests.support.e2e import run_leadctl

SANDBOX = ["-p", "sandbox"]


def test_json_fields_is_json_output_of_those_fields_as_gh() -> None:
    result = run_leadctl([*SANDBOX, "leads", "list", "--limit", "2", "--json", "id,state"])
    assert result.exit_code == 0, result.stderr
    leads = json.loads(result.stdout)
    assert len(leads) == 2 and all(set(lead) == {"id", "state"} for lead in leads)


def test_json_fields_with_another_format_is_refused() -> None:
    result = run_leadctl([*SANDBOX, "leads", "list", "-o", "csv", "--json", "id"])
    assert result.exit_code == 2
    assert "-o json --columns id" in result.stderr


@pytest.mark.parametrize(
    ("typed", "answer"),
    [
        (["config", "get", "output"], "use `leadctl -p sandbox profile show`"),
        (["config", "set", "output", "json"], "use `leadctl -p sandbox profile set`"),
        (["auth", "switch"], "use `leadctl -p sandbox profile use`"),
        (["leads", "view", "x"], "use `leadctl -p sandbox leads get`"),
        (["leads", "list", "--query", "[0]"], "--jq EXPR"),
        (["leads", "list", "--web"], "opens no browser"),
    ],
    ids=lambda value: " ".join(value) if isinstance(value, list) else "",
)
def test_another_clis_word_is_answered_in_one_line(typed: list[str], answer: str) -> None:
    result = run_leadctl([*SANDBOX, *typed], env={"LEADCTL_OUTPUT": ""})
    assert result.exit_code == 2
    assert result.stdout == ""
    assert result.stderr.count("\n") == 1 and answer in result.stderr, result.stderr
