"""Standard Webhooks for operators: the secret, verification, signing, a listener, a sender.

Nothing here is a command: ``leadctl.commands.webhooks`` builds the verbs on these.
"""
