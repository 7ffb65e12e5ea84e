"""The sandbox: a stateful local stand-in for the Lead Management Service.

It serves the operations of the contract it publishes (:mod:`leadctl_sandbox.published`) on a
real ASGI stack (Starlette request/response objects, served by uvicorn), keeps its state in
SQLite and is seeded with demo data. ``leadctl sandbox serve`` runs it; ``--profile sandbox``
embeds it (:mod:`leadctl_sandbox.embedded`).

This package never imports leadctl; leadctl reaches it only through ``leadctl.sandbox_entry``.
"""
