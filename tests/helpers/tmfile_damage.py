"""The shared real `.tmfile` models damaged where a reader is most trusting (4-byte words that are offsets and counts,
bit flips, truncations): the draws of the fuzz tests that read, validate, convert and write them."""

from __future__ import annotations

import struct

from hypothesis import strategies as st

from tests.helpers.tmfile import tmfile_dir

SMALL = ["yolov3_tiny_benchmark.tmfile", "vgg16_benchmark.tmfile", "resnet18_benchmark.tmfile",
         "squeezenet_v1.1_benchmark.tmfile", "mobilenet_benchmark.tmfile", "mssd_benchmark.tmfile"]
_BYTES = {name: (tmfile_dir() / name).read_bytes() for name in SMALL if (tmfile_dir() / name).exists()}


# converting vgg16's benchmark zero-fills 553 MB of weights, damaged or not (bounded by onnx_view.MAX_ZERO_FILL): the
# tests read and validate it but convert only the others, to keep the fuzz budget for damage
HEAVY_TO_CONVERT = {"vgg16_benchmark.tmfile"}


@st.composite
def named_damage(draw: st.DrawFn, convertible: bool = False) -> tuple[str, bytes]:
    """(model name, damaged bytes); `convertible`: only models cheap to convert."""
    names = sorted(set(_BYTES) - HEAVY_TO_CONVERT) if convertible else sorted(_BYTES)
    name = draw(st.sampled_from(names), label="model")
    data = bytearray(_BYTES[name])
    size = len(data)
    for _ in range(draw(st.integers(1, 5), label="edits")):
        kind = draw(st.sampled_from(["word", "word", "word", "flip", "truncate"]), label="kind")
        if kind == "truncate" and data:
            del data[draw(st.integers(0, len(data) - 1)):]
            continue
        if len(data) < 4:
            break
        at = draw(st.integers(0, (len(data) - 4) // 4), label="word") * 4  # objects are 4-byte aligned
        if kind == "flip":
            data[at + draw(st.integers(0, 3))] ^= 1 << draw(st.integers(0, 7))
            continue
        value = draw(st.one_of(st.sampled_from([0, 1, 4, 12, at, at - 4, size - 4, size, size + 4, 2**31 - 1,
                                                2**31, 2**32 - 1, 0x7FFF, 0x10000]),
                               st.integers(0, 2**32 - 1)), label="value")
        struct.pack_into("<I", data, at, value % 2**32)
    return name, bytes(data)
