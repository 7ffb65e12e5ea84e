"""``leadctl alias ...`` and aliases at dispatch, in process: the embedded sandbox
(``-p sandbox``) answers the expanded commands, so no request leaves the process."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from leadctl.config.settings import Config, load_config, update_config
from leadctl.errors import ExitCode
from tests.support.cli import run_cli

TX = "leads list --filter state=TX --limit 2"


def _aliases() -> dict[str, str]:
    return load_config(os.environ).aliases


def _config_file() -> Path:
    return Path(os.environ["LEADCTL_CONFIG_DIR"]) / "config.toml"


def _set(*args: str) -> None:
    result = run_cli(["alias", "set", *args])
    assert result.exit_code == 0, result.stderr


def test_set_stores_the_alias_and_list_prints_it() -> None:
    _set("tx", TX)
    assert _aliases() == {"tx": TX}
    listed = run_cli(["alias", "list", "-o", "json"])
    assert json.loads(listed.stdout) == [{"name": "tx", "expansion": TX, "shell": False}]


def test_set_reads_the_expansion_from_stdin() -> None:
    result = run_cli(["alias", "set", "tx", "-"], stdin=TX + "\n")
    assert result.exit_code == 0, result.stderr
    assert _aliases() == {"tx": TX}


@pytest.mark.parametrize("name", ["leads", "profile", "alias", "help", "phone-numbers"])
def test_a_name_of_a_command_is_refused_with_exit_2(name: str) -> None:
    # phone-numbers is no curated group: the active contract's tag, kept as a name of
    # `numbers`; the dispatch would run that group, so the name is taken.
    result = run_cli(["alias", "set", name, TX])
    assert result.exit_code == ExitCode.USAGE
    assert f"'{name}' is a leadctl command: an alias never shadows one" in result.stderr
    assert not _config_file().exists()


def test_an_expansion_that_is_no_command_is_refused() -> None:
    result = run_cli(["alias", "set", "oops", "lead list"])
    assert result.exit_code == ExitCode.USAGE
    assert "'lead' is not a leadctl command" in result.stderr


def test_an_existing_alias_is_replaced_only_with_clobber() -> None:
    _set("tx", TX)
    again = run_cli(["alias", "set", "tx", "leads list"])
    assert again.exit_code == ExitCode.USAGE
    assert "alias tx already exists" in again.stderr and "--clobber" in again.stderr
    assert _aliases() == {"tx": TX}
    _set("tx", "leads list", "--clobber")
    assert _aliases() == {"tx": "leads list"}


def test_delete_removes_the_alias_and_an_unknown_one_is_exit_2() -> None:
    _set("tx", TX)
    missing = run_cli(["alias", "delete", "tz"])
    assert missing.exit_code == ExitCode.USAGE
    assert "no alias 'tz' (aliases: tx)" in missing.stderr
    deleted = run_cli(["alias", "delete", "tx"])
    assert deleted.exit_code == 0, deleted.stderr
    assert "deleted alias tx" in deleted.stderr
    assert _aliases() == {}


def test_the_alias_runs_with_global_flags_before_and_after_it() -> None:
    _set("tx", TX)
    for line in (["-p", "sandbox", "tx", "-o", "json"], ["tx", "-o", "json", "-p", "sandbox"]):
        result = run_cli(line)
        assert result.exit_code == 0, result.stderr
        leads = json.loads(result.stdout)
        assert len(leads) == 2 and {lead["state"] for lead in leads} == {"TX"}


def test_placeholders_take_the_arguments_after_the_alias() -> None:
    _set("state", "leads list --filter state=$1 --limit $2")
    result = run_cli(["-p", "sandbox", "state", "CA", "3", "--columns", "state", "-o", "json"])
    assert result.exit_code == 0, result.stderr
    assert json.loads(result.stdout) == [{"state": "CA"}] * 3
    short = run_cli(["-p", "sandbox", "state", "CA"])
    assert short.exit_code == ExitCode.USAGE
    assert "alias state takes 2 arguments" in short.stderr


def test_a_command_never_consults_the_aliases() -> None:
    # A config whose [aliases] cannot be read: a command still runs (no alias lookup),
    # while a word that is no command looks there and says what is wrong.
    _config_file().parent.mkdir(parents=True, exist_ok=True)
    _config_file().write_text("aliases = 3\n", encoding="utf-8")
    assert run_cli(["leads", "--help"]).exit_code == 0
    unknown = run_cli(["tx"])
    assert unknown.exit_code == ExitCode.USAGE
    assert "[aliases] must be a table" in unknown.stderr


def test_an_alias_named_like_a_command_in_the_file_does_not_hide_it() -> None:
    def plant(config: Config) -> None:  # as a hand-edited file (or a newer contract) has it
        config.aliases["leads"] = "version"

    update_config(os.environ, plant)
    result = run_cli(["-p", "sandbox", "leads", "list", "--limit", "1", "-o", "json"])
    assert result.exit_code == 0, result.stderr
    assert len(json.loads(result.stdout)) == 1


def test_root_help_lists_the_aliases() -> None:
    assert "Aliases" not in run_cli(["--help"]).stdout
    _set("tx", TX)
    _set("--shell", "count", "leadctl leads list | wc -l")
    shown = run_cli(["--help"]).stdout
    section = shown[shown.index("Aliases") :]
    assert "tx" in section and TX in section
    assert "shell: leadctl leads list | wc -l" in section


def test_import_reads_gh_s_yaml_and_list_json_back(tmp_path: Path) -> None:
    file = tmp_path / "aliases.yml"
    file.write_text(
        f"tx: {TX}\ncount: '!leadctl leads list | wc -l'\nmulti: |-\n  leads list\n  --limit 1\n",
        encoding="utf-8",
    )
    result = run_cli(["alias", "import", str(file)])
    assert result.exit_code == 0, result.stderr
    assert "imported 3 aliases" in result.stderr
    assert _aliases() == {
        "tx": TX,
        "count": "!leadctl leads list | wc -l",
        "multi": "leads list\n--limit 1",
    }
    exported = run_cli(["alias", "list", "-o", "json"]).stdout
    for name in list(_aliases()):
        assert run_cli(["alias", "delete", name]).exit_code == 0
    back = run_cli(["alias", "import", "-"], stdin=exported)
    assert back.exit_code == 0, back.stderr
    assert _aliases() == {
        "tx": TX,
        "count": "!leadctl leads list | wc -l",
        "multi": "leads list\n--limit 1",
    }


def test_import_is_all_or_nothing() -> None:
    _set("tx", TX)
    result = run_cli(
        ["alias", "import", "-"], stdin="ok: leads list\nleads: version\ntx: version\n"
    )
    assert result.exit_code == ExitCode.USAGE
    assert "'leads' is a leadctl command" in result.stderr
    assert "alias tx already exists" in result.stderr
    assert _aliases() == {"tx": TX}
    clobbered = run_cli(
        ["alias", "import", "-", "--clobber"], stdin="ok: leads list\ntx: version\n"
    )
    assert clobbered.exit_code == 0, clobbered.stderr
    assert _aliases() == {"ok": "leads list", "tx": "version"}


def test_import_refuses_what_holds_no_aliases_and_a_yaml_bomb() -> None:
    listed = run_cli(["alias", "import", "-"], stdin="- leads list\n")
    assert listed.exit_code == ExitCode.USAGE and "holds no aliases" in listed.stderr
    bomb = "a: &a ['x','x','x','x','x','x','x','x','x']\n" + "".join(
        f"{n}: &{n} [*{p},*{p},*{p},*{p},*{p},*{p},*{p},*{p},*{p}]\n"
        for p, n in zip("abcdefgh", "bcdefghi", strict=True)
    )
    refused = run_cli(["alias", "import", "-"], stdin=bomb)
    assert refused.exit_code == ExitCode.USAGE
    assert "YAML aliases expanded" in refused.stderr
    assert not _config_file().exists()


@pytest.mark.parametrize("stored", ["", "lead list"])
def test_a_hand_edited_alias_that_names_no_command_is_exit_2(stored: str) -> None:
    def plant(config: Config) -> None:
        config.aliases["tx"] = stored

    update_config(os.environ, plant)
    result = run_cli(["tx"])
    assert result.exit_code == ExitCode.USAGE
    assert "alias tx expands to" in result.stderr and "not a leadctl command" in result.stderr


@pytest.mark.parametrize("name", ["a.b", "-x", "two words", ""])
def test_a_name_that_is_not_one_plain_word_is_refused(name: str) -> None:
    result = run_cli(["alias", "set", "--", name, TX])
    assert result.exit_code == ExitCode.USAGE
    assert "invalid alias name" in result.stderr
    assert not _config_file().exists()
