"""Signing a person in with the service's OAuth 2.0 authorization server.

``auth login --device`` (RFC 8628) and ``--web`` (authorization code with PKCE, RFC 7636,
loopback redirect, RFC 8252), the server found by RFC 9728 / RFC 8414 metadata, a client id
from the user or RFC 7591 registration, and tokens refreshed before they expire. The
protocol messages go through authlib; only the device-code polling loop is written here.
Nothing in this package is imported at start-up.
"""
