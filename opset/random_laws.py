"""The vocabulary of a version's `random` key: the laws random outputs are drawn from, one table.

An op whose output values are drawn at random (RandomNormal, Bernoulli, Dropout in training ...) states in the
registry which outputs are random, the law they are drawn from and its arguments (docs/format.md, "Random
outputs"). Values drawn at random cannot be compared value by value between implementations, and onnx does not
define them even for a given seed; what the law determines can be checked: `determined` says what that is for each
law (conform checks exactly that on every case; its law case per cell, `conformance.runner.random_laws`, tests the law
itself statistically, on any backend and on the reference kernels).

A law's arguments are either tensors (`tensors`: the argument names an input or output of the version, whose values
it is, element by element) or scalars (`scalars`: a formula over the version's attributes, input shapes and
`value(X)`). Arguments in `optional` may be left out (Dropout's mask, an optional output).
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class Law:
    name: str
    tensors: tuple[str, ...]
    scalars: tuple[str, ...]
    determined: str  # what every draw satisfies: the conformance checks test this, never the values
    optional: tuple[str, ...] = ()

    @property
    def arguments(self) -> tuple[str, ...]:
        return (*self.tensors, *self.scalars)


LAWS: dict[str, Law] = {law.name: law for law in (
    Law("normal", (), ("mean", "scale"),
        "every value is a number (no NaN), the mean where scale is 0; the law is normal with mean `mean` and "
        "standard deviation `scale`"),
    Law("uniform", (), ("low", "high"),
        "every value lies in [low, high] (the bounds rounded to the output type); the law is uniform on [low, high)"),
    Law("bernoulli", ("p",), (),
        "every value is 0 or 1 (false or true), 0 where p is 0 and 1 where p is 1; 1 comes with probability p"),
    Law("multinomial", ("logits",), (),
        "every value is a class index in [0, C) of the logits' last axis, never one of probability 0 (logit -inf); "
        "class c comes with probability softmax(logits)[c] of its row"),
    Law("dropout", ("data", "mask", "bias", "residual"), ("ratio", "packed"),
        "the mask holds only 0 and 1 (false and true) and output = (data + bias) * mask / (1 - ratio) + residual "
        "element by element (bias broadcast to data, bias and residual 0 when not given); without the mask every "
        "output value is residual or (data + bias) / (1 - ratio) + residual; an element is kept with probability "
        "1 - ratio. With `packed` nonzero the mask is bit-packed: element i is bit i % 32 of uint32 word i // 32",
        optional=("mask", "bias", "residual", "packed")),
)}
