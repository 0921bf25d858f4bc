"""StringNormalizer: the kernel against onnxruntime (in the C.UTF-8 locale, whose case mapping is the registry's)
and, where it follows the text, onnx.reference; the shape formula against onnx's shape inference; rejected nodes;
where onnx.reference departs from the text."""

from __future__ import annotations

import numpy as np

from tests.helpers import (
    OracleCase,
    all_since,
    one_node_model,
    oracle_tests,
    rejection_tests,
    run,
    run_onnx_reference,
    shape_case,
    shape_tests,
    strs,
)

OP = "StringNormalizer"
V = all_since(OP)
UTF8 = {"locale": "C.UTF-8"}
DAYS = strs("monday", "Monday", "MONDAY", "tuesday", "", "Été")
# letters whose case mappings are not one to one, or depend on context in Python's str methods
SPECIAL = strs("ß", "straße", "ΣΑΣ", "σας", "ǅ", "Ÿ", "ẞ", "İ")

CASES = [
    OracleCase(OP, {"is_case_sensitive": 1, **UTF8}, [strs("monday", "tuesday")], V, id="noop"),
    OracleCase(OP, {"stopwords": ["monday"], "is_case_sensitive": 1, "case_change_action": "UPPER", **UTF8},
               [strs("monday", "tuesday", "wednesday")], V, id="sensitive_upper"),
    OracleCase(OP, {"stopwords": ["monday"], "case_change_action": "UPPER", **UTF8}, [DAYS], V, id="insensitive",
               oracle="ort"),
    OracleCase(OP, {"stopwords": ["MONDAY", "été"], "case_change_action": "LOWER", **UTF8}, [DAYS.reshape(1, -1)],
               V, id="insensitive_2d", oracle="ort"),
    OracleCase(OP, {"stopwords": ["Monday"], "is_case_sensitive": 1, **UTF8}, [DAYS], V, id="sensitive_empty_kept",
               oracle="ort"),
    OracleCase(OP, {"stopwords": [""], "is_case_sensitive": 1, **UTF8}, [DAYS], V, id="empty_stopword",
               oracle="ort"),
    OracleCase(OP, {"stopwords": ["monday", "tuesday", "", "été"], **UTF8}, [DAYS], V, id="all_dropped",
               oracle="ort"),
    OracleCase(OP, {"stopwords": ["a"], **UTF8}, [strs("a", "A", shape=(1, 2))], V, id="all_dropped_2d",
               oracle="ort"),
    OracleCase(OP, {"case_change_action": "UPPER", **UTF8}, [SPECIAL], V, id="simple_upper", oracle="ort"),
    OracleCase(OP, {"case_change_action": "LOWER", **UTF8}, [SPECIAL], V, id="simple_lower", oracle="ort"),
    OracleCase(OP, {"stopwords": ["σασ", "ß", "ǆ"], **UTF8}, [SPECIAL], V, id="insensitive_special", oracle="ort"),
    OracleCase(OP, {"stopwords": ["a b"], "is_case_sensitive": 1, **UTF8}, [strs("a b", "a", "b a")], V,
               id="whole_elements", oracle="ort"),
]

test_kernel_matches_oracle, test_every_kernel_range_is_exercised = oracle_tests(OP, CASES)


def test_an_empty_input_keeps_no_element() -> None:
    for shape, want in (((0,), (1,)), ((1, 0), (1, 1))):
        (y,) = run("ai.onnx", OP, 10, [np.empty(shape, dtype=object)])
        assert y.shape == want and y.reshape(-1).tolist() == [""]


def test_locale_changes_nothing() -> None:
    x = strs("Été", "ß", "ΣΑΣ")
    results = [run("ai.onnx", OP, 10, [x], case_change_action="LOWER", **extra)[0].tolist()
               for extra in ({}, {"locale": "C"}, {"locale": "tr_TR.UTF-8"}, {"locale": "C.UTF-8"})]
    assert all(r == ["été", "ß", "σασ"] for r in results)


def test_onnx_reference_departs_from_the_text_where_the_doc_says() -> None:
    """Accents stripped, stop words removed inside elements, empty elements dropped: why its StringNormalizer is
    no oracle beyond ASCII, case-sensitive, non-empty words (the registry does not count these as readings)."""
    x = strs("Été", "a b", "", "c")
    model, feeds = one_node_model(OP, 10, [x], {"stopwords": ["a"], "is_case_sensitive": 1}, 1)
    (theirs,) = run_onnx_reference(model, feeds)
    (mine,) = run("ai.onnx", OP, 10, [x], stopwords=["a"], is_case_sensitive=1)
    assert mine.tolist() == ["Été", "a b", "", "c"]
    assert theirs.tolist() == ["Ete", "b", "c"]


SHAPES = [
    shape_case(OP, 10, [[3]], dtype=object),
    shape_case(OP, 10, [[1, 4]], {"stopwords": ["a"]}, dtype=object),
    shape_case(OP, 10, [[5]], {"stopwords": ["a"], "is_case_sensitive": 1}, dtype=object),
]
REJECTED = [
    (shape_case(OP, 10, [[2, 3]], dtype=object), "stringnormalizer_c1"),
    (shape_case(OP, 10, [[]], dtype=object), "stringnormalizer_c1"),
]

test_shape_formula_matches_onnx = shape_tests(SHAPES)
test_invalid_node_reports_the_check = rejection_tests(REJECTED)


def test_the_kept_count_is_known_from_values_in_case_sensitive_mode() -> None:
    from tests.helpers import inferred, version

    v = version("ai.onnx", OP, 10)
    x = strs("a", "b", "a", "c")
    result = inferred(v, [x], {"stopwords": ["a"], "is_case_sensitive": 1}, {"X": x.tolist()})
    assert result.outputs[0] == [2]
    unknown = inferred(v, [x], {"stopwords": ["a"]}, {"X": x.tolist()}).outputs[0]
    assert unknown is not None and not isinstance(unknown[0], int)
    assert inferred(v, [x], {}).outputs[0] == [4]
