"""What a version's signatures and constraints say about drawing valid shapes, read once per version.

Dims named in input signatures are drawn once each; `*S` tuples get a drawn rank. Constraints of the
simple forms below are turned into construction rules, so valid cases are built rather than filtered:

- `D == expr` / `expr == D` with `D` a signature dim: `D` is computed from `expr` after drawing;
- `prod(X) == expr` with `X` an input without signature: `X` gets the shape `[expr]`;
- `D % expr == 0`: `D` is drawn as a multiple of `expr`;
- `len(S) <op> k`: bounds for the rank of tuple `S`;
- `S == T` with `S`, `T` signature tuples: `S` copies `T`;
- `prod(S) >= k` (or `>`): the last dim of `S` is scaled up when the drawn product falls short;
- `a == k` with `a` an attribute and `k` a constant: `a` is set to `k`;
- `a >= k` / `a > k` (also `min([a, b, ...]) >= k`) with numeric attributes: a lower bound on their
  drawn values, and a default below it is never left in place;
- `len(a) <op> k` with `a` a list attribute: bounds for its drawn length;
- `len(X) <op> k` with `X` an input without signature: bounds for the element count of a sequence it is
  drawn as.

Whatever else a constraint says is checked after drawing (the draw is retried a few times).
"""

from __future__ import annotations

from dataclasses import dataclass, field

from opset.cells import allowed_cells, drawable_cell, primary_param
from opset.formula import Formula
from opset.formula.nodes import BinOp, BoolOp, Call, Compare, Const, ListDisplay, Name, Node, Subscript, UnaryOp
from opset.model import OpVersion


@dataclass
class DrawPlan:
    dims: list[str] = field(default_factory=list)  # named dims drawn freely, in first-seen order
    tuples: list[str] = field(default_factory=list)  # `*S` tuple names
    rank_bounds: dict[str, tuple[int, int]] = field(default_factory=dict)  # tuple -> (min, max) rank
    derived: dict[str, Formula] = field(default_factory=dict)  # dim -> formula computing it
    multiple_of: dict[str, Formula] = field(default_factory=dict)  # dim -> formula it must be a multiple of
    vector_of: dict[str, Formula] = field(default_factory=dict)  # unsigned input -> formula of its length
    same_tuple: dict[str, str] = field(default_factory=dict)  # tuple -> tuple it copies (`prod(A) == prod(B)`)
    signatures: dict[str, tuple[str | int, ...]] = field(default_factory=dict)  # input -> shape signature
    # the type variable a cell binds (the primary parameter's), None when it has none; and per type variable the
    # cells of its constraint the strategies can draw (`primary_param` and `allowed_cells` walk every type of every
    # constraint: a tenth of a millisecond, once per version here instead of once per draw)
    primary_type: str | None = None
    drawable_types: dict[str, list[str]] = field(default_factory=dict)
    min_prod: dict[str, int] = field(default_factory=dict)  # tuple -> least product (`prod(L) >= 6`)
    attr_fixed: dict[str, object] = field(default_factory=dict)  # attribute -> its only valid value
    attr_min: dict[str, float] = field(default_factory=dict)  # numeric attribute -> least valid value
    attr_length: dict[str, tuple[int, int]] = field(default_factory=dict)  # list attribute -> (min, max) length
    lengths: dict[str, tuple[int, int]] = field(default_factory=dict)  # sequence input -> (min, max) element count
    any_type: set[str] = field(default_factory=set)  # type variables drawn among all they allow (`any_type`)
    type_choices: dict[str, tuple[str, ...]] = field(default_factory=dict)  # type variable -> its domain's `types`


_PLANS: dict[int, tuple[OpVersion, DrawPlan]] = {}  # id(version) -> (version kept alive, plan)


def plan_for(version: OpVersion) -> DrawPlan:
    """The draw plan of `version`, computed once per version object."""
    cached = _PLANS.get(id(version))
    if cached is not None and cached[0] is version:
        return cached[1]
    plan = _make_plan(version)
    _PLANS[id(version)] = (version, plan)
    return plan


def _make_plan(version: OpVersion) -> DrawPlan:
    plan = DrawPlan()
    for param in version.inputs:
        for item in param.shape or ():
            if isinstance(item, str) and item.startswith("*"):
                if item[1:] not in plan.tuples:
                    plan.tuples.append(item[1:])
            elif isinstance(item, str) and item not in plan.dims:
                plan.dims.append(item)
    unsigned = {p.name for p in version.inputs if p.shape is None}
    plan.signatures = {p.name: tuple(p.shape) for p in version.inputs if p.shape is not None}
    attributes = {name: attr.type for name, attr in version.attributes.items()}
    for constraint in version.constraints:
        for clause in _conjuncts(constraint.expr.tree):
            _read_clause(clause, plan, unsigned)
            _read_attribute_clause(clause, plan, attributes)
    plan.dims = [d for d in plan.dims if d not in plan.derived]
    primary = primary_param(version)
    if primary is not None and version.type_variable(primary.type) is not None:
        plan.primary_type = primary.type
    plan.drawable_types = {name: [c for c in allowed_cells(version, name) if drawable_cell(c)]
                           for name in version.type_constraints}
    plan.any_type = {p.type for p in version.inputs if p.domain is not None and p.domain.any_type}
    plan.type_choices = {p.type: p.domain.types for p in version.inputs if p.domain is not None and p.domain.types}
    return plan


def _conjuncts(node: Node) -> list[Node]:
    if isinstance(node, BoolOp) and node.op == "and":
        return [part for value in node.values for part in _conjuncts(value)]
    return [node]


def _read_clause(node: Node, plan: DrawPlan, unsigned: set[str]) -> None:
    guarded = _unless_absent(node, unsigned)
    if guarded is not None:  # `B == None or <rule about B>`: the rule holds whenever B is given
        for clause in _conjuncts(guarded):
            _read_clause(clause, plan, unsigned)
        return
    if not isinstance(node, Compare) or len(node.ops) != 1:
        return
    op, left, right = node.ops[0], node.left, node.comparators[0]
    if op == "==" and (_read_equality(left, right, plan, unsigned) or _read_equality(right, left, plan, unsigned)):
        return
    left_tuple, right_tuple = _len_of_tuple(left, plan), _len_of_tuple(right, plan)
    counted = _len_of_unsigned(left, unsigned)
    if counted is not None and isinstance(right, Const) and isinstance(right.value, int):
        lo, hi = plan.lengths.get(counted, (0, 99))
        plan.lengths[counted] = _tightened(lo, hi, op, right.value)  # a sequence input's element count
    if left_tuple is not None and isinstance(right, Const) and isinstance(right.value, int):
        _bound_rank(plan, left_tuple, op, right.value)
    elif right_tuple is not None and isinstance(left, Const) and isinstance(left.value, int):
        flipped = {"<": ">", "<=": ">=", ">": "<", ">=": "<="}.get(op, op)
        _bound_rank(plan, right_tuple, flipped, left.value)


def _read_attribute_clause(node: Node, plan: DrawPlan, attributes: dict[str, str]) -> None:
    """Rules on attribute values: `a == k`, `a >= k`, `a > k`, `min([a, ...]) >= k`, `len(a) <op> k`."""
    if not isinstance(node, Compare) or len(node.ops) != 1:
        return
    op, left, right = node.ops[0], node.left, node.comparators[0]
    if _constant(left) is not None and _constant(right) is None:
        op, left, right = {"<": ">", "<=": ">=", ">": "<", ">=": "<="}.get(op, op), right, left
    value = _constant(right)
    if value is None:
        return
    if isinstance(left, Name) and left.id in attributes and left.id not in plan.attr_fixed:
        if op == "==" and attributes[left.id] in ("int", "float", "string"):
            plan.attr_fixed[left.id] = value
        elif op in (">=", ">") and attributes[left.id] in ("int", "float") and isinstance(value, int | float):
            _bound_attribute(plan, left.id, attributes[left.id], op, value)
        return
    if (isinstance(left, Call) and left.function == "min" and len(left.args) == 1
            and isinstance(left.args[0], ListDisplay) and op in (">=", ">") and isinstance(value, int | float)):
        for item in left.args[0].elements:
            if isinstance(item, Name) and attributes.get(item.id) in ("int", "float"):
                _bound_attribute(plan, item.id, attributes[item.id], op, value)
        return
    if (isinstance(left, Call) and left.function == "prod" and len(left.args) == 1 and isinstance(value, int)
            and isinstance(left.args[0], Name) and left.args[0].id in plan.tuples and op in (">=", ">")):
        plan.min_prod[left.args[0].id] = max(plan.min_prod.get(left.args[0].id, 1), value + (op == ">"))
        return
    if (isinstance(left, Call) and left.function == "len" and len(left.args) == 1 and isinstance(value, int)
            and isinstance(left.args[0], Name) and attributes.get(left.args[0].id) in ("ints", "floats", "strings")):
        name = left.args[0].id
        lo, hi = plan.attr_length.get(name, (0, 99))
        lo, hi = _tightened(lo, hi, op, value)
        plan.attr_length[name] = (lo, hi)


def _constant(node: Node) -> object | None:
    """The value of a literal (`3`, `-1`, `0.5`, `'x'`), else None."""
    if isinstance(node, Const) and node.value is not None and not isinstance(node.value, bool):
        return node.value
    if isinstance(node, UnaryOp) and node.op == "-" and isinstance(node.operand, Const):
        inner = node.operand.value
        if isinstance(inner, int | float) and not isinstance(inner, bool):
            return -inner
    return None


def _bound_attribute(plan: DrawPlan, name: str, kind: str, op: str, value: float) -> None:
    if op == ">":
        value = value + 1 if kind == "int" else value + 0.125  # floats are drawn on an eighth grid
    plan.attr_min[name] = max(plan.attr_min.get(name, value), value)


def _unless_absent(node: Node, optional: set[str]) -> Node | None:
    if not (isinstance(node, BoolOp) and node.op == "or" and len(node.values) == 2):
        return None
    test = node.values[0]
    if (isinstance(test, Compare) and test.ops == ("==",) and isinstance(test.left, Name)
            and isinstance(test.comparators[0], Const) and test.comparators[0].value is None):
        return node.values[1]
    return None


def _read_equality(target: Node, source: Node, plan: DrawPlan, unsigned: set[str]) -> bool:
    if isinstance(target, Name) and target.id in plan.dims and target.id not in plan.derived:
        if target.id not in _dims_used(source, plan):
            plan.derived[target.id] = Formula.from_tree(source)
            return True
    if isinstance(target, Subscript) and isinstance(target.value, Name) and isinstance(target.index, Const):
        signature = plan.signatures.get(target.value.id, ())
        index = target.index.value
        if isinstance(index, int) and 0 <= index < len(signature) and isinstance(signature[index], str):
            dim = str(signature[index])
            if dim in plan.dims and dim not in plan.derived and dim not in _dims_used(source, plan):
                plan.derived[dim] = Formula.from_tree(source)
                return True
    if (isinstance(target, Name) and isinstance(source, Name) and target.id in plan.tuples
            and source.id in plan.tuples and target.id != source.id and target.id not in plan.same_tuple
            and plan.same_tuple.get(source.id) != target.id):
        plan.same_tuple[target.id] = source.id  # `I == U`: one tuple copies the other
        return True
    left_tuple, right_tuple = _prod_of_tuple(target, plan), _prod_of_tuple(source, plan)
    if left_tuple and right_tuple and left_tuple != right_tuple and left_tuple not in plan.same_tuple:
        plan.same_tuple[left_tuple] = right_tuple  # equal products: equal tuples are one valid way
        return True
    if (isinstance(target, Call) and target.function == "prod" and len(target.args) == 1
            and isinstance(target.args[0], Name) and target.args[0].id in unsigned):
        plan.vector_of[target.args[0].id] = Formula.from_tree(source)
        return True
    if not isinstance(source, Const) or source.value != 0:
        return False
    return _read_modulo(target, plan)


def _read_modulo(node: Node, plan: DrawPlan) -> bool:
    if isinstance(node, BinOp) and node.op == "%" and isinstance(node.left, Name) and node.left.id in plan.dims:
        plan.multiple_of[node.left.id] = Formula.from_tree(node.right)
        return True
    return False


def _prod_of_tuple(node: Node, plan: DrawPlan) -> str | None:
    if isinstance(node, Call) and node.function == "prod" and len(node.args) == 1:
        arg = node.args[0]
        if isinstance(arg, Name) and arg.id in plan.tuples:
            return arg.id
    return None


def _len_of_tuple(node: Node, plan: DrawPlan) -> str | None:
    """`S` when `node` is `len(S)` for a signature tuple `S`."""
    if isinstance(node, Call) and node.function == "len" and len(node.args) == 1:
        arg = node.args[0]
        if isinstance(arg, Name) and arg.id in plan.tuples:
            return arg.id
    return None


def _len_of_unsigned(node: Node, unsigned: set[str]) -> str | None:
    """`X` when `node` is `len(X)` for an input without signature (a sequence's element count, drawn so)."""
    if isinstance(node, Call) and node.function == "len" and len(node.args) == 1:
        arg = node.args[0]
        if isinstance(arg, Name) and arg.id in unsigned:
            return arg.id
    return None


def _bound_rank(plan: DrawPlan, name: str, op: str, value: int) -> None:
    lo, hi = plan.rank_bounds.get(name, (0, 99))
    plan.rank_bounds[name] = _tightened(lo, hi, op, value)


def _tightened(lo: int, hi: int, op: str, value: int) -> tuple[int, int]:
    if op == ">=":
        lo = max(lo, value)
    elif op == ">":
        lo = max(lo, value + 1)
    elif op == "<=":
        hi = min(hi, value)
    elif op == "<":
        hi = min(hi, value - 1)
    elif op == "==":
        lo, hi = max(lo, value), min(hi, value)
    return lo, hi


def _dims_used(node: Node, plan: DrawPlan) -> set[str]:
    """Names in `node`, plus the signature dims of every input it names (a shape carries its dims)."""
    names = set(Formula.from_tree(node).names)
    for name in list(names):
        names |= {str(d) for d in plan.signatures.get(name, ()) if isinstance(d, str)}
    return names
