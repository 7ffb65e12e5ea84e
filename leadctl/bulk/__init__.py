"""Bulk lead intake (``leadctl leads import``): rows in, one POST /leads per row, a report out.

- :mod:`leadctl.bulk.rows` reads CSV or NDJSON lazily, one :class:`~leadctl.bulk.rows.Row`
  at a time, so a file of any size is read at flat memory.
- :mod:`leadctl.bulk.pacer` decides when the next request may go: a shared pause on 429
  (exactly Retry-After) and a send rate learned from what the service accepted.
- :mod:`leadctl.bulk.sender` runs the workers and turns each answer into an outcome.
- :mod:`leadctl.bulk.report` appends outcomes to the report and reads one back for --resume.
- :mod:`leadctl.bulk.runner` wires them to the command's options and the terminal.
"""
