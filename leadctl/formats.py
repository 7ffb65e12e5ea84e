"""The output formats, named once.

``-o``'s choices (app.py), the ``output`` setting's values (config.py), the default
(context.py) and the renderer registry's keys (:mod:`leadctl.output.registry`) all come
from here. No imports: context.py and app.py load this module at every start-up.
"""

# The format a person reads on a terminal, and the only one a command's view draws in.
TABLE = "table"
# What a pipe gets when no format was asked for, and what --jq reads.
JSON = "json"

NDJSON = "ndjson"
# The service's JSON as received, written as YAML.
YAML = "yaml"

OUTPUT_FORMATS = (TABLE, JSON, NDJSON, YAML, "csv", "tsv", "value")
# The formats that print the service's JSON as received (the others render columns):
# what --jq reads, and where errors are a JSON document too (JSON is YAML as well).
AS_RECEIVED = (JSON, NDJSON, YAML)
# Those that print a list as one document (ndjson prints its items one a line): a list
# that is part of a larger answer prints that answer whole.
WHOLE_DOCUMENT = (JSON, YAML)
