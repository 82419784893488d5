"""Reading PNG files in tests without an imaging library: the header (size, colour type)
and the pixels of the 8-bit, non-interlaced RGB and RGBA files that Chromium's screenshots
and tools/render_icons.py write. Standard library only (zlib, struct).
"""

from __future__ import annotations

import struct
import zlib
from dataclasses import dataclass

SIGNATURE = b"\x89PNG\r\n\x1a\n"
CHANNELS = {2: 3, 6: 4}  # colour type → bytes a pixel: RGB, RGBA


@dataclass(frozen=True)
class Png:
    """width, height in pixels; colour_type from the IHDR chunk (2 RGB, 6 RGBA); rows: one
    bytes object per row, ``channels`` bytes a pixel (empty when only the header was read)."""

    width: int
    height: int
    colour_type: int
    bit_depth: int
    interlace: int
    rows: tuple[bytes, ...] = ()

    @property
    def channels(self) -> int:
        return CHANNELS[self.colour_type]

    def pixel(self, x: int, y: int) -> tuple[int, ...]:
        """(r, g, b) or (r, g, b, a) at column x, row y."""
        start = x * self.channels
        return tuple(self.rows[y][start:start + self.channels])

    def grey(self) -> bytes:
        """Every pixel as one grey byte (ITU-R 601 luma; alpha ignored), row after row."""
        n = self.channels
        return bytes((row[i] * 299 + row[i + 1] * 587 + row[i + 2] * 114) // 1000
                     for row in self.rows for i in range(0, len(row), n))


def _chunks(data: bytes):
    if data[:8] != SIGNATURE:
        raise ValueError("not a PNG file")
    pos = 8
    while pos < len(data):
        length, kind = struct.unpack(">I4s", data[pos:pos + 8])
        yield kind, data[pos + 8:pos + 8 + length]
        pos += 12 + length  # length, type, body, CRC


def read_header(data: bytes) -> Png:
    """The IHDR chunk, which the PNG specification puts first; raises ValueError for
    anything but a PNG file."""
    kind, body = next(_chunks(data))
    if kind != b"IHDR":
        raise ValueError("a PNG file starts with its IHDR chunk")
    width, height, depth, colour, _compression, _filter, interlace = struct.unpack(">IIBBBBB", body)
    return Png(width, height, colour, depth, interlace)


def _paeth(a: int, b: int, c: int) -> int:
    p = a + b - c
    pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
    return a if pa <= pb and pa <= pc else b if pb <= pc else c


def read_png(data: bytes) -> Png:
    """Header and pixels of an 8-bit, non-interlaced RGB or RGBA PNG (ValueError otherwise):
    the IDAT chunks inflated, each row's filter (PNG specification §9) undone."""
    header = read_header(data)
    if header.bit_depth != 8 or header.interlace or header.colour_type not in CHANNELS:
        raise ValueError(f"only 8-bit RGB/RGBA without interlacing: {header}")
    raw = zlib.decompress(b"".join(body for kind, body in _chunks(data) if kind == b"IDAT"))
    n, stride = header.channels, header.width * header.channels
    rows: list[bytes] = []
    previous = bytearray(stride)
    for y in range(header.height):
        start = y * (stride + 1)
        kind, line = raw[start], bytearray(raw[start + 1:start + 1 + stride])
        for i in range(stride):
            a = line[i - n] if i >= n else 0
            b = previous[i]
            c = previous[i - n] if i >= n else 0
            line[i] = (line[i] + (0, a, b, (a + b) // 2, _paeth(a, b, c))[kind]) & 0xFF
        rows.append(bytes(line))
        previous = line
    return Png(header.width, header.height, header.colour_type, 8, 0, tuple(rows))
