"""First loading pass: the JSON meta-schema, every violation located by line."""

from __future__ import annotations

import json
from functools import cache
from typing import Any

from opset.attr_types import ATTR_TYPES
from opset.errors import Problem
from opset.lines import LineMap, line_of
from opset.random_laws import LAWS
from opset.registry_home import meta_dir


@cache
def _validator(kind: str) -> Any:
    import jsonschema

    schema = json.loads((meta_dir() / f"{kind}.schema.json").read_text(encoding="utf-8"))
    if kind == "op":  # the attribute-type vocabulary has one source
        schema["$defs"]["attribute"]["properties"]["type"]["enum"] = list(ATTR_TYPES)
        schema["$defs"]["random"]["properties"]["law"]["enum"] = list(LAWS)  # ... and so has the laws'
    return jsonschema.Draft202012Validator(schema)


def validate_file(kind: str, data: Any, lines: LineMap, file: str) -> list[Problem]:
    """Problems of `data` (an op or domain file) against its meta-schema, one per violation."""
    op = data.get("name") if isinstance(data, dict) and isinstance(data.get("name"), str) else None
    problems = []
    for error in _validator(kind).iter_errors(data):
        path = tuple(error.absolute_path)
        problems.append(Problem(file, line_of(lines, path), op, _message(error, path)))
    return problems


def _message(error: Any, path: tuple[str | int, ...]) -> str:
    where = "/".join(str(p) for p in path) or "top level"
    if error.validator == "additionalProperties":
        extra = sorted(set(error.instance) - set(error.schema.get("properties", {})))
        return f"{where}: unknown key{'s' if len(extra) > 1 else ''} {', '.join(repr(k) for k in extra)}"
    if error.validator == "required":
        return f"{where}: {error.message}"
    if error.validator == "oneOf":
        # the branch that failed on something other than the value's type says what is wrong
        specific = [e for e in error.context or () if e.validator != "type"]
        if specific:
            best = max(specific, key=lambda e: len(e.absolute_path))
            return _message(best, tuple(best.absolute_path))
        return f"{where}: {_short(error.instance)} is not valid here"
    return f"{where}: {error.message}"


def _short(value: Any) -> str:
    text = repr(value)
    return text if len(text) <= 60 else text[:57] + "..."
