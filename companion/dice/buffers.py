"""The buffers the dice reader's loops take their arrays as.

Any C-contiguous object with the buffer protocol will do: its bytes are what counts, read as
the dtype each function names and checked by their number, whatever the array's shape or
dtype. The results are written into the caller's arrays, which must be writable.
"""

from __future__ import annotations

import numpy as np


def raw(buffer) -> np.ndarray:
    """The bytes of a C-contiguous buffer, flat, without a copy (NumPy's ValueError for one
    that is not contiguous)."""
    return np.frombuffer(buffer, np.uint8)


def writable(buffer, name: str) -> np.ndarray:
    """The bytes of a buffer to write into, or a TypeError unless it is writable and
    C-contiguous."""
    view = memoryview(buffer)
    if view.readonly or not view.c_contiguous:
        kind = type(buffer).__name__
        raise TypeError(f"{name}: a read-write C-contiguous buffer is needed, not {kind}")
    return np.frombuffer(view, np.uint8)


def items(buffer, dtype) -> np.ndarray:
    """As many whole items of `dtype` as `buffer` holds: where a count is taken from a
    buffer's size, a last part item is left out."""
    data = raw(buffer)
    size = np.dtype(dtype).itemsize
    return data[: len(data) - len(data) % size].view(dtype)


def need(buffer, count: int, dtype, name: str, out: bool = False) -> np.ndarray:
    """`buffer` (to write into, if `out`) as `count` items of `dtype`, or a ValueError that
    says its size."""
    data = writable(buffer, name) if out else raw(buffer)
    size = count * np.dtype(dtype).itemsize
    if len(data) != size:
        raise ValueError(f"{name}: {len(data)} bytes, expected {size}")
    return data.view(dtype)


def floats(buffer, count: int, name: str) -> np.ndarray:
    """`buffer` as `count` float32s or float64s, whichever its size fits (float32 where
    `count` is 0): arithmetic with them is then done in their own type."""
    data = raw(buffer)
    if len(data) == count * 4:
        return data.view(np.float32)
    if len(data) == count * 8:
        return data.view(np.float64)
    raise ValueError(f"{name}: {len(data)} bytes, expected {count} float32 or float64")


def frame_of(buffer, width: int, name: str) -> np.ndarray:
    """The frame `buffer` (uint8, H x width x 3) as an H x width x 3 array, or a ValueError
    that names the function `name`."""
    data = raw(buffer)
    height = len(data) // (width * 3) if width > 0 else 0
    if width <= 0 or height <= 0 or len(data) != height * width * 3:
        raise ValueError(f"{name}: bgr must be H x width x 3")
    return data.reshape(height, width, 3)
