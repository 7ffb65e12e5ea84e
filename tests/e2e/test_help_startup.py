"""What every help path loads on an operator's home: several profiles, stored contracts.

Issue 32: the root help was fast, a group's and a verb's were not (they imported the HTTP
client, ssl and the credential store, built every generated verb of a group to list it, and
decoded a whole 3,000-operation index). Run through the installed console script with
PYTHONPROFILEIMPORTTIME, which names every module a run imports.
"""

from __future__ import annotations

import json
import stat
from collections.abc import Mapping, Sequence
from pathlib import Path

import pytest

from tests.contract_fixture.test_third_party_contracts import big_contract
from tests.support.e2e import home_env, run_leadctl

pytestmark = pytest.mark.e2e

TRAITS = Path(__file__).resolve().parents[1] / "fixtures" / "contracts" / "traits-3.1.json"
# What no help needs: it sends nothing, holds no credential, parses no TOML once the
# profiles' keys are remembered, hashes no URL, draws no rich table.
NEVER_FOR_HELP = (
    "httpx", "ssl", "rich", "keyring", "pydantic", "tomllib", "hashlib",
    "leadctl.http.client", "leadctl.config.credentials", "leadctl.config.held_credential",
    "leadctl.generated.run", "leadctl.contract.index",
)  # fmt: skip


def leadctl(env: Mapping[str, str], *argv: str) -> str:
    result = run_leadctl(list(argv), env=env)
    assert result.exit_code == 0, result.stderr[-2000:]
    return result.stdout


def write_contract(path: Path, document: object) -> Path:
    path.write_text(json.dumps(document), encoding="utf-8")
    return path


@pytest.fixture(scope="module")
def operator_home(tmp_path_factory: pytest.TempPathFactory) -> dict[str, str]:
    """Six profiles; ``ops`` (current) and ``big`` with an imported contract."""
    home = tmp_path_factory.mktemp("operator")
    env = home_env(home)
    for name in ("staging", "team1", "team2", "team3"):
        leadctl(env, "-q", "-p", name, "profile", "set", "base_url", f"https://{name}.test")
    leadctl(env, "-q", "-p", "ops", "profile", "set", "base_url", "https://ops.example.test")
    leadctl(env, "-q", "-p", "big", "profile", "set", "base_url", "https://big.example.test")
    leadctl(env, "-q", "profile", "use", "ops")
    leadctl(env, "-q", "-p", "ops", "contract", "import", str(TRAITS))
    big = write_contract(home / "big.json", big_contract("3.0", resources=40))
    leadctl(env, "-q", "-p", "big", "contract", "import", str(big))
    leadctl(env, "--help")  # the first start-up after a config change remembers the keys
    return env


def imported(env: Mapping[str, str], argv: Sequence[str]) -> set[str]:
    # What a page costs when it is rendered (the first run after a change): a second run
    # of the same line would be answered by the help cache (tests/e2e/test_help_cache.py).
    uncached = {"PYTHONPROFILEIMPORTTIME": "1", "LEADCTL_HELP_CACHE": "0"}
    result = run_leadctl(list(argv), env={**env, **uncached})
    assert result.exit_code == 0, result.stderr[-2000:]
    names = set()
    for line in result.stderr.splitlines():
        if line.startswith("import time:") and "|" in line:
            names.add(line.rsplit("|", 1)[1].strip())
    return names


def loaded(names: set[str], packages: Sequence[str]) -> list[str]:
    return sorted(p for p in packages if any(n == p or n.startswith(p + ".") for n in names))


HELP_PATHS = [
    ["--help"],
    ["-p", "staging", "--help"],
    # a base URL no contract is stored for: known without hashing it
    ["--base-url", "https://nowhere.example.test", "leads", "--help"],
    ["leads", "--help"],  # a curated group, with the stored contract's generated verbs
    ["leads", "list", "--help"],  # a curated verb
    ["tags", "--help"],  # a generated group
    ["tags", "list", "--help"],  # a generated verb of the 138-operation contract
    ["-p", "staging", "leads", "list", "--help"],  # a profile without a stored contract
    ["-p", "big", "accounts-3", "--help"],
    ["-p", "big", "accounts-3", "get-customer", "--help"],
]


@pytest.mark.parametrize("argv", HELP_PATHS, ids=" ".join)
def test_no_help_loads_the_client_the_credential_store_or_the_config_parser(
    operator_home: dict[str, str], argv: list[str]
) -> None:
    assert loaded(imported(operator_home, argv), NEVER_FOR_HELP) == []


@pytest.mark.parametrize("argv", [["--help"], ["-p", "big", "--help"]], ids=" ".join)
def test_the_root_help_decodes_no_operation(operator_home: dict[str, str], argv: list[str]) -> None:
    """It lists the groups from the groups file: no entry of the index is decoded."""
    names = imported(operator_home, argv)
    assert "leadctl.contract.store" in names
    assert "leadctl.contract.listing" not in names


@pytest.mark.parametrize("group", ["leads", "tags"])
def test_a_group_help_lists_generated_verbs_without_building_them(
    operator_home: dict[str, str], group: str
) -> None:
    names = imported(operator_home, [group, "--help"])
    assert "leadctl.generated.command" not in names
    # and still lists them, each with its summary
    shown = leadctl(operator_home, group, "--help")
    assert "get-events" in shown if group == "leads" else "Get the tags." in shown


def _home_with_big_contract(tmp_path: Path) -> dict[str, str]:
    """A home whose profile ``big`` has a 200-operation contract stored."""
    env = home_env(tmp_path)
    leadctl(env, "-q", "-p", "big", "profile", "set", "base_url", "https://big.example.test")
    big = write_contract(tmp_path / "big.json", big_contract("3.0", resources=40))
    leadctl(env, "-q", "-p", "big", "contract", "import", str(big))
    return env


def test_a_big_contract_is_read_by_group(tmp_path: Path) -> None:
    """A group's help and a generated verb read the stored index's head and their own
    group: with the list of every operation unreadable, both still work."""
    env = _home_with_big_contract(tmp_path)
    (every,) = (tmp_path / "cache" / "contracts").glob("big.example.test-*/*/operations.json")
    every.write_text("[ not the operations", encoding="utf-8")

    listed = leadctl(env, "-p", "big", "accounts-3", "--help")
    assert "get-customer" in listed
    token = {"LEADCTL_TOKEN": "sk_test_0123456789abcdef"}
    sent = leadctl({**env, **token}, "-p", "big", "--dry-run", "accounts-3", "get-customer", "c1")
    assert "https://big.example.test/v1/accounts3/c1" in sent


def test_a_dry_run_without_a_body_reads_no_contract_document(tmp_path: Path) -> None:
    """--dry-run reads the contract's whole document only for the secret fields of a body
    it prints (60-80 ms for a 3,000-operation contract): a GET has none to mask."""
    env = _home_with_big_contract(tmp_path)
    (document,) = (tmp_path / "cache" / "contracts").glob("big.example.test-*/*/openapi.json")
    document.write_text("{ not the contract", encoding="utf-8")

    token = {"LEADCTL_TOKEN": "sk_test_0123456789abcdef"}
    sent = leadctl({**env, **token}, "-p", "big", "--dry-run", "accounts-3", "get-customer", "c1")
    assert "https://big.example.test/v1/accounts3/c1" in sent


def test_the_remembered_profile_keys_follow_the_config(tmp_path: Path) -> None:
    """Start-up remembers each profile's store key for the config file as it is; a
    profile pointed at another service shows that service's commands at once."""
    env = home_env(tmp_path)
    leadctl(env, "-q", "-p", "ops", "profile", "set", "base_url", "https://ops.example.test")
    leadctl(env, "-q", "profile", "use", "ops")
    leadctl(env, "-q", "-p", "ops", "contract", "import", str(TRAITS))
    assert "tags" in generated_groups(leadctl(env, "--help"))
    memo = tmp_path / "cache" / "profile-keys.txt"
    assert stat.S_IMODE(memo.stat().st_mode) == 0o600
    assert "ops\tops.example.test-" in memo.read_text(encoding="utf-8")

    leadctl(env, "-q", "-p", "ops", "profile", "set", "base_url", "https://elsewhere.test")
    assert "tags" not in generated_groups(leadctl(env, "--help"))  # nothing stored for it
    leadctl(env, "-q", "-p", "ops", "profile", "set", "base_url", "https://ops.example.test")
    assert "tags" in generated_groups(leadctl(env, "--help"))


def generated_groups(help_text: str) -> list[str]:
    """The group names the root help lists under its contract's heading."""
    _, _, section = help_text.partition("Generated from the service's contract")
    return [line.split()[0] for line in section.splitlines() if line.startswith("  ")]


def test_a_damaged_group_file_falls_back_to_the_whole_index(tmp_path: Path) -> None:
    """The operations read by group are a copy of operations.json: when that copy cannot
    be read, a command reads the whole list instead, and lists the group's verbs still."""
    env = _home_with_big_contract(tmp_path)
    (by_group,) = (tmp_path / "cache" / "contracts").glob("big.example.test-*/*/by-group.json")
    by_group.write_bytes(b"\x00" * by_group.stat().st_size)

    listed = leadctl(env, "-p", "big", "accounts-3", "--help")
    assert "get-customer" in listed
