"""Hostile (and harmless) files for the deck upload tests: all made here, in memory."""
from __future__ import annotations

import io
import struct
import zipfile
import zlib
from functools import lru_cache

from PIL import Image


@lru_cache(maxsize=None)
def flat_png(width: int, height: int) -> bytes:
    """A real PNG of one colour: a few kB that decode to width x height pixels."""
    def chunk(kind, data):
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))
    packer = zlib.compressobj(9)
    row = b"\0" * (1 + 3 * width)
    idat = b"".join(packer.compress(row * min(100, height - y)) for y in range(0, height, 100))
    idat += packer.flush()
    return (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0))
            + chunk(b"IDAT", idat) + chunk(b"IEND", b""))


def zipped(entries: dict) -> bytes:
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w", zipfile.ZIP_DEFLATED) as z:
        for name, data in entries.items():
            z.writestr(name, data)
    return buf.getvalue()


def picture(fmt="PNG", size=(60, 90), color=(30, 120, 200)) -> bytes:
    buf = io.BytesIO()
    Image.new("RGB", size, color).save(buf, fmt)
    return buf.getvalue()


def lying_zip(declared: int) -> bytes:
    """One real entry, and a zip64 end record that declares `declared` entries."""
    real = zipped({"a.png": picture()})
    end = real.rindex(b"PK\x05\x06")
    size_cd, offset_cd = struct.unpack("<4s4H2LH", real[end:end + 22])[5:7]
    zip64_at = end
    zip64 = struct.pack("<4sQ2H2L4Q", b"PK\x06\x06", 44, 45, 45, 0, 0, declared, declared,
                        size_cd, offset_cd)
    locator = struct.pack("<4sLQL", b"PK\x06\x07", 0, zip64_at, 1)
    eocd = struct.pack("<4s4H2LH", b"PK\x05\x06", 0, 0, 0xFFFF, 0xFFFF, 0xFFFFFFFF, 0xFFFFFFFF, 0)
    return real[:end] + zip64 + locator + eocd


def huge_directory_zip(entries=1_000_000) -> bytes:
    """A central directory of `entries` real records (about 50 MB) all pointing at one local
    file, under an end record that claims 3 entries."""
    name = b"a.png"
    data = picture()
    crc = zlib.crc32(data)
    local = struct.pack("<4s5H3L2H", b"PK\x03\x04", 20, 0, 0, 0, 0, crc, len(data), len(data),
                        len(name), 0) + name + data
    record = struct.pack("<4s6H3L5H2L", b"PK\x01\x02", 20, 20, 0, 0, 0, 0, crc, len(data),
                         len(data), len(name), 0, 0, 0, 0, 0, 0) + name
    directory = record * entries
    eocd = struct.pack("<4s4H2LH", b"PK\x05\x06", 0, 0, 3, 3, len(directory), len(local), 0)
    return local + directory + eocd
