"""Hints for com.microsoft's tensor ops whose onnxruntime kernels have a behaviour of their own to reach: Range's
float accumulation, Unique's NaNs and signed zeros."""

from __future__ import annotations
