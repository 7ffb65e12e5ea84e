"""A verb declared once: Options fields drive the Typer command (leadctl.commands._verb), and
body flags are marked on their field (leadctl.commands._body_flags)."""

from __future__ import annotations

import importlib
from dataclasses import dataclass, field, fields
from typing import Annotated, Any

import pytest
import typer
from typer.testing import CliRunner

from leadctl.commands._body_flags import BodyFlag, body_flags, given_body_flags
from leadctl.commands._verb import verb_command
from leadctl.context import Context
from tests.support.run_context import direct_context


@dataclass(frozen=True)
class Options:
    thing: Annotated[str, typer.Argument(metavar="THING", help="The thing.")]
    tags: Annotated[
        tuple[str, ...], typer.Option("--tag", metavar="T", help="A tag."), BodyFlag()
    ] = ()
    note: Annotated[str | None, typer.Option("--note", help="A note."), BodyFlag()] = None
    loud: Annotated[bool, typer.Option("--loud", help="Shout.")] = False


@dataclass(frozen=True)
class Window:
    """Flags several verbs share, declared once."""

    start: Annotated[str | None, typer.Option("--start", help="From.")] = None
    end: Annotated[str | None, typer.Option("--end", help="Until.")] = None


@dataclass(frozen=True)
class Windowed:
    name: Annotated[str, typer.Argument(metavar="NAME", help="The name.")]
    window: Window = field(default_factory=Window)
    quiet: Annotated[bool, typer.Option("--hush", help="Say less.")] = False


def _invoke(args: list[str], options: type[Any] = Options) -> tuple[list[tuple[Any, Context]], Any]:
    seen: list[tuple[Any, Context]] = []

    def run(opts: Any, ctx: Context) -> None:
        seen.append((opts, ctx))

    app = typer.Typer()
    app.command()(verb_command(options, run, help="Frob a thing.\n\nAt length."))
    ctx = direct_context()
    result = CliRunner().invoke(app, args, obj=ctx)
    assert result.exit_code == 0, result.output
    assert all(got is ctx for _opts, got in seen)
    return seen, result


def test_the_command_line_builds_options_and_runs_with_the_leadctl_context() -> None:
    seen, _ = _invoke(["x", "--tag", "a", "--note", "n", "--tag", "b", "--loud"])
    assert [opts for opts, _ctx in seen] == [Options("x", ("a", "b"), "n", loud=True)]


def test_flags_not_given_take_the_fields_defaults_and_a_repeat_is_a_tuple() -> None:
    seen, _ = _invoke(["x"])
    assert [opts for opts, _ctx in seen] == [Options("x")]
    assert seen[0][0].tags == ()


def test_the_help_is_the_given_text_and_the_fields_in_their_order() -> None:
    _, result = _invoke(["--help"])
    text = result.output
    assert "Frob a thing." in text
    assert "At length." in text
    assert text.index("THING") < text.index("--tag") < text.index("--note") < text.index("--loud")


def test_a_dataclass_field_built_by_default_is_a_group_of_flags_of_the_verb() -> None:
    seen, _ = _invoke(["n", "--end", "e", "--hush"], Windowed)
    assert [opts for opts, _ctx in seen] == [Windowed("n", Window(end="e"), quiet=True)]
    seen, _ = _invoke(["n"], Windowed)
    assert [opts for opts, _ctx in seen] == [Windowed("n")]
    _, result = _invoke(["--help"], Windowed)
    text = result.output
    assert text.index("NAME") < text.index("--start") < text.index("--end") < text.index("--hush")


def test_a_body_flag_names_its_field_in_camel_case_unless_told() -> None:
    assert BodyFlag(flag="--follow-up-status").field == "followUpStatus"
    assert BodyFlag(path="allowedStates").field == "allowedStates"


def test_a_switch_given_false_is_named_by_its_negative_form() -> None:
    flag = BodyFlag(flag="--requires-consent-certificate")
    assert flag.as_typed(False) == "--no-requires-consent-certificate"
    assert flag.as_typed(True) == "--requires-consent-certificate"
    assert BodyFlag(flag="--name").as_typed("x") == "--name"


@dataclass(frozen=True)
class Switched:
    consent: Annotated[
        bool | None,
        typer.Option("--requires-consent/--no-requires-consent", help="Consent."),
        BodyFlag(path="requiresConsentCertificate"),
    ] = None


@dataclass(frozen=True)
class Unflagged:
    note: Annotated[str | None, BodyFlag()] = None


def test_a_body_flag_is_the_flag_its_typer_option_declares() -> None:
    # Declared once: the marker takes the option's long flag (a switch's positive form).
    marked = body_flags(Switched)["consent"]
    assert marked.flag == "--requires-consent"
    assert marked.field == "requiresConsentCertificate"
    with pytest.raises(TypeError, match=r"Unflagged\.note"):
        body_flags(Unflagged)


def test_given_body_flags_are_those_set_and_only_marked_fields() -> None:
    assert body_flags(Options) == {"tags": BodyFlag(flag="--tag"), "note": BodyFlag(flag="--note")}
    given = given_body_flags(Options("x", tags=("a",), loud=True))
    assert given == {"tags": (BodyFlag(flag="--tag"), ("a",))}


# Verbs declared through verb_command whose Options mark body flags.
BODY_FLAG_VERBS = (
    "leadctl.commands.status_changes.update",
    "leadctl.commands.sources.update",
    "leadctl.commands.users.compliance",
)


@pytest.mark.parametrize("module_name", BODY_FLAG_VERBS)
def test_each_body_flag_is_a_flag_of_its_verb(module_name: str) -> None:
    # The flag an error names is the one the verb declares (read from its typer.Option).
    module = importlib.import_module(module_name)
    app = typer.Typer(add_completion=False)
    app.command()(module.command)
    command = typer.main.get_command(app)
    declared = {name for param in command.params for name in param.opts}
    marked = body_flags(module.Options)
    assert marked
    assert {flag.flag for flag in marked.values()} <= declared
    assert [field.name for field in fields(module.Options)] == [
        param.name for param in command.params
    ]
