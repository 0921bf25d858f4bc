"""Kernels of this domain (onnxruntime's default-domain ops beyond onnx's opsets). MODULES lists them explicitly (one
op a file)."""

MODULES: tuple[str, ...] = (
    "affine",
    "crop",
    "dynamic_slice",
    "given_tensor_fill",
    "image_scaler",
    "layer_normalization",
    "mean_variance_normalization",
    "memcpy",
    "parametric_softplus",
    "scale",
    "scaled_tanh",
    "simplified_layer_normalization",
    "thresholded_relu",
)
