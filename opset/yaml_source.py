"""Read a YAML file safely into plain data plus a map from each value's path to its line.

Composes nodes with the C safe loader when available (never a loader that can build objects),
refuses duplicate keys, and remembers where every mapping entry and list item starts so later
passes (meta-schema, semantic checks) can report `file:line`.
"""

from __future__ import annotations

from typing import Any

import yaml

try:  # the C loader is much faster; both are safe loaders
    from yaml import CSafeLoader as _Loader
except ImportError:  # pragma: no cover - depends on how PyYAML was built
    from yaml import SafeLoader as _Loader  # type: ignore[assignment]

from opset.lines import LineMap, Path_


class YamlReadError(Exception):
    def __init__(self, line: int | None, message: str) -> None:
        self.line = line
        self.message = message
        super().__init__(message)


_constructor = yaml.constructor.SafeConstructor()


def read_yaml_text(text: str) -> tuple[Any, LineMap]:
    """Parse `text`; raise YamlReadError with the line of the first problem."""
    try:
        node = yaml.compose(text, Loader=_Loader)
    except yaml.MarkedYAMLError as e:
        mark = e.problem_mark or e.context_mark
        line = mark.line + 1 if mark is not None else None
        raise YamlReadError(line, f"YAML syntax error: {e.problem or e.context}") from None
    except yaml.YAMLError as e:
        raise YamlReadError(None, f"YAML error: {e}") from None
    lines: LineMap = {}
    if node is None:
        return None, lines
    return _to_plain(node, (), lines, set()), lines


_PLAIN_COLLECTION_TAGS = ("tag:yaml.org,2002:map", "tag:yaml.org,2002:seq")
# Values a file may expand to, aliases expanded (the largest op file has about 1 200): aliases let a few lines ask
# for billions (each `*a` repeats a list of ten `*b` ...), so expansion stops here with an error instead.
MAX_YAML_VALUES = 50_000
MAX_YAML_DEPTH = 40  # op files nest about 8 levels; deeper only comes from damage (and would exhaust the stack)


def _to_plain(node: yaml.Node, path: Path_, lines: LineMap, open_nodes: set[int]) -> Any:
    """Plain data of `node`; `open_nodes` holds the collections being built above it (an alias to one of them
    would expand forever)."""
    if len(path) > MAX_YAML_DEPTH:
        raise YamlReadError(node.start_mark.line + 1, f"values nested more than {MAX_YAML_DEPTH} levels deep")
    if len(lines) >= MAX_YAML_VALUES:
        raise YamlReadError(node.start_mark.line + 1,
                            f"the file expands to more than {MAX_YAML_VALUES} values (aliases repeating aliases?)")
    lines[path] = node.start_mark.line + 1
    if not isinstance(node, yaml.ScalarNode) and node.tag not in _PLAIN_COLLECTION_TAGS:
        raise YamlReadError(node.start_mark.line + 1, f"unsupported YAML tag {node.tag}")
    if isinstance(node, yaml.ScalarNode):
        return _scalar(node)
    if id(node) in open_nodes:
        raise YamlReadError(node.start_mark.line + 1, "an alias refers to a collection that contains it")
    open_nodes.add(id(node))
    try:
        if isinstance(node, yaml.MappingNode):
            out: dict[str, Any] = {}
            for key_node, value_node in node.value:
                if not isinstance(key_node, yaml.ScalarNode):
                    raise YamlReadError(key_node.start_mark.line + 1, "a mapping key must be a plain scalar")
                key = _scalar(key_node)
                key = key if isinstance(key, str) else str(key)
                if key in out:
                    raise YamlReadError(key_node.start_mark.line + 1, f"duplicate key '{key}'")
                out[key] = _to_plain(value_node, (*path, key), lines, open_nodes)
                lines[(*path, key)] = key_node.start_mark.line + 1
            return out
        return [_to_plain(item, (*path, i), lines, open_nodes) for i, item in enumerate(node.value)]
    finally:
        open_nodes.discard(id(node))


MAX_NUMBER_TEXT = 400  # characters of an int or float literal: more digits than any registry value needs


def _scalar(node: yaml.Node) -> Any:
    kind = node.tag.rsplit(":", 1)[1] if node.tag.startswith("tag:yaml.org,2002:") else None
    if kind not in ("str", "int", "float", "bool", "null", "timestamp", "binary"):
        raise YamlReadError(node.start_mark.line + 1, f"unsupported YAML tag {node.tag}")
    line = node.start_mark.line + 1
    if kind in ("int", "float") and len(node.value) > MAX_NUMBER_TEXT:
        raise YamlReadError(line, f"a number written with {len(node.value)} characters (at most {MAX_NUMBER_TEXT})")
    if kind in ("timestamp", "binary"):
        return node.value  # dates and bytes have no place in the registry: keep them as the text that was written
    try:
        value = _constructor.construct_object(node, deep=True)
    except (ValueError, KeyError, IndexError) as e:
        # only an explicit tag reaches here (`!!int xyz`, an empty `!!float`, `!!bool maybe`): the resolver
        # tags a plain scalar by its look, and then it converts
        raise YamlReadError(line, f"'{node.value[:40]}' is not a valid {kind} ({_first_line(e)})") from None
    return value


def _first_line(error: Exception) -> str:
    text = str(error).strip().splitlines()
    return text[0] if text else type(error).__name__
