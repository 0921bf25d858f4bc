"""The recurrence RNN, GRU and LSTM share (not a kernel itself).

Each op gives a cell: one time step of one direction over the whole batch at once. This module does the rest
the three ops have in common: the layout, the directions, the activation functions with their alpha and beta,
the clip, and `sequence_lens`:

- direction `forward` reads each sequence from its first step, `reverse` from its last valid step (step
  `sequence_lens[b] - 1`) back to step 0, `bidirectional` does both, with the second half of every weight;
- a batch entry stops at its own length: Y holds zeros at its later steps, and Y_h (Y_c) is the state after its
  last valid step; an entry of length 0 has zeros there too (as onnxruntime gives);
- layout 1 swaps the batch and sequence axes of X and Y and the batch and direction axes of the states.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

import numpy as np

from conformance.kernels.ai_onnx._common import work_dtype

Activation = Callable[[np.ndarray], np.ndarray]
# one time step of direction d: (d, X_t W^T + Wb of the live rows, states) -> new states
Cell = Callable[[int, np.ndarray, list[np.ndarray]], list[np.ndarray]]


def _sigmoid(x: np.ndarray) -> np.ndarray:
    """1 / (1 + exp(-x)) in four in-place passes (a recurrence calls it at every step).

    For x >= 0 these are the operations of the two-sided form e / (1 + e), e = exp(-|x|); for x < 0 the relative
    error is as small (a few ulp). exp(-x) overflows to inf only where the result is below the smallest normal
    number (x < -87 in float32), which then gives 0; the caller silences the overflow.
    """
    y: np.ndarray = np.negative(x, out=np.empty(np.shape(x), dtype=x.dtype))
    np.exp(y, out=y)
    y += 1
    np.divide(1, y, out=y)
    return y


def _softplus(x: np.ndarray) -> np.ndarray:
    return np.asarray(np.maximum(x, 0) + np.log1p(np.exp(-np.abs(x))))


def _elu(x: np.ndarray, alpha: float) -> np.ndarray:
    return np.asarray(np.where(x >= 0, x, alpha * np.expm1(np.minimum(x, 0))))


# name -> (function of x, alpha, beta; whether it takes alpha; its default; whether it takes beta; its default).
# The defaults are those of the onnx operator of the same name (LeakyRelu 0.01, HardSigmoid 0.2 and 0.5 ...);
# Affine and ScaledTanh are onnx's retired experimental operators, whose defaults were 1 and 0, and 1 and 1.
_ACTIVATIONS: dict[str, tuple[Callable[[np.ndarray, float, float], np.ndarray], bool, float, bool, float]] = {
    "Relu": (lambda x, a, b: np.maximum(x, 0), False, 0.0, False, 0.0),
    "Tanh": (lambda x, a, b: np.tanh(x), False, 0.0, False, 0.0),
    "Sigmoid": (lambda x, a, b: _sigmoid(x), False, 0.0, False, 0.0),
    "Affine": (lambda x, a, b: a * x + b, True, 1.0, True, 0.0),
    "LeakyRelu": (lambda x, a, b: np.where(x >= 0, x, a * x), True, 0.01, False, 0.0),
    "ThresholdedRelu": (lambda x, a, b: np.where(x >= a, x, 0), True, 1.0, False, 0.0),
    "ScaledTanh": (lambda x, a, b: a * np.tanh(b * x), True, 1.0, True, 1.0),
    "HardSigmoid": (lambda x, a, b: np.clip(a * x + b, 0, 1), True, 0.2, True, 0.5),
    "Elu": (lambda x, a, b: _elu(x, a), True, 1.0, False, 0.0),
    "Softsign": (lambda x, a, b: x / (1 + np.abs(x)), False, 0.0, False, 0.0),
    "Softplus": (lambda x, a, b: _softplus(x), False, 0.0, False, 0.0),
}


def activation_functions(op: str, names: Sequence[str], alphas: Sequence[float] | None,
                         betas: Sequence[float] | None) -> list[Activation]:
    """The activation functions named, in order, with their alpha and beta bound.

    `activation_alpha` and `activation_beta` are consumed in the order of the functions: each function that takes
    an alpha (a beta) takes the next value of the list, and the function's default once the list is used up.
    """
    alpha_left, beta_left = list(alphas or ()), list(betas or ())
    out: list[Activation] = []
    for name in names:
        if name not in _ACTIVATIONS:
            raise ValueError(f"{op}: unknown activation function {name!r}")
        fn, takes_alpha, alpha, takes_beta, beta = _ACTIVATIONS[name]
        if takes_alpha and alpha_left:
            alpha = float(alpha_left.pop(0))
        if takes_beta and beta_left:
            beta = float(beta_left.pop(0))
        out.append(_bound(fn, alpha, beta))
    return out


def _bound(fn: Callable[[np.ndarray, float, float], np.ndarray], alpha: float, beta: float) -> Activation:
    def apply(x: np.ndarray) -> np.ndarray:
        with np.errstate(over="ignore"):
            return np.asarray(fn(x, alpha, beta), dtype=x.dtype)

    return apply


def clipper(clip: float | None) -> Callable[[np.ndarray], np.ndarray]:
    """What `clip` does to the input of an activation: bound it to [-clip, clip], or nothing when absent."""
    if clip is None:
        return lambda x: x
    bound = float(clip)
    return lambda x: np.clip(x, -bound, bound)


def num_directions(op: str, direction: str) -> int:
    # 'foward' is GRU-1's default, a misspelling of forward in onnx that means forward
    if direction in ("forward", "reverse", "foward"):
        return 1
    if direction == "bidirectional":
        return 2
    raise ValueError(f"{op}: unknown direction {direction!r}")


def per_direction(op: str, functions: list[Activation], per: int, directions: int) -> list[list[Activation]]:
    """The activation list split into one group of `per` functions per direction.

    RNN's default names two functions (Tanh, Tanh) whatever the direction: a one-direction RNN uses the first.
    """
    if len(functions) != per * directions and not (op == "RNN" and len(functions) == 2 and directions == 1):
        raise ValueError(f"{op}: {len(functions)} activation functions, expected {per * directions}")
    return [functions[d * per:(d + 1) * per] for d in range(directions)]


def check_weights(op: str, X: np.ndarray, W: np.ndarray, R: np.ndarray, B: np.ndarray | None, gates: int,
                  hidden: int, directions: int) -> None:
    """ValueError unless X is 3-D and W [D, gates*H, I], R [D, gates*H, H] and B [D, 2*gates*H] fit together."""
    if X.ndim != 3:
        raise ValueError(f"{op}: X must be 3-D, not of shape {list(X.shape)}")
    rows = gates * hidden
    if W.shape != (directions, rows, X.shape[2]):
        raise ValueError(f"{op}: W has shape {list(W.shape)}, expected {[directions, rows, X.shape[2]]}")
    if R.shape != (directions, rows, hidden):
        raise ValueError(f"{op}: R has shape {list(R.shape)}, expected {[directions, rows, hidden]}")
    if B is not None and B.shape != (directions, 2 * rows):
        raise ValueError(f"{op}: B has shape {list(B.shape)}, expected {[directions, 2 * rows]}")


def state_input(op: str, name: str, value: np.ndarray | None, layout: int, directions: int, batch: int,
                hidden: int, dtype: np.dtype) -> np.ndarray:
    """An initial state as [num_directions, batch, hidden] in the work dtype (zeros when absent)."""
    if value is None:
        return np.zeros((directions, batch, hidden), dtype=dtype)
    state = value if layout == 0 else np.swapaxes(value, 0, 1)
    if state.shape != (directions, batch, hidden):
        raise ValueError(f"{op}: {name} has shape {list(value.shape)}, which does not fit "
                         f"{directions} direction(s), batch {batch} and hidden size {hidden} in layout {layout}")
    return state.astype(dtype)


def recur(op: str, X: np.ndarray, W: np.ndarray, B: np.ndarray | None, sequence_lens: np.ndarray | None,
          initial: list[np.ndarray], *, layout: int, direction: str, cell: Cell) -> list[np.ndarray]:
    """Run `cell` over the sequence in every direction. X is as given (layout applied here); `initial` are the
    states as [num_directions, batch, hidden] in the work dtype. Returns Y and the final states, in X's dtype and
    the layout's axis order."""
    x = (X if layout == 0 else np.swapaxes(X, 0, 1)).astype(initial[0].dtype)
    steps, batch = x.shape[0], x.shape[1]
    directions, hidden = initial[0].shape[0], initial[0].shape[2]
    lengths = _lengths(op, sequence_lens, steps, batch)
    rows = np.arange(batch)
    y = np.zeros((steps, directions, batch, hidden), dtype=x.dtype)
    finals: list[list[np.ndarray]] = [[] for _ in initial]
    for d in range(directions):
        w_t = np.ascontiguousarray(W[d].astype(x.dtype).T)
        wb = np.zeros(w_t.shape[1], dtype=x.dtype) if B is None else B[d, :w_t.shape[1]].astype(x.dtype)
        # X_t W^T + Wb for every step at once, as one matrix product (a 3-D @ 2-D product is a loop of small ones,
        # twice as slow): [steps, batch, gates*hidden]
        projected = (x.reshape(steps * batch, x.shape[2]) @ w_t).reshape(steps, batch, w_t.shape[1]) + wb
        states = [s[d] for s in initial]
        backward = direction == "reverse" or d == 1
        if bool(np.all(lengths == steps)):
            # every entry runs the whole sequence: no entry to freeze, a step reads and writes whole slices
            for k in range(steps):
                step = steps - 1 - k if backward else k
                states = cell(d, projected[step], states)
                y[step, d] = states[0]
        else:
            for k in range(steps):
                t = lengths - 1 - k if backward else np.full(batch, k)
                live = k < lengths
                new = cell(d, projected[np.clip(t, 0, steps - 1), rows], states)
                states = [np.where(live[:, None], n, s) for n, s in zip(new, states, strict=True)]
                y[t[live], d, rows[live]] = states[0][live]
        for i, s in enumerate(states):
            finals[i].append(np.where(lengths[:, None] > 0, s, 0))
    outs = [y, *(np.stack(f) for f in finals)]
    if layout != 0:
        outs = [np.transpose(outs[0], (2, 0, 1, 3)), *(np.swapaxes(s, 0, 1) for s in outs[1:])]
    return [np.asarray(o).astype(X.dtype) for o in outs]


def _lengths(op: str, sequence_lens: np.ndarray | None, steps: int, batch: int) -> np.ndarray:
    if sequence_lens is None:
        return np.full(batch, steps, dtype=np.int64)
    lengths = np.asarray(sequence_lens).astype(np.int64).reshape(-1)
    if lengths.shape != (batch,):
        raise ValueError(f"{op}: sequence_lens has shape {list(np.shape(sequence_lens))}, expected [{batch}]")
    if np.any(lengths < 0) or np.any(lengths > steps):
        raise ValueError(f"{op}: sequence_lens {lengths.tolist()} must lie in [0, {steps}]")
    return lengths


def transposed(m: np.ndarray, dtype: np.dtype) -> np.ndarray:
    """[D, rows, cols] as a contiguous [D, cols, rows] in `dtype`, the right operand of `state @ weight^T`.

    numpy hands a product by a contiguous matrix to BLAS; by a transposed view it took ten times longer for the
    few rows of a batch (numpy 2.4).
    """
    return np.ascontiguousarray(np.swapaxes(m.astype(dtype, copy=False), 1, 2))


def work_type(X: np.ndarray) -> np.dtype:
    """The dtype the recurrence runs in: half precision in float32, others in their own width."""
    return work_dtype(X)
