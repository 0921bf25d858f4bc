"""Kernels of this domain. MODULES lists them explicitly (one op a file)."""

MODULES: tuple[str, ...] = (
    "linear_classifier",
    "linear_regressor",
    "svm_classifier",
    "svm_regressor",
    "tree_ensemble",
    "tree_ensemble_classifier",
    "tree_ensemble_regressor",
)
