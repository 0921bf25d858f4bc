"""RegexFullMatch's hint: a random RE2 pattern, and strings that match it or nearly do.

A pattern is drawn as a small tree (literals, classes such as \\d, \\w, \\s, ., [a-c], [^ab], [[:alpha:]], groups,
alternatives, repetitions with greedy and lazy forms, ^ and $, a leading or inner (?i)), written out in RE2's
syntax; each string is a sample the tree generates (a full match), a sample with one character deleted,
inserted or replaced, a sample with a final newline (what `$` must not accept), or random text. The alphabet
holds what RE2 and Python's `re` read differently: a non-ASCII digit and letter (\\d and \\w are ASCII in RE2), a
vertical tab (no \\s in RE2), a newline.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from conformance.strategies.attributes import DrawFn
from conformance.strategies.context import DrawContext
from conformance.strategies.hints import OpHint, dims, set_input_shape
from conformance.strategies.memo import integers
from conformance.strategies.strings import strings_from
from conformance.strategies.values import SEEDS

UNIVERSE = "abcAB019 .-_\t\n\v\u00e9\u00c9\u0661\u4e2d"  # é É, an Arabic-Indic one, a CJK letter
WORD = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_"
CLASSES: tuple[tuple[str, str, bool], ...] = (  # (RE2 text, members, negated)
    ("\\d", "0123456789", False), ("\\w", WORD, False), ("\\s", " \t\n\f\r", False), ("\\D", "0123456789", True),
    ("\\W", WORD, True), ("\\S", " \t\n\f\r", True), (".", "\n", True), ("[a-c]", "abc", False),
    ("[^ab]", "ab", True), ("[[:alpha:]]", WORD[:52], False), ("[\\d_]", "0123456789_", False),
    ("[\u00e9\u4e2d]", "\u00e9\u4e2d", False), ("[.-]", ".-", False),
)
LITERALS = "abcAB01 .-\u00e9"
REPEATS = (("*", 0, None), ("+", 1, None), ("?", 0, 1), ("{2}", 2, 2), ("{1,3}", 1, 3), ("{0,2}", 0, 2))


@dataclass
class Node:
    kind: str  # lit, class, cat, alt, group, rep, start, end
    text: str = ""
    members: str = ""
    negated: bool = False
    children: list[Node] = field(default_factory=list)
    low: int = 0
    high: int | None = None


def _swap_case(c: str) -> str:
    return c.lower() if c.isupper() else c.upper()


def _atom(rng: np.random.Generator) -> Node:
    if rng.integers(0, 2):
        c = LITERALS[int(rng.integers(0, len(LITERALS)))]
        return Node("lit", text="\\" + c if c in ".-" else c, members=c)
    text, members, negated = CLASSES[int(rng.integers(0, len(CLASSES)))]
    return Node("class", text=text, members=members, negated=negated)


def _tree(rng: np.random.Generator, depth: int) -> Node:
    items = []
    for _ in range(int(rng.integers(1, 4))):
        k = int(rng.integers(0, 6)) if depth > 0 else 0
        if k == 4:
            inner = _tree(rng, depth - 1)
            capturing = bool(rng.integers(0, 2))
            item = Node("group", text="(" if capturing else "(?:", children=[inner])
        elif k == 5:
            item = Node("alt", children=[_tree(rng, depth - 1), _tree(rng, depth - 1)])
            item = Node("group", text="(?:", children=[item])
        else:
            item = _atom(rng)
        if rng.integers(0, 3) == 0 and not (item.kind == "group" and _has_repeat(item)):
            text, low, high = REPEATS[int(rng.integers(0, len(REPEATS)))]
            lazy = "?" if rng.integers(0, 4) == 0 else ""
            item = Node("rep", text=text + lazy, children=[item], low=low, high=high)
        items.append(item)
    return Node("cat", children=items)


def _has_repeat(node: Node) -> bool:
    return node.kind == "rep" or any(_has_repeat(c) for c in node.children)


def pattern_text(node: Node) -> str:
    if node.kind in ("lit", "class", "start", "end"):
        return node.text
    if node.kind == "cat":
        return "".join(pattern_text(c) for c in node.children)
    if node.kind == "alt":
        return "|".join(pattern_text(c) for c in node.children)
    if node.kind == "group":
        return node.text + pattern_text(node.children[0]) + ")"
    return pattern_text(node.children[0]) + node.text  # rep


def sample(node: Node, rng: np.random.Generator, icase: bool) -> str:
    """A string `node` matches in full."""
    if node.kind in ("start", "end"):
        return ""
    if node.kind == "lit":
        c = node.members
        return _swap_case(c) if icase and rng.integers(0, 2) else c
    if node.kind == "class":
        excluded = set(node.members) | ({_swap_case(c) for c in node.members} if icase else set())
        pool = [c for c in UNIVERSE if c not in excluded] if node.negated else list(node.members)
        c = pool[int(rng.integers(0, len(pool)))]
        return _swap_case(c) if icase and not node.negated and rng.integers(0, 2) else c
    if node.kind == "cat":
        return "".join(sample(c, rng, icase) for c in node.children)
    if node.kind == "alt":
        return sample(node.children[int(rng.integers(0, len(node.children)))], rng, icase)
    if node.kind == "group":
        return sample(node.children[0], rng, icase)
    high = node.low + 2 if node.high is None else node.high
    return "".join(sample(node.children[0], rng, icase) for _ in range(int(rng.integers(node.low, high + 1))))


def random_pattern(rng: np.random.Generator) -> tuple[str, Node, bool]:
    """(RE2 text, tree, case-insensitive) of a random pattern."""
    tree = _tree(rng, 2)
    text = pattern_text(tree)
    icase = rng.integers(0, 4) == 0
    if icase:
        text = "(?i)" + text
    if rng.integers(0, 4) == 0:
        text = "^" + text
    if rng.integers(0, 4) == 0:
        text = text + "$"
    return text, tree, bool(icase)


def near_miss(rng: np.random.Generator, text: str) -> str:
    k = int(rng.integers(0, 4))
    if k == 0 or not text:
        return text + "\n"  # `$` and a full match must not take a final newline
    i = int(rng.integers(0, len(text)))
    c = UNIVERSE[int(rng.integers(0, len(UNIVERSE)))]
    return (text[:i] + text[i + 1:], text[:i] + c + text[i:], text[:i] + c + text[i + 1:])[k - 1]


def _regex_shapes(draw: DrawFn, ctx: DrawContext) -> None:
    rng = np.random.default_rng(draw(SEEDS))
    text, tree, icase = random_pattern(rng)
    shape = dims(draw, draw(integers(0, 2)), 5)
    count = int(np.prod(shape)) if shape else 1
    values = []
    for _ in range(count):
        k = int(rng.integers(0, 5))
        if k == 4:
            picks = rng.integers(0, len(UNIVERSE), size=int(rng.integers(0, 4)))
            values.append("".join(UNIVERSE[int(i)] for i in picks))
        else:
            found = sample(tree, rng, icase)
            values.append(found if k < 2 else near_miss(rng, found))
    set_input_shape(ctx, "X", shape)
    ctx.scratch["pattern"] = text
    ctx.scratch["X"] = strings_from(values, shape)


REGEX_FULL_MATCH_HINT = OpHint(shapes=_regex_shapes, attributes={"pattern": lambda draw, ctx: ctx.scratch["pattern"]},
                               values={"X": lambda draw, ctx: ctx.scratch["X"]})
