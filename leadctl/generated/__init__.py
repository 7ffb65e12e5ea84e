"""Commands generated from the active contract's index, for operations with no curated
command: ``tree`` decides which groups and verbs exist, ``command`` builds one verb's
Typer command on demand, ``run`` sends its request with leadctl's client, paging and
output, ``body`` builds and validates its JSON body.
"""
