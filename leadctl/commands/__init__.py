"""One module per command group; each exposes a Typer ``app``."""
