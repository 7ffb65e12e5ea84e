"""Did you mean ...? for mistyped group and verb names, one wording everywhere."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any

from leadctl.cli.generated_tree import generated_tree
from leadctl.contract.store import SANDBOX_KEY
from leadctl.errors import UsageError

# difflib's ratio: 0.6 lets `sorces` find `sources` and `status-change` `status-changes`
# without offering unrelated words.
CUTOFF = 0.6
MAX_SUGGESTIONS = 3


def close_matches(word: str, candidates: Iterable[str]) -> list[str]:
    """The candidates closest to ``word``, best first (a case slip counts as a match)."""
    import difflib  # only when a name was mistyped

    names = list(dict.fromkeys(candidates))
    lowered = word.lower()
    exact_but_case = [name for name in names if name.lower() == lowered]
    found = difflib.get_close_matches(lowered, names, n=MAX_SUGGESTIONS, cutoff=CUTOFF)
    # A prefix typed in full (`notif`) is worth suggesting even when it is short.
    prefixed = [name for name in names if len(lowered) >= 3 and name.startswith(lowered)]
    return list(dict.fromkeys([*exact_but_case, *found, *prefixed]))[:MAX_SUGGESTIONS]


def did_you_mean(
    word: str,
    candidates: Iterable[str],
    *,
    command_path: str,
    spell: Callable[[str], str] | None = None,
) -> str | None:
    """``did you mean `leadctl sources`?`` or None when nothing is close.

    ``spell`` turns a suggested name into what to show, e.g. ``leads`` into ``leads list``
    when the user went on to type a verb of that group.
    """
    matches = [spell(name) if spell else name for name in close_matches(word, candidates)]
    if not matches:
        return None
    spelled = [f"`{command_path} {name}`" for name in matches]
    if len(spelled) == 1:
        return f"did you mean {spelled[0]}?"
    return f"did you mean {', '.join(spelled[:-1])} or {spelled[-1]}?"


def unknown_command(
    word: str,
    candidates: Iterable[str],
    *,
    command_path: str,
    spell: Callable[[str], str] | None = None,
    elsewhere: str | None = None,
) -> UsageError:
    """The usage error for a name that is no command of ``command_path``; ``elsewhere``
    says where more commands could come from, when nothing close was found."""
    hint = did_you_mean(word, candidates, command_path=command_path, spell=spell)
    if hint is None:
        hint = f"run `{command_path} --help` for its commands"
        if elsewhere:
            hint += f"\n{elsewhere}"
    return UsageError(f"unknown command {word!r} for `{command_path}`", hint=hint)


def from_the_active_contract(click_ctx: Any, word: str) -> str:
    """Where commands beyond the listed ones come from, for this invocation's contract."""
    key = generated_tree(click_ctx).active.key
    return from_the_contract(word, bundled=key is None, sandbox=key == SANDBOX_KEY)


def from_the_contract(word: str, *, bundled: bool, sandbox: bool) -> str:
    """Where a command such as ``sources list`` comes from, and how to get it: most verbs
    (lists, reads by id, anything beyond the curated commands) are generated from the
    active contract."""
    if sandbox:
        return (
            f"commands beyond these come from the sandbox's contract, which has no {word!r}: "
            "`leadctl contract show` lists what it has"
        )
    if bundled:
        return (
            "commands beyond these come from the service's contract; the active one is "
            "leadctl's bundled contract: fetch the service's with `leadctl contract pull` "
            "(or `leadctl contract import FILE|URL`)"
        )
    return (
        f"commands beyond these come from the service's contract, whose active copy has no "
        f"{word!r}: `leadctl contract pull` fetches its latest version, `leadctl contract "
        "show` lists what it has"
    )


# Did you mean by intent: a word another CLI (gh, aws, Stripe, HTTPie) uses for what leadctl
# spells otherwise. Its spelling is nowhere near leadctl's, so difflib cannot find it; each
# answer is one line, the leadctl way.
COMMAND_INTENTS: dict[tuple[str, ...], str] = {
    ("config", "get"): "profile show",
    ("config", "set"): "profile set",
    ("config", "list"): "profile show",
    ("config", "unset"): "profile unset",
    ("config",): "profile",
    ("configure",): "profile set",
    ("auth", "switch"): "profile use",
    ("leads", "view"): "leads get",
}
OPTION_INTENTS: dict[str, str] = {
    "--query": "leadctl filters JSON with `--jq EXPR` (jq's language, as gh's --jq)",
    "--template": "leadctl filters JSON with `--jq EXPR`; `--columns a,b` picks fields",
    "--format": "leadctl picks the output format with `-o FMT`",
    "--web": (
        "leadctl opens no browser: it prints what the service answers (`-o json` for all of it)"
    ),
}


# gh's `--json` alone lists the fields; here an unknown field does (before anything is sent).
JSON_WITHOUT_FIELDS = (
    "--json takes the fields to print, as `--json id,state` (`-o json --columns id,state`); "
    "a field the data does not have lists those it has"
)


def command_intent(words: tuple[str, ...]) -> UsageError | None:
    """The one-line answer for ``words`` (a group and the verb after it) when another CLI's
    user typed them for a leadctl command of another name, else None."""
    for typed in dict.fromkeys((words[:2], words[:1])):
        found = COMMAND_INTENTS.get(typed)
        if found is not None:
            return UsageError(f"leadctl has no `{' '.join(typed)}`: use `leadctl {found}`")
    return None


def option_intent(option: str) -> UsageError | None:
    """The one-line answer for an option leadctl does not have but another CLI does."""
    found = OPTION_INTENTS.get(option)
    return UsageError(f"no option {option}: {found}") if found else None
