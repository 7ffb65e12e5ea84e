"""``leadctl alias``: words that stand for a leadctl command line, as gh's aliases.

Aliases live in config.toml's ``[aliases]`` table (leadctl/config/aliases.py); the root
expands one only when the first word of a line names no command (leadctl/cli/aliases.py).
"""

from __future__ import annotations

from leadctl.cli.verb_table import Entry, Verb

# The order here is the order of `leadctl alias --help`.
VERBS: tuple[Entry, ...] = (
    Verb("set", "Make NAME stand for a leadctl command line (or, with --shell, a shell script)."),
    Verb("list", "List the aliases."),
    Verb("delete", "Delete alias NAME."),
    Verb("import", "Add the aliases of a YAML file of name: expansion lines (- reads stdin)."),
)
