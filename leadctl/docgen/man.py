"""Man pages: leadctl(1) and one page per group, from the command tree."""

from __future__ import annotations

from leadctl.docgen import reference, roff
from leadctl.docgen.text import paragraphs, split_examples, summary
from leadctl.docgen.tree import ArgumentSpec, CommandSpec, OptionSpec


def page_name(command: CommandSpec) -> str:
    """leadctl for the root, leadctl-GROUP for a group or single command."""
    return "-".join(("leadctl", *command.path))


def page_file(command: CommandSpec) -> str:
    return page_name(command) + ".1"


def _header(command: CommandSpec, date: str, version: str) -> list[str]:
    title = roff.escape(page_name(command).upper())
    return [
        f'.TH {title} 1 {date} "leadctl {roff.escape(version)}" "User Commands"',
        # Ragged right and no hyphenation: option and variable names stay whole.
        ".ad l",
        ".nh",
        ".SH NAME",
        f"{roff.escape(page_name(command))} \\- {roff.escape(summary(command.help))}",
    ]


def _usage(command: CommandSpec, *, fonts: bool = True) -> str:
    """The usage line; without fonts for a subsection heading."""
    bold, italic = (roff.bold, roff.italic) if fonts else (roff.escape, roff.escape)
    parts = [bold(command.full_name)]
    if command.is_group:
        parts += [italic("VERB"), f"[{italic('ARGS')}]"]
    parts.append(f"[{italic('OPTIONS')}]")
    for argument in command.arguments:
        text = italic(argument.value.metavar) + ("..." if argument.variadic else "")
        parts.append(text if argument.required else f"[{text}]")
    return " ".join(parts)


def _help_blocks(text: str) -> list[str]:
    lines: list[str] = []
    for block in paragraphs(text):
        lines += roff.block(block)
    return lines


def _option_items(options: tuple[OptionSpec, ...]) -> list[str]:
    lines: list[str] = []
    for option in options:
        tag = ", ".join(roff.bold(name) for name in option.names)
        if option.secondary_names:
            tag += " / " + ", ".join(roff.bold(name) for name in option.secondary_names)
        if option.value is not None:
            tag += " " + roff.italic(option.value.metavar)
        notes = [option.help or "(no description)"]
        if option.multiple and "repeat" not in option.help.lower():
            notes.append("Repeatable.")
        if option.default is not None:
            notes.append(f"Default: {option.default}.")
        lines += [".TP", tag, *roff.prose(" ".join(notes))]
    return lines


def _argument_items(arguments: tuple[ArgumentSpec, ...]) -> list[str]:
    lines: list[str] = []
    for argument in arguments:
        if argument.help:
            lines += [".TP", roff.italic(argument.value.metavar), *roff.prose(argument.help)]
    return lines


def _examples(lines: list[str]) -> list[str]:
    return [".PP", "Examples:", *roff.preformatted(lines)] if lines else []


def _command_body(command: CommandSpec, common: tuple[OptionSpec, ...] = ()) -> list[str]:
    """Help, arguments, options, epilog and examples of one runnable command; options in
    ``common`` are documented once for the whole page instead."""
    epilog, examples = split_examples(command.epilog)
    lines = _help_blocks(command.help)
    arguments = _argument_items(command.arguments)
    if arguments:
        lines += [".PP", "Arguments:", ".RS 4", *arguments, ".RE"]
    options = tuple(option for option in command.options if option not in common)
    if options:
        lines += [".PP", "Options:", ".RS 4", *_option_items(options), ".RE"]
    lines += _help_blocks(epilog)
    lines += _examples(examples)
    return lines


def _common_options(verbs: tuple[CommandSpec, ...]) -> tuple[OptionSpec, ...]:
    """Options every verb of a group has, the same way (the output options, --help)."""
    if len(verbs) < 2:
        return ()
    return tuple(o for o in verbs[0].options if all(o in verb.options for verb in verbs[1:]))


def render_group_page(command: CommandSpec, *, date: str, version: str) -> str:
    """leadctl-GROUP(1): a group and its verbs, or a single command such as api."""
    lines = _header(command, date, version)
    lines += [".SH SYNOPSIS", _usage(command)]
    if command.is_group:
        common = _common_options(command.commands)
        lines += [".SH DESCRIPTION", *_help_blocks(command.help)]
        lines += [".SH COMMANDS"]
        for verb in command.commands:
            lines += [f'.SS "{_usage(verb, fonts=False)}"', *_command_body(verb, common)]
        if common:
            lines += [
                ".SH COMMON OPTIONS",
                "Every command above accepts these.",
                *_option_items(common),
            ]
    else:
        lines += [".SH DESCRIPTION", *_command_body(command)]
    lines += [".SH SEE ALSO", ".BR leadctl (1)"]
    return roff.tidy(lines)


def render_root_page(tree: CommandSpec, *, date: str, version: str) -> str:
    """leadctl(1): global options, groups, environment, files, exit status, examples."""
    lines = _header(tree, date, version)
    lines += [
        ".SH SYNOPSIS",
        f"{roff.bold('leadctl')} [{roff.italic('GLOBAL OPTIONS')}] {roff.italic('GROUP')} "
        f"{roff.italic('VERB')} [{roff.italic('ARGS')}] [{roff.italic('OPTIONS')}]",
        ".SH DESCRIPTION",
        *_help_blocks(tree.help),
        ".PP",
        *roff.prose(
            "Global options are accepted anywhere on the line: before GROUP, or after the "
            "verb where people append them (leadctl leads list -p prod). An option of the "
            "verb itself with the same name stays the verb's, and nothing after -- is read "
            "as a global option. leadctl or leadctl GROUP alone prints the help; a mistyped "
            "group or verb gets a suggestion. On a terminal, an ID left out of a verb whose "
            "collection the active contract can list is offered in a picker; without a "
            "terminal (or with --no-input) it stays a usage error."
        ),
        ".SH OPTIONS",
        *_option_items(tree.options),
        ".SH COMMANDS",
    ]
    for group in tree.commands:
        lines += [
            ".TP",
            roff.bold(group.full_name),
            *roff.prose(summary(group.help) + "."),
            f"See {roff.bold(page_name(group))}(1).",
        ]
    lines.append(".SH ENVIRONMENT")
    for name, text in reference.ENVIRONMENT:
        lines += [".TP", roff.bold(name), *roff.prose(text)]
    lines.append(".SH FILES")
    for path, text in reference.FILES:
        lines += [".TP", roff.italic(path), *roff.prose(text)]
    lines.append(".SH EXIT STATUS")
    for code, text in reference.EXIT_CODES.items():
        lines += [".TP", roff.bold(str(int(code))), *roff.prose(text)]
    lines.append(".SH EXAMPLES")
    for text, commands in reference.EXAMPLES:
        lines += [".PP", *roff.prose(text), *roff.preformatted(list(commands))]
    lines.append(".SH SEE ALSO")
    see_also = [f".BR {roff.escape(page_name(group))} (1)" for group in tree.commands]
    lines += [entry + "," for entry in see_also[:-1]] + see_also[-1:]
    return roff.tidy(lines)


def render_man_pages(tree: CommandSpec, *, date: str, version: str) -> dict[str, str]:
    """File name -> page, for leadctl(1) and every group."""
    pages = {page_file(tree): render_root_page(tree, date=date, version=version)}
    for group in tree.commands:
        pages[page_file(group)] = render_group_page(group, date=date, version=version)
    return pages
