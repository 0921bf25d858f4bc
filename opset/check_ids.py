"""Check ids: the one table of the stable ids that diagnostics and inference problems carry.

`CHECKS` holds every id the model validator emits (constraint ids such as `conv_c1` come from the
registry). `INFERENCE_CHECKS` holds the finer ids `opset.infer` gives its problems, each with the
validator check it is reported as; tools key on the id, people read the message.
"""

from __future__ import annotations

CHECKS: dict[str, str] = {
    "unknown_op": "the op is not in the registry at the model's opset (or its domain is unknown)",
    "removed_op": "the op was removed before the imported opset",
    "deprecated_op": "the op is deprecated at the imported opset (onnx's checker and onnxruntime refuse the node)",
    "missing_opset_import": "a node's domain has no opset import",
    "unknown_opset": "an opset import names a version the registry does not have",
    "arity": "wrong number of inputs or outputs",
    "attr_unknown": "an attribute the op version does not define",
    "attr_type": "an attribute of the wrong type",
    "attr_required": "a required attribute is missing",
    "attr_allowed": "an attribute value outside its allowed set",
    "attr_range": "an attribute value outside its range",
    "attr_length": "a list attribute of the wrong length",
    "attr_invalid": "another attribute problem",
    "type_mismatch": "one type variable bound to two types, or a declared type that differs",
    "type_not_allowed": "an element type outside the type constraint",
    "shape_mismatch": "an inferred shape that contradicts a declared one, or inputs whose shapes do not bind",
    "ambiguous_reading": "an output that follows another reading of the op where its sources disagree (a warning)",
    "shape_error": "a shape formula that cannot be evaluated for the node's inputs",
    "cycle": "nodes that depend on each other",
    "node_order": "nodes not in topological order",
    "undefined_input": "a node input no graph input, initializer or earlier node defines",
    "undefined_output": "a graph output no node or input defines",
    "duplicate_name": "a value name defined twice",
    "unused_initializer": "an initializer no node reads",
    "empty_graph": "a graph without nodes and outputs",
    "graph_signature": "a graph attribute (If's branch, Loop's body ...) whose inputs or outputs do not fit the "
                       "op's declared signature: their count, types or shapes (reported inside the graph)",
    "tensor_data": "an initializer or tensor attribute whose stored values do not fit its dims and element type "
                   "(a raw_data of the wrong size, a negative dim, an unknown data_type, a string that is not UTF-8)",
    "model_form": "a model field onnx's checker bounds: an ir_version newer than onnx's, a metadata key given twice, "
                  "an opset import version beyond 32 bits, opset imports in a model of IR version 1 or 2",
    "incomplete_type": "a main-graph input or output without a type part onnx's checker requires (a tensor's element "
                       "type and shape field, a sequence's element type ...)",
    "node_form": "a node without op_type or without any input and output, or an attribute without a name or type, "
                 "given twice, holding several values or a value of another type than its own",
    "graph_form": "a graph without a name, an initializer that is no graph input in an IR 3 model, a subgraph output "
                  "that only an enclosing graph defines",
    "backend_fails": "opset validate --backend-report: the backend's report fails the node's cell",
    "backend_xfail": "opset validate --backend-report: the node's cell is a known gap of the backend (expected to "
                     "fail)",
    "backend_unsupported": "opset validate --backend-report: the backend cannot run the node's cell",
    "backend_ambiguous": "opset validate --backend-report: the backend follows another reading in the node's cell "
                         "(a warning)",
    "backend_untested": "opset validate --backend-report: the report has no cell for the node (a warning)",
    "registry": "the registry itself could not be loaded",
    "tmfile_params": "a .tmfile node's parameter block missing, or not the size its op's binary layout says",
    "tmfile_reference": "a .tmfile index (tensor, buffer, node) outside its table",
    "tmfile_buffer": "a .tmfile constant buffer whose size differs from its tensor's dims times the element size",
    "tmfile_tensor": "a .tmfile tensor of an unknown element type or with negative dims",
    "tmfile_flag": "a .tmfile flag field holding another value than 0 or 1 (an older writer's uninitialised memory)",
}

# inference problem id -> the validator check it is reported as
INFERENCE_CHECKS: dict[str, str] = {
    "binding": "shape_mismatch",  # an input dim contradicts its signature or another input
    "rank": "shape_mismatch",  # an input's rank does not fit its signature
    "formula": "shape_error",  # an output shape formula failed or gave no shape
    "graph_signature": "graph_signature",  # a graph attribute against its signature
    "attr_unknown": "attr_unknown",
    "attr_required": "attr_required",
    "attr_type": "attr_type",
    "attr_allowed": "attr_allowed",
    "attr_range": "attr_range",
    "attr_length": "attr_length",
}


def reported_check(inference_check: str) -> str:
    """The validator check of an inference problem id; a registry constraint id is reported as itself."""
    return INFERENCE_CHECKS.get(inference_check, inference_check)
