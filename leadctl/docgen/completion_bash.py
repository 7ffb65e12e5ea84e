"""The bash completion script (bash 4.1 or later; no bash-completion package needed)."""

from __future__ import annotations

from leadctl.docgen.completion_tables import (
    HEADER,
    Arm,
    Table,
    fill,
    posix_quote,
    wrap_alternatives,
)

INDENT = "    "

WALK = r"""
# Sets REPLY to the lines sed script $1 prints of config.toml (none without the file).
_leadctl_config() {
    local dir=${LEADCTL_CONFIG_DIR:-}
    if [[ -z $dir ]]; then
        case $OSTYPE in
        darwin*) dir="$HOME/Library/Application Support/leadctl" ;;
        *) dir="${XDG_CONFIG_HOME:-$HOME/.config}/leadctl" ;;
        esac
    fi
    [[ $dir == '~/'* ]] && dir="$HOME/${dir#'~/'}"
    REPLY=''
    [[ -r $dir/config.toml ]] && REPLY=$(sed -n "$1" "$dir/config.toml")
}

_leadctl_profiles() {
    _leadctl_config '__PROFILE_SED__'
    REPLY="${REPLY//$'\n'/ } __BUILTIN_PROFILES__"
}

# Adds what leadctl __complete-values offers for the word $2, each after $3: with $1 empty
# what the service lists for the argument (one request at most, cached a minute), with
# --columns the response's field paths (no request); nothing on failure. Reads _leadctl's
# locals.
_leadctl_remote() {
    local word
    while IFS=$'\t' read -r word _; do
        # A name with a blank ("Appointment Set") is inserted quoted, as one word.
        [[ $word == *[[:space:]]* ]] && printf -v word '%q' "$word"
        [[ -n $word ]] && COMPREPLY+=("${3-}$word")
    done < <(command leadctl __complete-values ${1:+"$1"} ${profile:+--profile "$profile"} \
        "$cmdpath" "${positionals[@]}" "$2" 2>/dev/null)
}

# Adds the candidates of value spec $1 that start with $2 to COMPREPLY, each after $3.
_leadctl_reply() {
    local spec=$1 cur=$2 prefix=${3-} word
    local -a candidates=()
    case $spec in
    'words '*) read -r -a candidates <<<"${spec#words }" ;;
    remote | columns)
        local mode=''
        [[ $spec == columns ]] && mode=--columns
        _leadctl_remote "$mode" "$cur" "$prefix"
        return
        ;;
    profile)
        _leadctl_profiles
        read -r -a candidates <<<"$REPLY"
        ;;
    file | directory)
        compopt -o filenames 2>/dev/null
        local action=-f
        [[ $spec == directory ]] && action=-d
        while IFS= read -r word; do
            COMPREPLY+=("$prefix$word")
        done < <(compgen "$action" -- "$cur")
        return
        ;;
    esac
    for word in "${candidates[@]}"; do
        [[ $word == "$cur"* ]] && COMPREPLY+=("$prefix$word")
    done
}

_leadctl() {
    local REPLY cmdpath='' word gap expect='' cur prefix line=${COMP_LINE:0:COMP_POINT}
    local profile='' last=''
    local -a words=() positionals=()
    local -i i args=0 positional_only=0
    COMPREPLY=()
    # bash splits words at = and : (COMP_WORDBREAKS); join what was typed as one word.
    for ((i = 0; i <= COMP_CWORD; i++)); do
        gap=${line%%[![:space:]]*}
        line=${line#"$gap"}
        word=${COMP_WORDS[i]}
        ((i == COMP_CWORD)) && word=$line
        if ((i == 0)) || [[ -n $gap ]]; then
            words+=("$word")
        else
            words[${#words[@]} - 1]+=$word
        fi
        line=${line#"$word"}
    done
    cur=${words[${#words[@]} - 1]}
    for ((i = 1; i < ${#words[@]} - 1; i++)); do
        word=${words[i]}
        if [[ -n $expect ]]; then
            [[ $last == -p || $last == --profile ]] && profile=$word
            expect=''
            continue
        fi
        if ((!positional_only)); then
            case $word in
            --) positional_only=1 && continue ;;
            --profile=*) profile=${word#*=} && continue ;;
            --*=*) continue ;;
            -?*)
                last=$word
                _leadctl_option_value "$cmdpath|$word"
                expect=$REPLY
                continue
                ;;
            esac
        fi
        _leadctl_commands "$cmdpath"
        if ((args == 0)) && [[ " $REPLY " == *" $word "* ]]; then
            cmdpath=${cmdpath:+$cmdpath }$word
        else
            args+=1
            positionals+=("$word")
        fi
    done
    if [[ -n $expect ]]; then
        _leadctl_reply "$expect" "$cur"
        return
    fi
    if ((!positional_only)); then
        case $cur in
        --*=*)
            _leadctl_option_value "$cmdpath|${cur%%=*}"
            prefix="${cur%%=*}="
            # With = in COMP_WORDBREAKS, readline replaces only the text after it.
            [[ $COMP_WORDBREAKS == *=* ]] && prefix=''
            [[ -n $REPLY ]] && _leadctl_reply "$REPLY" "${cur#*=}" "$prefix"
            return
            ;;
        -*)
            _leadctl_options "$cmdpath"
            _leadctl_reply "words $REPLY" "$cur"
            return
            ;;
        esac
    fi
    _leadctl_commands "$cmdpath"
    if [[ -n $REPLY ]]; then
        if ((args > 0)); then
            # A verb this script does not know: generated from the active contract.
            _leadctl_remote '' "$cur"
            return
        fi
        local commands=$REPLY
        if [[ -z $cmdpath ]]; then # leadctl's first word: an alias too
            _leadctl_config '__ALIAS_SED__'
            commands+=" ${REPLY//$'\n'/ }"
        fi
        _leadctl_reply "words $commands" "$cur"
        return
    fi
    _leadctl_argument_value "$cmdpath|$args"
    [[ -n $REPLY ]] && _leadctl_reply "$REPLY" "$cur"
}

complete -F _leadctl leadctl
"""


def _pattern(key: str, arm: Arm) -> str:
    return posix_quote(key) + ("*" if arm.prefix else "")


def _function(table: Table) -> str:
    """``_leadctl_FUNCTION KEY`` sets REPLY to the arm's words or value spec."""
    lines = [f"# {table.comment}", f"_leadctl_{table.function}() {{", f"{INDENT}case $1 in"]
    for arm in table.arms:
        reply = " ".join(word.text for word in arm.words) if table.of_words else arm.spec
        patterns = wrap_alternatives(
            (_pattern(key, arm) for key in arm.keys), separator=" | ", indent=INDENT
        )
        lines.append(f"{INDENT}{patterns}) REPLY={posix_quote(reply)} ;;")
    lines += [f"{INDENT}*) REPLY='' ;;", f"{INDENT}esac", "}"]
    return "\n".join(lines)


def render(tables: tuple[Table, ...]) -> str:
    header = "\n".join(f"# {line}" for line in ("bash completion for leadctl.", *HEADER))
    functions = [_function(table) for table in tables]
    return "\n\n".join([header, *functions]) + "\n" + fill(WALK)
