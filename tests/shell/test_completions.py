"""The checked-in completion scripts, driven by real bash, zsh and fish.

Expected words come from the contract (cli.md: groups, output formats, credential
kinds, shells) and from leadctl itself (`profile list`, the groups table), not from
the scripts.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
from collections.abc import Callable, Mapping
from pathlib import Path

import pytest

from leadctl.cli.groups import GROUPS
from leadctl.config.settings import PROFILE_KEYS
from tests.shell.conftest import REPO, require
from tests.support.e2e import leadctl_executable

COMPLETIONS = REPO / "completions"
ZSH_HARNESS = Path(__file__).with_name("zsh_complete.zsh")
OUTPUT_FORMATS = {"table", "json", "ndjson", "yaml", "csv", "tsv", "value"}
CATEGORIES = {"Open", "Qualified", "Converted", "Lost", "Invalid", "Duplicate"}
SHELLS = ("bash", "zsh", "fish")
TIMEOUT = 20


def shell_env(extra: Mapping[str, str] | None = None) -> dict[str, str]:
    """A predictable environment: no user config, no LEADCTL_* but what a test sets."""
    env = {k: v for k, v in os.environ.items() if not k.startswith(("LEADCTL_", "XDG_"))}
    env.update(extra or {})
    return env


def readline_words(line: str) -> list[str]:
    """COMP_WORDS as bash builds them: split at blanks, and = and : are words of their own."""
    words = [part for chunk in line.split() for part in re.split(r"([=:])", chunk) if part]
    return [*words, ""] if line.endswith(" ") else words


def complete_bash(
    line: str, env: Mapping[str, str], *, cwd: Path | None = None, scripts: Path = COMPLETIONS
) -> list[str]:
    script = (
        'source "$1"; shift; COMP_WORDS=("$@"); COMP_CWORD=$((${#COMP_WORDS[@]} - 1)); '
        "COMP_LINE=$LEADCTL_TEST_LINE; COMP_POINT=${#COMP_LINE}; _leadctl; "
        'printf "%s\\n" "${COMPREPLY[@]}"'
    )
    result = subprocess.run(
        [
            shutil.which("bash") or "bash",
            "--norc",
            "--noprofile",
            "-c",
            script,
            "bash",
            str(scripts / "leadctl.bash"),
            *readline_words(line),
        ],
        env={**env, "LEADCTL_TEST_LINE": line},
        cwd=cwd,
        capture_output=True,
        text=True,
        timeout=TIMEOUT,
        check=True,
    )
    return [word for word in result.stdout.splitlines() if word]


def complete_zsh(
    line: str, env: Mapping[str, str], *, cwd: Path | None = None, scripts: Path = COMPLETIONS
) -> list[str]:
    result = subprocess.run(
        ["zsh", "-f", str(ZSH_HARNESS), str(scripts), line],
        env=env,
        cwd=cwd,
        capture_output=True,
        text=True,
        timeout=TIMEOUT,
        check=True,
    )
    assert "<done>" in result.stdout, f"zsh completion did not finish: {result.stdout!r}"
    return re.findall(r"<hit>(.*?)</hit>", result.stdout)


def complete_fish(
    line: str,
    env: Mapping[str, str],
    *,
    cwd: Path | None = None,
    scripts: Path = COMPLETIONS,
    described: bool = False,
) -> list[str]:
    """The words fish offers; with ``described``, each as WORD<TAB>DESCRIPTION."""
    result = subprocess.run(
        [
            "fish",
            "--no-config",
            "-c",
            "source $argv[1]; complete -C $argv[2]",
            str(scripts / "leadctl.fish"),
            line,
        ],
        env=env,
        cwd=cwd,
        capture_output=True,
        text=True,
        timeout=TIMEOUT,
        check=True,
    )
    entries = [entry for entry in result.stdout.splitlines() if entry]
    return entries if described else [entry.split("\t", 1)[0] for entry in entries]


COMPLETERS: dict[str, Callable[..., list[str]]] = {
    "bash": complete_bash,
    "zsh": complete_zsh,
    "fish": complete_fish,
}


@pytest.fixture(params=SHELLS)
def complete(request: pytest.FixtureRequest) -> Callable[..., list[str]]:
    require(request.param)
    return COMPLETERS[request.param]


def sources_verbs() -> set[str]:
    from leadctl.docgen.tree import load_tree

    (sources,) = [c for c in load_tree().commands if c.name == "sources"]
    return {verb.name for verb in sources.commands}


# -- the words offered -------------------------------------------------------------------


def test_a_group_completes_from_its_prefix(complete: Callable[..., list[str]]) -> None:
    assert complete("leadctl sou", shell_env()) == ["sources"]


def test_a_group_lists_its_verbs(complete: Callable[..., list[str]]) -> None:
    offered = set(complete("leadctl sources ", shell_env()))
    assert {"update", "rotate"} <= offered  # cli.md
    assert offered == sources_verbs()


def test_every_group_is_offered(complete: Callable[..., list[str]]) -> None:
    assert set(complete("leadctl ", shell_env())) == set(GROUPS)


@pytest.mark.parametrize(
    ("line", "expected"),
    [
        ("leadctl -o ", OUTPUT_FORMATS),
        ("leadctl leads list --output ", OUTPUT_FORMATS),
        ("leadctl leads list -o c", {"csv"}),
        ("leadctl auth login --kind ", {"user", "org", "source"}),
        ("leadctl completion ", set(SHELLS)),
        ("leadctl profile set ", set(PROFILE_KEYS)),
    ],
)
def test_fixed_values(complete: Callable[..., list[str]], line: str, expected: set[str]) -> None:
    assert set(complete(line, shell_env())) == expected


def test_option_value_given_with_equals(complete: Callable[..., list[str]]) -> None:
    offered = complete("leadctl --output=nd", shell_env())
    # bash replaces only the text after "=" (it is in COMP_WORDBREAKS); zsh and fish
    # replace the whole word.
    assert offered in (["ndjson"], ["--output=ndjson"])


def test_status_change_categories(complete: Callable[..., list[str]]) -> None:
    from leadctl.docgen.tree import load_tree

    update = next(c for c in load_tree().walk() if c.path == ("status-changes", "update"))
    category = next(o for o in update.options if "--category" in o.names)
    assert category.value is not None and category.value.kind == "choice"
    offered = set(complete("leadctl status-changes update chg_1 --category ", shell_env()))
    assert {c.lower() for c in offered} == {c.lower() for c in CATEGORIES}


def test_verb_options(complete: Callable[..., list[str]]) -> None:
    offered = set(complete("leadctl sources rotate src_1 --s", shell_env()))
    assert offered == {"--secret-only", "--secret-file", "--save-profile"}


def test_words_are_walked_past_option_values(complete: Callable[..., list[str]]) -> None:
    # -p takes a value, and state=TX is one word even where bash splits it at "=".
    offered = complete("leadctl -p sandbox leads list --filter state=TX --li", shell_env())
    assert offered == ["--limit"]


def test_directories_for_a_directory_option(
    complete: Callable[..., list[str]], tmp_path: Path
) -> None:
    (tmp_path / "state-dir").mkdir()
    (tmp_path / "state-file").write_text("")
    offered = complete("leadctl sandbox serve --data-dir sta", shell_env(), cwd=tmp_path)
    # zsh's _files may offer the same directory under two tags.
    assert {word.rstrip("/") for word in offered} == {"state-dir"}


# -- profile names, read from the config file ---------------------------------------------


def make_profiles(env: Mapping[str, str], names: list[str]) -> set[str]:
    """Profiles created by leadctl itself; returns what `profile list` says exists (the
    built-in sandbox profile left out)."""
    leadctl = leadctl_executable()
    for name in names:
        subprocess.run(
            [leadctl, "-p", name, "profile", "set", "region", "US"],
            env=env,
            capture_output=True,
            check=True,
            timeout=TIMEOUT,
        )
    listed = subprocess.run(
        [leadctl, "profile", "list", "-o", "json"],
        env=env,
        capture_output=True,
        text=True,
        check=True,
        timeout=TIMEOUT,
    )
    return {row["name"] for row in json.loads(listed.stdout) if not row["built_in"]}


PROFILE_LINES = [
    "leadctl -p ",
    "leadctl --profile ",
    "leadctl profile use ",
    "leadctl sources rotate src_1 --save-profile ",
]


@pytest.fixture(scope="module")
def profiles_env(tmp_path_factory: pytest.TempPathFactory) -> tuple[dict[str, str], set[str]]:
    home = tmp_path_factory.mktemp("profiles")
    env = shell_env({"LEADCTL_CONFIG_DIR": str(home / "config"), "HOME": str(home)})
    # A dotted name is written as a quoted TOML key.
    configured = make_profiles(env, ["prod", "eu.staging", "ci-2"])
    assert configured == {"prod", "eu.staging", "ci-2"}
    return env, configured


@pytest.mark.parametrize("line", PROFILE_LINES)
def test_profile_names_come_from_the_config(
    complete: Callable[..., list[str]],
    profiles_env: tuple[dict[str, str], set[str]],
    line: str,
) -> None:
    env, configured = profiles_env
    assert set(complete(line, env)) == configured | {"sandbox"}


@pytest.mark.parametrize("xdg", [False, True], ids=["home-config", "xdg-config-home"])
def test_profile_names_from_the_default_config_dir(
    complete: Callable[..., list[str]], tmp_path: Path, xdg: bool
) -> None:
    if sys.platform == "darwin":
        pytest.skip("the Linux config dir rules")
    env = shell_env({"HOME": str(tmp_path)})
    if xdg:
        env["XDG_CONFIG_HOME"] = str(tmp_path / "xdg")
    configured = make_profiles(env, ["work"])
    assert set(complete("leadctl -p w", env)) == configured == {"work"}


def test_only_the_sandbox_profile_without_a_config(
    complete: Callable[..., list[str]], tmp_path: Path
) -> None:
    env = shell_env({"LEADCTL_CONFIG_DIR": str(tmp_path / "none"), "HOME": str(tmp_path)})
    assert complete("leadctl -p ", env) == ["sandbox"]


def test_tab_runs_no_python(tmp_path: Path) -> None:
    """Static script: with only sed on PATH (no python, no leadctl) bash still completes."""
    require("bash", "sed")
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    (bin_dir / "sed").symlink_to(shutil.which("sed") or "sed")
    env = {"PATH": str(bin_dir), "HOME": str(tmp_path), "LEADCTL_CONFIG_DIR": str(tmp_path)}
    (tmp_path / "config.toml").write_text('[profiles."ops.eu"]\nregion = "GB"\n')
    assert complete_bash("leadctl sources ", env) != []
    assert set(complete_bash("leadctl -p ", env)) == {"ops.eu", "sandbox"}


def test_the_active_contracts_verbs_complete_from_the_printed_script(
    complete: Callable[..., list[str]], tmp_path: Path
) -> None:
    """`leadctl completion SHELL` for a profile whose contract adds verbs (the sandbox's
    lists and reads by id): the printed script completes them, still without Python."""
    env = shell_env({"LEADCTL_CONFIG_DIR": str(tmp_path / "config")})
    run_env = {
        **env,
        "LEADCTL_CACHE_DIR": str(tmp_path / "cache"),
        "LEADCTL_DATA_DIR": str(tmp_path / "data"),
    }
    for shell, name in SCRIPT_FILES.items():
        printed = subprocess.run(
            [leadctl_executable(), "-p", "sandbox", "completion", shell],
            env=run_env,
            capture_output=True,
            text=True,
            check=True,
            timeout=60,
        )
        (tmp_path / name).write_text(printed.stdout, encoding="utf-8")
    assert {"list", "get"} <= set(complete("leadctl sources ", env, scripts=tmp_path))
    assert "tags" in complete("leadctl ta", env, scripts=tmp_path)
    assert "list" not in complete("leadctl sources ", env)  # the bundled contract's script


# -- the files themselves -----------------------------------------------------------------


SCRIPT_FILES = {"bash": "leadctl.bash", "zsh": "_leadctl", "fish": "leadctl.fish"}


@pytest.mark.parametrize(("shell", "name"), list(SCRIPT_FILES.items()))
def test_completion_command_prints_the_checked_in_script(shell: str, name: str) -> None:
    printed = subprocess.run(
        [leadctl_executable(), "completion", shell],
        env=shell_env(),
        capture_output=True,
        text=True,
        check=True,
        timeout=TIMEOUT,
    )
    assert printed.stdout == (COMPLETIONS / name).read_text(encoding="utf-8")


@pytest.mark.parametrize(
    ("shell", "check"),
    [
        ("bash", ["bash", "-n"]),
        ("zsh", ["zsh", "-n"]),
        ("fish", ["fish", "--no-execute"]),
    ],
)
def test_scripts_parse(shell: str, check: list[str]) -> None:
    require(shell)
    name = {"bash": "leadctl.bash", "zsh": "_leadctl", "fish": "leadctl.fish"}[shell]
    subprocess.run([*check, str(COMPLETIONS / name)], check=True, timeout=TIMEOUT)


def test_zsh_script_also_works_when_sourced(tmp_path: Path) -> None:
    """`source <(leadctl completion zsh)` after compinit registers the function."""
    require("zsh")
    script = 'autoload -Uz compinit; compinit -u -D; source $1; print -r -- "${_comps[leadctl]}"'
    result = subprocess.run(
        ["zsh", "-f", "-c", script, "zsh", str(COMPLETIONS / "_leadctl")],
        env=shell_env({"HOME": str(tmp_path)}),
        capture_output=True,
        text=True,
        check=True,
        timeout=TIMEOUT,
    )
    assert result.stdout.strip() == "_leadctl"


# -- alias names, read from the config file -----------------------------------------------


def test_alias_names_complete_as_first_words(
    complete: Callable[..., list[str]], tmp_path: Path
) -> None:
    """Aliases made by `leadctl alias set` complete where a group does, never after one;
    the profile tables after [aliases] in config.toml are not taken for aliases."""
    env = shell_env({"LEADCTL_CONFIG_DIR": str(tmp_path / "config"), "HOME": str(tmp_path)})
    make_profiles(env, ["prod"])
    for name, expansion in (("tx", "leads list --filter state=TX"), ("top-2", "leads list")):
        subprocess.run(
            [leadctl_executable(), "alias", "set", name, expansion],
            env=env,
            capture_output=True,
            check=True,
            timeout=TIMEOUT,
        )
    scripts = tmp_path / "scripts"
    scripts.mkdir()
    for shell, name in SCRIPT_FILES.items():
        printed = subprocess.run(
            [leadctl_executable(), "completion", shell],
            env=env,
            capture_output=True,
            text=True,
            check=True,
            timeout=TIMEOUT,
        )
        (scripts / name).write_text(printed.stdout, encoding="utf-8")
    first = set(complete("leadctl ", env, scripts=scripts))
    assert {"tx", "top-2", "leads", "alias"} <= first and "prod" not in first
    assert set(complete("leadctl t", env, scripts=scripts)) == {"tx", "top-2"}
    assert not {"tx", "top-2"} & set(complete("leadctl leads ", env, scripts=scripts))
    assert set(complete("leadctl alias ", env, scripts=scripts)) == {
        "set",
        "list",
        "delete",
        "import",
    }
