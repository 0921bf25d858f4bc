"""Benchmarks against the anchors (docs/contributing.md): scripts run as `python bench/NAME.py`, each printing ratios;
a package so that one may use another's helpers (bench/infer.py: bench/validate.py's timing and onnxruntime
optimizer)."""
