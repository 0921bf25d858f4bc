"""Every dim Tengine's converters declared in a real `.tmfile` is what the registry's shape formulas infer.

For each real file (`$OPSET_TMFILE_DIR`, every `*.tmfile` there) and each value a compute node produces whose dims the
file declares, the validator's inferred shape (the registry's formula on the inputs as validated) must equal the
declared dims, or differ only where a recorded reading of the op gives the declared dims (an `ambiguous_reading`
warning names it: Tengine 1.x's converters declared dims by their Reshape and Flatten, tengine-lite's differ).
A value no formula gives a shape to (an output that depends on the data) is the only one left out.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from conformance.registry import current_registry
from opset.tmfile import read_tmfile
from opset.tmfile.onnx_view import tensor_names
from opset.tmfile.params import tengine_versions
from opset.tmfile.validate import validate_tmfile
from tests.helpers.tmfile import SHARED, SHARED_IDS, tmfile_dir

pytestmark = pytest.mark.skipif(not SHARED, reason=f"no real .tmfile at {tmfile_dir()}")


def _declared_against_inferred(path: Path) -> tuple[int, int, list[str]]:
    """(values equal to the registry's shape, values whose declared dims follow a recorded reading, problems)."""
    registry = current_registry()
    model = read_tmfile(path, registry)
    result = validate_tmfile(model, registry)
    problems = [str(d) for d in result.diagnostics if d.is_error]
    readings = {d.message.split("'")[1] for d in result.diagnostics if d.check == "ambiguous_reading"}
    graph = model.graph
    names = tensor_names(graph)
    versions = tengine_versions(registry)
    equal = other = 0
    for node in graph.nodes:
        version = versions.get(node.op_id)
        if version is None or version.name == "Const":
            continue
        data_dependent = {p.name for p in version.outputs if p.data_dependent}
        for pos, t in enumerate(node.outputs):
            declared = graph.tensors[t].dims
            if declared is None or any(d < 0 for d in declared):
                continue
            name = names[t]
            inferred = result.inferred.get(name)
            if inferred is None:
                if version.outputs and version.outputs[min(pos, len(version.outputs) - 1)].name in data_dependent:
                    continue
                problems.append(f"{name} ({version.name}): declared {list(declared)}, no shape inferred")
            elif list(inferred) == list(declared):
                equal += 1
            elif name in readings:
                other += 1
            else:
                problems.append(f"{name} ({version.name}): declared {list(declared)}, inferred {list(inferred)}")
    return equal, other, problems


@pytest.mark.parametrize("path", SHARED, ids=SHARED_IDS)
def test_declared_dims_are_the_inferred_ones(path: Path) -> None:
    _equal, _other, problems = _declared_against_inferred(path)
    assert not problems, f"{path.name}: " + "\n".join(problems)
