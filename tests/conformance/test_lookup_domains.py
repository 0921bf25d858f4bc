"""Look-up domains (docs/format.md, "Domains"): `hits` puts about half of a tensor's values among a list an attribute
gives, `among` all of them, and a `unique` list attribute picks its values without repeats; the ml encoders' YAML
(OneHotEncoder, CategoryMapper) draws with them."""

from __future__ import annotations

import numpy as np
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from conformance.strategies import domains as dom
from conformance.strategies.cases import draw_once
from opset.formula import Formula
from opset.model import ValueDomain
from tests.helpers import registry

SETTINGS = settings(max_examples=30, deadline=None, database=None, suppress_health_check=list(HealthCheck))


def formula(text: str) -> Formula:
    return Formula.from_tree(Formula.checked(text).tree)


def test_hits_take_about_half_the_values_and_among_all() -> None:
    rng = np.random.default_rng(0)
    base = np.zeros(400, dtype=np.int64)
    hit = dom.looked_up(rng, ValueDomain(hits=formula("keys")), {"keys": [7, 9]}, None, "int64", base)
    assert 120 < int(np.isin(hit, [7, 9]).sum()) < 280 and set(hit.tolist()) == {0, 7, 9}
    words = np.asarray(["x"] * 50, dtype=object)
    every = dom.looked_up(rng, ValueDomain(among=formula("['a', 'b']")), {}, None, "string", words)
    assert set(every.tolist()) == {"a", "b"}
    same = dom.looked_up(rng, ValueDomain(among=formula("None"), hits=formula("[]")), {}, None, "int64", base)
    assert (same == 0).all()


@SETTINGS
@given(st.data())
def test_a_unique_list_attribute_picks_without_repeats(data: st.DataObject) -> None:
    words = ValueDomain(one_of=tuple(formula(f"'{w}'") for w in "abcdef"), each=True, unique=formula("True"))
    picked = dom.draw_list(data.draw, words, {}, None, "string", 6)
    assert sorted(picked) == list("abcdef")
    ints = ValueDomain(range=(formula("-2"), formula("2")), unique=formula("True"))
    assert len(set(dom.draw_list(data.draw, ints, {}, None, "int", 5))) == 5


@SETTINGS
@given(st.data())
def test_one_hot_encoder_categories_follow_x_and_x_hits_them(data: st.DataObject) -> None:
    version = registry().resolve("ai.onnx.ml", "OneHotEncoder", 1)
    for cell, given_name in (("string", "cats_strings"), ("float", "cats_int64s")):
        case = draw_once(data.draw, version, cell)
        assert case is not None and set(case.node_attributes) & {"cats_strings", "cats_int64s"} == {given_name}
        if case.node_attributes.get("zeros", 1) == 0:  # every element names a category (a float after truncation)
            cats = case.node_attributes[given_name]
            assert all(x in cats or int(x) in cats for x in np.asarray(case.inputs[0]).ravel().tolist())


def test_category_mapper_x_hits_the_categories_often() -> None:
    version = registry().resolve("ai.onnx.ml", "CategoryMapper", 1)
    hits: list[bool] = []

    @SETTINGS
    @given(st.data())
    def draw(data: st.DataObject) -> None:
        case = draw_once(data.draw, version, "string")
        assert case is not None
        x = np.asarray(case.inputs[0]).ravel().tolist()
        hits.extend(v in case.node_attributes["cats_strings"] for v in x)

    draw()
    assert sum(hits) > len(hits) / 4  # the generic strings alone would almost never be a category


def test_specials_on_a_float_attribute_and_imputer_replaces_nan() -> None:
    """`fill: specials` on a float attribute: NaN (or an infinity, -0) half the time; Imputer's replaced NaN is in X."""
    version = registry().resolve("ai.onnx.ml", "Imputer", 1)
    found: list[bool] = []

    @SETTINGS
    @given(st.data())
    def draw(data: st.DataObject) -> None:
        case = draw_once(data.draw, version, "float")
        assert case is not None
        if np.isnan(case.node_attributes.get("replaced_value_float", 0.0)):
            found.append(bool(np.isnan(np.asarray(case.inputs[0])).any()))

    draw()
    assert found and any(found)


def test_zip_map_labels_follow_the_output_type() -> None:
    """A domain reads an output's type (`type_of(Z)`): ZipMap's labels are strings exactly where its maps' keys are,
    one per column of X."""
    version = registry().resolve("ai.onnx.ml", "ZipMap", 1)
    kinds: set[str] = set()

    @SETTINGS
    @given(st.data())
    def draw(data: st.DataObject) -> None:
        case = draw_once(data.draw, version, "float")
        assert case is not None
        strings = case.type_bindings["T"].startswith("seq(map(string")
        name = "classlabels_strings" if strings else "classlabels_int64s"
        assert set(case.node_attributes) == {name}
        assert len(case.node_attributes[name]) == np.asarray(case.inputs[0]).shape[-1]
        kinds.add(name)

    draw()
    assert len(kinds) == 2


def test_map_keys_and_values_from_their_domains() -> None:
    """DictVectorizer's map keys are its vocabulary's (or the one it lacks), never repeated; CastMap's SPARSE keys lie
    below max_map and its string values are numbers as text."""
    vectorizer = registry().resolve("ai.onnx.ml", "DictVectorizer", 1)
    cast_map = registry().resolve("ai.onnx.ml", "CastMap", 1)
    numbers = {"0", "1", "-2.5", "0.25", "3.75", "-4", " 7", "3e2", "-2.5x"}

    @SETTINGS
    @given(st.data())
    def draw(data: st.DataObject) -> None:
        case = draw_once(data.draw, vectorizer, "map(string,tensor(float))")
        assert case is not None
        x = case.inputs[0]
        assert isinstance(x, dict) and 1 <= len(x) and set(x) <= {*case.node_attributes["string_vocabulary"],
                                                                   "unlisted"}
        case = draw_once(data.draw, cast_map, "map(int64,tensor(string))")
        assert case is not None
        x = case.inputs[0]
        assert isinstance(x, dict) and set(x.values()) <= numbers
        if case.node_attributes.get("map_form") == "SPARSE":
            assert all(0 <= k < case.node_attributes.get("max_map", 1) for k in x)

    draw()


def test_tensor_attributes_drawn_as_inputs_are() -> None:
    """A tensor attribute with `dtype_of` and `shapes` is drawn as an input: LabelEncoder 4's keys_tensor holds X's
    element type, values_tensor and default_tensor Y's, keys and values as long as each other (a double X has no
    list form: always the tensor)."""
    version = registry().resolve("ai.onnx.ml", "LabelEncoder", 4)
    element = {"string": np.dtype(object), "int64": np.dtype(np.int64), "float": np.dtype(np.float32),
               "double": np.dtype(np.float64), "int32": np.dtype(np.int32), "int16": np.dtype(np.int16)}

    @SETTINGS
    @given(st.data())
    def draw(data: st.DataObject) -> None:
        case = draw_once(data.draw, version, "double")
        assert case is not None
        keys = case.node_attributes["keys_tensor"]
        assert keys.dtype == np.float64 and keys.ndim == 1
        y = case.type_bindings["T2"]
        values = case.node_attributes.get("values_tensor")
        values = values if values is not None else next(v for k, v in case.node_attributes.items()
                                                        if k.startswith("values_"))
        assert len(values) == len(keys)
        if isinstance(values, np.ndarray):
            assert values.dtype == element[y]
        default = case.node_attributes.get("default_tensor")
        assert default is None or (default.shape == (1,) and default.dtype == element[y])

    draw()
