"""Write scikit-learn pipelines as skl2onnx converts them, with inputs they run on, into a folder (default
build/real-models/sklearn/): the ai.onnx.ml feature transforms and encoders as real converters write them.

- StandardScaler then an MLP classifier with integer labels (Scaler; ArrayFeatureExtractor and ZipMap after
  the classifier);
- SimpleImputer, a max Normalizer and a Binarizer then an MLP regressor (Imputer, Normalizer, Binarizer);
- a ColumnTransformer (constant imputation of some columns, standardisation of others) then an MLP with
  string labels (ArrayFeatureExtractor selecting columns and labels; ZipMap with string keys);
- OneHotEncoder of string columns and of integer columns, each then an MLP classifier;
- L1 and L2 Normalizers on data with negative values;
- LabelEncoder of strings and of integers;
- DictVectorizer then MinMaxScaler on a map input.

MLPs keep the classifiers to ai.onnx ops; the linear and tree models (LinearClassifier, TreeEnsemble ...)
belong to another batch. Each model comes with `<name>.inputs.json`: its feeds, one entry per input as
{"kind": "tensor", "dtype", "shape", "data"} or {"kind": "map", "data": [[key, value], ...]}. Nothing is
committed: tests/real_models/test_sklearn_pipelines.py writes the folder when it is missing. Needs the
`real-models` extra (scikit-learn, skl2onnx).

    python -m tests.real_models.make_sklearn_pipelines [--out DIR]
"""

from __future__ import annotations

import argparse
import json
import os
import warnings
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np
import onnx

DEFAULT_OUT = Path(__file__).resolve().parents[2] / "build" / "real-models" / "sklearn"
OPSETS = {"": 18, "ai.onnx.ml": 3}
Feeds = dict[str, Any]


def _data(seed: int, rows: int = 12, columns: int = 4) -> np.ndarray:
    return np.random.default_rng(seed).normal(size=(rows, columns)).astype(np.float32)


def _mlp_classifier() -> Any:
    from sklearn.neural_network import MLPClassifier

    return MLPClassifier(hidden_layer_sizes=(5,), max_iter=60, random_state=0)


def scaler_mlp() -> tuple[onnx.ModelProto, Feeds]:
    from skl2onnx import to_onnx
    from sklearn.pipeline import make_pipeline
    from sklearn.preprocessing import StandardScaler

    x = _data(1, 40)
    y = (x[:, 0] > 0).astype(np.int64) * 3 + (x[:, 1] > 0) + 7  # labels 7, 8, 10, 11
    model = make_pipeline(StandardScaler(), _mlp_classifier()).fit(x, y)
    return to_onnx(model, x[:1], target_opset=OPSETS), {"X": x[:6]}


def imputer_normalizer_binarizer() -> tuple[onnx.ModelProto, Feeds]:
    from skl2onnx import to_onnx
    from sklearn.impute import SimpleImputer
    from sklearn.neural_network import MLPRegressor
    from sklearn.pipeline import make_pipeline
    from sklearn.preprocessing import Binarizer, Normalizer

    x = _data(2, 40)
    x[np.random.default_rng(3).random(x.shape) < 0.2] = np.nan
    model = make_pipeline(SimpleImputer(), Normalizer(norm="max"), Binarizer(threshold=0.1),
                          MLPRegressor(hidden_layer_sizes=(3,), max_iter=30, random_state=0))
    model.fit(x, np.nan_to_num(x[:, 0]))
    return to_onnx(model, x[:1], target_opset=OPSETS), {"X": x[:7]}


def column_transformer_mlp() -> tuple[onnx.ModelProto, Feeds]:
    from skl2onnx import to_onnx
    from sklearn.compose import ColumnTransformer
    from sklearn.impute import SimpleImputer
    from sklearn.pipeline import Pipeline
    from sklearn.preprocessing import StandardScaler

    x = _data(4, 40)
    x[np.random.default_rng(5).random(x.shape) < 0.15] = np.nan
    columns = ColumnTransformer([("imputed", SimpleImputer(strategy="constant", fill_value=-1.0), [0, 1]),
                                 ("scaled", StandardScaler(), [2, 3])])
    model = Pipeline([("columns", columns), ("mlp", _mlp_classifier())])
    model.fit(np.nan_to_num(x), np.array(["yes", "no", "maybe", "no"] * 10))
    return to_onnx(model, x[:1], target_opset=OPSETS), {"X": np.nan_to_num(x[:5])}


def one_hot_strings_mlp() -> tuple[onnx.ModelProto, Feeds]:
    from skl2onnx import convert_sklearn
    from skl2onnx.common.data_types import StringTensorType
    from sklearn.pipeline import make_pipeline
    from sklearn.preprocessing import OneHotEncoder

    words = np.array([["red", "s"], ["green", "m"], ["blue", "s"], ["red", "l"]] * 10, dtype=object)
    y = np.array([0, 1, 1, 0] * 10, dtype=np.int64)
    model = make_pipeline(OneHotEncoder(handle_unknown="ignore"), _mlp_classifier()).fit(words, y)
    onx = convert_sklearn(model, initial_types=[("X", StringTensorType([None, 2]))], target_opset=OPSETS)
    feeds = np.array([["red", "m"], ["pink", "s"], ["blue", "xl"]], dtype=object)  # unknown categories too
    return onx, {"X": feeds}


def one_hot_ints_mlp() -> tuple[onnx.ModelProto, Feeds]:
    from skl2onnx import to_onnx
    from sklearn.pipeline import make_pipeline
    from sklearn.preprocessing import OneHotEncoder

    codes = np.random.default_rng(6).integers(0, 5, size=(40, 3)).astype(np.int64)
    model = make_pipeline(OneHotEncoder(handle_unknown="ignore"), _mlp_classifier()).fit(codes, codes[:, 0] % 2)
    feeds = np.array([[0, 1, 2], [4, 9, 3], [2, 2, -1]], dtype=np.int64)
    return to_onnx(model, codes[:1], target_opset=OPSETS), {"X": feeds}


def normalizers_l1_l2() -> tuple[onnx.ModelProto, Feeds]:
    from skl2onnx import to_onnx
    from sklearn.pipeline import make_pipeline
    from sklearn.preprocessing import Normalizer

    x = _data(7, 10, 5)
    x[3] = 0.0  # a zero row stays zero
    model = make_pipeline(Normalizer(norm="l1"), Normalizer(norm="l2")).fit(x)
    return to_onnx(model, x[:1], target_opset=OPSETS), {"X": x}


def label_encoder_strings() -> tuple[onnx.ModelProto, Feeds]:
    from skl2onnx import convert_sklearn
    from skl2onnx.common.data_types import StringTensorType
    from sklearn.preprocessing import LabelEncoder

    model = LabelEncoder().fit(np.array(["setosa", "virginica", "versicolor"]))
    onx = convert_sklearn(model, initial_types=[("X", StringTensorType([None]))], target_opset=OPSETS)
    return onx, {"X": np.array(["virginica", "setosa", "unknown", "versicolor"], dtype=object)}


def label_encoder_ints() -> tuple[onnx.ModelProto, Feeds]:
    from skl2onnx import convert_sklearn
    from skl2onnx.common.data_types import Int64TensorType
    from sklearn.preprocessing import LabelEncoder

    model = LabelEncoder().fit(np.array([50, 30, 90, 30]))
    onx = convert_sklearn(model, initial_types=[("X", Int64TensorType([None]))], target_opset=OPSETS)
    return onx, {"X": np.array([90, 30, 7, 50, 50], dtype=np.int64)}


def dict_vectorizer_scaler() -> tuple[onnx.ModelProto, Feeds]:
    from skl2onnx import convert_sklearn
    from skl2onnx.common.data_types import DictionaryType, FloatTensorType, StringTensorType
    from sklearn.feature_extraction import DictVectorizer
    from sklearn.pipeline import make_pipeline
    from sklearn.preprocessing import MinMaxScaler

    rows = [{"height": 1.0, "width": 2.0}, {"depth": 3.0, "height": 0.5}, {"width": -1.0}]
    model = make_pipeline(DictVectorizer(sparse=False), MinMaxScaler()).fit(rows)
    onx = convert_sklearn(model, initial_types=[("X", DictionaryType(StringTensorType([1]), FloatTensorType([1])))],
                          target_opset=OPSETS)
    return onx, {"X": {"depth": 2.5, "width": 0.25}}


MAKERS: dict[str, Callable[[], tuple[onnx.ModelProto, Feeds]]] = {
    "sk_scaler_mlp": scaler_mlp,
    "sk_imputer_normalizer_binarizer": imputer_normalizer_binarizer,
    "sk_column_transformer_mlp": column_transformer_mlp,
    "sk_one_hot_strings_mlp": one_hot_strings_mlp,
    "sk_one_hot_ints_mlp": one_hot_ints_mlp,
    "sk_normalizers_l1_l2": normalizers_l1_l2,
    "sk_label_encoder_strings": label_encoder_strings,
    "sk_label_encoder_ints": label_encoder_ints,
    "sk_dict_vectorizer_scaler": dict_vectorizer_scaler,
}


def _entry(value: Any) -> dict[str, Any]:
    if isinstance(value, dict):
        return {"kind": "map", "data": [[k, float(v)] for k, v in value.items()]}
    array = np.asarray(value)
    data = array.reshape(-1).tolist()
    if array.dtype.kind == "f":
        data = [None if x != x else x for x in data]  # NaN as null (JSON has none)
    return {"kind": "tensor", "dtype": "object" if array.dtype == object else array.dtype.name,
            "shape": list(array.shape), "data": data}


def read_feeds(path: Path) -> Feeds:
    """A model's feeds as written by `make_corpus`: numpy arrays (strings as object arrays of str) and dicts."""
    feeds: Feeds = {}
    for name, entry in json.loads(path.read_text(encoding="utf-8")).items():
        if entry["kind"] == "map":
            feeds[name] = {k: v for k, v in entry["data"]}
            continue
        data = [np.nan if x is None else x for x in entry["data"]] if entry["dtype"].startswith("float") \
            else entry["data"]
        array = np.empty(len(data), dtype=object) if entry["dtype"] == "object" else None
        if array is not None:
            array[:] = data
        else:
            array = np.asarray(data, dtype=entry["dtype"])
        feeds[name] = array.reshape(entry["shape"])
    return feeds


def make_corpus(out: Path = DEFAULT_OUT) -> list[Path]:
    """Write every model (and its feeds) into `out`; the paths of the models."""
    out.mkdir(parents=True, exist_ok=True)
    written = []
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # convergence warnings of the tiny MLPs
        for name, maker in MAKERS.items():
            model, feeds = maker()
            onnx.checker.check_model(model, full_check=True)
            # feeds first, then the model, each renamed into place whole: test workers writing the corpus at
            # once never read half a file, and a model present means its feeds are
            path = out / f"{name}.onnx"
            staged = out / f".{name}.{os.getpid()}"
            staged.write_text(json.dumps({k: _entry(v) for k, v in feeds.items()}), encoding="utf-8")
            os.replace(staged, out / f"{name}.inputs.json")
            onnx.save(model, str(staged))
            os.replace(staged, path)
            written.append(path)
    return written


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--out", type=Path, default=DEFAULT_OUT)
    for path in make_corpus(p.parse_args().out):
        print(path)


if __name__ == "__main__":
    main()
