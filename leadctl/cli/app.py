"""The root command: global options, lazy groups, and the one place errors become exit codes."""

# No `from __future__ import annotations` here: Typer reads the root callback's parameters
# on every invocation, and string annotations cost it an eval() each (about 2 ms a run).
import importlib
import os
import sys
from collections.abc import Mapping, Sequence
from enum import Enum
from typing import TYPE_CHECKING, Annotated, Any

import typer

from leadctl import __version__
from leadctl.cli.groups import GROUPS
from leadctl.cli.helpformat import HelpContext, use_leadctl_help
from leadctl.cli.persistent_flags import (
    attach,
    flag_on_the_line,
    given_on_the_line,
    persistent_copies,
)
from leadctl.cli.verb_group import StdoutClosed, VerbGroup
from leadctl.clock import Clock
from leadctl.config.dirs import ALIASES_TABLE, config_mentions
from leadctl.config.request_limits import DEFAULT_MAX_RETRIES
from leadctl.errors import DryRunDone, ExitCode, LeadctlError, UsageError
from leadctl.formats import OUTPUT_FORMATS
from leadctl.iostreams import IOStreams

if TYPE_CHECKING:
    from leadctl.cli.generated_tree import GeneratedTree
    from leadctl.cli.verb_table import Entry
    from leadctl.context import Context

    class OutputFormat(str, Enum):
        """-o's choices, one member a format name (built below from OUTPUT_FORMATS)."""

else:
    # The choices of -o are the format names of leadctl.formats, written once there.
    OutputFormat = Enum("OutputFormat", [(name, name) for name in OUTPUT_FORMATS], type=str)


class _Bootstrap:
    """What the root callback needs to build the Context, and where it leaves it."""

    def __init__(
        self,
        ios: IOStreams,
        env: Mapping[str, str],
        transport: Any = None,
        clock: Clock | None = None,
    ) -> None:
        self.ios = ios
        self.env = env
        self.transport = transport
        self.clock = clock
        self.context: Context | None = None
        # -p as typed, known before the Context exists (a mistyped verb fails before it).
        self.typed_profile: str | None = None


MIN_HELP_WIDTH = 50


def _resume_collection() -> None:
    """Turn the cyclic garbage collector back on for a command that runs (``__main__``
    keeps it off during start-up); what start-up built is frozen, never scanned again."""
    import gc

    if not gc.isenabled():
        gc.freeze()
        gc.enable()


OUTPUT_HELP = "Output format: " + ", ".join(OUTPUT_FORMATS) + "."
COLUMNS_HELP = (
    "Fields to print, comma-separated dot paths (status.name, tags[].name), for every "
    "format: the columns of table/csv/tsv/value, the keys of each JSON/NDJSON object (as "
    "gh's --json). An unknown field is exit 2 naming the known ones, before anything is sent."
)
# gh's reflex, accepted as gh has it; hidden: leadctl's own spelling is the one taught.
JSON_HELP = "-o json --columns FIELDS, as gh's --json."
QUIET_HELP = "No informational messages on stderr."
JQ_HELP = (
    "Filter the JSON output with a jq expression (strings print raw, other values as "
    "JSON, one per line). A list is one array (--jq '.[].id'); with --all or -o ndjson "
    "the expression runs on each item (--jq .id), as with api --paginate."
)
UTC_HELP = "Show times in UTC (default: the profile's timezone, else the system's)."
ALLOW_FORMULAS_HELP = (
    "csv/tsv: write cells that begin with = + - @ (or a tab or CR) as they are. By default "
    "such a cell gets a leading ' so a spreadsheet shows it as text instead of running it "
    "(lead names come from web forms: anyone can type a formula); leads import removes it."
)


# The global options each verb shows in its own help (the rest are hidden there).
SHOWN_ON_VERBS = {"output": OUTPUT_HELP, "columns": COLUMNS_HELP, "quiet": QUIET_HELP}


class Copies:
    """The root's options as groups (all hidden) and verbs (-o/--columns/-q shown) carry
    them; see leadctl.cli.persistent_flags."""

    def __init__(self, root_params: list[Any]) -> None:
        self.on_verbs = persistent_copies(root_params, SHOWN_ON_VERBS, _apply)
        self.on_groups = persistent_copies(root_params, {}, _apply)


def _prepare_loaded_command(command: Any, copies: Copies) -> None:
    """Plain help (rich loads only when a command draws a table) and the global options."""
    command.rich_markup_mode = None
    use_leadctl_help(command)
    # Completion is `leadctl completion SHELL`, not an option on every command.
    command.params = [
        p for p in command.params if p.name not in ("install_completion", "show_completion")
    ]
    attach(command, copies.on_verbs)


class LazyGroup(VerbGroup):
    """The root: loads a group's module only when that group is invoked."""

    context_class = HelpContext
    _persistent_copies: Copies | None = None  # made from the root's options on first use

    def _copies(self) -> Copies:
        if self._persistent_copies is None:
            self._persistent_copies = Copies(self.params)
        return self._persistent_copies

    def _prepare_generated(self, command: Any) -> None:
        _prepare_loaded_command(command, self._copies())

    # Click asks the group for its commands by name; these two load a group on first use.
    def list_commands(self, ctx: Any) -> list[str]:
        from leadctl.cli.generated_tree import generated_tree

        return [*GROUPS, *generated_tree(ctx).new_groups(GROUPS)]

    def get_command(self, ctx: Any, cmd_name: str) -> Any:
        from leadctl.cli.generated_tree import generated_tree

        tree = generated_tree(ctx)
        cmd_name = tree.canonical(cmd_name)
        entry = GROUPS.get(cmd_name)
        if entry is None:
            # Generated verbs get the global options when they are built.
            group = tree.group_command(cmd_name, self._prepare_generated)
            if group is not None:
                use_leadctl_help(group)
                attach(group, self._copies().on_groups)
            return group
        module = importlib.import_module(entry[0])
        verbs = getattr(module, "VERBS", None)
        if verbs is None:  # a single command (api, batch, ...): the module's one-command app
            command = typer.main.get_command(module.app)
            command.name = cmd_name
            _prepare_loaded_command(command, self._copies())
            return command
        return self._curated_group(tree, cmd_name, verbs)

    def _curated_group(self, tree: "GeneratedTree", name: str, verbs: "Sequence[Entry]") -> Any:
        """The group ``name`` of the declared ``verbs``, then the active contract's verbs it
        lacks; each verb is built (its module imported) when it is looked up."""
        from leadctl.cli.verb_table import verb_group  # a group is used: --help needs none

        copies = self._copies()

        def prepare_verb(command: Any, words: tuple[str, ...]) -> None:
            _prepare_loaded_command(command, copies)
            if len(words) == 2:  # the contract knows a group's own verbs, not a sub-group's
                tree.prepare_curated(command, words[0], words[1])

        def prepare_group(group: Any) -> None:
            use_leadctl_help(group)
            attach(group, copies.on_groups)

        module, summary = GROUPS[name]
        group = verb_group((name,), summary, verbs, prepare_verb, prepare_group, package=module)
        tree.add_verbs(group, name, self._prepare_generated)
        return group

    def resolve_command(self, ctx: Any, args: list[str]) -> Any:
        return self._resolve(ctx, args, aliases=True)

    def _resolve(self, ctx: Any, args: list[str], *, aliases: bool) -> Any:
        # The profile and base URL named anywhere on the line pick the contract whose
        # generated commands exist, before Click has parsed the verb's options. (startup
        # reads the settings: `import leadctl.cli.app` alone must not.)
        from leadctl.generated.startup import LINE_PARAMS, LINE_PARAMS_NAMES

        line = {
            p.name: given_on_the_line(args, p) for p in self.params if p.name in LINE_PARAMS_NAMES
        }
        ctx.meta[LINE_PARAMS] = line
        if isinstance(ctx.obj, _Bootstrap):
            ctx.obj.typed_profile = line.get("profile") or ctx.params.get("profile") or None
        # A mistyped group or verb gets "did you mean" in cli.md's words (Typer's own
        # suggestion sees only loaded commands and words it differently); the verb is checked
        # here too, so both levels (curated and generated groups alike) say it the same way.
        name = args[0]
        if name.startswith("-"):
            return super().resolve_command(ctx, args)
        command = self.get_command(ctx, name)
        if command is None and aliases:  # a command always wins over an alias
            expanded = self._alias(ctx, name, args[1:])
            if expanded is not None:
                return expanded
        if ctx.resilient_parsing:
            return super().resolve_command(ctx, args)
        verb = args[1] if len(args) > 1 else None
        if command is None:
            from leadctl.cli.suggest import (
                command_intent,
                from_the_active_contract,
                unknown_command,
            )

            words = (name, verb) if verb and not verb.startswith("-") else (name,)
            raise command_intent(words) or unknown_command(
                name,
                self.list_commands(ctx),
                command_path="leadctl",
                spell=lambda group: self._with_verb(ctx, group, verb),
                elsewhere=from_the_active_contract(ctx, name),
            )
        if hasattr(command, "list_commands") and verb and not verb.startswith("-"):
            sub_ctx = typer.Context(command, parent=ctx, info_name=name)
            if command.get_command(sub_ctx, verb) is None:
                from leadctl.cli.suggest import (
                    command_intent,
                    from_the_active_contract,
                    unknown_command,
                )

                raise command_intent((name, verb)) or unknown_command(
                    verb,
                    command.list_commands(sub_ctx),
                    command_path=f"leadctl {name}",
                    elsewhere=from_the_active_contract(ctx, verb),
                )
        return name, command, args[1:]

    def _alias(self, ctx: Any, name: str, rest: list[str]) -> Any:
        """The command an alias stands for and its arguments, or None when ``name`` is no
        alias (config.toml is read only now: the first word named no command)."""
        from leadctl.cli.aliases import find_alias, shell_alias_command

        env = getattr(ctx.obj, "env", None) or os.environ
        try:
            alias = find_alias(env, name)
            if alias is None:
                return None
            if alias.shell:
                return name, shell_alias_command(alias), rest
            from leadctl.config.aliases import expand  # loaded by find_alias already

            line = expand(alias, rest)
        except LeadctlError:
            if ctx.resilient_parsing:  # completing: no alias rather than an error
                return None
            raise
        word = line[0] if line else ""
        if not word or self.get_command(ctx, word) is None:  # a hand-edited config
            if ctx.resilient_parsing:
                return None
            raise UsageError(
                f"alias {name} expands to {word!r}, which is not a leadctl command",
                hint=f"change it: leadctl alias set --clobber {name} 'EXPANSION'",
            )
        return self._resolve(ctx, line, aliases=False)  # an alias never expands to one

    def _with_verb(self, ctx: Any, group: str, verb: str | None) -> str:
        """``leads list`` for `lead list`: the suggested group with the verb typed after it,
        when that group has it."""
        if not verb or verb.startswith("-"):
            return group
        command = self.get_command(ctx, group)
        if not hasattr(command, "list_commands"):
            return group
        sub_ctx = typer.Context(command, parent=ctx, info_name=group)
        return f"{group} {verb}" if command.get_command(sub_ctx, verb) is not None else group

    def format_commands(self, ctx: Any, formatter: Any) -> None:
        # Click would load every group to read its one-line help; groups.py has them.
        rows = [(name, short_help) for name, (_module, short_help) in GROUPS.items()]
        with formatter.section("Commands"):
            formatter.write_dl(rows)

        from leadctl.generated.startup import write_help_sections

        write_help_sections(ctx, formatter)

        # The dirs are loaded (startup reads them); the aliases' module only for a config
        # that has some.

        env = getattr(ctx.find_root().obj, "env", None) or os.environ
        if not config_mentions(env, ALIASES_TABLE):
            return
        from leadctl.cli.aliases import help_rows

        aliases = help_rows(env)
        if aliases:
            with formatter.section("Aliases (leadctl alias list)"):
                formatter.write_dl(aliases)


root = typer.Typer(
    cls=LazyGroup,
    name="leadctl",
    help="Operate the Lead Management Service from the command line.",
    epilog="Run `leadctl GROUP --help` for a group's commands. Topics: `leadctl help "
    "environment`, `exit-codes`, `formatting`, `retries`.",
    rich_markup_mode=None,
    pretty_exceptions_enable=False,
    add_completion=False,
    context_settings={"help_option_names": ["-h", "--help"]},
)


def _print_version(typer_ctx: typer.Context, value: bool) -> None:
    if value:
        bootstrap = typer_ctx.obj
        out = bootstrap.ios.stdout if isinstance(bootstrap, _Bootstrap) else sys.stdout
        out.write(f"leadctl {__version__}\n")
        raise typer.Exit()


@root.callback(invoke_without_command=True)
def main_callback(
    typer_ctx: typer.Context,
    profile: Annotated[
        str | None,
        typer.Option(
            "-p",
            "--profile",
            metavar="NAME",
            help="Profile to use [env: LEADCTL_PROFILE].",
            # Eager, so `leadctl -p NAME --help` lists that profile's generated commands.
            is_eager=True,
        ),
    ] = None,
    base_url: Annotated[
        str | None,
        typer.Option("--base-url", metavar="URL", help="Service base URL [env: LEADCTL_BASE_URL]."),
    ] = None,
    output: Annotated[
        OutputFormat | None,
        typer.Option("-o", "--output", metavar="FMT", help=OUTPUT_HELP + " [env: LEADCTL_OUTPUT]"),
    ] = None,
    columns: Annotated[
        str | None, typer.Option("--columns", metavar="a,b.c", help=COLUMNS_HELP)
    ] = None,
    jq: Annotated[str | None, typer.Option("--jq", metavar="EXPR", help=JQ_HELP)] = None,
    json_fields: Annotated[
        str | None, typer.Option("--json", metavar="FIELDS", hidden=True, help=JSON_HELP)
    ] = None,
    utc: Annotated[bool, typer.Option("--utc", help=UTC_HELP)] = False,
    allow_formulas: Annotated[
        bool, typer.Option("--allow-formulas", help=ALLOW_FORMULAS_HELP)
    ] = False,
    quiet: Annotated[bool, typer.Option("-q", "--quiet", help=QUIET_HELP)] = False,
    no_color: Annotated[bool, typer.Option("--no-color", help="No color.")] = False,
    no_input: Annotated[bool, typer.Option("--no-input", help="Never prompt.")] = False,
    no_pager: Annotated[
        bool,
        typer.Option(
            "--no-pager", help="Write long tables straight to the terminal, not through a pager."
        ),
    ] = False,
    debug: Annotated[
        bool,
        typer.Option(
            "--debug",
            help="HTTP trace and tracebacks on stderr, credentials redacted "
            "[env: LEADCTL_DEBUG=1].",
        ),
    ] = False,
    timeout: Annotated[
        float | None,
        typer.Option(
            "--timeout",
            metavar="SECONDS",
            min=0.001,
            help="Per-request timeout in seconds, default 30 [env: LEADCTL_TIMEOUT].",
        ),
    ] = None,
    max_retries: Annotated[
        int,
        typer.Option(
            "--max-retries", min=0, metavar="N", help="Retries for retry-safe operations."
        ),
    ] = DEFAULT_MAX_RETRIES,
    dry_run: Annotated[
        bool,
        typer.Option("--dry-run", help="Print the request as a curl command; send nothing."),
    ] = False,
    allow_insecure_http: Annotated[
        bool,
        typer.Option(
            "--allow-insecure-http", help="Permit a plain http:// base URL that is not loopback."
        ),
    ] = False,
    version: Annotated[
        bool,
        typer.Option(
            "--version", is_eager=True, callback=_print_version, help="Print the version."
        ),
    ] = False,
) -> None:
    """Operate the Lead Management Service from the command line."""
    _resume_collection()
    bootstrap = typer_ctx.obj
    if not isinstance(bootstrap, _Bootstrap):
        bootstrap = _Bootstrap(ios=IOStreams.system(), env=os.environ)
    from leadctl.cli.invocation import start  # a command runs: --help never gets here

    context = start(
        typer_ctx.params,
        ios=bootstrap.ios,
        env=bootstrap.env,
        transport=bootstrap.transport,
        clock=bootstrap.clock,
    )
    bootstrap.context = context
    typer_ctx.obj = context


def _apply(root_ctx: Any) -> None:
    """A global option given after a group or verb name: the options are read again, with
    the same checks (persistent_flags). Nothing reads the settings before the verb runs."""
    context = root_ctx.obj
    if context is not None and not isinstance(context, _Bootstrap):
        from leadctl.cli.invocation import reapply  # the Context exists: it is loaded

        reapply(context, root_ctx.params)


def _quiet_broken_pipe(ios: IOStreams) -> None:
    """Point stdout at /dev/null so the interpreter's final flush cannot fail noisily."""
    if ios.stdout is sys.stdout:
        try:
            devnull = os.open(os.devnull, os.O_WRONLY)
            os.dup2(devnull, sys.stdout.fileno())
        except (OSError, ValueError):
            pass


def _after_dry_run(bootstrap: _Bootstrap) -> None:
    context = bootstrap.context
    if context is not None and context.options.dry_run and context.sandbox_started:
        from leadctl.cli.hints import EMBEDDED_DRY_RUN

        bootstrap.ios.info(EMBEDDED_DRY_RUN)


def invoke(
    argv: Sequence[str] | None = None,
    *,
    ios: IOStreams | None = None,
    env: Mapping[str, str] | None = None,
    transport: Any = None,
    clock: Clock | None = None,
) -> int:
    """Run leadctl with ``argv`` and return the exit code; never raises (but SystemExit)."""
    bootstrap = _Bootstrap(
        ios=ios or IOStreams.system(env=env),
        env=os.environ if env is None else env,
        transport=transport,
        clock=clock,
    )
    args = list(sys.argv[1:] if argv is None else argv)
    command = typer.main.get_command(root)
    # Help fills the terminal (COLUMNS, else its real width), like the tables do.
    help_width = max(bootstrap.ios.terminal_width() - 2, MIN_HELP_WIDTH)
    try:
        if bootstrap.ios.stdout_closed:
            raise UsageError(
                "stdout is closed (started with >&-): leadctl writes its output there",
                hint="to discard the output, redirect it instead: >/dev/null",
            )
        result = command.main(
            args=args,
            prog_name="leadctl",
            standalone_mode=False,
            obj=bootstrap,
            terminal_width=help_width,
            max_content_width=help_width,
        )
        _after_dry_run(bootstrap)
        return result if isinstance(result, int) else 0
    except DryRunDone:
        _after_dry_run(bootstrap)
        return int(ExitCode.OK)
    except StdoutClosed:
        _quiet_broken_pipe(bootstrap.ios)
        return int(ExitCode.OK)
    except (KeyboardInterrupt, typer.Abort):
        bootstrap.ios.stderr.write("interrupted\n")
        return int(ExitCode.INTERRUPTED)
    except BrokenPipeError:
        _quiet_broken_pipe(bootstrap.ios)
        return int(ExitCode.OK)
    except Exception as error:  # a LeadctlError, Click's own errors, or a bug
        from leadctl.cli import failures  # loaded only when a command fails

        return failures.exit_code_of(
            error,
            failures.Invocation(
                ios=bootstrap.ios,
                env=bootstrap.env,
                context=bootstrap.context,
                typed_profile=bootstrap.typed_profile,
                debug_on_line=_debug_on_line(command, args),
            ),
            # An argument Click found missing, picked on the terminal: the line runs again
            # with it as the missing (last) argument.
            rerun=lambda picked: invoke(
                [*args, *([picked] if "--" in args else ["--", picked])],
                ios=bootstrap.ios,
                env=bootstrap.env,
                transport=transport,
                clock=clock,
            ),
        )
    finally:
        if bootstrap.context is not None:
            bootstrap.context.close()


def _debug_on_line(command: Any, args: Sequence[str]) -> bool:
    """--debug typed anywhere on the line, for a failure before the root callback read it."""
    return any(p.name == "debug" and flag_on_the_line(args, p) for p in command.params)


def run() -> None:
    sys.exit(invoke())
