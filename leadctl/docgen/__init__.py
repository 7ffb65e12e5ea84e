"""Shell completion scripts and man pages, generated from the command tree.

Nothing here is imported when leadctl runs a command, except by ``leadctl completion``;
``scripts/generate_docs.py`` writes the checked-in ``completions/`` and ``man/`` from it.
"""
