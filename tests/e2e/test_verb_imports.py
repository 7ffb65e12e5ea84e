"""A verb's module loads only when that verb is looked up (docs/ARCHITECTURE.md, "Add a
curated verb"): never for its group's help, nor for a sibling verb.

The installed ``leadctl`` runs with PYTHONVERBOSE=1, so Python names on stderr every module
it loads, by whatever means (``-X importtime`` does not see a module loaded through
importlib.import_module, which is how a group loads its verbs).
"""

from __future__ import annotations

import importlib
import re
from collections.abc import Mapping, Sequence

import pytest

from leadctl.cli.groups import GROUPS
from leadctl.cli.verb_table import SubGroup, Verb, verb_module
from tests.support.e2e import run_leadctl
from tests.support.sandbox_fixtures import CredentialEnv

pytestmark = pytest.mark.e2e

_LOADED = re.compile(r"^import '([\w.]+)' #", re.MULTILINE)


def loaded_modules(args: Sequence[str], env: Mapping[str, str] | None = None) -> set[str]:
    result = run_leadctl(args, env={**(env or {}), "PYTHONVERBOSE": "1"})
    assert result.exit_code == 0, result.stderr[-2000:]
    return set(_LOADED.findall(result.stderr))


def verb_modules(group: str) -> dict[str, str]:
    """``{"list": "leadctl.commands.leads.list_", "secret set": ...}``: the group's
    declared verbs and their modules."""
    found = {}
    package = GROUPS[group][0]
    for entry in importlib.import_module(package).VERBS:
        verbs: tuple[Verb, ...] = entry.verbs if isinstance(entry, SubGroup) else (entry,)
        prefix = (entry.name,) if isinstance(entry, SubGroup) else ()
        found.update(
            {" ".join((*prefix, v.name)): verb_module(package, (*prefix, v.name)) for v in verbs}
        )
    return found


def test_a_read_loads_its_own_verb_module_and_no_sibling(org_env: CredentialEnv) -> None:
    names = loaded_modules(["leads", "list", "--page-size", "1", "-o", "json"], org_env)
    modules = verb_modules("leads")
    assert modules.pop("list") in names
    assert sorted(names & set(modules.values())) == []


def test_lead_statuses_list_loads_no_sibling(org_env: CredentialEnv) -> None:
    names = loaded_modules(["lead-statuses", "list", "-o", "json"], org_env)
    modules = verb_modules("lead-statuses")
    assert modules.pop("list") in names
    assert sorted(names & set(modules.values())) == []


@pytest.mark.parametrize("argv", [["webhooks", "--help"], ["webhooks", "secret", "--help"]])
def test_a_group_help_loads_none_of_its_verb_modules(argv: list[str]) -> None:
    names = loaded_modules(argv)
    assert "leadctl.commands.webhooks" in names
    assert sorted(names & set(verb_modules("webhooks").values())) == []


def test_a_verb_help_loads_that_verb_only() -> None:
    names = loaded_modules(["webhooks", "send", "--help"])
    modules = verb_modules("webhooks")
    assert modules.pop("send") in names
    assert sorted(names & set(modules.values())) == []


def test_a_mistyped_verb_is_spelled_without_loading_any_verb() -> None:
    result = run_leadctl(["leads", "lsit"], env={"PYTHONVERBOSE": "1"})
    assert result.exit_code == 2
    assert "did you mean `leadctl leads list`?" in result.stderr
    names = set(_LOADED.findall(result.stderr))
    assert "leadctl.commands.leads" in names
    assert sorted(names & set(verb_modules("leads").values())) == []


# What the command tree is built from: the root's start-up, the generated verbs' tree and the
# prose it lists their lines with. The rest of leadctl.generated (a generated verb's flags,
# values and run, the contract parameters a curated verb was given) belongs to other lines.
COMMAND_TREE = {
    "leadctl.generated",
    "leadctl.generated.startup",
    "leadctl.cli.generated_tree",
    "leadctl.generated.prose",
    "leadctl.generated.assumptions",
}


def test_a_curated_list_loads_none_of_the_generated_verbs_machinery(
    org_env: CredentialEnv,
) -> None:
    names = loaded_modules(["leads", "list", "--all", "-o", "csv"], org_env)
    assert "leadctl.commands.leads.list_" in names
    generated = {name for name in names if name.startswith("leadctl.generated")}
    assert sorted(generated - COMMAND_TREE) == []
