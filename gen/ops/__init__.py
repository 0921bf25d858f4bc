"""`gen ops`: the typed op functions under `opset/ops/`, one module per domain and opset version."""
