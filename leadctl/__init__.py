"""leadctl: the command-line client for the Lead Management Service."""

__version__ = "0.1.0"
