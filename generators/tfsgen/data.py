"""data.py: tensor data bytes for fixtures (little-endian, as both formats store them)."""
import struct


def f32s(values):
    """the IEEE-754 binary32 little-endian bytes of values, in order"""
    return b"".join(struct.pack("<f", v) for v in values)
