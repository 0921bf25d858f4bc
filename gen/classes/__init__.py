"""`gen classes`: typed Python op classes, one module per domain and opset version, under `opset/ops/`."""
