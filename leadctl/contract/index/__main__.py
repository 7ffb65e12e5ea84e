"""``python -m leadctl.contract.index``: rewrite the bundled contract's prebuilt index."""

from leadctl.contract.index.compile import main

raise SystemExit(main())
