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
    "normalizer",
    "one_hot_encoder",
    "scaler",
    "zip_map",
)
