"""Hints of ai.onnx.ml's feature transforms and encoders (ArrayFeatureExtractor, Imputer, OneHotEncoder,
LabelEncoder, CategoryMapper, ZipMap, DictVectorizer, CastMap): which of their alternative attributes applies
follows the element types (floats or ints, keys of X's type, values of Y's, labels of the output's map keys), a
relation formulas cannot state; and the values worth drawing are the ones the keys, categories, vocabulary or
replaced value name, so the draw puts them into X.
"""

from __future__ import annotations

from typing import Any

import numpy as np
from hypothesis import strategies as st

from conformance.strategies.attributes import OMIT, DrawFn
from conformance.strategies.context import DrawContext
from conformance.strategies.dtypes import numpy_dtype
from conformance.strategies.hints import OpHint
from conformance.strategies.memo import BOOLEANS, integers
from conformance.strategies.values import SEEDS, fill_array

# short texts for string keys, categories and defaults: empty, repeated prefixes, non-ASCII
WORDS = ("", "a", "b", "ab", "Amy", "Sally", "\u00e9t\u00e9", "\u732b", " a")
QUARTERS = tuple(k / 4 for k in range(-16, 17))  # the generic float draw's values
SMALL_INTS = tuple(range(-4, 5))  # the generic integer draw's values


def _is_float(element: str) -> bool:
    return element in ("float", "double", "float16")


def _x_element(ctx: DrawContext) -> str:
    return ctx.element_of(ctx.version.inputs[0].type)


def _texts(values: list[Any]) -> np.ndarray:
    out = np.empty(len(values), dtype=object)
    out[:] = values
    return out


def _mixed_into(draw: DrawFn, ctx: DrawContext, name: str, pool: list[Any]) -> np.ndarray:
    """Input `name` in its drawn shape: the generic values with about half of them taken from `pool` (keys,
    categories, the replaced value), so that look-ups hit as well as miss."""
    shape, element = list(ctx.shapes[name]), _x_element(ctx)
    seed = draw(SEEDS)
    rng = np.random.default_rng(seed)
    if element == "string":
        generic = _texts([WORDS[i] for i in rng.integers(0, len(WORDS), int(np.prod(shape)))]).reshape(shape)
    else:
        generic = fill_array(seed, element, shape)
    if not pool:
        return generic
    chosen = _texts([pool[i] for i in rng.integers(0, len(pool), generic.size)]) if element == "string" else \
        np.asarray([pool[i] for i in rng.integers(0, len(pool), generic.size)]).astype(generic.dtype)
    take = rng.random(generic.shape) < 0.5
    return np.asarray(np.where(take, chosen.reshape(generic.shape), generic)).astype(generic.dtype)


def _keys(draw: DrawFn, element: str, *, repeats: bool = True, nans: bool = False) -> list[Any]:
    """1 to 5 keys of `element` from the values the generic draw gives (in a quarter of the draws, repeats may
    occur: where runtimes part on them, the case is another reading's, and the rest must stay telling)."""
    pool: tuple[Any, ...] = WORDS if element == "string" else QUARTERS if _is_float(element) else SMALL_INTS
    unique = not repeats or draw(integers(0, 3)) > 0
    keys = draw(st.lists(st.sampled_from(pool), min_size=1, max_size=5, unique=unique))
    if nans and _is_float(element) and draw(integers(0, 3)) == 0:
        keys[draw(integers(0, len(keys) - 1))] = float("nan")
    return [float(k) if _is_float(element) else k for k in keys]


# ---- LabelEncoder: keys of X's type, values of Y's, a default of Y's type ----------------------------------

_LIST_FORM = {"string": "strings", "int64": "int64s", "float": "floats"}
_DEFAULT_OF = {"string": "default_string", "int64": "default_int64", "float": "default_float"}


def _tensor(values: list[Any], element: str) -> np.ndarray:
    if element == "string":
        return _texts(values)
    return np.asarray(values, dtype=numpy_dtype(element))


def _label_encoder_attributes(draw: DrawFn, ctx: DrawContext) -> None:
    """Every attribute of the version at once (they depend on each other), into ctx.attributes."""
    key_element, value_element = _x_element(ctx), ctx.element_of(ctx.version.outputs[0].type)
    tensors = ctx.version.since >= 4
    keys = _keys(draw, key_element, nans=tensors)
    values = _keys(draw, value_element)
    values = (values * len(keys))[:len(keys)]
    if key_element in _LIST_FORM and not (tensors and draw(BOOLEANS)):
        ctx.attributes[f"keys_{_LIST_FORM[key_element]}"] = keys
    else:
        ctx.attributes["keys_tensor"] = _tensor(keys, key_element)
    if value_element in _LIST_FORM and not (tensors and draw(BOOLEANS)):
        ctx.attributes[f"values_{_LIST_FORM[value_element]}"] = values
    else:
        ctx.attributes["values_tensor"] = _tensor(values, value_element)
    default = _keys(draw, value_element)[0]
    if tensors and draw(BOOLEANS):
        ctx.attributes["default_tensor"] = _tensor([default], value_element)
    elif value_element in _DEFAULT_OF and draw(BOOLEANS):
        ctx.attributes[_DEFAULT_OF[value_element]] = default
    ctx.scratch["keys"] = keys


def _label_encoder_x(draw: DrawFn, ctx: DrawContext) -> np.ndarray:
    if "keys" not in ctx.scratch:
        _label_encoder_attributes(draw, ctx)
    x = _mixed_into(draw, ctx, "X", [k for k in ctx.scratch["keys"] if k == k])
    if any(k != k for k in ctx.scratch["keys"]) and x.size:
        x.reshape(-1)[0] = np.nan  # a NaN key is worth a NaN to look up
    return x


def _v1_classes(draw: DrawFn, ctx: DrawContext) -> list[str]:
    classes = _keys(draw, "string")
    ctx.scratch["keys"] = classes if _x_element(ctx) == "string" else list(range(-1, len(classes) + 1))
    return classes


def _v2_attributes(draw: DrawFn, ctx: DrawContext) -> Any:
    _label_encoder_attributes(draw, ctx)
    return OMIT


LABEL_ENCODER_HINTS = (
    # the defaults drawn apart from the schema's ("_Unused", -1), so a backend that ignores them shows
    OpHint(attributes={"classes_strings": _v1_classes,
                       "default_string": lambda draw, ctx: draw(st.sampled_from(WORDS)),
                       "default_int64": lambda draw, ctx: draw(st.sampled_from(SMALL_INTS))},
           values={"X": _label_encoder_x}, until=1),
    # the first attribute drawn sets them all; the rest keep what it set
    OpHint(attributes={"keys_strings": _v2_attributes}, values={"X": _label_encoder_x}, generic_attributes=False,
           since=2),
)
