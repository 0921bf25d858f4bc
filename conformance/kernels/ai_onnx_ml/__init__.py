"""Kernels of this domain. MODULES lists them explicitly (one op a file)."""

MODULES: tuple[str, ...] = (
    "array_feature_extractor",
    "binarizer",
    "cast_map",
    "category_mapper",
    "dict_vectorizer",
    "feature_vectorizer",
    "imputer",
    "label_encoder",
    "linear_classifier",
    "linear_regressor",
    "normalizer",
    "one_hot_encoder",
    "scaler",
    "svm_classifier",
    "svm_regressor",
    "tree_ensemble",
    "tree_ensemble_classifier",
    "tree_ensemble_regressor",
    "zip_map",
)
