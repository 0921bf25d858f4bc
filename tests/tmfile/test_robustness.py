"""Damaged files: truncated, bit-flipped, random, and crafted to lie (huge counts, offsets past the end or at
themselves, many references to one big object) give `TmfileError` with one located line, nothing else, quickly
and without large allocations."""

from __future__ import annotations

import random
import struct
import tracemalloc
from collections.abc import Iterator
from pathlib import Path

import pytest

from opset.tmfile import TmfileError, read_tmfile, write_tmfile
from tests.tmfile.conftest import shared_model

SMALL = "yolov3_tiny_benchmark.tmfile"  # the smallest model with names, parameters and an old-style subgraph


def _outcome(data: bytes) -> str:
    """Read (and, when it reads, write and read back); only TmfileError may come out."""
    try:
        m = read_tmfile(data)
    except TmfileError as e:
        message = str(e)
        assert message and "\n" not in message
        return "error"
    # what reads must also write, and what it writes must read
    read_tmfile(write_tmfile(m))
    return "read"


@pytest.fixture(scope="module")
def small() -> bytes:
    return shared_model(SMALL)


def test_every_truncation_of_a_small_file(small: bytes) -> None:
    outcomes = {n: _outcome(small[:n]) for n in range(len(small))}
    assert set(outcomes.values()) == {"error"}


def test_truncations_of_mnist(mnist_bytes: bytes) -> None:
    rng = random.Random(12)
    cuts = [0, 1, 11, 12, 13, len(mnist_bytes) - 1] + [rng.randrange(len(mnist_bytes)) for _ in range(60)]
    assert {_outcome(mnist_bytes[:n]) for n in cuts} == {"error"}


def _flips(data: bytes, count: int, seed: int, region: range | None = None) -> Iterator[bytes]:
    rng = random.Random(seed)
    where = region or range(len(data))
    for _ in range(count):
        b = bytearray(data)
        b[rng.choice(where)] ^= 1 << rng.randrange(8)
        yield bytes(b)


def test_single_bit_flips(small: bytes) -> None:
    outcomes = [_outcome(b) for b in _flips(small, 600, seed=1)]
    assert "error" in outcomes and "read" in outcomes  # flips in names and padding still read


def test_single_bit_flips_in_mnist_structures(mnist_bytes: bytes) -> None:
    # the structures sit before the first weight and after the last (the weights are only data)
    first_weight, tail = 0xC78, len(mnist_bytes) - 0x200
    region = [*range(first_weight), *range(tail, len(mnist_bytes))]
    rng = random.Random(2)
    for _ in range(200):
        b = bytearray(mnist_bytes)
        b[rng.choice(region)] ^= 1 << rng.randrange(8)
        _outcome(bytes(b))


def test_words_overwritten_with_lies(small: bytes) -> None:
    """Offsets and counts replaced with 0xffffffff, 0, their own position, the position before, random."""
    rng = random.Random(3)
    for _ in range(300):
        b = bytearray(small)
        for _ in range(4):
            p = rng.randrange(0, len(b) - 4) & ~3
            lies = [b"\xff\xff\xff\xff", bytes(4), struct.pack("<I", p), struct.pack("<I", max(p - 4, 0)),
                    struct.pack("<I", rng.randrange(1 << 32))]
            b[p:p + 4] = rng.choice(lies)
        _outcome(bytes(b))


def test_random_bytes() -> None:
    rng = random.Random(4)
    for i in range(400):
        data = rng.randbytes(rng.randrange(64))
        if i % 2:  # a plausible header: version 2.0.0, then anything
            data = struct.pack("<HHHHI", 2, 0, 0, 0, rng.randrange(12, 400)) + rng.randbytes(rng.randrange(400))
        assert _outcome(data) in ("error", "read")


def _minimal(vector_count: int, vector_offset: int | None = None) -> bytes:
    """Header, a root table at 12 whose subgraph vector (at 28) claims `vector_count` entries."""
    header = struct.pack("<HHHHI", 2, 0, 0, 0, 12)
    root = struct.pack("<iiII", 0, 0, 28 if vector_offset is None else vector_offset, 0)
    return header + root + struct.pack("<I", vector_count) + bytes(8)


@pytest.mark.parametrize(("data", "message"), [
    (_minimal(0xFFFFFFFF), r"subgraph vector at 0x1c claims 4294967295 elements"),
    (_minimal(1, vector_offset=0x7FFFFFF0), r"subgraph vector at 0x7ffffff0 .* runs past the end of the file"),
    (_minimal(0), r"subgraph vector at 0x1c is empty"),
    (struct.pack("<HHHHI", 2, 0, 0, 0, 0), r"root table offset is 0"),
    (struct.pack("<HHHHI", 2, 0, 0, 0, 8), r"root table at 0x8 .* runs past the end"),
    (struct.pack("<HHHHI", 1, 0, 0, 0, 12), r"format version 1\.0\.0 is not supported"),
    (b"\x02\x00", r"header: the file has 2 bytes"),
])
def test_crafted_lies_are_located(data: bytes, message: str) -> None:
    with pytest.raises(TmfileError, match=message):
        read_tmfile(data)


def test_self_referencing_offsets() -> None:
    """A subgraph vector whose entry points at the vector itself, and a root table pointing at the header."""
    data = _minimal(1)[:32] + struct.pack("<I", 28)  # entry 0 -> 0x1c, the vector
    with pytest.raises(TmfileError):
        read_tmfile(data + bytes(40))
    header_root = struct.pack("<HHHHI", 2, 0, 0, 0, 0) + bytes(20)
    with pytest.raises(TmfileError):
        read_tmfile(header_root)


def test_many_references_to_one_big_object_are_refused_with_little_memory(small: bytes) -> None:
    """Every entry of a long buffer vector points at one buffer claiming the whole file: refused, not copied
    thousands of times."""
    m = read_tmfile(small)
    start, size = m.raw["objects"][("buffers", 0)]
    count = (size - 4) // 4
    b = bytearray(small)
    # the buffer struct at the first entry: size = the whole file, data at 0
    first = struct.unpack_from("<I", b, start + 4)[0]
    struct.pack_into("<II", b, first, len(small) - 16, 12)
    for i in range(count):
        struct.pack_into("<I", b, start + 4 + 4 * i, first)
    tracemalloc.start()
    try:
        with pytest.raises(TmfileError, match="reference more data than the file holds"):
            read_tmfile(bytes(b))
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert peak < 8 * len(small) + (1 << 20)


def test_a_device_or_folder_is_refused_without_reading_it(tmp_path: Path) -> None:
    with pytest.raises(TmfileError, match="not a regular file"):
        read_tmfile("/dev/zero")  # endless: reading it would never stop
    with pytest.raises(TmfileError, match="not a regular file"):
        read_tmfile(tmp_path)
    with pytest.raises(TmfileError, match="cannot read the file"):
        read_tmfile(tmp_path / "missing.tmfile")


@pytest.mark.parametrize("command", [["validate"], ["inspect"], ["convert", "{out}"], ["run"]])
@pytest.mark.parametrize("content", [None, b"\x02\x00\x00\x00" + b"\xff" * 12], ids=["missing", "lying"])
def test_every_command_names_the_bad_file_once_on_one_line(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                                           command: list[str], content: bytes | None) -> None:
    from opset.cli import main

    path = tmp_path / "bad.tmfile"
    if content is not None:
        path.write_bytes(content)
    args = [command[0], str(path), *(a.format(out=tmp_path / "out.onnx") for a in command[1:])]
    assert main(args) == 2
    err = capsys.readouterr().err.strip()
    assert len(err.splitlines()) == 1 and err.count(str(path)) == 1, err
