"""`gen tests`: the property-test generator."""
