"""Small utilities, each written once: one module a job, importing nothing heavy.

Modules here import only the standard library (and nothing of leadctl), so anything may use
them: commands, views, the output registry and the sandbox alike.
"""
