"""Values completed from the service when TAB is pressed: `leadctl __complete-values`.

The completion scripts stay static; for an argument that names a listed resource (a lead's
id after `leads get`, a source after `sources update`) they run

    leadctl __complete-values [--columns] [--profile NAME] CMDPATH WORD... CURRENT

and offer what it prints, one ``value<TAB>description`` a line. With ``--columns`` CURRENT
is a ``--columns`` value being typed (``name,em``), completed from the field paths of the
verb's response schema, read from the active contract without a request. Which arguments are such
is the id picker's rule (``cli/picker.plan``: a path parameter whose collection the active
contract can list), so the two never disagree. It must never hang or soil a shell:

- at most one request (the list's first page), with a 1 s timeout and no retry; a watchdog
  ends the process ``REQUEST_DEADLINE`` after the request starts, and ``DEADLINE_SECONDS``
  after the process started whatever it is doing (a keyring that does not answer);
- no request when the command is not one that lists or the profile has no credential;
- answers cached per profile for ``CACHE_SECONDS`` (``completion_cache``), so the next TAB
  costs a Python start and a file read;
- nothing on stdout or stderr on any failure: no completion rather than an error;
- candidates never carry a field that ``util/secret_fields`` calls a secret.

`__main__` answers this before Typer is imported, as it does `--version`.
"""

from __future__ import annotations

import os
import sys
import threading
from collections.abc import Mapping, Sequence
from typing import Any

from leadctl.cli import completion_cache
from leadctl.cli.invocation import global_options
from leadctl.context import Context
from leadctl.iostreams import IOStreams
from leadctl.util.secret_fields import name_is_secret

COMMAND = "__complete-values"
# The one request's own limit, and the watchdog's once it is sent (httpx's timeout is per
# phase: connect, then read). The whole process's is longer: a cold start on a loaded
# machine takes most of a second before anything is sent.
REQUEST_TIMEOUT = 1.0
REQUEST_DEADLINE = 1.2
DEADLINE_SECONDS = 2.0
MAX_CANDIDATES = 50

Candidate = tuple[str, str]  # value, description


def main(argv: Sequence[str], env: Mapping[str, str] | None = None) -> None:
    """Print the candidates for ``argv`` (the words after ``__complete-values``) and end
    the process: nothing else of leadctl runs in it."""
    exit_after(DEADLINE_SECONDS)
    try:
        found = candidates(argv, os.environ if env is None else env)
        text = "".join(
            f"{value}\t{description}".rstrip("\t") + "\n" for value, description in found
        )
        sys.stdout.write(text)
        sys.stdout.flush()
    except BaseException:  # a shell gets no completion, never a traceback
        pass
    os._exit(0)


def exit_after(seconds: float) -> None:
    """End the process, quietly and with 0, ``seconds`` from now."""
    watchdog = threading.Timer(seconds, os._exit, args=(0,))
    watchdog.daemon = True
    watchdog.start()


def parse(argv: Sequence[str]) -> tuple[str | None, str, str, int, str] | None:
    """(profile, group, verb, position, current word) from the script's words."""
    words = list(argv)
    if words[:1] == ["--columns"]:
        words = words[1:]
    profile = None
    if len(words) >= 2 and words[0] == "--profile":
        profile, words = words[1] or None, words[2:]
    if len(words) < 2:
        return None
    path, arguments = words[0].split(), words[1:]
    if len(path) == 1 and len(arguments) >= 2:
        # A verb the static script does not know (generated from the contract): the script
        # counted it as the group's first argument.
        path, arguments = [path[0], arguments[0]], arguments[1:]
    if len(path) != 2:
        return None
    return profile, path[0], path[1], len(arguments) - 1, arguments[-1]


def candidates(argv: Sequence[str], env: Mapping[str, str]) -> list[Candidate]:
    parsed = parse(argv)
    if parsed is None:
        return []
    profile, group, verb, position, current = parsed
    context = completion_context(profile, env)
    if argv[:1] == ["--columns"]:
        found = column_paths(context, group, verb, current)
    else:
        found = listed_values(context, group, verb, position)
    return [c for c in found if c[0].startswith(current)][:MAX_CANDIDATES]


def completion_context(profile: str | None, env: Mapping[str, str]) -> Context:

    options = global_options({"profile": profile}, env).replaced(
        timeout=REQUEST_TIMEOUT, max_retries=0, no_input=True, quiet=True
    )
    devnull = open(os.devnull, "r+", encoding="utf-8")  # noqa: SIM115 - lives as the process
    ios = IOStreams(
        stdin=devnull,
        stdout=devnull,
        stderr=devnull,
        stdin_is_tty=False,
        stdout_is_tty=False,
        stderr_is_tty=False,
        env=env,
        no_input=True,
        quiet=True,
    )
    return Context(ios=ios, options=options, env=env)


def listed_values(context: Context, group: str, verb: str, position: int) -> list[Candidate]:
    """The values of ``group verb``'s argument at ``position``: from the cache while it is
    fresh, else from one read of the list (which then fills the cache)."""
    # Looked up before the contract is read: a warm TAB loads neither it nor Typer.
    cache = completion_cache.CompletionCache(context)
    key = completion_cache.argument_key(group, verb, position)
    cached = cache.get(key)
    if cached is not None:
        return cached

    from leadctl.cli import picker
    from leadctl.contract.catalogue import OperationCatalogue

    tree = OperationCatalogue(context.active_index)
    found = picker.plan(tree, group, verb, position) or picker.named_plan(
        tree, group, verb, position
    )
    if found is None:
        return []  # not an argument a list names: no request
    if context.credential() is None:
        return []
    exit_after(REQUEST_DEADLINE)
    items = picker.first_page(context, found.list_op)
    values = candidates_of(items, found.field)
    cache.put(key, values)
    return values


def column_paths(context: Context, group: str, verb: str, current: str) -> list[Candidate]:
    """``--columns`` values: what was typed up to its last comma, then each field path of
    the verb's response schema that is not a secret (``util/secret_fields``)."""
    from leadctl.cli import picker
    from leadctl.contract.catalogue import OperationCatalogue
    from leadctl.output.response_columns import response_fields

    op = picker.operation_of(OperationCatalogue(context.active_index), group, verb)
    if op is None:
        return []
    fields = response_fields(context, op)
    if fields is None:
        return []
    typed, _, _ = current.rpartition(",")
    head = typed + "," if typed else ""
    given = set(typed.split(","))
    paths = [p for p in fields.listed() if p not in given]
    secret = [p for p in paths if any(name_is_secret(step) for step in _steps(p))]
    return [(head + p, "") for p in paths if p not in secret and typable(p)]


def _steps(path: str) -> list[str]:
    return [step for step in path.replace("[]", "").split(".") if step]


def candidates_of(items: Sequence[Mapping[str, Any]], wanted: str) -> list[Candidate]:
    """Each item's value and description, secrets left out (the value's own field too)."""
    from leadctl.cli import picker

    field = picker.value_field(items, wanted)
    if field is None or name_is_secret(field):
        return []
    found = []
    for item in items:
        raw = str(item[field])
        if not typable(raw):
            continue
        value, description = one_word(raw), picker.description(item)
        found.append((value, "" if description == value else description))
    return found


def typable(value: str) -> bool:
    """Whether a value from outside may go onto a command line as it is: one that holds a
    control, escape, bidirectional or zero-width character would act on the terminal when
    listed, and shown escaped it would be another value (descriptions are shown escaped)."""
    return value.isprintable()


def one_word(text: str) -> str:
    # Leading, trailing and repeated spaces as single ones, as before; a value with a tab
    # or a line break (which would split it into two candidates) is not offered: typable.
    return " ".join(text.split())
