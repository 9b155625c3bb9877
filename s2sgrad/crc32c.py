"""CRC-32C (Castagnoli), as TensorFlow's checkpoint files checksum their blocks and tensors.

The checksum register is linear over GF(2), so a long input is cut into ``K`` equal chunks whose
registers are computed side by side (4 bytes of every chunk per step, two 16-bit table lookups), then folded
pairwise: the register of ``A + B`` is the register of ``A`` pushed through ``len(B)`` zero bytes,
XOR the register of ``B`` started from zero. Pushing through ``n`` zero bytes is a 32x32 bit
matrix, kept as the images of the 32 unit vectors and built by squaring.

>>> hex(value(b"123456789"))
'0xe3069283'
"""
from __future__ import annotations

import functools

import numpy as np

__all__ = ["value", "extend", "mask", "unmask"]

_POLY = 0x82F63B78  # the Castagnoli polynomial, bit-reversed
_MASK_DELTA = 0xA282EAD8
_SMALL = 256  # inputs up to this many bytes take the plain byte loop


def _tables() -> list[np.ndarray]:
    """The byte table, then the tables for a byte followed by 1, 2 and 3 zero bytes (for 4 bytes a step)."""
    crc = np.arange(256, dtype=np.uint32)
    for _ in range(8):
        crc = np.where(crc & 1, (crc >> 1) ^ np.uint32(_POLY), crc >> 1).astype(np.uint32)
    tables = [crc]
    for _ in range(3):
        tables.append(tables[-1] >> 8 ^ crc[tables[-1] & 0xFF])
    return tables


_TABLES = _tables()
_TABLE = _TABLES[0]
_PAIRS = np.arange(65536, dtype=np.uint32)
# a 4-byte step as two lookups: bytes 0-1 (then 2 zero bytes) and bytes 2-3
_LOW_PAIR = _TABLES[3][_PAIRS & 0xFF] ^ _TABLES[2][_PAIRS >> 8]
_HIGH_PAIR = _TABLES[1][_PAIRS & 0xFF] ^ _TABLES[0][_PAIRS >> 8]
_TABLE_LIST = [int(x) for x in _TABLE]
_BITS = np.arange(32, dtype=np.uint32)


def value(data: bytes | bytearray | memoryview) -> int:
    """The CRC-32C of ``data``."""
    return extend(0, data)


def extend(crc: int, data: bytes | bytearray | memoryview) -> int:
    """The CRC-32C of the bytes that gave ``crc`` followed by ``data``."""
    return _register(crc ^ 0xFFFFFFFF, memoryview(data).cast("B")) ^ 0xFFFFFFFF


def mask(crc: int) -> int:
    """The stored form of a CRC (rotated and offset, so a CRC of data holding CRCs is not degenerate)."""
    return (((crc >> 15) | (crc << 17)) + _MASK_DELTA) & 0xFFFFFFFF


def unmask(masked: int) -> int:
    """The CRC that ``mask`` turned into ``masked``."""
    rot = (masked - _MASK_DELTA) & 0xFFFFFFFF
    return ((rot >> 17) | (rot << 15)) & 0xFFFFFFFF


def _register(reg: int, data: memoryview) -> int:
    """The raw register after feeding ``data`` to register ``reg`` (no final inversion)."""
    n = len(data)
    if n <= _SMALL:
        table = _TABLE_LIST
        for byte in data.tobytes():
            reg = table[(reg ^ byte) & 0xFF] ^ (reg >> 8)
        return reg
    chunks = 1 << max(1, int(np.log2(n) / 2))   # about sqrt(n) chunks of about sqrt(n) bytes
    length = n // chunks // 4 * 4
    done = chunks * length
    words = np.frombuffer(data, dtype="<u4", count=done // 4).reshape(chunks, length // 4)
    columns = np.ascontiguousarray(words.T).astype(np.uint32, copy=False)
    regs = np.zeros(chunks, dtype=np.uint32)
    regs[0] = reg
    for column in columns:   # 4 bytes of every chunk a step
        x = regs ^ column
        regs = _LOW_PAIR.take(x & 0xFFFF) ^ _HIGH_PAIR.take(x >> 16)
    while len(regs) > 1:   # fold neighbours: left pushed through the right chunk's zero bytes, XOR right
        regs = _apply(_zeros_operator(length), regs[0::2]) ^ regs[1::2]
        length *= 2
    return _register(int(regs[0]), data[done:])


def _apply(images: np.ndarray, regs: np.ndarray) -> np.ndarray:
    """A GF(2) linear map given by its unit-vector ``images`` applied to each of ``regs``."""
    bits = (regs[:, None] >> _BITS) & 1
    return np.bitwise_xor.reduce(np.where(bits.astype(bool), images, np.uint32(0)), axis=1)


@functools.lru_cache(maxsize=64)
def _zeros_operator(n: int) -> np.ndarray:
    """The images of the unit registers after ``n`` zero bytes."""
    if n == 1:
        unit = np.uint32(1) << _BITS
        return _TABLE[unit & 0xFF] ^ (unit >> 8)
    half = _zeros_operator(n // 2)
    result = _apply(half, half)
    return _apply(_zeros_operator(1), result) if n % 2 else result
