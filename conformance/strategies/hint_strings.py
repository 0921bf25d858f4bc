"""Hints for the string ops (StringNormalizer, StringSplit, TfIdfVectorizer): text grammars (each op's YAML says why,
`drawn_by_hint`)."""

from __future__ import annotations

import numpy as np
from hypothesis import strategies as st

from conformance.strategies.attributes import OMIT, DrawFn
from conformance.strategies.context import DrawContext
from conformance.strategies.hints import OpHint, ValueHint, dims, set_input_shape
from conformance.strategies.memo import BOOLEANS, integers
from conformance.strategies.strings import ALPHABETS, strings_from, vocabulary
from conformance.strategies.values import SEEDS

# ---- the string ops ---------------------------------------------------------------------------------------

def _rng(draw: DrawFn) -> np.random.Generator:
    return np.random.default_rng(draw(SEEDS))


def _case_variant(rng: np.random.Generator, word: str) -> str:
    """The word as it is, in upper or lower case, or with its first letter upper-cased."""
    k = int(rng.integers(0, 4))
    return (word, word.upper(), word.lower(), word[:1].upper() + word[1:])[k]


# words whose case changes are not one character for one in Python's str methods (full mappings, final sigma):
# the simple mappings keep their length
# (and the case change that shows it)
SPECIAL_CASE = (("straße", "UPPER"), ("ΟΔΟΣ", "LOWER"), ("İz", "LOWER"))

# StringNormalizer: X drawn from a few words in several cases (half the time one of SPECIAL_CASE among them); the
# stop words from the same words (in any case), one matching an element in lower case only, and some absent ones,
# so case-sensitive and case-insensitive matching differ

def _normalizer_shapes(draw: DrawFn, ctx: DrawContext) -> None:
    rng = _rng(draw)
    words = vocabulary(rng, int(rng.integers(1, 5)), alphabet=ALPHABETS["text"], max_length=5, empty=False)
    special = draw(BOOLEANS)
    if special:
        word, action = SPECIAL_CASE[int(rng.integers(0, len(SPECIAL_CASE)))]
        words.append(word)
        ctx.scratch["case_change_action"] = action
    count = draw(integers(1, 6))
    values = [_case_variant(rng, words[int(i)]) for i in rng.integers(0, len(words), size=(count,))]
    if special:
        values[int(rng.integers(0, count))] = words[-1]
    if draw(integers(0, 5)) == 0:
        values[int(rng.integers(0, count))] = ""  # an empty element is kept unless "" is a stop word
    shape = [count] if draw(BOOLEANS) else [1, count]
    set_input_shape(ctx, "X", shape)
    ctx.scratch["X"] = strings_from(values, shape)
    chosen = [_case_variant(rng, w) for w in words[:len(words) - special] if rng.integers(0, 2)]
    cased = [w for w in values if w.upper() != w.lower()]
    if cased:  # a stop word that matches an element in lower case only: is_case_sensitive decides
        w = cased[int(rng.integers(0, len(cased)))]
        chosen.append(w.lower() if w != w.lower() else w.upper())
    chosen += vocabulary(rng, int(rng.integers(0, 3)), alphabet=ALPHABETS["ascii"], empty=False)
    if "" in values and rng.integers(0, 3) == 0:
        chosen.append("")
    ctx.scratch["stopwords"] = chosen


def _stopwords(draw: DrawFn, ctx: DrawContext) -> object:
    return OMIT if draw(integers(0, 4)) == 0 else list(ctx.scratch["stopwords"])


# onnxruntime builds the named locale (en_US.UTF-8 when none is given) and fails where the system lacks it; the
# registry's case mapping is the same in every UTF-8 locale, so the draws name the one every glibc system has
STRING_NORMALIZER_HINT = OpHint(shapes=_normalizer_shapes,
                                attributes={"stopwords": _stopwords, "locale": lambda draw, ctx: "C.UTF-8",
                                            # the telling values first: Hypothesis draws first choices most often
                                            "case_change_action": lambda draw, ctx: ctx.scratch.get(
                                                "case_change_action") or draw(st.sampled_from(
                                                    ["UPPER", "LOWER", OMIT, "NONE"])),
                                            "is_case_sensitive": lambda draw, ctx: draw(st.sampled_from([1, 0, OMIT]))},
                                values={"X": lambda draw, ctx: ctx.scratch["X"]})


# StringSplit: strings joined from words with the delimiter (consecutive, leading and trailing ones included), or
# with runs of whitespace (tabs and newlines in a third of the draws: onnxruntime's reading stringsplit_r1)

DELIMITERS = (",", " ", "-", "ab", "é", "::")


def _split_shapes(draw: DrawFn, ctx: DrawContext) -> None:
    rng = _rng(draw)
    delimiter = draw(st.sampled_from([None, "", *DELIMITERS]))
    ctx.scratch["delimiter"] = OMIT if delimiter is None else delimiter
    shape = dims(draw, draw(integers(0, 3)), 4)
    count = int(np.prod(shape)) if shape else 1
    words = vocabulary(rng, 4, alphabet=ALPHABETS["word"].replace(" ", ""), max_length=4)
    spaces = [" ", "  "] + (["\t", "\n", " \t "] if draw(integers(0, 2)) == 0 else [])
    texts = []
    for _ in range(count):
        parts = [words[int(i)] for i in rng.integers(0, len(words), size=int(rng.integers(0, 5)))]
        if delimiter:
            texts.append(delimiter.join(parts))
        else:
            pad = [spaces[int(i)] for i in rng.integers(0, len(spaces), size=len(parts) + 1)]
            ends = [pad[0] if rng.integers(0, 2) else "", pad[-1] if rng.integers(0, 2) else ""]
            texts.append(ends[0] + "".join(p + s for p, s in zip(parts, pad[1:], strict=True)).rstrip() + ends[1])
    set_input_shape(ctx, "X", shape)
    ctx.scratch["X"] = strings_from(texts, shape)


def _maxsplit(draw: DrawFn, ctx: DrawContext) -> object:
    return draw(st.sampled_from([OMIT, 0, 1, 2, 3, -1]))


STRING_SPLIT_HINT = OpHint(shapes=_split_shapes,
                           attributes={"delimiter": lambda draw, ctx: ctx.scratch["delimiter"],
                                       "maxsplit": _maxsplit},
                           values={"X": lambda draw, ctx: ctx.scratch["X"]})


# TfIdfVectorizer: X first (items from a small vocabulary, so n-grams repeat), then a pool of distinct n-grams of
# each size, most of them taken from X's own windows (with and without skips, and with a gap one past
# max_skip_count, which must count nothing) so that counts are seldom zero, some absent; ngram_counts,
# ngram_indexes (a permutation, now and then with gaps or a shared coordinate) and weights follow the pool. A string
# cell pools strings, an integer cell int64s.

def _tfidf_shapes(draw: DrawFn, ctx: DrawContext) -> None:
    rng = _rng(draw)
    strings = ctx.dtype == "string"
    items: list[object] = list(vocabulary(rng, int(rng.integers(2, 5)), alphabet=ALPHABETS["text"], max_length=3,
                                          empty=False)) if strings else [int(v) for v in rng.choice(20, 4, False)]
    shape = [draw(integers(1, 8))] if draw(BOOLEANS) else [draw(integers(1, 3)), draw(integers(1, 8))]
    rows = rng.integers(0, len(items), size=shape).reshape(-1, shape[-1])
    longest = draw(integers(1, 3))
    shortest = draw(integers(1, longest))
    skip = draw(integers(0, 3))
    pool: list[object] = []
    counts: list[int] = []
    for n in range(1, longest + 1):
        counts.append(len(pool))
        grams: list[tuple[int, ...]] = []
        for _ in range(int(rng.integers(1, 5))):
            row = rows[int(rng.integers(0, rows.shape[0]))]
            s = int(rng.integers(0, skip + 2))  # skip + 1 too: a gap just past max_skip_count counts nothing
            span = (n - 1) * (s + 1)
            if span < row.size and rng.integers(0, 4):  # a window of X
                start = int(rng.integers(0, row.size - span))
                gram = tuple(int(row[start + k * (s + 1)]) for k in range(n))
            else:  # any n-gram (mostly absent from X)
                gram = tuple(int(v) for v in rng.integers(0, len(items), size=n))
            if gram not in grams:
                grams.append(gram)
        pool += [items[i] for gram in grams for i in gram]
    total = sum((b - a) // (k + 1) for k, (a, b) in enumerate(zip(counts, [*counts[1:], len(pool)], strict=True)))
    indexes = [int(v) for v in rng.permutation(total + int(rng.integers(0, 3)))[:total]]
    if total > 1 and rng.integers(0, 5) == 0:
        indexes[int(rng.integers(1, total))] = indexes[0]  # two n-grams counted into one coordinate
    x = np.asarray([items[int(i)] for i in rows.reshape(-1)], dtype=object if strings else np.int64)
    set_input_shape(ctx, "X", shape)
    integer = np.dtype(np.int32) if ctx.dtype == "int32" else np.dtype(np.int64)
    ctx.scratch["X"] = x.reshape(shape) if strings else x.reshape(shape).astype(integer)
    ctx.scratch["tfidf"] = {
        "max_gram_length": longest, "min_gram_length": shortest, "max_skip_count": skip, "ngram_counts": counts,
        "ngram_indexes": indexes, "pool_strings" if strings else "pool_int64s": pool,
        "weights": [float(v) / 4 for v in rng.integers(1, 9, size=total)] if rng.integers(0, 2) else OMIT}


def _tfidf_attribute(name: str) -> ValueHint:
    return lambda draw, ctx: ctx.scratch["tfidf"].get(name, OMIT)


TF_IDF_VECTORIZER_HINT = OpHint(
    shapes=_tfidf_shapes,
    attributes={name: _tfidf_attribute(name) for name in ("max_gram_length", "min_gram_length", "max_skip_count",
                                                          "ngram_counts", "ngram_indexes", "pool_int64s",
                                                          "pool_strings", "weights")},
    values={"X": lambda draw, ctx: ctx.scratch["X"]})
