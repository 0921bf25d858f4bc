"""`gen docs`: the Markdown docs site generated from the registry."""
