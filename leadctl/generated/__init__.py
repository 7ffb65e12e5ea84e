"""Commands generated from the active contract's index, for operations with no curated
command: ``command`` builds one verb's Typer command on demand, ``run`` sends its request
with leadctl's client, paging and output, ``body`` builds and validates its JSON body
(which groups and verbs exist: ``leadctl.contract.catalogue``; the groups of the command
tree: ``leadctl.cli.generated_tree``).
"""
