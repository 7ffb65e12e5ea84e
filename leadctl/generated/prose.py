"""A contract's words (summaries, descriptions, names) as --help shows them.

The contract is the service's text: its HTML is rendered as plain paragraphs and any
control, escape, bidirectional or zero-width character is shown as its escape, so a
contract can neither restyle nor rewrite the help that a person reads.
"""

from __future__ import annotations

from leadctl.iostreams import safe_text


def contract_prose(text: str) -> str:
    """A summary or description: HTML as plain text, escapes shown."""
    if "<" in text or "&" in text:
        # Only then: the HTML parser and its entity table cost --help several ms.
        from leadctl.util.htmltext import html_to_text

        text = html_to_text(text)
    return safe_text(text)


def contract_words(text: object) -> str:
    """A name, path or value from the contract, on one line, escapes shown."""
    return safe_text(str(text), one_line=True)


def operation_line(summary: str, description: str, method: str, path: str) -> str:
    """An operation's one-line help: its summary, else its description's first sentence,
    else METHOD path. Read from the index entry alone, so a group's help lists its verbs
    without building them."""
    text = " ".join(contract_prose(summary).split())
    if text:
        return text.rstrip(".") + "."
    text = " ".join(contract_prose(description).split())
    if text:
        return text.split(". ", 1)[0].rstrip(".") + "."
    return f"{method} {contract_words(path)}."
