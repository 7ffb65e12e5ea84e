"""Bulk requests (``leads import``, ``batch``): rows or lines in, one request each, a report out.

- :mod:`leadctl.bulk.rows` reads CSV or NDJSON lazily, one :class:`~leadctl.bulk.rows.Row`
  at a time, so a file of any size is read at flat memory.
- :mod:`leadctl.http.pacer` (outside ``bulk/``: ``--all`` paging uses it too) decides when the
  next request may go: a shared pause on 429 (exactly Retry-After) and a send rate
  measured across the service's window.
- :mod:`leadctl.bulk.sender` runs the workers and turns each send into an outcome.
- :mod:`leadctl.bulk.report` appends outcomes to the report and reads one back for --resume.
- :mod:`leadctl.bulk.engine` runs one list of jobs (pacer, sender, report, summary, exit
  code), the one copy both commands use: ``leads import`` (:mod:`leadctl.bulk.runner`) and
  ``batch`` (:mod:`leadctl.bulk.batch`).
"""
