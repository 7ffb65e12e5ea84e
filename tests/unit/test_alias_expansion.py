"""What a plain alias expands to (leadctl/config/aliases.py): gh's placeholders, words
split before the arguments go in."""

from __future__ import annotations

import pytest

from leadctl.config.aliases import Alias, expand, first_word, stored_form
from leadctl.errors import UsageError


def test_arguments_are_appended_when_there_is_no_placeholder() -> None:
    alias = Alias("tx", "leads list --filter state=TX")
    assert expand(alias, ["-o", "json"]) == ["leads", "list", "--filter", "state=TX", "-o", "json"]


def test_placeholders_take_their_arguments_and_the_rest_are_appended() -> None:
    alias = Alias("st", "leads list --filter state=$1 --limit $2")
    assert expand(alias, ["CA", "3", "-o", "json"]) == [
        *("leads", "list", "--filter", "state=CA", "--limit", "3"),
        *("-o", "json"),
    ]


def test_a_placeholder_used_twice_takes_one_argument() -> None:
    alias = Alias("who", 'leads list --filter "firstName=$1" --jq $1')
    assert expand(alias, ["Ada"]) == ["leads", "list", "--filter", "firstName=Ada", "--jq", "Ada"]


def test_an_argument_with_spaces_or_dollars_stays_one_word_as_given() -> None:
    alias = Alias("named", "leads list --filter lastName=$1")
    assert expand(alias, ["van $2 Dyke"]) == ["leads", "list", "--filter", "lastName=van $2 Dyke"]


def test_a_missing_argument_is_exit_2_naming_how_many_the_alias_takes() -> None:
    alias = Alias("st", "leads list --filter state=$1 --limit $2")
    with pytest.raises(UsageError, match=r"alias st takes 2 arguments \(\$1..\$2\), 1 given"):
        expand(alias, ["CA"])


def test_shell_aliases_are_stored_with_gh_s_bang() -> None:
    assert stored_form(" leadctl leads list | wc -l ", shell=True) == "!leadctl leads list | wc -l"
    assert stored_form("!exit 3", shell=True) == "!exit 3"
    assert stored_form("leads list", shell=False) == "leads list"
    shell = Alias("n", "!exit 3")
    assert shell.shell and shell.command == "exit 3"
    assert not Alias("tx", "leads list").shell


@pytest.mark.parametrize("expansion", ["", "-p prod leads list", "leads 'list"])
def test_an_expansion_starts_with_a_command(expansion: str) -> None:
    with pytest.raises(UsageError):
        first_word(expansion)
