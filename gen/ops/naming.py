"""Python names for registry names: the one table of special cases, and the checks that need it.

A registry name becomes a Python name unchanged when it is a valid identifier that clashes with
nothing; anything else must be listed here, or generation stops and names the case.
"""

from __future__ import annotations

import keyword

from opset.model import Domain

# (domain, op) -> class name, for op names that are not identifiers or clash with a module-level name
CLASS_NAMES: dict[tuple[str, str], str] = {}

# (domain, op, input or attribute name) -> argument name, for names that are not usable as arguments
ARGUMENT_NAMES: dict[tuple[str, str, str], str] = {
    ("ai.onnx", "MaxUnpool", "I"): "indices",  # E741: I reads as l or 1
    ("com.ms.internal.nhwc", "MaxUnpool", "I"): "indices",  # as its twin's
    ("com.microsoft", "LongformerAttention", "global"): "global_",  # a Python keyword
    ("com.microsoft", "QOrderedLongformerAttention", "global"): "global_",  # a Python keyword
}

# names every generated module binds itself (imports), which no class may take
MODULE_NAMES = frozenset({"Array", "Literal", "Sequence", "V", "Value", "annotations", "apply", "onnx", "op"})

# names an argument may not take: what the function body calls, and names ruff rejects as ambiguous (E741)
RESERVED_ARGUMENTS = frozenset({"self", "l", "I", "O", "apply", "locals"})


class NamingError(Exception):
    """A registry name needs an entry in the special-case tables of gen/ops/naming.py."""


def module_name(domain: Domain) -> str:
    """The domain's package name (`Domain.module`: `ai.onnx.modified` -> `ai_onnx_modified`), checked usable."""
    name = domain.module
    if not name.isidentifier() or keyword.iskeyword(name):
        raise NamingError(f"domain '{domain.name}' gives no usable module name ('{name}'); rename the domain")
    return name


def class_name(domain: str, op: str) -> str:
    if (domain, op) in CLASS_NAMES:
        return CLASS_NAMES[(domain, op)]
    if not op.isidentifier() or keyword.iskeyword(op) or op in MODULE_NAMES:
        raise NamingError(f"{domain}::{op}: '{op}' cannot be a class name; add "
                          f"({domain!r}, {op!r}) to CLASS_NAMES in gen/ops/naming.py")
    return op


def argument_name(domain: str, op: str, name: str) -> str:
    if (domain, op, name) in ARGUMENT_NAMES:
        return ARGUMENT_NAMES[(domain, op, name)]
    if not name.isidentifier() or keyword.iskeyword(name) or name in RESERVED_ARGUMENTS:
        raise NamingError(f"{domain}::{op}: '{name}' cannot be an argument name; add "
                          f"({domain!r}, {op!r}, {name!r}) to ARGUMENT_NAMES in gen/ops/naming.py")
    return name
