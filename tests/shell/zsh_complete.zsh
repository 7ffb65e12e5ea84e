# Presses TAB after a command line in a real interactive zsh and prints what the
# completion system offered, one <hit>WORD</hit> per line, then <done>.
#
#   zsh -f zsh_complete.zsh DIR 'leadctl sources '
#
# DIR holds _leadctl and goes first in $fpath; compinit autoloads it from there, as it
# does for users. The interactive zsh runs on a pseudo-terminal (zsh/zpty); compadd is
# wrapped so that every match the completion functions add is also printed.
zmodload zsh/zpty || exit 3
completion_dir=$1 line=$2
zpty leadctl_zsh zsh -f -i
zpty -w leadctl_zsh "PS1='' PS2='' RPS1=''; setopt NO_BEEP; unsetopt ZLE_BRACKETED_PASTE"
zpty -w leadctl_zsh "fpath=(${(q)completion_dir} \$fpath); autoload -Uz compinit; compinit -u -D"
zpty -w leadctl_zsh "zstyle ':completion:*' list-grouped false"
# Calls that only query (-O, -A, -D) add nothing, so they are passed through silently.
zpty -w leadctl_zsh 'compadd () {
    if (( ${@[(I)-[OAD]*]} )); then builtin compadd "$@"; return; fi
    local -a found; builtin compadd -O found "$@"
    local word; for word in $found; do print -r -- "<h""it>$word</h""it>"; done
    builtin compadd "$@"
}'
zpty -w leadctl_zsh 'leadctl_done () { print -r -- "<do""ne>"; }; comppostfuncs=(leadctl_done)'
# The markers are split in what is typed, so the terminal's echo never matches them.
zpty -w leadctl_zsh "print -r -- '<rea''dy>'"
while zpty -r leadctl_zsh out; do [[ $out == *'<ready>'* ]] && break; done
zpty -w -n leadctl_zsh "$line"$'\t'
while zpty -r leadctl_zsh out; do
    print -r -- "$out"
    [[ $out == *'<done>'* ]] && break
done
zpty -d leadctl_zsh
