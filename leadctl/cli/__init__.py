"""The root command: global options, the lazy group table, help layout, did-you-mean, hints."""
