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
    return _to_plain(node, (), lines), lines


_PLAIN_COLLECTION_TAGS = ("tag:yaml.org,2002:map", "tag:yaml.org,2002:seq")


def _to_plain(node: yaml.Node, path: Path_, lines: LineMap) -> Any:
    lines[path] = node.start_mark.line + 1
    if not isinstance(node, yaml.ScalarNode) and node.tag not in _PLAIN_COLLECTION_TAGS:
        raise YamlReadError(node.start_mark.line + 1, f"unsupported YAML tag {node.tag}")
    if isinstance(node, yaml.MappingNode):
        out: dict[str, Any] = {}
        for key_node, value_node in node.value:
            if not isinstance(key_node, yaml.ScalarNode):
                raise YamlReadError(key_node.start_mark.line + 1, "a mapping key must be a plain scalar")
            key = _scalar(key_node)
            key = key if isinstance(key, str) else str(key)
            if key in out:
                raise YamlReadError(key_node.start_mark.line + 1, f"duplicate key '{key}'")
            out[key] = _to_plain(value_node, (*path, key), lines)
            lines[(*path, key)] = key_node.start_mark.line + 1
        return out
    if isinstance(node, yaml.SequenceNode):
        return [_to_plain(item, (*path, i), lines) for i, item in enumerate(node.value)]
    return _scalar(node)


def _scalar(node: yaml.Node) -> Any:
    if node.tag.startswith("tag:yaml.org,2002:") and node.tag.rsplit(":", 1)[1] in (
            "str", "int", "float", "bool", "null", "timestamp", "binary"):
        value = _constructor.construct_object(node, deep=True)
        # dates and bytes have no place in the registry: keep them as the text that was written
        return value if isinstance(value, str | int | float | bool | type(None)) else node.value
    raise YamlReadError(node.start_mark.line + 1, f"unsupported YAML tag {node.tag}")
