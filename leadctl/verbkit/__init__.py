"""What a verb runs with, curated or generated (as gh's ``pkg/cmdutil``): listing and
``--all`` (``listing.py``), the polling of ``--wait`` (``waiting.py``), read-modify-write
PUTs (``replace.py``, ``read_shapes.py``), downloads (``download.py``), query options
(``query_options.py``), reads several groups share (``shared_reads.py``), finding and
fetching a service's contract (``contract_discovery.py``, ``contract_fetch.py``), and what
these read of a command (``invocation.py``: a Protocol, never the Context)."""
