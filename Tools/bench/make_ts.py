#!/usr/bin/env python3
"""Writes an MPEG-2 transport stream of about SIZE bytes for the timed-metadata benchmark:
a PAT, a PMT with an ADTS audio stream (PID 0x101) and a timed ID3 stream (PID 0x102, stream
type 0x15 with the metadata descriptors of Apple's timed metadata spec), then audio PES
packets of 1880 bytes (filler payload) with an ID3 PES (a TIT2 frame) every EVERY packets,
PTS advancing 90000 ticks per ID3 event. Usage: make_ts.py OUTPUT SIZE [EVERY], SIZE in MiB,
or in KiB with a K suffix (20K: the Fixtures/timed-id3.ts fixture, made with EVERY 4)."""
import struct, sys

out = sys.argv[1]
size = int(sys.argv[2][:-1]) << 10 if sys.argv[2].upper().endswith("K") else int(sys.argv[2]) << 20
every = int(sys.argv[3]) if len(sys.argv) > 3 else 5000
counters = {}

def crc32(data):
    crc = 0xFFFFFFFF
    for b in data:
        crc ^= b << 24
        for _ in range(8):
            crc = ((crc << 1) ^ 0x04C11DB7) & 0xFFFFFFFF if crc & 0x80000000 else (crc << 1) & 0xFFFFFFFF
    return crc

def section(table, ident, body):
    length = 5 + len(body) + 4
    s = bytes([table, 0xB0 | (length >> 8), length & 0xFF, ident >> 8, ident & 0xFF, 0xC1, 0, 0]) + body
    return s + struct.pack(">I", crc32(s))

def packets(pid, payload, start=True):
    result = bytearray()
    first = True
    while True:
        counters[pid] = (counters.get(pid, 15) + 1) & 0x0F
        chunk, payload = payload[:184], payload[184:]
        head = bytes([0x47, (0x40 if first and start else 0) | (pid >> 8), pid & 0xFF])
        if len(chunk) < 184:
            stuffing = 184 - len(chunk)
            af = b"\x00" if stuffing == 1 else bytes([stuffing - 1, 0]) + b"\xff" * (stuffing - 2)
            result += head + bytes([0x30 | counters[pid]]) + af + chunk
        else:
            result += head + bytes([0x10 | counters[pid]]) + chunk
        first = False
        if not payload:
            return bytes(result)

def pes(stream_id, pts, payload):
    stamp = bytes([0x21 | ((pts >> 29) & 0x0E), (pts >> 22) & 0xFF, ((pts >> 14) & 0xFE) | 1, (pts >> 7) & 0xFF, ((pts << 1) & 0xFE) | 1])
    length = 3 + len(stamp) + len(payload)
    return bytes([0, 0, 1, stream_id, (length >> 8) & 0xFF, length & 0xFF, 0x84, 0x80, len(stamp)]) + stamp + payload

def syncsafe(n): return bytes([(n >> 21) & 0x7F, (n >> 14) & 0x7F, (n >> 7) & 0x7F, n & 0x7F])

def id3(title):
    body = b"\x03" + title.encode()
    frame = b"TIT2" + syncsafe(len(body)) + b"\0\0" + body
    return b"ID3\x04\x00\x00" + syncsafe(len(frame)) + frame

ID3 = b"ID3 "
pointer = b"\xff\xff" + ID3 + b"\xff" + ID3 + b"\x00\x1f\x00\x01"
metadata = b"\xff\xff" + ID3 + b"\xff" + ID3 + b"\x00\x0f"
info = bytes([0x25, len(pointer)]) + pointer
es = bytes([0x26, len(metadata)]) + metadata
pmt = bytes([0xE1, 0x01, 0xF0, len(info)]) + info + bytes([0x0F, 0xE1, 0x01, 0xF0, 0x00]) + bytes([0x15, 0xE1, 0x02, 0xF0, len(es)]) + es
header = packets(0, b"\x00" + section(0, 1, bytes([0, 1, 0xE1, 0x00]))) + packets(0x100, b"\x00" + section(2, 1, pmt))
audio_payload = b"\xaa" * (1880 - 14)
with open(out, "wb") as f:
    f.write(header)
    written, n, pts = len(header), 0, 90000
    audio_packets = packets(0x101, pes(0xC0, pts, audio_payload))  # 11 packets, reused (counters repeat)
    while written < size:
        if n % every == 0:
            chunk = packets(0x102, pes(0xBD, pts, id3("Event %d" % (n // every))))
            pts += 90000
        else:
            chunk = packets(0x101, pes(0xC0, pts, audio_payload))
        f.write(chunk)
        written += len(chunk)
        n += 1
