"""Drawing from a domain (docs/format.md, "Domains"): valid values built directly, never filtered.

Each function takes a `ValueDomain` and the draw's environment (the names its formulas read, and the drawn values
`value(X)` reads) and returns a value: an attribute's (a scalar or a list), a dim's or tuple's size, or an input's
array. A formula that cannot be evaluated in this draw, or bounds that leave nothing to draw, raise `Undrawable`: the
builder then draws the whole case again (as it does for a case the constraints refuse).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import fields, replace
from typing import Any

import numpy as np
from hypothesis import strategies as st

from conformance.element_types import COMPUTE_AS, FLOATS, ML_INTEGERS, finite_range, integer_range, is_float_dtype
from conformance.strategies.attributes import DrawFn
from conformance.strategies.conversions import conversion_values, target_element
from conformance.strategies.dtypes import numpy_dtype
from conformance.strategies.memo import BOOLEANS, integers
from conformance.strategies.values import SEEDS, fill_array
from opset.formula import Formula, FormulaError, Undecided
from opset.model import FILLS, ValueDomain

Env = Mapping[str, Any]
Values = Mapping[str, list[Any]]
DEFAULT_LOW, DEFAULT_HIGH = -4.0, 4.0  # the generic draw's bounds for tensor values
SPECIAL_SHARE = 0.25  # of the elements replaced by a special value (`fill: specials`)
MAX_CANDIDATES = 4096  # values enumerated for `exclude` and `unique`


class Undrawable(Exception):
    """This draw cannot satisfy the domain (a formula undecided, an empty range): draw the case again."""


def evaluate(formula: Formula, env: Env, values: Values | None = None) -> Any:
    try:
        return formula.evaluate(env, values)
    except (FormulaError, Undecided, KeyError, TypeError, ZeroDivisionError) as e:
        raise Undrawable(f"{formula.text}: {e}") from e


def _number(formula: Formula | None, env: Env, values: Values | None, default: float | None) -> float | None:
    if formula is None:
        return default
    found = evaluate(formula, env, values)
    if found is None:
        return default
    if isinstance(found, bool) or not isinstance(found, int | float):
        raise Undrawable(f"{formula.text} gives {found!r}, not a number")
    return found


def bounds(domain: ValueDomain | None, env: Env, values: Values | None, low: float | None,
           high: float | None) -> tuple[float | None, float | None]:
    """The domain's `range` evaluated (a bound it leaves null keeps `low`/`high`)."""
    if domain is None or domain.range is None:
        return low, high
    return _number(domain.range[0], env, values, low), _number(domain.range[1], env, values, high)


def with_element(env: Env, index: int) -> dict[str, Any]:
    return {**env, "i": index}


INTEGERS = frozenset({"int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64", "int4", "uint4",
                      "int2", "uint2", "bool"})
_OWN_FIELDS = frozenset({"location", "integers", "floats", "strings"})


def for_element(domain: ValueDomain | None, element: str) -> ValueDomain | None:
    """The domain with its `integers` or `floats` keys applied, as `element` (an input's element type; the cell's for
    attributes and dims) is an integer or a float type."""
    if domain is None:
        return None
    sub = domain.integers if element in INTEGERS else domain.floats if element in FLOATS else \
        domain.strings if element == "string" else None
    if sub is None:
        return domain
    changes = {f.name: getattr(sub, f.name) for f in fields(sub)
               if f.name not in _OWN_FIELDS and getattr(sub, f.name) != f.default}
    return replace(domain, **changes)


# ---- choices that give the whole value ------------------------------------------------------------------------

def chosen(draw: DrawFn, domain: ValueDomain, env: Env, values: Values | None) -> tuple[bool, Any]:
    """(True, value) where the domain gives the whole value (`value`, `one_of`, `permutation`, `axes`), else
    (False, None). A `one_of` whose choices read `i` is per element: not a whole value."""
    if domain.value is not None:
        value = evaluate(domain.value, env, values)
        if value is not None:  # None: this draw's value comes from the other keys
            return True, value
    if domain.one_of and not per_element_choice(domain):
        picked = domain.one_of[draw(integers(0, len(domain.one_of) - 1))]
        return True, evaluate(picked, env, values)
    if domain.permutation is not None:
        n = _count(evaluate(domain.permutation, env, values), "permutation")
        return True, [int(a) for a in draw(st.permutations(list(range(n))))]
    if domain.axes is not None:
        return True, draw_axes(draw, domain, env, values)
    return False, None


def _count(value: Any, what: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or value < 0:
        raise Undrawable(f"{what} needs a count >= 0, got {value!r}")
    return value


def draw_axes(draw: DrawFn, domain: ValueDomain, env: Env, values: Values | None) -> list[int]:
    """Distinct axes of a rank-r tensor (`axes: r`; only those `among` lists, where given), ascending, each counted
    from the end at random where `negative`; how many: `count` (default 1 to all; none for r = 0)."""
    rank = _count(evaluate(domain.axes, env, values), "axes") if domain.axes is not None else 0
    candidates = list(range(rank)) if domain.among is None else sorted(evaluate(domain.among, env, values))
    low, high = count_bounds(domain, env, values, 1, len(candidates))
    low, high = max(0, low), min(len(candidates), high)
    if low > high:
        raise Undrawable(f"axes: cannot pick {low} to {high} of {candidates}")
    size = draw(integers(low, high))
    picked = sorted(draw(st.lists(st.sampled_from(candidates), min_size=size, max_size=size, unique=True))) \
        if size else []
    return [a - rank if domain.negative and draw(BOOLEANS) else a for a in picked]


def count_bounds(domain: ValueDomain, env: Env, values: Values | None, low: int, high: int) -> tuple[int, int]:
    """The domain's `count` bounds (how many axes, a list's length), else [low, high]."""
    if domain.count is None:
        return low, high
    return int(_number(domain.count[0], env, values, low) or 0), int(_number(domain.count[1], env, values, high) or 0)


def parts(draw: DrawFn, total: int, count: int) -> list[int]:
    """`count` ints >= 0 that add up to `total` (`sum`)."""
    if count == 0:
        if total != 0:
            raise Undrawable(f"no parts can add up to {total}")
        return []
    cuts = sorted(int(draw(integers(0, total))) for _ in range(count - 1))
    return [b - a for a, b in zip([0, *cuts], [*cuts, total], strict=True)]


def per_element_choice(domain: ValueDomain) -> bool:
    """Whether `one_of` picks per element (`each`, or choices that read `i`, the element's position)."""
    return bool(domain.one_of) and (domain.each or any("i" in f.names for f in domain.one_of))


def pick_element(draw: DrawFn, domain: ValueDomain, env: Env, values: Values | None, index: int) -> Any:
    """One element of a per-element `one_of`: a choice drawn, evaluated with `i` = index."""
    picked = domain.one_of[draw(integers(0, len(domain.one_of) - 1))]
    return evaluate(picked, with_element(env, index), values)


def draws_values(domain: ValueDomain) -> bool:
    """Whether the domain says anything about values (else only presence or shape)."""
    return any(getattr(domain, key) not in (None, (), False) for key in (
        "range", "exclude", "index", "axes", "permutation", "sum", "one_of", "value", "unique", "sorted",
        "probabilities", "repeats", "fill", "fill_of", "dtype_of", "among", "hits", "converts_to"))


# ---- attributes -----------------------------------------------------------------------------------------------

def draw_scalar(draw: DrawFn, domain: ValueDomain, env: Env, values: Values | None, kind: str) -> Any:
    """An int, float or string attribute's value from its domain (`range`, `index`, `exclude`)."""
    if domain.index is not None:
        size = _count(evaluate(domain.index, env, values), "index")
        if size == 0:
            raise Undrawable("an index into an empty dim")
        return draw(integers(-size if domain.negative else 0, size - 1))
    low, high = bounds(domain, env, values, None, None)
    if kind == "int":
        lo = int(np.ceil(low)) if low is not None else -1
        hi = int(np.floor(high)) if high is not None else lo + 3
        options = [v for v in range(lo, hi + 1) if v not in domain.exclude] if hi - lo < MAX_CANDIDATES else None
        if options is not None:
            if not options:
                raise Undrawable(f"range [{lo}, {hi}] holds no allowed value")
            return options[draw(integers(0, len(options) - 1))]
        return draw(integers(lo, hi))
    if kind == "float":
        if domain.fill == "specials" and draw(integers(0, 1)) == 0:  # NaN first: the simplest draw
            return draw(st.sampled_from([float("nan"), float("inf"), float("-inf"), -0.0]))
        lo8 = int(np.ceil(8 * low)) if low is not None else -16
        hi8 = int(np.floor(8 * high)) if high is not None else lo8 + 32
        if lo8 > hi8:
            raise Undrawable(f"range [{low}, {high}] holds no value on the eighth grid")
        return draw(integers(lo8, hi8)) / 8
    raise Undrawable(f"a {kind} attribute needs value or one_of")


def draw_list(draw: DrawFn, domain: ValueDomain, env: Env, values: Values | None, kind: str, length: int) -> list[Any]:
    """A list attribute's elements, each from the domain with `i` its position (`sum` splits a total)."""
    if domain.sum is not None:
        total = _count(evaluate(domain.sum, env, values), "sum")
        return parts(draw, total, length)
    distinct = holds(domain.unique, env, values)
    options = _distinct_options(domain, env, values, kind) if distinct else None
    if options is not None:  # picked without repeats, rather than drawn and refused
        if len(options) < length:
            raise Undrawable(f"{length} distinct values from {len(options)}")
        picked = list(draw(st.lists(st.sampled_from(options), min_size=length, max_size=length, unique=True)))
        return sorted(picked) if domain.sorted else picked
    if per_element_choice(domain):
        return [pick_element(draw, domain, env, values, i) for i in range(length)]
    items = [draw_scalar(draw, domain, with_element(env, i), values, kind) for i in range(length)]
    if distinct and len(set(items)) < len(items):
        raise Undrawable("repeated values in a unique list")
    return sorted(items) if domain.sorted else items


def _distinct_options(domain: ValueDomain, env: Env, values: Values | None, kind: str) -> list[Any] | None:
    """The values a unique list picks from, where they do not depend on the element's position: a `one_of`'s
    choices, or the ints (floats: the eighth steps) of a `range`; None where the elements are drawn one by one."""
    if domain.one_of and not any("i" in f.names for f in domain.one_of):
        return list(dict.fromkeys(evaluate(f, env, values) for f in domain.one_of))
    if domain.among is not None and domain.axes is None:
        pool = evaluate(domain.among, env, values)
        if not isinstance(pool, list):
            raise Undrawable(f"among gives {pool!r}, no list of values to pick from")
        return list(dict.fromkeys(pool))
    if kind in ("int", "float") and domain.range is not None and domain.index is None and \
            not any(f is not None and "i" in f.names for f in domain.range):
        low, high = bounds(domain, env, values, None, None)
        grid = 1 if kind == "int" else 8
        if low is not None and high is not None and (high - low) * grid < MAX_CANDIDATES:
            steps = range(int(np.ceil(low * grid)), int(np.floor(high * grid)) + 1)
            return [v if kind == "int" else v / grid for v in steps if v / grid not in domain.exclude]
    return None


# ---- dims and tuples ------------------------------------------------------------------------------------------

def draw_size(draw: DrawFn, domain: ValueDomain | None, env: Env, values: Values | None, max_side: int,
              index: int | None = None, *, helper: bool = False) -> int:
    """One dim's size: `range` (`i` = `index` inside a tuple), default 1 to max_side; then `multiple_of`. A
    helper (a name no signature has) is any int of its range, negative ones too."""
    scope = env if index is None else with_element(env, index)
    low, high = bounds(domain, scope, values, 1, max_side)
    lo, hi = int(np.ceil(low if low is not None else 1)), int(np.floor(high if high is not None else max_side))
    if not helper:
        lo = max(lo, 0)
    if lo > hi:
        raise Undrawable(f"dim range [{lo}, {hi}] is empty")
    size = int(draw(integers(lo, hi)))
    if domain is not None and domain.multiple_of is not None:
        factor = evaluate(domain.multiple_of, scope, values)
        if not isinstance(factor, int) or factor < 1:
            raise Undrawable(f"multiple_of {factor!r}")
        size *= factor
    return size


def draw_rank(draw: DrawFn, domain: ValueDomain | None, env: Env, values: Values | None, low: int,
              high: int) -> int:
    """A tuple's or input's rank: the domain's `rank` inside [low, high] (the plan's bounds)."""
    if domain is not None and domain.rank is not None:
        lo = int(_number(domain.rank[0], env, values, low) or 0)
        hi = int(_number(domain.rank[1], env, values, high) or 0)
        low, high = lo, hi
    if low > high or high < 0:
        raise Undrawable(f"rank bounds [{low}, {high}]")
    return int(draw(integers(max(low, 0), high)))


def with_empty_dim(draw: DrawFn, domain: ValueDomain | None, env: Env, values: Values | None,
                   shape: list[int]) -> list[int]:
    """`shape` with one dim set to 0 in about one draw of four, where the domain's `empty` holds."""
    if domain is None or domain.empty is None or not shape or not evaluate(domain.empty, env, values):
        return shape
    if draw(integers(0, 3)) != 0:
        return shape
    out = list(shape)
    out[draw(integers(0, len(out) - 1))] = 0
    return out


# ---- tensors --------------------------------------------------------------------------------------------------

def draw_tensor(draw: DrawFn, domain: ValueDomain, env: Env, values: Values | None, element: str,
                shape: Sequence[int] | None) -> np.ndarray:
    """An input's array of `element` and `shape` from its domain; shape None: the domain gives the whole value, and
    its shape with it (a value given for a drawn shape is broadcast to it: one scale for every channel)."""
    given, value = chosen(draw, domain, env, values)
    if given:
        array = as_array(value, element)
        if shape is None:
            return array
        try:
            return np.asarray(np.broadcast_to(array, tuple(shape)).copy())
        except ValueError as e:
            raise Undrawable(f"{value!r} does not broadcast to {list(shape)}") from e
    shape = [] if shape is None else shape
    if domain.converts_to is not None:
        target = evaluate(domain.converts_to, env, values)
        try:
            return conversion_values(draw, element, target_element(target), list(shape))
        except ValueError as e:
            raise Undrawable(f"converts_to {domain.converts_to.text}: {e}") from e
    seed = draw(SEEDS)
    rng = np.random.default_rng(seed)
    if domain.index is not None:
        sizes = evaluate(domain.index, env, values)
        along = evaluate(domain.unique_along, env, values) if domain.unique_along is not None else None
        distinct = holds(domain.unique, env, values)
        return as_array(indices(rng, list(shape), sizes, negative=domain.negative, along=along, distinct=distinct),
                        element)
    if domain.repeats is not None:
        return repeated_slices(draw, element, list(shape), evaluate(domain.repeats, env, values))
    if domain.sum is not None:
        total = _count(evaluate(domain.sum, env, values), "sum")
        return as_array(parts(draw, total, int(np.prod(shape)) if shape else 1), element).reshape(shape)
    if per_element_choice(domain):
        size = int(np.prod(shape)) if shape else 1
        if size > MAX_CANDIDATES:
            raise Undrawable(f"a per-element choice over {size} elements")
        options = _distinct_options(domain, env, values, "") if holds(domain.unique, env, values) else None
        if options is not None:  # distinct choices, picked without repeats
            if len(options) < size:
                raise Undrawable(f"{size} distinct values from {len(options)}")
            picked = [options[k] for k in rng.permutation(len(options))[:size]]
            return as_array(np.asarray(picked, dtype=object).reshape(shape), element)
        return as_array(np.asarray([pick_element(draw, domain, env, values, i) for i in range(size)]).reshape(shape),
                        element)
    if domain.range is not None and any(f is not None and "i" in f.names for f in domain.range):
        return per_element(draw, domain, env, values, element, list(shape))
    low, high = bounds(domain, env, values, DEFAULT_LOW, DEFAULT_HIGH)
    low = DEFAULT_LOW if low is None else low
    high = DEFAULT_HIGH if high is None else high
    if low > high:
        raise Undrawable(f"value range [{low}, {high}] is empty")
    unique = holds(domain.unique, env, values)
    step = _number(domain.step, env, values, None)
    if domain.probabilities:
        array = probability_rows(rng, element, list(shape))
    elif unique or domain.exclude or step is not None:
        array = from_candidates(rng, element, list(shape), low, high, domain.exclude, unique=unique, step=step)
    else:
        array = filled(seed, fill_of(domain, env, values), element, list(shape), low, high)
    array = looked_up(rng, domain, env, values, element, array)
    if domain.sorted and array.ndim:
        array = np.sort(array.astype(COMPUTE_AS.get(element, array.dtype)), axis=-1).astype(array.dtype)
    return np.asarray(array)


def looked_up(rng: np.random.Generator, domain: ValueDomain, env: Env, values: Values | None, element: str,
              array: np.ndarray) -> np.ndarray:
    """`array` with every value picked from the list `among` gives, or about half of them from the list `hits`
    gives (the keys, categories or replaced value a look-up op names: look-ups that hit as well as miss); a list that
    is None (no rule in this draw) or, for `hits`, empty changes nothing."""
    for key, formula, share in (("among", domain.among, 1.0), ("hits", domain.hits, 0.5)):
        pool = evaluate(formula, env, values) if formula is not None else None
        if pool is None or (share < 1 and isinstance(pool, list) and not pool):
            continue
        if not isinstance(pool, list) or not pool:
            raise Undrawable(f"{key} gives {pool!r}, no list of values to pick from")
        picks = as_array(pool, element)[rng.integers(0, len(pool), array.shape)]
        array = np.asarray(np.where(rng.random(array.shape) < share, picks, array)).astype(array.dtype)
    return array


def as_array(value: Any, element: str) -> np.ndarray:
    """A formula's value (a number or a (nested) list) as an array of `element`."""
    dtype = numpy_dtype(element)
    wide = COMPUTE_AS.get(element, dtype)
    try:
        return np.asarray(np.asarray(value, dtype=wide).astype(dtype))
    except (TypeError, ValueError) as e:
        raise Undrawable(f"{value!r} is no array of {element}") from e


def holds(condition: Formula | None, env: Env, values: Values | None) -> bool:
    """Whether a condition key (`unique`) holds; absent, it does not."""
    return condition is not None and bool(evaluate(condition, env, values))


def per_element(draw: DrawFn, domain: ValueDomain, env: Env, values: Values | None, element: str,
                shape: list[int]) -> np.ndarray:
    """A tensor whose `range` reads `i`, the element's flat (C-order) position: each element drawn in its own
    bounds (for small index-like inputs: a crop size per axis, the condition's entries past the axis)."""
    size = int(np.prod(shape)) if shape else 1
    if size > MAX_CANDIDATES:
        raise Undrawable(f"a per-element range over {size} elements")
    seed = draw(SEEDS)
    unique = holds(domain.unique, env, values)
    rng = np.random.default_rng(seed)
    flat: list[Any] = []
    for i in range(size):
        low, high = bounds(domain, with_element(env, i), values, DEFAULT_LOW, DEFAULT_HIGH)
        low, high = DEFAULT_LOW if low is None else low, DEFAULT_HIGH if high is None else high
        if unique:  # each element in its own bounds, none equal to an earlier one (MaxUnpool's positions per plane)
            flat.append(from_candidates(rng, element, [], low, high, [*domain.exclude, *flat], unique=True).item())
        else:
            flat.append(filled(seed + i, fill_of(domain, env, values), element, [], low, high).item())
    return as_array(np.asarray(flat).reshape(shape), element)


def indices(rng: np.random.Generator, shape: list[int], sizes: Any, *, negative: bool, along: Any = None,
            distinct: bool = False) -> np.ndarray:
    """Indices valid into dims of `sizes` (`index`): distinct along axis `along` (each line of it on its own) or,
    with `distinct` and a list of sizes, distinct index tuples (the last axis), where there are enough targets;
    each negative (counted from the end) at random where `negative`."""
    if along is not None and shape and isinstance(sizes, int) and shape[along] <= sizes:
        full = list(shape)
        full[along] = sizes
        picked = np.take(np.argsort(rng.random(full), axis=along, kind="stable"), np.arange(shape[along]), axis=along)
        return _signed(rng, picked.astype(np.int64), sizes, negative)
    if distinct and isinstance(sizes, list) and shape and sizes:
        count, slots = int(np.prod(shape[:-1])), int(np.prod(sizes))
        if count <= slots:
            flat = rng.permutation(slots)[:count]
            picked = np.stack(np.unravel_index(flat, sizes), axis=-1).reshape(shape).astype(np.int64)
            return _signed(rng, picked, np.asarray(sizes, dtype=np.int64), negative)
    return in_bounds(rng, shape, sizes, negative=negative)


def _signed(rng: np.random.Generator, idx: np.ndarray, sizes: Any, negative: bool) -> np.ndarray:
    return np.asarray(np.where(rng.random(idx.shape) < 0.5, idx - sizes, idx) if negative else idx)


def in_bounds(rng: np.random.Generator, shape: list[int], sizes: Any, *, negative: bool) -> np.ndarray:
    """Indices valid into dims of `sizes` (an int, or a list broadcast against the last axis): [-n, n-1], or
    [0, n-1] without `negative`."""
    bound = np.broadcast_to(np.asarray(sizes, dtype=np.int64), shape)
    if bound.size and int(bound.min()) < 1:
        raise Undrawable(f"an index into an empty dim (sizes {sizes!r})")
    idx = np.floor(rng.random(shape) * bound).astype(np.int64)
    if negative:
        idx = np.where(rng.random(shape) < 0.5, idx - bound, idx)
    return np.asarray(idx)


def fill_of(domain: ValueDomain, env: Env, values: Values | None) -> str | None:
    """The fill of this draw: `fill_of`'s value where given (a helper may draw it), else `fill`."""
    if domain.fill_of is None:
        return domain.fill
    name = evaluate(domain.fill_of, env, values)
    if name not in FILLS:
        raise Undrawable(f"{domain.fill_of.text} gives {name!r}, not one of {', '.join(FILLS)}")
    return str(name)


def filled(seed: int, fill: str | None, element: str, shape: list[int], low: float, high: float) -> np.ndarray:
    """Values of `element` in [low, high] (`small`, the default), over the whole integer type (`full`), small
    values mixed with both ends of the type (`ends`), or with NaN, infinities and -0 (the extremes for integers)
    in about a quarter of the elements (`specials`)."""
    if fill == "log":  # scales across orders of magnitude: log-uniform, arbitrary float32 values
        if low <= 0:
            raise Undrawable(f"a log-uniform fill needs a positive range, not [{low}, {high}]")
        rng = np.random.default_rng(seed)
        return as_array(np.asarray(low * (high / low) ** rng.random(tuple(shape)), dtype=np.float32), element)
    if fill == "full" and element in ML_INTEGERS:  # int4, uint4, int2, uint2: numpy has no iinfo of them
        lowest, highest = integer_range(element)
        return fill_array(seed, element, shape, min_value=float(lowest), max_value=float(highest))
    small = fill_array(seed, element, shape, min_value=low, max_value=high)
    dtype = small.dtype
    if fill in (None, "small") or (dtype.kind not in "iub" and not is_float_dtype(dtype)):
        return small
    rng = np.random.default_rng(seed ^ 0x5EC1A15)
    if fill == "specials":
        specials = specials_of(dtype)
        if not specials.size:
            return small
        chosen_at = rng.random(small.shape) < SPECIAL_SHARE
        return np.asarray(np.where(chosen_at, specials[rng.integers(0, specials.size, small.shape)], small)
                          .astype(dtype))
    if dtype.kind not in "iu":
        return small  # `full` and `ends` concern integers; other types keep the small values
    info = np.iinfo(dtype)
    lowest, highest = max(int(info.min), -2**63), min(int(info.max), 2**63 - 1024)
    if fill == "full":
        return fill_array(seed, element, shape, min_value=float(lowest), max_value=float(highest))
    bottom = rng.integers(lowest, lowest + 4, size=shape, dtype=dtype, endpoint=True)
    top = rng.integers(int(info.max) - 4, int(info.max), size=shape, dtype=dtype, endpoint=True)
    return np.asarray(np.choose(rng.integers(0, 3, size=shape), [small, bottom, top]))


def specials_of(dtype: np.dtype) -> np.ndarray:
    """The special values of a numeric dtype: NaN, +-inf and -0 for floats, the extremes for integers."""
    if is_float_dtype(dtype):  # ml_dtypes floats too
        return np.array([np.nan, np.inf, -np.inf, -0.0], dtype=dtype)
    if dtype.kind in "iu":
        info = np.iinfo(dtype)
        return np.array([info.min, info.max], dtype=dtype)
    return np.zeros(0, dtype=dtype)


def from_candidates(rng: np.random.Generator, element: str, shape: list[int], low: float, high: float,
                    exclude: Sequence[Any], *, unique: bool, step: float | None = None) -> np.ndarray:
    """Values drawn uniformly from the grid of [low, high] (multiples of `step`; by default ints, quarter steps for
    floats) without the excluded ones; all different with `unique`."""
    if step is not None and step <= 0:
        raise Undrawable(f"step {step!r}")
    step = step or (0.25 if element in FLOATS else 1.0)
    type_low, type_high = finite_range(element)
    lo, hi = max(low, type_low), min(high, type_high)
    first, last = int(np.ceil(lo / step)), int(np.floor(hi / step))
    if last - first >= MAX_CANDIDATES:
        last = first + MAX_CANDIDATES - 1
    grid = np.arange(first, last + 1) * step
    grid = grid[~np.isin(grid, np.asarray(list(exclude), dtype=np.float64))] if exclude else grid
    size = int(np.prod(shape)) if shape else 1
    if grid.size == 0 or (unique and grid.size < size):
        raise Undrawable(f"[{low}, {high}] holds too few allowed values for {size} elements")
    picked = rng.choice(grid, size=size, replace=not unique)
    return as_array(picked.reshape(shape), element)


def probability_rows(rng: np.random.Generator, element: str, shape: list[int]) -> np.ndarray:
    """Non-negative values whose rows (the last axis) add up to 1, zeros among them."""
    weights = rng.integers(0, 4, size=shape).astype(np.float64)
    if weights.ndim:
        weights[..., 0] = np.where(weights.sum(axis=-1) == 0, 1.0, weights[..., 0])
        weights = weights / weights.sum(axis=-1, keepdims=True)
    else:
        weights = np.ones(shape)
    return as_array(weights, element)


def repeated_slices(draw: DrawFn, element: str, shape: list[int], axis: Any) -> np.ndarray:
    """Values made of 1 to 3 distinct slices along `axis`, picked with repeats (`repeats`); without an axis (None)
    values in [-2, 2], which repeat often."""
    if axis is None or not shape or shape[axis] == 0:
        return fill_array(draw(SEEDS), element, shape, min_value=-2, max_value=2)
    source = list(shape)
    source[axis] = draw(integers(1, 3))
    slices = fill_array(draw(SEEDS), element, source, min_value=-1, max_value=1)
    picks = np.random.default_rng(draw(SEEDS)).integers(0, source[axis], size=shape[axis])
    return np.asarray(np.take(slices, picks, axis=int(axis)))
