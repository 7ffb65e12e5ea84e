"""The help cache's key, its lines and its files (leadctl/cli/help_cache.py); the whole
path through the installed command is tests/e2e/test_help_cache.py."""

from __future__ import annotations

import io
import os
from pathlib import Path

import pytest

from leadctl.cli import help_cache
from leadctl.contract import store
from leadctl.iostreams import IOStreams
from tests.support.e2e import home_env


@pytest.mark.parametrize(
    "argv",
    [
        ["--help"],
        ["-h"],
        ["leads", "--help"],
        ["leads", "list", "--help"],
        ["webhooks", "secret", "rotate", "-h"],
        ["-p", "ops", "tags", "list", "--help"],
        ["--profile", "ops", "--base-url", "https://x.test", "--help"],
        ["--profile=ops", "accounts-3", "--help"],
        ["-pops", "--help"],
        ["--base-url=https://x.test/v1", "leads", "--help"],
    ],
)
def test_help_lines_the_cache_answers(argv: list[str]) -> None:
    assert help_cache.asks_for_help(argv)


@pytest.mark.parametrize(
    "argv",
    [
        [],
        ["leads"],  # no --help: Click's no-args help is exit 2
        ["leads", "--help", "x"],
        ["--debug", "--help"],
        ["-q", "leads", "--help"],  # any global option but the selection ones
        ["-o", "json", "--help"],
        ["leads", "-p", "ops", "--help"],  # options after a word are that command's
        ["leads", "list", "--limit", "3", "--help"],
        ["-p", "--help"],  # -p takes --help as its value
        ["-p", "", "--help"],
        ["--base-url", "https://user:pw@x.test", "--help"],  # a credential in the URL
        ["--base-url=https://user:pw@x.test", "--help"],
        ["help", "leads"],
        ["leads", "--", "--help"],
        ["leads", "list\n", "--help"],
        ["--version", "--help"],
    ],
)
def test_lines_that_run_normally(argv: list[str]) -> None:
    assert not help_cache.asks_for_help(argv)


def test_debug_the_off_switch_and_completion_bypass_the_cache() -> None:
    assert help_cache.bypassed({"LEADCTL_DEBUG": "1"})
    assert help_cache.bypassed({"LEADCTL_HELP_CACHE": "0"})
    assert help_cache.bypassed({"_LEADCTL_COMPLETE": "bash_complete"})
    assert help_cache.bypassed({"LEADCTL_BASE_URL": "https://user:pw@x.test"})
    assert not help_cache.bypassed({"LEADCTL_PROFILE": "ops", "LEADCTL_DEBUG": ""})


@pytest.fixture
def env(tmp_path: Path) -> dict[str, str]:
    found = {**home_env(tmp_path), "HOME": str(tmp_path), "COLUMNS": "100"}
    (tmp_path / "config").mkdir()
    (tmp_path / "config" / "config.toml").write_text('[profiles.ops]\nbase_url = "x"\n')
    return found


def key(env: dict[str, str], argv: list[str] | None = None, stdout: object = None) -> str:
    found = help_cache.help_key(argv or ["--help"], env, stdout or io.StringIO())  # type: ignore[arg-type]
    assert found is not None
    return found


@pytest.mark.parametrize(
    ("name", "value"),
    [
        ("COLUMNS", "60"),
        ("LINES", "10"),
        ("LEADCTL_PROFILE", "ops"),
        ("LEADCTL_BASE_URL", "https://x.test"),
        ("LEADCTL_OUTPUT", "json"),
        ("NO_COLOR", "1"),
        ("FORCE_COLOR", "1"),
        ("CLICOLOR_FORCE", "1"),
        ("TERM", "dumb"),
        ("TYPER_USE_RICH", "0"),
        ("XDG_CONFIG_HOME", "/elsewhere"),
        ("LC_ALL", "C"),
        ("LEADCTL_TOKEN", "sk_test_0123456789abcdef"),  # by name: its value is never kept
    ],
)
def test_each_variable_help_depends_on_changes_the_key(
    env: dict[str, str], name: str, value: str
) -> None:
    assert key({**env, name: value}) != key(env)


def test_a_credential_variable_is_keyed_by_its_name_only(env: dict[str, str]) -> None:
    one = key({**env, "LEADCTL_TOKEN": "sk_test_0123456789abcdef"})
    assert "sk_test_0123456789abcdef" not in one
    assert one == key({**env, "LEADCTL_TOKEN": "sk_test_another_one_altogether"})


def test_what_no_page_depends_on_keeps_the_key(env: dict[str, str]) -> None:
    """The working directory, the shell's own variables: the same page."""
    assert key({**env, "PWD": "/tmp", "SHLVL": "3", "OLDPWD": "/"}) == key(env)


def test_the_line_is_the_key(env: dict[str, str]) -> None:
    assert key(env, ["leads", "--help"]) != key(env, ["leads", "-h"])
    assert key(env, ["-p", "ops", "--help"]) != key(env, ["--help"])


def test_a_config_rewritten_changes_the_key(env: dict[str, str], tmp_path: Path) -> None:
    before = key(env)
    config = tmp_path / "config" / "config.toml"
    stamp = config.stat()
    config.write_text('[profiles.ops]\nbase_url = "y"\n')  # the same size
    os.utime(config, ns=(stamp.st_atime_ns, stamp.st_mtime_ns))  # and the same time
    assert key(env) != before  # inode or ctime
    config.unlink()
    assert key(env) != before


def test_a_stored_contract_changes_the_key(env: dict[str, str], tmp_path: Path) -> None:
    before = key(env)
    stored = tmp_path / "cache" / store.CONTRACTS_DIR / "ops.example.test-abc"
    stored.mkdir(parents=True)
    assert key(env) != before
    with_dir = key(env)
    (stored / store.GROUPS_FILE).write_text("tags\tTags.\n")
    with_groups = key(env)
    assert with_groups != with_dir
    (stored / store.INDEX_FILE).write_text("{}")
    assert key(env) != with_groups


def test_the_store_names_agree_with_the_contract_store() -> None:
    assert help_cache.CONTRACTS_DIR == store.CONTRACTS_DIR
    assert set(help_cache.CONTRACT_STAMPED_FILES) == {store.INDEX_FILE, store.GROUPS_FILE}


def test_a_source_file_touched_or_resized_changes_the_stamps(tmp_path: Path) -> None:
    package = tmp_path / "pkg"
    (package / "sub" / "__pycache__").mkdir(parents=True)
    module = package / "sub" / "mod.py"
    module.write_text("A = 1\n")
    before = help_cache._source_stamps(str(package))
    (package / "sub" / "__pycache__" / "mod.pyc").write_bytes(b"bytecode")
    assert help_cache._source_stamps(str(package)) == before  # bytecode is not source
    stamp = module.stat()
    os.utime(module, ns=(stamp.st_atime_ns, stamp.st_mtime_ns + 1000))
    touched = help_cache._source_stamps(str(package))
    assert touched != before
    module.write_text("A = 22\n")
    os.utime(module, ns=(stamp.st_atime_ns, stamp.st_mtime_ns + 1000))
    assert help_cache._source_stamps(str(package)) != touched


def test_the_key_stamps_the_installed_package_python_and_typer(env: dict[str, str]) -> None:
    import sys

    import typer

    import leadctl

    found = key(env)
    assert str(Path(leadctl.__file__).parent) in found
    assert sys.version in found
    assert f'__version__ = "{typer.__version__}"' in found
    assert "cli/help_cache.py" in found


@pytest.mark.parametrize("columns", ["", "0", "abc", "73"])
def test_the_width_is_the_one_help_is_laid_out_to(env: dict[str, str], columns: str) -> None:
    """IOStreams.terminal_width, which app.invoke gives Click, on the same stdout."""
    environment = {**env, "COLUMNS": columns}
    ios = IOStreams.for_test(env=environment)
    assert f"width={ios.terminal_width()} " in key(environment, stdout=ios.stdout)


def test_a_pipe_and_a_terminal_are_other_keys(env: dict[str, str]) -> None:
    class Terminal(io.StringIO):
        def isatty(self) -> bool:
            return True

    assert key(env, stdout=Terminal()) != key(env, stdout=io.StringIO())


def test_a_page_stored_is_found_for_its_key_only(env: dict[str, str]) -> None:
    page = "Usage: leadctl [OPTIONS]\n\n  caf\u00e9 \udcff\n"
    help_cache.store("one", env, page)
    assert help_cache.lookup("one", env) == page
    assert help_cache.lookup("two", env) is None


def test_the_cache_keeps_at_most_its_bound(env: dict[str, str], tmp_path: Path) -> None:
    for number in range(help_cache.MAX_ENTRIES + 5):
        help_cache.store(f"key {number}", env, f"page {number}\n")
        path = help_cache.entry_path(f"key {number}", env)
        assert path is not None
        os.utime(path, ns=(number * 10**9, number * 10**9))  # written in this order
    assert len(list((tmp_path / "cache" / "help").iterdir())) == help_cache.MAX_ENTRIES
    assert help_cache.lookup("key 0", env) is None  # the oldest went first
    last = help_cache.MAX_ENTRIES + 4
    assert help_cache.lookup(f"key {last}", env) == f"page {last}\n"


def test_an_unwritable_cache_is_no_cache(env: dict[str, str], tmp_path: Path) -> None:
    (tmp_path / "cache").write_text("a file where the dir would be")
    help_cache.store("one", env, "page\n")  # no error
    assert help_cache.lookup("one", env) is None


@pytest.fixture
def capture() -> help_cache.Capture:
    help_cache.RENDERED.clear()
    return help_cache.Capture(io.StringIO(), io.StringIO())


PAGE = "Usage: leadctl leads [OPTIONS] COMMAND [ARGS]..."


def test_a_run_that_wrote_its_one_page_is_kept(capture: help_cache.Capture) -> None:
    help_cache.rendered(PAGE)
    print(PAGE, file=capture._streams[0])
    capture.stop()
    assert capture.page() == PAGE + "\n"


@pytest.mark.parametrize(
    ("pages", "out", "err"),
    [
        ([PAGE], PAGE + "\nand more\n", ""),  # something besides the page
        ([PAGE], "", ""),  # the page went elsewhere (a stream Click made)
        ([PAGE], PAGE + "\n", "warning: the imported contract is unusable\n"),
        ([], "hello from the shell\n", ""),  # no page rendered: a shell alias
        ([PAGE, PAGE], PAGE + "\n" + PAGE + "\n", ""),
    ],
)
def test_anything_but_exactly_one_page_is_not_kept(
    capture: help_cache.Capture, pages: list[str], out: str, err: str
) -> None:
    for page in pages:
        help_cache.rendered(page)
    stdout, stderr = capture._streams
    stdout.write(out)
    stderr.write(err)
    capture.stop()
    assert capture.page() is None


def test_capture_passes_every_write_through_and_lets_go(capture: help_cache.Capture) -> None:
    stdout = capture._streams[0]
    with pytest.raises(TypeError):
        stdout.write(b"")  # Click's probe for a binary stream gets its error
    stdout.write("seen")
    capture.stop()
    stdout.write(" after")
    assert isinstance(stdout, io.StringIO) and stdout.getvalue() == "seen after"
    assert capture.out == ["seen"]


def test_a_file_cut_short_is_no_answer(env: dict[str, str]) -> None:
    """Written without waiting for the disk: after a crash the page may be cut short."""
    help_cache.store("one", env, "Usage: leadctl [OPTIONS]\n\n  Operate the service.\n")
    path = help_cache.entry_path("one", env)
    assert path is not None
    data = Path(path).read_bytes()
    Path(path).write_bytes(data[:-5])
    assert help_cache.lookup("one", env) is None
