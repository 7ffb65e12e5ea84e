"""Rendered ``--help`` kept in the cache dir and answered before Typer is imported.

As the az CLI keeps a command index: a help line (``leadctl [-p NAME] [GROUP [VERB]]
--help``) costs Typer building the root from the callback's signature and formatting every
group, about as much as importing Typer; a person reads the same pages again and again.
``leadctl.__main__`` asks :func:`help_key` for the key of this line and, on a hit, writes
the stored text and exits 0; on a miss it runs normally while :class:`Capture` records what
reaches stdout, and stores it when the run was exactly one help page (exit 0, nothing on
stderr, the stdout text equal to the page the help formatter rendered: a shell alias or a
verb whose own ``-h`` is no help option is never stored).

The key holds everything the page depends on, so an answer is byte-identical to a fresh
run: the line, leadctl's version and the stat of every file of the installed package (a
developer's edit shows at once), Python and Typer, the environment variables that change
help or where leadctl looks (:data:`KEYED_VARIABLES`, :data:`KEYED_PREFIXES`), stdout's
terminal state, width and encoding, config.toml's stamp (profiles, aliases) and the stamp
of every stored contract's index (which generated commands exist). A run that changes any
of that (``-p sandbox`` storing the sandbox's contract on first use) is not stored.

Files: ``<cache dir>/help/<hash>.txt``, 0600 in a 0700 dir, written atomically (not
synced: each holds its key's and its page's sizes, so one cut short is a miss), at most
:data:`MAX_ENTRIES` (the oldest removed). They hold the key and the help text, never a
secret. Any failure to read or write one is no cache: the command runs as without it.
Only ``os`` and ``sys`` are imported here before a hit is answered.
"""

from __future__ import annotations

import os
import sys

import leadctl
from leadctl import __version__
from leadctl.config.dir_paths import CONFIG_FILE, dir_path
from leadctl.util.file_stamp import file_stamp

TYPE_CHECKING = False  # typing is not imported on the way to a cached answer
if TYPE_CHECKING:
    from collections.abc import Mapping, Sequence
    from typing import Any, TextIO

FORMAT = "leadctl help cache 2"
SUBDIR = "help"
MAX_ENTRIES = 64
HELP_FLAGS = ("--help", "-h")
# The global options that pick the service, hence the generated commands a page lists
# (persistent_flags / generated.startup.LINE_PARAMS_NAMES); any other option runs normally.
SELECTION_OPTIONS = ("-p", "--profile", "--base-url")
# 0 turns the cache off (a fresh page every time).
ENV_SWITCH = "LEADCTL_HELP_CACHE"
# Where the contract store keeps its indexes (contract.store, too heavy to import here;
# a unit test checks they agree).
CONTRACTS_DIR = "contracts"
CONTRACT_STAMPED_FILES = ("index.json", "groups.tsv")

# Environment a page depends on, by value: its width (COLUMNS), colour and terminal (Click
# strips nothing from plain help, but the key does not bet on it), where the config and
# the contracts are (HOME, XDG_*, the LEADCTL_ dirs), stdout's encoding, the service
# (LEADCTL_PROFILE, LEADCTL_BASE_URL) and leadctl's other settings; Click's words go
# through gettext (LANGUAGE, LC_MESSAGES). Typer reads TYPER_USE_RICH and its completion
# variables. (Every variable a help run reads, recorded on os.environ, is in here.)
KEYED_VARIABLES = (
    "COLUMNS", "LINES", "TERM", "NO_COLOR", "FORCE_COLOR", "HOME", "XDG_CONFIG_HOME",
    "XDG_CACHE_HOME", "XDG_DATA_HOME", "ANDROID_DATA", "LANG", "LANGUAGE", "LC_ALL",
    "LC_CTYPE", "LC_MESSAGES", "PYTHONIOENCODING", "PYTHONUTF8", "LEADCTL_PROFILE",
    "LEADCTL_BASE_URL", "LEADCTL_CONFIG_DIR", "LEADCTL_DATA_DIR", "LEADCTL_CACHE_DIR",
    "LEADCTL_OUTPUT", "LEADCTL_TIMEOUT", "LEADCTL_PAGER",
)  # fmt: skip
KEYED_PREFIXES = ("CLICOLOR", "TYPER_", "_TYPER")
# Any other LEADCTL_ variable may hold a credential (LEADCTL_TOKEN, an operation's secret):
# the key holds its name only, so the file never holds the value.
NAMED_ONLY_PREFIX = "LEADCTL_"


def asks_for_help(args: Sequence[str]) -> bool:
    """Whether ``args`` is a help line the cache answers: words (a group, a verb) ending in
    --help or -h, with at most the selection options before them."""
    if not args or args[-1] not in HELP_FLAGS:
        return False
    index, end = 0, len(args) - 1
    while index < end and args[index].startswith("-"):
        token = args[index]
        if token in SELECTION_OPTIONS:
            if index + 1 >= end or not _is_value(args[index + 1]):
                return False
            index += 2
        elif _joined_selection(token):
            index += 1
        else:
            return False
    return all(_is_word(word) for word in args[index:end])


def _joined_selection(token: str) -> bool:
    for name in ("--profile=", "--base-url="):
        if token.startswith(name):
            return _is_value(token[len(name) :])
    return token.startswith("-p") and not token.startswith("--") and _is_value(token[2:])


def _is_value(value: str) -> bool:
    # A URL with credentials in it ("user:pass@") is refused when a command runs; it is
    # never written to the cache (the key holds the line).
    return bool(value) and not value.startswith("-") and value.isprintable() and "@" not in value


def _is_word(word: str) -> bool:
    return bool(word) and word[0].isalnum() and word.replace("-", "").replace("_", "").isalnum()


def bypassed(env: Mapping[str, str]) -> bool:
    """--debug's variable, the off switch, or a shell completion in progress."""
    if env.get("LEADCTL_DEBUG") or env.get(ENV_SWITCH) == "0":
        return True
    if "@" in env.get("LEADCTL_BASE_URL", ""):
        return True  # credentials in the URL: never written to a file (see _is_value)
    return any(name.endswith("_COMPLETE") for name in env)


def help_key(args: Sequence[str], env: Mapping[str, str], stdout: TextIO | None) -> str | None:
    """The key of this help line's page, or None when it cannot be cached here (no stdout,
    a platform whose dirs only platformdirs knows, an unreadable config)."""
    try:
        return _key(args, env, stdout)
    except (OSError, ValueError, AttributeError):  # no stdout's fd, an unreadable package
        return None


def _key(args: Sequence[str], env: Mapping[str, str], stdout: TextIO | None) -> str | None:
    config_dir, cache_dir = dir_path("config", env), dir_path("cache", env)
    if stdout is None or config_dir is None or cache_dir is None:
        return None
    config_stamp = _stamp(os.path.join(config_dir, CONFIG_FILE))
    if config_stamp is None:
        return None
    terminal = _terminal(env, stdout)
    parts = [
        FORMAT,
        "argv", *args,
        "leadctl", __version__, _package_dir(),
        "python", sys.version, sys.executable,
        "typer", _typer_stamp(),
        "stdout", terminal,
        "config", os.path.abspath(config_dir), config_stamp,
        "contracts", os.path.abspath(cache_dir), *_contract_stamps(cache_dir),
        "env", *_keyed_environment(env),
        "source", *_source_stamps(_package_dir()),
    ]  # fmt: skip
    return "\0".join(parts)


def _stamp(path: str) -> str | None:
    """inode, size and times of ``path`` (any rewrite changes one); "-" when it is absent."""
    try:
        stat = os.stat(path)
    except FileNotFoundError:
        return "-"
    except OSError:
        return None
    return file_stamp(stat)


def _terminal(env: Mapping[str, str], stdout: TextIO) -> str:
    """Whether stdout is a terminal, its width as help is laid out to it (COLUMNS, else the
    terminal's: IOStreams.terminal_width, which app.invoke gives Click) and its encoding."""
    tty = stdout.isatty()
    configured = env.get("COLUMNS", "")
    if configured.isdigit() and int(configured) > 0:
        width = int(configured)
    else:
        try:
            width = os.get_terminal_size(stdout.fileno())[0] or 80
        except (OSError, ValueError):
            width = 80
    return f"tty={tty} width={width} encoding={stdout.encoding}"


def _package_dir() -> str:
    return os.path.dirname(os.path.abspath(str(leadctl.__file__)))


def _typer_stamp() -> str:
    """Where Typer would be imported from, its version line and its stat (a reinstall
    rewrites it), found without importing it."""
    for entry in sys.path:
        path = os.path.join(entry or os.getcwd(), "typer", "__init__.py")
        try:
            with open(path, "rb") as file:
                text = file.read()
        except OSError:
            continue
        version = next((line for line in text.splitlines() if line.startswith(b"__version__")), b"")
        return f"{path} {version.decode('ascii', 'replace')} {_stamp(path)}"
    return "-"


def _contract_stamps(cache_dir: str) -> list[str]:
    """Each stored contract's index and groups file: which generated commands a page lists.
    All of them, not only the active profile's: knowing which is active would mean the
    contract store's imports, and an import is rare."""
    root = os.path.join(cache_dir, CONTRACTS_DIR)
    try:
        keys = sorted(os.listdir(root))
    except OSError:
        return ["-"]
    found = []
    for key in keys:
        found.append(key)
        for name in CONTRACT_STAMPED_FILES:
            found.append(str(_stamp(os.path.join(root, key, name))))
    return found


def _keyed_environment(env: Mapping[str, str]) -> list[str]:
    found = []
    for name, value in env.items():
        if name in KEYED_VARIABLES or name.startswith(KEYED_PREFIXES):
            found.append(f"{name}={value}")
        elif name.startswith(NAMED_ONLY_PREFIX):
            found.append(f"{name} is set")
    return sorted(found)


def _source_stamps(package: str) -> list[str]:
    """Name, mtime and size of every file of the leadctl package (bytecode aside): about
    300 stats, 1-2 ms."""
    found: list[str] = []
    _walk(package, "", found)
    return found


def _walk(directory: str, prefix: str, found: list[str]) -> None:
    with os.scandir(directory) as entries:
        for entry in sorted(entries, key=lambda item: item.name):
            if entry.name == "__pycache__":
                continue
            if entry.is_dir(follow_symlinks=False):
                _walk(entry.path, f"{prefix}{entry.name}/", found)
            else:
                stat = entry.stat()
                found.append(f"{prefix}{entry.name} {stat.st_mtime_ns} {stat.st_size}")


def entry_path(key: str, env: Mapping[str, str]) -> str | None:
    """The file of ``key``: named by the key read as a number, modulo a 61-bit prime (no
    hashing module to import: zlib alone costs a hit 0.5 ms). A clash only overwrites: the
    whole key is in the file and compared."""
    cache_dir = dir_path("cache", env)
    if cache_dir is None:
        return None
    number = int.from_bytes(key.encode("utf-8", "surrogatepass"), "big") % _NAME_PRIME
    return os.path.join(cache_dir, SUBDIR, f"{number:016x}.txt")


_NAME_PRIME = (1 << 61) - 1


def lookup(key: str, env: Mapping[str, str]) -> str | None:
    """The page stored for ``key``; None when there is none or it cannot be read."""
    path = entry_path(key, env)
    if path is None:
        return None
    try:
        with open(path, "rb") as file:
            data = file.read()
        header, key_size, page_size, rest = data.split(b"\n", 3)
        if header.decode("ascii") != FORMAT:
            return None
        stored, page = rest[: int(key_size)], rest[int(key_size) :]
        # Both sizes: a file cut short (written without waiting for the disk, then a
        # crash) is no answer.
        if len(page) != int(page_size) or stored.decode("utf-8", "surrogatepass") != key:
            return None
        return page.decode("utf-8", "surrogatepass")
    except (OSError, ValueError):
        return None


def store(key: str, env: Mapping[str, str], page: str) -> None:
    """Keep ``page`` for ``key``; silently nothing when the cache cannot be written."""
    path = entry_path(key, env)
    if path is None:
        return
    try:
        from pathlib import Path

        from leadctl.config.private_files import ensure_private_dir, write_private_file

        stored = key.encode("utf-8", "surrogatepass")
        text = page.encode("utf-8", "surrogatepass")
        header = b"%s\n%d\n%d\n" % (FORMAT.encode("ascii"), len(stored), len(text))
        ensure_private_dir(Path(path).parent)
        # Not synced (3-7 ms): a file lost or cut short is a miss, never a wrong page.
        write_private_file(Path(path), header + stored + text, durable=False)
        _prune(os.path.dirname(path), keep=os.path.basename(path))
    except Exception:  # an unwritable cache is no cache
        pass


def _prune(directory: str, *, keep: str) -> None:
    """At most MAX_ENTRIES files: the oldest written go first."""
    import contextlib

    with os.scandir(directory) as entries:
        files = [
            (entry.stat().st_mtime_ns, entry.name)
            for entry in entries
            if entry.name.endswith(".txt") and entry.name != keep
        ]
    files.sort()
    for _, name in files[: max(len(files) + 1 - MAX_ENTRIES, 0)]:
        with contextlib.suppress(OSError):
            os.unlink(os.path.join(directory, name))


def answer(page: str, stdout: TextIO) -> None:
    """Write a stored page as a run writes it (IOStreams.system's error handling)."""
    import io

    if isinstance(stdout, io.TextIOWrapper):
        stdout.reconfigure(errors="backslashreplace")
    stdout.write(page)
    stdout.flush()


# The pages the help formatter rendered in this process (cli.helpformat.HelpContext).
RENDERED: list[str] = []


def rendered(page: str) -> None:
    RENDERED.append(page)


class Capture:
    """What this process writes to stdout and stderr while it runs a help line."""

    def __init__(self, stdout: Any, stderr: Any) -> None:
        self.out: list[str] = []
        self.err: list[str] = []
        self._streams = [s for s in (stdout, stderr) if s is not None]
        self.active = self._hook(stdout, self.out) and self._hook(stderr, self.err)

    @staticmethod
    def _hook(stream: Any, into: list[str]) -> bool:
        try:
            write = stream.write

            def recording(text: str) -> int:
                # Written first: Click probes a stream with write(b"") and wants its error.
                written = write(text)
                into.append(text)
                return int(written)

            stream.write = recording
        except AttributeError:  # a stream that takes no attribute: nothing is stored
            return False
        return True

    def stop(self) -> None:
        import contextlib

        for stream in self._streams:
            with contextlib.suppress(AttributeError):
                del stream.write

    def page(self) -> str | None:
        """The one help page the run wrote and nothing else, else None."""
        if not self.active or len(RENDERED) != 1:
            return None
        if not all(isinstance(text, str) for text in (*self.out, *self.err)):
            return None
        if "".join(self.err):
            return None  # a warning a cached answer would not repeat
        written = "".join(self.out)
        return written if written == RENDERED[0] + "\n" else None
