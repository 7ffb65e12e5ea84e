"""The zsh completion script: autoloaded from $fpath as ``_leadctl``, or sourced."""

from __future__ import annotations

from leadctl.docgen.completion_tables import (
    HEADER,
    Arm,
    Table,
    Word,
    fill,
    posix_quote,
    wrap_alternatives,
)

INDENT = "    "

WALK = r"""
# Sets reply to the lines sed script $1 prints of config.toml (none without the file).
_leadctl_config() {
    local dir=${LEADCTL_CONFIG_DIR:-}
    if [[ -z $dir ]]; then
        case $OSTYPE in
        (darwin*) dir="$HOME/Library/Application Support/leadctl" ;;
        (*) dir="${XDG_CONFIG_HOME:-$HOME/.config}/leadctl" ;;
        esac
    fi
    [[ $dir == '~/'* ]] && dir="$HOME/${dir#'~/'}"
    reply=()
    [[ -r $dir/config.toml ]] && reply=(${(f)"$(sed -n "$1" "$dir/config.toml")"})
}

_leadctl_profiles() {
    _leadctl_config '__PROFILE_SED__'
    reply+=(__BUILTIN_PROFILES__)
}

# Offers what leadctl __complete-values offers, each with its description: with $1 empty
# what the service lists for the argument (one request at most, cached a minute), with
# --columns the response's field paths (no request); nothing on failure. Reads _leadctl's
# locals.
_leadctl_remote() {
    local line
    local -a described
    for line in ${(f)"$(command leadctl __complete-values ${1:+$1} \
        ${profile:+--profile} ${profile:+$profile} \
        "$cmdpath" "${positionals[@]}" "$PREFIX" 2>/dev/null)"}; do
        described+=("${${line%%$'\t'*}//:/\\:}:${line#*$'\t'}")
    done
    (( $#described )) && _describe -t values 'value' described
}

# Offers the candidates of value spec $1.
_leadctl_values() {
    local spec=$1
    local -a reply values
    case $spec in
    ('words '*)
        values=(${=spec#words })
        compadd -a values
        ;;
    (profile)
        _leadctl_profiles
        compadd -a reply
        ;;
    (remote) _leadctl_remote ;;
    (columns) _leadctl_remote --columns ;;
    (file) _files ;;
    (directory) _files -/ ;;
    (*) _message -e values 'value' ;;
    esac
}

_leadctl() {
    local REPLY cmdpath='' word expect='' profile='' last=''
    local -a reply names positionals
    integer i args=0 positional_only=0
    for (( i = 2; i < CURRENT; i++ )); do
        word=${words[i]}
        if [[ -n $expect ]]; then
            [[ $last == -p || $last == --profile ]] && profile=$word
            expect=''
            continue
        fi
        if (( ! positional_only )); then
            case $word in
            (--) positional_only=1; continue ;;
            (--profile=*) profile=${word#*=}; continue ;;
            (--*=*) continue ;;
            (-?*)
                last=$word
                _leadctl_option_value "$cmdpath|$word"
                expect=$REPLY
                continue
                ;;
            esac
        fi
        _leadctl_commands "$cmdpath"
        names=(${reply%%:*})
        if (( args == 0 && names[(Ie)$word] )); then
            cmdpath=${cmdpath:+$cmdpath }$word
        else
            (( args++ ))
            positionals+=("$word")
        fi
    done
    if [[ -n $expect ]]; then
        _leadctl_values "$expect"
        return
    fi
    if (( ! positional_only )); then
        case $PREFIX in
        (--*=*)
            _leadctl_option_value "$cmdpath|${PREFIX%%=*}"
            [[ -z $REPLY ]] && return 1
            compset -P '*='
            _leadctl_values "$REPLY"
            return
            ;;
        (-*)
            _leadctl_options "$cmdpath"
            _describe -t options 'option' reply
            return
            ;;
        esac
    fi
    _leadctl_commands "$cmdpath"
    if (( $#reply )); then
        if (( args > 0 )); then
            # A verb this script does not know: generated from the active contract.
            _leadctl_remote
            return
        fi
        _describe -t commands 'leadctl command' reply
        if [[ -z $cmdpath ]]; then # leadctl's first word: an alias too
            _leadctl_config '__ALIAS_SED__'
            (( $#reply )) && compadd -a reply
        fi
        return
    fi
    _leadctl_argument_value "$cmdpath|$args"
    [[ -n $REPLY ]] && _leadctl_values "$REPLY"
}

# Autoloaded from $fpath, this file is the body of _leadctl; sourced, it registers it.
if [[ $funcstack[1] == _leadctl ]]; then
    _leadctl "$@"
else
    compdef _leadctl leadctl
fi
"""


def _described(words: tuple[Word, ...]) -> str:
    # _describe splits "word:description" at the first unescaped colon.
    entries = (posix_quote(w.text.replace(":", r"\:") + ":" + w.description) for w in words)
    return "(" + " ".join(entries) + ")"


def _pattern(key: str, arm: Arm) -> str:
    return posix_quote(key) + ("*" if arm.prefix else "")


def _function(table: Table) -> str:
    """``_leadctl_FUNCTION KEY`` sets reply to name:description pairs, or REPLY to a spec."""
    variable, empty = ("reply", "()") if table.of_words else ("REPLY", "''")
    lines = [f"# {table.comment}", f"_leadctl_{table.function}() {{", f"{INDENT}case $1 in"]
    for arm in table.arms:
        value = _described(arm.words) if table.of_words else posix_quote(arm.spec)
        patterns = wrap_alternatives(
            (_pattern(key, arm) for key in arm.keys), separator="|", indent=INDENT
        )
        lines.append(f"{INDENT}({patterns}) {variable}={value} ;;")
    lines += [f"{INDENT}(*) {variable}={empty} ;;", f"{INDENT}esac", "}"]
    return "\n".join(lines)


def render(tables: tuple[Table, ...]) -> str:
    comments = (f"# {line}" for line in ("zsh completion for leadctl.", *HEADER))
    header = "\n".join(["#compdef leadctl", *comments])
    functions = [_function(table) for table in tables]
    return "\n\n".join([header, *functions]) + "\n" + fill(WALK)
