"""Conformance sources besides the registry's property tests: onnx's node suite (`conform --suite onnx-node`)."""
