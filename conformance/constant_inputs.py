"""Which node inputs a backend gets as constants (initializers) instead of graph inputs: `conform --constant-inputs`.

`auto` takes the backend's own `constant_inputs` attribute (else none); `params` the inputs whose registry role is
`parameter` (shapes, axes, indices); `all` also the weights. Kept apart so `conform --help` needs no numpy or onnx.
"""

CONSTANT_INPUT_MODES = ("auto", "none", "params", "all")
