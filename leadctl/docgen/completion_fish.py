"""The fish completion script (fish 3.1 or later)."""

from __future__ import annotations

from leadctl.docgen.completion_tables import HEADER, Arm, Table, fill, wrap_alternatives

INDENT = "    "

WALK = r"""
# Prints the lines sed script $1 prints of config.toml (none without the file).
function __leadctl_config --argument-names script
    set -l dir $LEADCTL_CONFIG_DIR
    if test -z "$dir"
        if test (uname) = Darwin
            set dir "$HOME/Library/Application Support/leadctl"
        else if test -n "$XDG_CONFIG_HOME"
            set dir "$XDG_CONFIG_HOME/leadctl"
        else
            set dir "$HOME/.config/leadctl"
        end
    end
    set dir (string replace -r '^~/' "$HOME/" -- $dir)
    test -r "$dir/config.toml"; and sed -n $script "$dir/config.toml"
end

function __leadctl_profiles
    __leadctl_config '__PROFILE_SED__'
    printf '%s\n' __BUILTIN_PROFILES__
end

# Prints what the service lists for the argument under the cursor, VALUE<TAB>DESCRIPTION
# (leadctl __complete-values: one request at most, cached a minute; nothing on failure).
function __leadctl_remote --argument-names profile cmdpath
    if test -n "$profile"
        command leadctl __complete-values --profile $profile $argv[2..-1] 2>/dev/null
    else
        command leadctl __complete-values $argv[2..-1] 2>/dev/null
    end
end

# Prints the --columns values leadctl __complete-values offers (the response's field paths,
# no request), each after $1.
function __leadctl_columns --argument-names prefix profile
    set -l profile_flag
    test -n "$profile"; and set profile_flag --profile $profile
    for line in (command leadctl __complete-values --columns $profile_flag $argv[3..-1] 2>/dev/null)
        echo $prefix$line
    end
end

# Prints the candidates of value spec $1 for the token $2, each after $3.
function __leadctl_values --argument-names spec cur prefix
    switch $spec
        case 'words *'
            for word in (string split ' ' -- (string replace 'words ' '' -- $spec))
                echo $prefix$word
            end
        case profile
            for word in (__leadctl_profiles)
                echo $prefix$word
            end
        case file
            for word in (__fish_complete_path $cur)
                echo $prefix$word
            end
        case directory
            for word in (__fish_complete_directories $cur)
                echo $prefix$word
            end
    end
end

function __leadctl_complete
    set -l words (commandline -opc)
    set -l cur (commandline -ct)
    set -l cmdpath ''
    set -l args 0
    set -l expect ''
    set -l positional_only 0
    set -l profile ''
    set -l last ''
    set -l positionals
    for word in $words[2..-1]
        if test -n "$expect"
            contains -- $last -p --profile; and set profile $word
            set expect ''
            continue
        end
        if test $positional_only = 0
            switch $word
                case --
                    set positional_only 1
                    continue
                case '--profile=*'
                    set profile (string replace -- --profile= '' $word)
                    continue
                case '--*=*'
                    continue
                case -
                case '-*'
                    set last $word
                    set expect (__leadctl_option_value "$cmdpath|$word")
                    continue
            end
        end
        set -l names (__leadctl_commands $cmdpath | string replace -r '\t.*' '')
        if test $args = 0; and contains -- $word $names
            if test -z "$cmdpath"
                set cmdpath $word
            else
                set cmdpath "$cmdpath $word"
            end
        else
            set args (math $args + 1)
            set -a positionals $word
        end
    end
    if test "$expect" = columns
        __leadctl_columns '' "$profile" "$cmdpath" $positionals "$cur"
        return
    else if test -n "$expect"
        __leadctl_values $expect $cur ''
        return
    end
    if test $positional_only = 0
        switch $cur
            case '--*=*'
                set -l parts (string split -m 1 = -- $cur)
                set -l spec (__leadctl_option_value "$cmdpath|$parts[1]")
                if test "$spec" = columns
                    __leadctl_columns "$parts[1]=" "$profile" "$cmdpath" $positionals "$parts[2]"
                else if test -n "$spec"
                    __leadctl_values $spec $parts[2] "$parts[1]="
                end
                return
            case '-*'
                __leadctl_options $cmdpath
                return
        end
    end
    set -l commands (__leadctl_commands $cmdpath)
    if test (count $commands) -gt 0
        if test $args -gt 0
            # A verb this script does not know: generated from the active contract.
            __leadctl_remote "$profile" "$cmdpath" $positionals "$cur"
            return
        end
        printf '%s\n' $commands
        # leadctl's first word: an alias too
        test -z "$cmdpath"; and __leadctl_config '__ALIAS_SED__'
        return
    end
    set -l spec (__leadctl_argument_value "$cmdpath|$args")
    if test "$spec" = remote
        __leadctl_remote "$profile" "$cmdpath" $positionals "$cur"
    else if test -n "$spec"
        __leadctl_values $spec $cur ''
    end
end

complete -c leadctl -e
complete -c leadctl -f -a '(__leadctl_complete)'
"""


def fish_quote(text: str) -> str:
    return "'" + text.replace("\\", "\\\\").replace("'", "\\'") + "'"


def _pattern(key: str, arm: Arm) -> str:
    return fish_quote(key) + ("'*'" if arm.prefix else "")


def _body(table: Table, arm: Arm) -> str:
    if not table.of_words:
        return f"echo {fish_quote(arm.spec)}"
    pairs = " ".join(f"{fish_quote(w.text)} {fish_quote(w.description)}" for w in arm.words)
    return f"printf '%s\\t%s\\n' {pairs}"


def _function(table: Table) -> str:
    """``__leadctl_FUNCTION KEY`` prints name<TAB>description lines, or a value spec."""
    lines = [
        f"# {table.comment}",
        f"function __leadctl_{table.function}",
        f"{INDENT}switch $argv[1]",
    ]
    for arm in table.arms:
        patterns = wrap_alternatives(
            (_pattern(key, arm) for key in arm.keys), separator=" ", indent=INDENT * 2
        )
        lines += [f"{INDENT * 2}case {patterns}", f"{INDENT * 3}{_body(table, arm)}"]
    lines += [f"{INDENT}end", "end"]
    return "\n".join(lines)


def render(tables: tuple[Table, ...]) -> str:
    header = "\n".join(f"# {line}" for line in ("fish completion for leadctl.", *HEADER))
    functions = [_function(table) for table in tables]
    return "\n\n".join([header, *functions]) + "\n" + fill(WALK)
