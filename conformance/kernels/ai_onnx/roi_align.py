"""RoiAlign (10, 16, 22): each output bin pools bilinear samples of its RoI (Mask R-CNN).

A RoI [x1, y1, x2, y2] is scaled by spatial_scale and, with coordinate_transformation_mode half_pixel (the default
from 16), shifted by -0.5; with output_half_pixel (and at version 10) it is not shifted and a RoI side shorter than
1 becomes 1. Each of the output_height x output_width bins takes a grid of sampling_ratio (or ceil(side / bins))
points per axis at the cell centres. A sample with y < -1, y > H, x < -1 or x > W is 0; otherwise it is clamped
into the image and interpolated bilinearly. avg averages the samples; max takes, over the samples, the largest of
the four weighted corner terms w * X[corner] (the reading onnx.reference and onnxruntime share).

The interpolation is separable, so each RoI's samples are two small weight tensors, one per axis.
"""

from __future__ import annotations

import numpy as np

from conformance.kernels.ai_onnx._common import work_dtype
from conformance.kernels.registry import kernel


def _axis_samples(start: np.floating, bin_size: np.floating, bins: int, grid: int, size: int,
                  dtype: np.dtype) -> tuple[np.ndarray, np.ndarray]:
    """Corner positions (bins, grid, 2) and their weights (bins, grid, 2) of the samples along one axis."""
    b = np.arange(bins, dtype=dtype)[:, None]
    g = np.arange(grid, dtype=dtype)[None, :]
    pos = start + b * bin_size + (g + dtype.type(0.5)) * bin_size / dtype.type(grid)
    outside = (pos < -1) | (pos > size)
    pos = np.maximum(pos, 0)
    low = np.floor(pos).astype(np.int64)
    clamped = low >= size - 1
    low = np.where(clamped, size - 1, low)
    high = np.where(clamped, size - 1, low + 1)
    frac = np.where(clamped, 0, pos - low).astype(dtype)
    weights = np.stack([1 - frac, frac], axis=-1)
    weights[outside] = 0
    return np.stack([low, high], axis=-1), weights


def _roi_align(x: np.ndarray, rois: np.ndarray, batch_indices: np.ndarray, mode: str, output_height: int,
               output_width: int, sampling_ratio: int, spatial_scale: float,
               half_pixel: bool) -> tuple[np.ndarray, ...]:
    if x.ndim != 4:
        raise ValueError(f"RoiAlign: X must be N x C x H x W, got shape {x.shape}")
    if rois.ndim != 2 or rois.shape[1] != 4 or batch_indices.shape != (rois.shape[0],):
        raise ValueError(f"RoiAlign: rois must be num_rois x 4 and batch_indices num_rois long, got {rois.shape} "
                         f"and {batch_indices.shape}")
    if mode not in ("avg", "max"):
        raise ValueError(f"RoiAlign: mode must be avg or max, got {mode!r}")
    if output_height < 1 or output_width < 1 or sampling_ratio < 0:
        raise ValueError(f"RoiAlign: output sizes must be >= 1 and sampling_ratio >= 0, got {output_height}, "
                         f"{output_width}, {sampling_ratio}")
    n, c, height, width = x.shape
    batch = batch_indices.astype(np.int64)
    if batch.size and (batch.min() < 0 or batch.max() >= n):
        raise ValueError(f"RoiAlign: batch indices must lie in [0, {n}), got {batch.tolist()}")
    wt = work_dtype(x)
    data = x.astype(wt, copy=False)
    boxes = rois.astype(wt) * wt.type(spatial_scale) - wt.type(0.5 if half_pixel else 0.0)
    y = np.zeros((rois.shape[0], c, output_height, output_width), dtype=wt)
    for r in range(rois.shape[0]):  # one RoI at a time; each is vectorised over channels, bins and samples
        x1, y1, x2, y2 = boxes[r]
        roi_w, roi_h = x2 - x1, y2 - y1
        if not half_pixel:
            roi_w, roi_h = max(roi_w, wt.type(1)), max(roi_h, wt.type(1))
        bin_h, bin_w = roi_h / wt.type(output_height), roi_w / wt.type(output_width)
        grid_h = sampling_ratio if sampling_ratio > 0 else int(np.ceil(bin_h))
        grid_w = sampling_ratio if sampling_ratio > 0 else int(np.ceil(bin_w))
        if grid_h <= 0 or grid_w <= 0:
            continue  # no sample: the bins stay 0
        rows, wy = _axis_samples(y1, bin_h, output_height, grid_h, height, wt)
        cols, wx = _axis_samples(x1, bin_w, output_width, grid_w, width, wt)
        image = data[batch[r]]
        if mode == "avg":
            # per axis: a bins x pixels matrix summing the weights of every sample corner on each pixel
            ay = np.zeros((output_height, height), dtype=wt)
            np.add.at(ay, (np.arange(output_height)[:, None, None], rows), wy)
            ax = np.zeros((output_width, width), dtype=wt)
            np.add.at(ax, (np.arange(output_width)[:, None, None], cols), wx)
            y[r] = np.einsum("ph,chw,qw->cpq", ay, image, ax) / wt.type(grid_h * grid_w)
        else:
            # C x ph x gy x 2 x pw x gx x 2 weighted corner terms, max over the samples and corners of each bin
            corners = image[:, rows[:, :, :, None, None, None], cols[None, None, None, :, :, :]]
            terms = corners * (wy[:, :, :, None, None, None] * wx[None, None, None, :, :, :])
            y[r] = terms.max(axis=(2, 3, 5, 6))
    return (y.astype(x.dtype, copy=False),)


@kernel("ai.onnx", "RoiAlign", since=10, until=15)
def roi_align_v10(x: np.ndarray, rois: np.ndarray, batch_indices: np.ndarray, *, mode: str, output_height: int,
                  output_width: int, sampling_ratio: int, spatial_scale: float) -> tuple[np.ndarray, ...]:
    # version 10 has no coordinate_transformation_mode: its RoIs are not shifted (output_half_pixel)
    return _roi_align(x, rois, batch_indices, mode, output_height, output_width, sampling_ratio, spatial_scale,
                      half_pixel=False)


@kernel("ai.onnx", "RoiAlign", since=16)
def roi_align(x: np.ndarray, rois: np.ndarray, batch_indices: np.ndarray, *, coordinate_transformation_mode: str,
              mode: str, output_height: int, output_width: int, sampling_ratio: int,
              spatial_scale: float) -> tuple[np.ndarray, ...]:
    if coordinate_transformation_mode not in ("half_pixel", "output_half_pixel"):
        raise ValueError("RoiAlign: coordinate_transformation_mode must be half_pixel or output_half_pixel, got "
                         f"{coordinate_transformation_mode!r}")
    return _roi_align(x, rois, batch_indices, mode, output_height, output_width, sampling_ratio, spatial_scale,
                      half_pixel=coordinate_transformation_mode == "half_pixel")
