"""Tengine `.tmfile` models (the TM2 container): read, write, inspect; the records are in `model`."""
