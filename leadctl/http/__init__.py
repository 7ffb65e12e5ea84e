"""Requests: the client, retry policy, pace, pages, read-modify-write, downloads, --wait."""
