#!/usr/bin/env python3
"""Checks that a PNG exists, decodes, and is not one flat colour.

Usage: check_png.py FILE.png [MIN_COLOURS]
Exits 0 when the image has at least MIN_COLOURS (default 16) distinct colours.
Standard library only: zlib and the PNG filters by hand (8-bit RGB/RGBA).
"""
import struct
import sys
import zlib


def decode(path):
    data = open(path, "rb").read()
    if data[:8] != b"\x89PNG\r\n\x1a\n":
        raise ValueError("not a PNG")
    pos, idat, header = 8, b"", None
    while pos < len(data):
        length, kind = struct.unpack(">I4s", data[pos:pos + 8])
        body = data[pos + 8:pos + 8 + length]
        if kind == b"IHDR":
            header = struct.unpack(">IIBBBBB", body)
        elif kind == b"IDAT":
            idat += body
        pos += 12 + length
    width, height, depth, colour, _, _, interlace = header
    if depth != 8 or colour not in (2, 6) or interlace:
        raise ValueError(f"unsupported PNG layout depth={depth} colour={colour} interlace={interlace}")
    bpp = 3 if colour == 2 else 4
    raw = zlib.decompress(idat)
    stride = width * bpp
    rows, prev, i = [], bytearray(stride), 0
    for _ in range(height):
        kind = raw[i]
        line = bytearray(raw[i + 1:i + 1 + stride])
        i += 1 + stride
        for x in range(stride):
            a = line[x - bpp] if x >= bpp else 0
            b = prev[x]
            c = prev[x - bpp] if x >= bpp else 0
            if kind == 1:
                line[x] = (line[x] + a) & 255
            elif kind == 2:
                line[x] = (line[x] + b) & 255
            elif kind == 3:
                line[x] = (line[x] + (a + b) // 2) & 255
            elif kind == 4:
                p = a + b - c
                pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
                pred = a if pa <= pb and pa <= pc else (b if pb <= pc else c)
                line[x] = (line[x] + pred) & 255
        rows.append(bytes(line))
        prev = line
    return width, height, bpp, rows


def main():
    path = sys.argv[1]
    wanted = int(sys.argv[2]) if len(sys.argv) > 2 else 16
    try:
        width, height, bpp, rows = decode(path)
    except (OSError, ValueError, zlib.error, TypeError) as e:
        print(f"check_png: {path}: {e}")
        return 1
    colours = set()
    for row in rows[:: max(1, height // 90)]:
        for x in range(0, len(row), bpp * max(1, width // 160)):
            colours.add(row[x:x + 3])
    print(f"check_png: {path}: {width}x{height}, {len(colours)} distinct colours sampled")
    if len(colours) < wanted:
        print(f"check_png: fewer than {wanted} colours: a flat or blank image")
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
