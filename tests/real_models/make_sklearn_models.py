"""The scikit-learn part of the real-model corpus: classical models trained on small synthetic data and converted
by skl2onnx as it converts them for users (tree ensembles, SVMs, linear models; label and probability outputs,
with and without ZipMap). Written next to the exported models (tests/real_models/make_models.py), each as
`sklearn_<name>.onnx` with `sklearn_<name>.inputs.npz`. Needs the `real-models` extra (scikit-learn, skl2onnx).

    python -m tests.real_models.make_sklearn_models [--out DIR]
"""

from __future__ import annotations

import argparse
import warnings
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np
import onnx

PREFIX = "sklearn_"
DEFAULT_OUT = Path(__file__).resolve().parents[2] / "build" / "real-models"
ML = "ai.onnx.ml"

# ops of other batches some converted models use, by model: the tests expect those models to fail until the
# registry has them
NEEDS: dict[str, tuple[tuple[str, str], ...]] = {
    "random_forest_zipmap": ((ML, "ZipMap"),),
    "logistic_regression_multi": ((ML, "Normalizer"),),
    "linear_svc_binary": ((ML, "ArrayFeatureExtractor"),),
}


def _data(classes: int, seed: int, features: int = 5) -> tuple[np.ndarray, np.ndarray]:
    from sklearn.datasets import make_classification

    x, y = make_classification(n_samples=120, n_features=features, n_informative=3, n_redundant=1,
                               n_classes=classes, random_state=seed)
    return x.astype(np.float32), y


def _rows(x: np.ndarray) -> np.ndarray:
    """The rows the model runs on: unseen ones, and training rows (which sit on thresholds the trees split at)."""
    rng = np.random.default_rng(0)
    return np.concatenate([rng.standard_normal((8, x.shape[1])).astype(x.dtype), x[:8]])


def _save(model: Any, x: np.ndarray, out: Path, name: str, options: dict[str, Any] | None = None,
          final_types: list[tuple[str, Any]] | None = None) -> dict[str, Any]:
    from skl2onnx import to_onnx

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        onx = to_onnx(model, x[:1], options={id(model): options} if options else None,
                      target_opset={"": 17, ML: 3}, final_types=final_types)
    onnx.save(onx, str(out / f"{PREFIX}{name}.onnx"))
    return {onx.graph.input[0].name: _rows(x)}


def decision_tree_classifier(out: Path) -> dict[str, Any]:
    from sklearn.tree import DecisionTreeClassifier

    x, y = _data(2, 0)
    return _save(DecisionTreeClassifier(max_depth=5, random_state=0).fit(x, y + 3), x, out,
                 "decision_tree_classifier", {"zipmap": False})


def decision_tree_regressor(out: Path) -> dict[str, Any]:
    from sklearn.tree import DecisionTreeRegressor

    x, y = _data(2, 1)
    return _save(DecisionTreeRegressor(max_depth=6, random_state=0).fit(x, x[:, 0] - 2 * y), x, out,
                 "decision_tree_regressor")


def random_forest_classifier(out: Path) -> dict[str, Any]:
    from sklearn.ensemble import RandomForestClassifier

    x, y = _data(3, 3)
    model = RandomForestClassifier(n_estimators=12, max_depth=6, random_state=0).fit(x, y)
    return _save(model, x, out, "random_forest_classifier", {"zipmap": False})


def random_forest_zipmap(out: Path) -> dict[str, Any]:
    from sklearn.ensemble import RandomForestClassifier

    x, y = _data(2, 4)
    return _save(RandomForestClassifier(n_estimators=8, max_depth=5, random_state=0).fit(x, y), x, out,
                 "random_forest_zipmap")


def random_forest_regressor(out: Path) -> dict[str, Any]:
    from skl2onnx.common.data_types import FloatTensorType
    from sklearn.ensemble import RandomForestRegressor

    x, y = _data(2, 5)
    targets = np.stack([x[:, 0] + y, x[:, 1] * x[:, 2]], axis=1)
    # two targets: skl2onnx declares the output [N, 1] unless told its type (onnxruntime produces [N, 2])
    return _save(RandomForestRegressor(n_estimators=8, max_depth=5, random_state=0).fit(x, targets), x, out,
                 "random_forest_regressor", final_types=[("variable", FloatTensorType([None, 2]))])


def gradient_boosting_binary(out: Path) -> dict[str, Any]:
    from sklearn.ensemble import GradientBoostingClassifier

    x, y = _data(2, 6)
    return _save(GradientBoostingClassifier(n_estimators=20, max_depth=3, random_state=0).fit(x, y), x, out,
                 "gradient_boosting_binary", {"zipmap": False})


def gradient_boosting_multi(out: Path) -> dict[str, Any]:
    from sklearn.ensemble import GradientBoostingClassifier

    x, y = _data(3, 7)
    return _save(GradientBoostingClassifier(n_estimators=15, max_depth=3, random_state=0).fit(x, y), x, out,
                 "gradient_boosting_multi", {"zipmap": False})


def gradient_boosting_regressor(out: Path) -> dict[str, Any]:
    from sklearn.ensemble import GradientBoostingRegressor

    x, y = _data(2, 8)
    return _save(GradientBoostingRegressor(n_estimators=20, max_depth=3, random_state=0).fit(x, x[:, 1] + y), x, out,
                 "gradient_boosting_regressor")


def svc_rbf_probability(out: Path) -> dict[str, Any]:
    from sklearn.svm import SVC

    x, y = _data(3, 9)
    return _save(SVC(kernel="rbf", probability=True, random_state=0).fit(x, y), x, out, "svc_rbf_probability",
                 {"zipmap": False})


def svc_binary(out: Path) -> dict[str, Any]:
    from sklearn.svm import SVC

    x, y = _data(2, 10)
    return _save(SVC(kernel="poly", degree=3).fit(x, y), x, out, "svc_binary", {"zipmap": False})


def linear_svc_binary(out: Path) -> dict[str, Any]:
    from sklearn.svm import LinearSVC

    x, y = _data(2, 11)
    return _save(LinearSVC(random_state=0).fit(x, y), x, out, "linear_svc_binary")


def linear_svc_multi(out: Path) -> dict[str, Any]:
    from sklearn.svm import LinearSVC

    x, y = _data(3, 12)
    return _save(LinearSVC(random_state=0).fit(x, y), x, out, "linear_svc_multi")


def logistic_regression_binary(out: Path) -> dict[str, Any]:
    from sklearn.linear_model import LogisticRegression

    x, y = _data(2, 13)
    return _save(LogisticRegression().fit(x, y), x, out, "logistic_regression_binary", {"zipmap": False})


def logistic_regression_multi(out: Path) -> dict[str, Any]:
    from sklearn.linear_model import LogisticRegression

    x, y = _data(3, 14)
    return _save(LogisticRegression().fit(x, y), x, out, "logistic_regression_multi", {"zipmap": False})


def linear_regression(out: Path) -> dict[str, Any]:
    from sklearn.linear_model import LinearRegression

    x, y = _data(2, 15)
    return _save(LinearRegression().fit(x, 3 * x[:, 0] - y), x, out, "linear_regression")


def svr(out: Path) -> dict[str, Any]:
    from sklearn.svm import SVR

    x, y = _data(2, 16)
    return _save(SVR(kernel="rbf").fit(x, x[:, 2] + y), x, out, "svr")


SKLEARN_MAKERS: dict[str, Callable[[Path], dict[str, Any]]] = {
    f.__name__: f for f in (decision_tree_classifier, decision_tree_regressor,
                            random_forest_classifier, random_forest_zipmap, random_forest_regressor,
                            gradient_boosting_binary, gradient_boosting_multi, gradient_boosting_regressor,
                            svc_rbf_probability, svc_binary, linear_svc_binary, linear_svc_multi,
                            logistic_regression_binary, logistic_regression_multi, linear_regression, svr)}
SKLEARN_MODELS = tuple(f"{PREFIX}{name}.onnx" for name in SKLEARN_MAKERS)


def needed_ops(model_file: str) -> tuple[tuple[str, str], ...]:
    """The (domain, op) pairs of other batches the model uses."""
    return NEEDS.get(model_file.removeprefix(PREFIX).removesuffix(".onnx"), ())


def make_sklearn_corpus(out: Path = DEFAULT_OUT) -> list[Path]:
    """Train, convert and write every model (and its inputs) into `out`; the paths of the models."""
    out.mkdir(parents=True, exist_ok=True)
    written = []
    for name, maker in SKLEARN_MAKERS.items():
        feeds = maker(out)
        path = out / f"{PREFIX}{name}.onnx"
        onnx.checker.check_model(onnx.load(path), full_check=True)
        np.savez(out / f"{PREFIX}{name}.inputs.npz", **feeds)
        written.append(path)
    return written


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--out", type=Path, default=DEFAULT_OUT)
    for path in make_sklearn_corpus(p.parse_args().out):
        print(path)


if __name__ == "__main__":
    main()
