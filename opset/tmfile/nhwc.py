"""An NHWC graph (`graph_layout` 1, Tengine 1.x's TensorFlow and TFLite models) seen through ops defined in NCHW.

Tengine 1.x reads the 4-D activations of a layout-dependent op (Convolution, Pooling ...) as NHWC and its weights
as OHWI. The registry defines those ops once, in NCHW, and each says in `tengine.nhwc` how an NHWC graph's tensors
relate to that definition: a permutation per parameter (an input as stored, transposed by it, is what the op takes;
the op's output, transposed by it, is what the graph stores). The view puts a tengine Transpose before and after such
a node; a value already transposed back from an op's NCHW output is reused instead of transposed twice, so a chain
of convolutions runs in NCHW between the graph's layout-independent ops.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

import onnx
from onnx import helper

from opset.model import OpVersion

NHWC = 1  # TENGINE_LAYOUT_NHWC of `graph_layout`


@dataclass
class NhwcView:
    """The transposes of one graph's view: which stored values already have an NCHW twin, and names in use."""

    node_domain: str
    taken: set[str]
    ranks: dict[str, int]  # declared rank of stored values, where the file declares dims
    # stored value -> (its twin's name, the permutation that turns the twin into the stored value)
    twins: dict[str, tuple[str, tuple[int, ...]]] = field(default_factory=dict)

    def _fresh(self, base: str) -> str:
        name = f"{base}__nchw"
        while name in self.taken:
            name += "_"
        self.taken.add(name)
        return name

    def wrap(self, version: OpVersion, node_name: str, ins: Sequence[str], outs: Sequence[str],
             ) -> tuple[list[str], list[str], list[onnx.NodeProto], list[onnx.NodeProto]]:
        """The node's inputs and outputs in its NCHW definition, with the Transposes before and after it."""
        assert version.tengine is not None
        perms = version.tengine.nhwc
        before: list[onnx.NodeProto] = []
        after: list[onnx.NodeProto] = []
        new_ins = list(ins)
        for pos, name in enumerate(ins):
            param = _input_param(version, pos)
            perm = perms.get(param) if param is not None else None
            if perm is None or not name or self.ranks.get(name, len(perm)) != len(perm):
                continue
            twin = self.twins.get(name)
            if twin is not None and [twin[1][p] for p in perm] == list(range(len(perm))):
                new_ins[pos] = twin[0]  # the stored value is the twin transposed back: take the twin itself
                continue
            moved = self._fresh(name)
            before.append(self._transpose(name, moved, perm, f"{node_name}/{param}"))
            new_ins[pos] = moved
        new_outs = list(outs)
        for pos, name in enumerate(outs):
            param = _output_param(version, pos)
            perm = perms.get(param) if param is not None else None
            if perm is None or not name:
                continue
            twin_name = self._fresh(name)
            new_outs[pos] = twin_name
            after.append(self._transpose(twin_name, name, perm, f"{node_name}/{param}"))
            self.twins[name] = (twin_name, perm)
        return new_ins, new_outs, before, after

    def _transpose(self, source: str, target: str, perm: Sequence[int], name: str) -> onnx.NodeProto:
        return helper.make_node("Transpose", [source], [target], name=f"{name}/nhwc", domain=self.node_domain,
                                perm=list(perm))


def _input_param(version: OpVersion, pos: int) -> str | None:
    if pos < len(version.inputs):
        return version.inputs[pos].name
    return version.inputs[-1].name if version.inputs and version.inputs[-1].variadic else None


def _output_param(version: OpVersion, pos: int) -> str | None:
    if pos < len(version.outputs):
        return version.outputs[pos].name
    return version.outputs[-1].name if version.outputs and version.outputs[-1].variadic else None
