"""Conformance: reference kernels, schema-driven strategies, backends and the `conform` runner."""
