"""Profiles, settings, credentials and where they go, OAuth's tokens, secrets kept secret."""
