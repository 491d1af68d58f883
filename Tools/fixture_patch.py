#!/usr/bin/env python3
"""Byte-level helpers for the ISO-BMFF / QuickTime and ID3 test fixtures.

Python 3 standard library only.  Used by Tools/make-fixtures.sh for the
patches ffmpeg cannot do, and handy on its own to inspect a file.

Commands:
  tree FILE                 print the box tree with decoded details
  verify FILE               check that every stco/co64 chunk offset points
                            inside an mdat payload (exit 1 otherwise)
  co64 IN OUT               convert every stco to co64 (8-byte entries),
                            fixing ancestor sizes and shifting the offsets
                            when the moov precedes the mdat
  mdat64 IN OUT             replace a top-level 8-byte free/wide box + the
                            32-bit mdat header that follows it by a single
                            mdat header with size == 1 and a 64-bit
                            largesize; the payload does not move
  mdat-size0 IN OUT         set the size field of the (last, top-level)
                            mdat to 0, meaning "extends to end of file"
  add-chpl IN OUT START:TITLE...
                            add (or replace) a Nero chapter list
                            moov/udta/chpl; START is in seconds
  mdta-to-moov IN OUT       move the ffmpeg-written moov/udta/meta (hdlr
                            mdta, keys, ilst; an ISO full box) to moov/meta
                            without version/flags, the way Apple devices
                            lay it out
  reset-mtime FILE          in place: set the modification_time of every
                            mvhd/tkhd/mdhd to its creation_time (undoes
                            AtomicParsley stamping the current time)
  jpeg-exif IN OUT          replace the JFIF APP0 of a baseline JPEG by an
                            Exif APP1 (IFD0 Make/Model/Orientation/DateTime
                            + Exif IFD DateTimeOriginal)
  heif-jpeg JPEG W H OUT [EXIF_FROM_JPEG]
                            write a minimal HEIF file (brands mif1/heic)
                            holding one JPEG-coded image item (and an Exif
                            item linked by iref/cdsc, taken from the APP1
                            of EXIF_FROM_JPEG)
  expect FILE PATH...       exit 1 unless every box path (e.g.
                            moov/trak/mdia/minf/stbl/co64) exists

ID3 / MP3 / AAC / AIFF / WAV (MP3 and AAC inputs must be bare audio):
  tags FILE...              print every tag of an MP3/ADTS file (leading
                            ID3v2 tags and their frames with offsets, flags
                            and decoded content, junk, the first audio frame
                            with its Xing/Info/LAME header, and at the end an
                            appended ID3v2 tag, APEv2, Lyrics3v2, ID3v1), or
                            the chunks of an AIFF/WAV file incl. ID3 chunks
  id3v22 MP3 JPEG OUT       ID3v2.2 tag (TT2 TP1 TAL TYE TRK TCO COM TXX PIC)
  id3-unsync IN OUT         unsynchronise the body of IN's leading ID3v2.3
                            tag and set header flag 0x80
  id3-frame-flags MP3 JPEG OUT
                            ID3v2.4 with per-frame unsynchronisation, zlib
                            compression, data length indicators, status flag
  id3-nonsyncsafe MP3 OUT   ID3v2.4 with plain 32-bit frame sizes (iTunes)
  id3-appended MP3 OUT      audio + ID3v2.4 tag with footer + ID3v1.1
  ape-lyrics3 MP3 PNG OUT   ID3v2.3 + audio + APEv2 + Lyrics3v2 + ID3v1.1
  two-tags MP3 OUT          ID3v2.4 + ID3v2.3 + 7 junk bytes + audio
  hls-timestamp AAC OUT [PTS]
                            ID3v2.4 PRIV transportStreamTimestamp + ADTS
  id3v1-only MP3 OUT        audio + ID3v1.0 tag (no track byte)
  append-id3v1 FILE TITLE ARTIST ALBUM YEAR COMMENT GENRE [TRACK]
                            in place: append an ID3v1 (v1.1 with TRACK)
"""

import struct
import sys
import zlib

# Boxes whose payload is a plain sequence of child boxes.
CONTAINERS = {
    b"moov", b"trak", b"mdia", b"minf", b"stbl", b"udta", b"edts", b"dinf",
    b"mvex", b"moof", b"traf", b"mfra", b"tref", b"iprp", b"ipco", b"wave",
    b"sinf", b"schi", b"ilst", b"gmhd", b"tapt", b"clip", b"matt", b"----",
    b"meco", b"strk", b"trgr", b"grpl", b"rinf", b"srpp",
}
# Full boxes (4 bytes version/flags) followed by children, with the number
# of extra bytes to skip after version/flags.
FULL_CONTAINERS = {b"dref": 4, b"stsd": 4}

AUDIO_ENTRY_SIZES = {0: 28, 1: 44, 2: 64}


class Box:
    __slots__ = ("type", "start", "size", "hdr", "payload_start", "end",
                 "children", "info", "largesize", "size0")

    def __init__(self, btype, start, size, hdr, largesize, size0):
        self.type = btype
        self.start = start
        self.size = size
        self.hdr = hdr
        self.payload_start = start + hdr
        self.end = start + size
        self.children = []
        self.info = ""
        self.largesize = largesize
        self.size0 = size0


def fourcc(b):
    out = ""
    for ch in b:
        if ch == 0xA9:
            out += "\u00a9"
        elif 32 <= ch < 127:
            out += chr(ch)
        else:
            out += "\\x%02x" % ch
    return out


def u8(d, o):
    return d[o]


def u16(d, o):
    return struct.unpack_from(">H", d, o)[0]


def u32(d, o):
    return struct.unpack_from(">I", d, o)[0]


def u64(d, o):
    return struct.unpack_from(">Q", d, o)[0]


def lang(code):
    if code == 0x7FFF or code < 0x400:
        return "0x%x" % code
    return "".join(chr(((code >> s) & 0x1F) + 0x60) for s in (10, 5, 0))


def mac_time(secs):
    """Seconds since 1904-01-01 (QuickTime/ISO epoch) as ISO 8601."""
    if secs == 0:
        return "0"
    import datetime
    t = datetime.datetime(1904, 1, 1) + datetime.timedelta(seconds=secs)
    return t.strftime("%Y-%m-%dT%H:%M:%SZ")


def read_header(data, pos, end):
    if pos + 8 > end:
        return None
    size = u32(data, pos)
    btype = data[pos + 4:pos + 8]
    hdr = 8
    largesize = size0 = False
    if size == 1:
        size = u64(data, pos + 8)
        hdr = 16
        largesize = True
    elif size == 0:
        size = end - pos
        size0 = True
    if btype == b"uuid":
        hdr += 16
    if size < hdr or pos + size > end:
        return None
    return Box(btype, pos, size, hdr, largesize, size0)


def parse(data, pos, end, ctx, parent=None, depth=0):
    boxes = []
    while pos + 8 <= end:
        box = read_header(data, pos, end)
        if box is None:
            # trailing garbage / terminator (e.g. 4 zero bytes in udta)
            break
        describe(data, box, ctx, parent)
        kids_at = child_offset(data, box, ctx, parent)
        if kids_at is not None and depth < 32:
            if box.type == b"trak":
                ctx = dict(ctx)
                ctx["handler"] = find_handler(data, box)
            box.children = parse(data, kids_at, box.end, ctx, box, depth + 1)
        boxes.append(box)
        pos = box.end
    return boxes


def find_handler(data, trak):
    """Look ahead for trak/mdia/hdlr to know how to read sample entries."""
    pos = trak.payload_start
    while pos + 8 <= trak.end:
        b = read_header(data, pos, trak.end)
        if b is None:
            break
        if b.type == b"mdia":
            q = b.payload_start
            while q + 8 <= b.end:
                c = read_header(data, q, b.end)
                if c is None:
                    break
                if c.type == b"hdlr":
                    return data[c.payload_start + 8:c.payload_start + 12]
                q = c.end
        pos = b.end
    return None


def meta_is_full(data, box):
    # QuickTime 'meta' (moov/meta with hdlr mdta) has no version/flags;
    # ISO/iTunes 'meta' has.  Peek at the type of the first child.
    p = box.payload_start
    return not (p + 8 <= box.end and data[p + 4:p + 8] in (b"hdlr", b"keys", b"ilst"))


def child_offset(data, box, ctx, parent):
    t = box.type
    p = box.payload_start
    ptype = parent.type if parent is not None else None
    if t in CONTAINERS:
        return p
    if t in FULL_CONTAINERS:
        return p + 4 + FULL_CONTAINERS[t]
    if t == b"meta":
        return p + 4 if meta_is_full(data, box) else p
    if ptype == b"ilst":
        return p  # iTunes item: children are data/mean/name
    if t == b"iinf":
        return p + 4 + (2 if data[p] == 0 else 4)
    if t == b"iref":
        return None  # decoded in describe()
    if ptype == b"stsd":
        h = ctx.get("handler")
        if h == b"soun":
            ver = u16(data, p + 8)
            return p + AUDIO_ENTRY_SIZES.get(ver, 28)
        if h == b"vide":
            return p + 78
        if t == b"tx3g":
            return p + 38
        return None
    return None


def cstr(b):
    return b.split(b"\0", 1)[0].decode("utf-8", "replace")


def describe(data, box, ctx, parent):
    t = box.type
    p = box.payload_start
    e = box.end
    n = e - p
    ptype = parent.type if parent is not None else None
    info = []
    try:
        if t == b"ftyp" or t == b"styp":
            comp = [fourcc(data[i:i + 4]) for i in range(p + 8, e, 4)]
            info.append("major=%r minor=%d compat=%s" % (
                fourcc(data[p:p + 4]), u32(data, p + 4), ",".join(repr(c) for c in comp)))
        elif t == b"mdat":
            info.append("payload=%d bytes @%d" % (n, p))
            if box.largesize:
                info.append("size==1 (64-bit largesize=%d)" % box.size)
            if box.size0:
                info.append("size==0 (to end of file)")
        elif t in (b"mvhd", b"mdhd"):
            v = data[p]
            if v == 1:
                ts, dur = u32(data, p + 20), u64(data, p + 24)
                lo = p + 32
            else:
                ts, dur = u32(data, p + 12), u32(data, p + 16)
                lo = p + 20
            ct = u64(data, p + 4) if v == 1 else u32(data, p + 4)
            info.append("v%d timescale=%d duration=%d created=%s" % (v, ts, dur, mac_time(ct)))
            if t == b"mdhd":
                info.append("lang=%s" % lang(u16(data, lo)))
        elif t == b"tkhd":
            v = data[p]
            tid = u32(data, p + (20 if v == 1 else 12))
            w, h = u32(data, e - 8) / 65536.0, u32(data, e - 4) / 65536.0
            info.append("v%d flags=0x%x track_ID=%d %gx%g" % (
                v, u32(data, p) & 0xFFFFFF, tid, w, h))
        elif t == b"hdlr":
            info.append("handler=%r" % fourcc(data[p + 8:p + 12]))
            if data[p + 4:p + 8] != b"\0\0\0\0":
                info.append("pre_defined/component=%r" % fourcc(data[p + 4:p + 8]))
            name = data[p + 24:e]
            if name:
                if name[0] == len(name) - 1:  # QuickTime Pascal string
                    name = name[1:]
                info.append("name=%r" % name.rstrip(b"\0").decode("latin-1"))
        elif t in (b"stco", b"co64"):
            cnt = u32(data, p + 4)
            w = 4 if t == b"stco" else 8
            offs = [(u32 if w == 4 else u64)(data, p + 8 + i * w) for i in range(min(cnt, 3))]
            info.append("entries=%d first=%s" % (cnt, offs))
        elif t in (b"stsz",):
            info.append("sample_size=%d count=%d" % (u32(data, p + 4), u32(data, p + 8)))
        elif t in (b"stsc", b"stts", b"ctts", b"stss", b"sdtp"):
            if t != b"sdtp":
                info.append("entries=%d" % u32(data, p + 4))
        elif t == b"elst":
            v, cnt = data[p], u32(data, p + 4)
            ents = []
            o = p + 8
            for _ in range(min(cnt, 4)):
                if v == 1:
                    d, mt = u64(data, o), struct.unpack_from(">q", data, o + 8)[0]
                    o += 16
                else:
                    d, mt = u32(data, o), struct.unpack_from(">i", data, o + 4)[0]
                    o += 8
                ents.append("(dur=%d media_time=%d)" % (d, mt))
                o += 4
            info.append("v%d entries=%d %s" % (v, cnt, " ".join(ents)))
        elif ptype == b"stsd":
            h = ctx.get("handler")
            info.append("data_ref=%d" % u16(data, p + 6))
            if h == b"soun":
                ver = u16(data, p + 8)
                ch, ss = u16(data, p + 16), u16(data, p + 18)
                rate = u32(data, p + 24) / 65536.0
                s = "sound-description v%d channels=%d samplesize=%d rate=%g" % (ver, ch, ss, rate)
                if ver == 2:
                    s = "sound-description v2 (v0 fields: %d/%d/0x%x)" % (ch, ss, u32(data, p + 24))
                if ver == 1:
                    s += " samples_per_packet=%d bytes_per_packet=%d bytes_per_frame=%d bytes_per_sample=%d" % (
                        u32(data, p + 28), u32(data, p + 32), u32(data, p + 36), u32(data, p + 40))
                elif ver == 2:
                    r = struct.unpack_from(">d", data, p + 32)[0]
                    s += " rate=%g channels=%d bits=%d flags=0x%x bytes_per_packet=%d frames_per_packet=%d" % (
                        r, u32(data, p + 40), u32(data, p + 48), u32(data, p + 52),
                        u32(data, p + 56), u32(data, p + 60))
                info.append(s)
            elif h == b"vide":
                info.append("%dx%d compressor=%r" % (
                    u16(data, p + 24), u16(data, p + 26),
                    data[p + 43:p + 43 + min(data[p + 42], 31)].decode("latin-1")))
        elif t == b"esds":
            # find DecoderConfigDescriptor objectTypeIndication
            q = p + 4
            if data[q] == 3:
                q += 1
                while data[q] & 0x80:
                    q += 1
                q += 1 + 3
                if data[q] == 4:
                    q += 1
                    while data[q] & 0x80:
                        q += 1
                    q += 1
                    info.append("objectType=0x%02x" % data[q])
        elif t == b"frma":
            info.append("format=%r" % fourcc(data[p:p + 4]))
        elif ptype == b"tref":
            ids = [u32(data, o) for o in range(p, e - 3, 4)]
            info.append("track_IDs=%s" % ids)
        elif t == b"chpl":
            v = data[p]
            q = p + 4 + (4 if v == 1 else 0)
            cnt = data[q]
            q += 1
            chs = []
            for _ in range(cnt):
                st = u64(data, q)
                ln = data[q + 8]
                chs.append("%.3fs:%r" % (st / 1e7, data[q + 9:q + 9 + ln].decode("utf-8", "replace")))
                q += 9 + ln
            info.append("v%d chapters=%d %s" % (v, cnt, " ".join(chs)))
        elif t == b"keys":
            cnt = u32(data, p + 4)
            q = p + 8
            ks = []
            for i in range(cnt):
                ks.append("%d=%s:%s" % (i + 1, fourcc(data[q + 4:q + 8]), data[q + 8:q + u32(data, q)].decode("utf-8", "replace")))
                q += u32(data, q)
            info.append("entries=%d %s" % (cnt, " ".join(ks)))
        elif t == b"data" and ptype is not None:
            typ = u32(data, p) & 0xFFFFFF
            loc = u32(data, p + 4)
            val = data[p + 8:e]
            if typ == 1 or typ == 2:
                sval = repr(val.decode("utf-8" if typ == 1 else "utf-16-be", "replace"))
            elif typ in (13, 14, 27):
                sval = "%s image %d bytes" % ({13: "JPEG", 14: "PNG", 27: "BMP"}[typ], len(val))
            elif typ == 21 or typ == 22 or typ == 0:
                sval = "bytes=" + val.hex()
            else:
                sval = "bytes=" + val[:24].hex()
            info.append("type=%d locale=%d %s" % (typ, loc, sval))
        elif t in (b"mean", b"name") and ptype is not None and ptype != b"udta":
            info.append("%r" % data[p + 4:e].decode("utf-8", "replace"))
        elif ptype == b"udta" and t[:1] == b"\xa9" and n >= 4 and u16(data, p) <= n - 4:
            # QuickTime international text item: size(2) lang(2) string
            ln, lg = u16(data, p), u16(data, p + 2)
            info.append("qt-text lang=%s %r" % (lang(lg) if lg >= 0x400 else lg,
                                                 data[p + 4:p + 4 + ln].decode("utf-8", "replace")))
        elif ptype == b"udta" and t in (b"titl", b"auth", b"perf", b"gnre", b"dscp", b"cprt", b"albm"):
            extra = ""
            s = data[p + 6:e]
            if t == b"albm" and s.endswith(b"\0") is False and len(s) > 0:
                pass
            info.append("3gpp-asset lang=%s %r%s" % (lang(u16(data, p + 4)), cstr(s), extra))
        elif ptype == b"udta" and t == b"yrrc":
            info.append("3gpp-asset year=%d" % u16(data, p + 4))
        elif t == b"mfhd":
            info.append("seq=%d" % u32(data, p + 4))
        elif t == b"tfhd":
            fl = u32(data, p) & 0xFFFFFF
            info.append("flags=0x%06x track_ID=%d%s" % (
                fl, u32(data, p + 4), " default-base-is-moof" if fl & 0x20000 else ""))
        elif t == b"tfdt":
            v = data[p]
            info.append("v%d baseMediaDecodeTime=%d" % (v, u64(data, p + 4) if v == 1 else u32(data, p + 4)))
        elif t == b"trun":
            fl = u32(data, p) & 0xFFFFFF
            s = "flags=0x%06x samples=%d" % (fl, u32(data, p + 4))
            if fl & 1:
                s += " data_offset=%d" % struct.unpack_from(">i", data, p + 8)[0]
            info.append(s)
        elif t == b"trex":
            info.append("track_ID=%d" % u32(data, p + 4))
        elif t == b"mehd":
            info.append("fragment_duration=%d" % (u64(data, p + 4) if data[p] == 1 else u32(data, p + 4)))
        elif t == b"sidx":
            v = data[p]
            q = p + 4
            rid, ts = u32(data, q), u32(data, q + 4)
            q += 8
            if v == 0:
                ept, fo = u32(data, q), u32(data, q + 4)
                q += 8
            else:
                ept, fo = u64(data, q), u64(data, q + 8)
                q += 16
            cnt = u16(data, q + 2)
            info.append("v%d reference_ID=%d timescale=%d earliest_pt=%d first_offset=%d references=%d" % (
                v, rid, ts, ept, fo, cnt))
        elif t == b"tfra":
            info.append("v%d track_ID=%d entries=%d" % (data[p], u32(data, p + 4), u32(data, p + 12)))
        elif t == b"mfro":
            info.append("mfra_size=%d" % u32(data, p + 4))
        elif t == b"pitm":
            info.append("item_ID=%d" % (u16(data, p + 4) if data[p] == 0 else u32(data, p + 4)))
        elif t == b"infe":
            v = data[p]
            if v >= 2:
                iid = u16(data, p + 4) if v == 2 else u32(data, p + 4)
                q = p + (8 if v == 2 else 10)
                it = data[q:q + 4]
                nm = cstr(data[q + 4:e])
                info.append("v%d item_ID=%d item_type=%r name=%r%s" % (
                    v, iid, fourcc(it), nm, " hidden(flags=1)" if u32(data, p) & 1 else ""))
        elif t == b"iloc":
            v = data[p]
            os_, ls = data[p + 4] >> 4, data[p + 4] & 15
            bs, isz = data[p + 5] >> 4, (data[p + 5] & 15 if v in (1, 2) else 0)
            q = p + 6
            cnt = u16(data, q) if v < 2 else u32(data, q)
            q += 2 if v < 2 else 4
            items = []

            def rd(sz, o):
                return {0: 0, 4: u32(data, o) if sz == 4 else 0, 8: u64(data, o) if sz == 8 else 0}[sz]
            for _ in range(cnt):
                iid = u16(data, q) if v < 2 else u32(data, q)
                q += 2 if v < 2 else 4
                cm = 0
                if v in (1, 2):
                    cm = u16(data, q) & 15
                    q += 2
                q += 2  # data_reference_index
                base = rd(bs, q)
                q += bs
                ec = u16(data, q)
                q += 2
                exts = []
                for _ in range(ec):
                    q += isz
                    eo = rd(os_, q)
                    q += os_
                    el = rd(ls, q)
                    q += ls
                    exts.append("%d+%d" % (base + eo, el))
                items.append("item%d(cm=%d %s)" % (iid, cm, ",".join(exts)))
            info.append("v%d offset_size=%d length_size=%d base_offset_size=%d %s" % (
                v, os_, ls, bs, " ".join(items)))
        elif t == b"ispe":
            info.append("%dx%d" % (u32(data, p + 4), u32(data, p + 8)))
        elif t == b"ipma":
            v, fl = data[p], u32(data, p) & 0xFFFFFF
            cnt = u32(data, p + 4)
            q = p + 8
            ents = []
            for _ in range(cnt):
                iid = u16(data, q) if v < 1 else u32(data, q)
                q += 2 if v < 1 else 4
                ac = data[q]
                q += 1
                props = []
                for _ in range(ac):
                    if fl & 1:
                        x = u16(data, q)
                        q += 2
                        props.append("%s%d" % ("!" if x & 0x8000 else "", x & 0x7FFF))
                    else:
                        x = data[q]
                        q += 1
                        props.append("%s%d" % ("!" if x & 0x80 else "", x & 0x7F))
                ents.append("item%d->[%s]" % (iid, ",".join(props)))
            info.append(" ".join(ents))
        elif t == b"iref":
            v = data[p]
            q = p + 4
            refs = []
            while q + 8 <= e:
                sz = u32(data, q)
                rt = data[q + 4:q + 8]
                r = q + 8
                fid = u16(data, r) if v == 0 else u32(data, r)
                r += 2 if v == 0 else 4
                c = u16(data, r)
                r += 2
                to = []
                for _ in range(c):
                    to.append(u16(data, r) if v == 0 else u32(data, r))
                    r += 2 if v == 0 else 4
                refs.append("%s:%d->%s" % (fourcc(rt), fid, to))
                q += sz
            info.append(" ".join(refs))
        elif t == b"colr":
            info.append("type=%r" % fourcc(data[p:p + 4]))
        elif t == b"\0\0\0\0" and n == 0:
            info.append("(8-byte terminator atom)")
        elif t == b"free" or t == b"skip" or t == b"wide":
            info.append("%d bytes" % box.size)
    except (IndexError, struct.error, KeyError) as exc:  # pragma: no cover
        info.append("(could not decode: %s)" % exc)
    box.info = " ".join(info)


def load(path):
    with open(path, "rb") as f:
        data = f.read()
    return data, parse(data, 0, len(data), {})


def walk(boxes, prefix=""):
    for b in boxes:
        path = prefix + fourcc(b.type)
        yield path, b
        yield from walk(b.children, path + "/")


def cmd_tree(path):
    data, boxes = load(path)

    def show(bs, depth):
        for b in bs:
            print("%s%s [%d+%d @%d]%s" % ("  " * depth, fourcc(b.type), b.hdr, b.size - b.hdr,
                                          b.start, (" " + b.info) if b.info else ""))
            show(b.children, depth + 1)
    print("%s: %d bytes" % (path, len(data)))
    show(boxes, 0)
    end = boxes[-1].end if boxes else 0
    if end != len(data):
        print("!! %d trailing bytes not covered by boxes" % (len(data) - end))


def chunk_offsets(data, boxes):
    out = []
    for _, b in walk(boxes):
        if b.type in (b"stco", b"co64"):
            cnt = u32(data, b.payload_start + 4)
            w = 4 if b.type == b"stco" else 8
            for i in range(cnt):
                o = b.payload_start + 8 + i * w
                out.append(u32(data, o) if w == 4 else u64(data, o))
    return out


def cmd_verify(path):
    data, boxes = load(path)
    mdats = [(b.payload_start, b.end) for b in boxes if b.type == b"mdat"]
    offs = chunk_offsets(data, boxes)
    bad = [o for o in offs if not any(s <= o < e for s, e in mdats)]
    if bad:
        print("%s: %d of %d chunk offsets outside mdat: %s" % (path, len(bad), len(offs), bad[:5]))
        return 1
    print("%s: %d chunk offsets, all inside mdat payload(s) %s" % (path, len(offs), mdats))
    return 0


def cmd_expect(path, wanted):
    data, boxes = load(path)
    have = set(p for p, _ in walk(boxes))
    missing = [w for w in wanted if w not in have]
    if missing:
        print("%s: missing box path(s): %s" % (path, ", ".join(missing)))
        return 1
    return 0


# ---------------------------------------------------------------- rewriting
# A small mutable tree: only the boxes on the way to stco/udta are opened;
# everything else stays as raw bytes.
OPEN_FOR_REWRITE = {b"moov", b"trak", b"mdia", b"minf", b"stbl", b"udta"}


class Node:
    def __init__(self, btype, raw_payload=None, children=None, largesize=False, size0=False):
        self.type = btype
        self.raw = raw_payload
        self.children = children
        self.largesize = largesize
        self.size0 = size0


def to_nodes(data, pos, end, top=True):
    nodes = []
    while pos + 8 <= end:
        b = read_header(data, pos, end)
        if b is None:
            nodes.append(Node(None, data[pos:end]))  # trailing bytes
            return nodes
        if b.type == b"uuid":
            raise SystemExit("uuid boxes are not supported by the rewriter")
        if b.type in OPEN_FOR_REWRITE:
            n = Node(b.type, children=to_nodes(data, b.payload_start, b.end, False))
        else:
            n = Node(b.type, data[b.payload_start:b.end], largesize=b.largesize, size0=b.size0)
        nodes.append(n)
        pos = b.end
    if pos < end:
        nodes.append(Node(None, data[pos:end]))
    return nodes


def serialize(nodes, out, base=0, positions=None):
    """Append nodes to bytearray out; record mdat payload positions."""
    for n in nodes:
        if n.type is None:
            out += n.raw
            continue
        start = len(out)
        if n.children is not None:
            out += b"\0\0\0\0" + n.type
            serialize(n.children, out, base, positions)
            struct.pack_into(">I", out, start, len(out) - start)
        else:
            if n.largesize:
                out += struct.pack(">I4sQ", 1, n.type, 16 + len(n.raw))
            else:
                out += struct.pack(">I4s", 0 if n.size0 else 8 + len(n.raw), n.type)
            if n.type == b"mdat" and positions is not None:
                positions.append(len(out))
            out += n.raw
    return out


def iter_nodes(nodes):
    for n in nodes:
        yield n
        if n.children:
            yield from iter_nodes(n.children)


def rebuild(nodes, old_mdat_positions):
    """Serialize and shift every chunk offset by how far its mdat moved."""
    for _ in range(2):
        positions = []
        out = serialize(nodes, bytearray(), positions=positions)
        if len(positions) != len(old_mdat_positions):
            raise SystemExit("mdat count changed")
        deltas = [n - o for n, o in zip(positions, old_mdat_positions)]
        if not any(deltas):
            return bytes(out)
        # shift offsets; chunk offsets are attributed to the mdat they fall in
        ranges = list(old_mdat_positions)
        for n in iter_nodes(nodes):
            if n.type in (b"stco", b"co64"):
                w = 4 if n.type == b"stco" else 8
                fmt = ">I" if w == 4 else ">Q"
                raw = bytearray(n.raw)
                cnt = u32(raw, 4)
                for i in range(cnt):
                    o = 8 + i * w
                    v = struct.unpack_from(fmt, raw, o)[0]
                    idx = max((k for k, s in enumerate(ranges) if s <= v), default=0)
                    struct.pack_into(fmt, raw, o, v + deltas[idx])
                n.raw = bytes(raw)
        old_mdat_positions = positions
    return bytes(out)


def mdat_positions(nodes):
    positions = []
    serialize(nodes, bytearray(), positions=positions)
    return positions


def write(path, blob):
    with open(path, "wb") as f:
        f.write(blob)


def cmd_co64(src, dst):
    data = open(src, "rb").read()
    nodes = to_nodes(data, 0, len(data))
    old = mdat_positions(nodes)
    converted = 0
    for n in iter_nodes(nodes):
        if n.type == b"stco":
            cnt = u32(n.raw, 4)
            offs = struct.unpack_from(">%dI" % cnt, n.raw, 8)
            n.type = b"co64"
            n.raw = n.raw[:8] + struct.pack(">%dQ" % cnt, *offs)
            converted += 1
    if not converted:
        raise SystemExit("no stco found in " + src)
    write(dst, rebuild(nodes, old))


def cmd_mdat64(src, dst):
    data = open(src, "rb").read()
    nodes = to_nodes(data, 0, len(data))
    old = mdat_positions(nodes)
    for i, n in enumerate(nodes[:-1]):
        if n.type in (b"free", b"wide", b"skip") and n.raw == b"" and nodes[i + 1].type == b"mdat":
            nodes[i + 1].largesize = True
            del nodes[i]
            break
    else:
        raise SystemExit("no 8-byte free/wide box directly before mdat in " + src)
    out = rebuild(nodes, old)
    if mdat_positions(nodes) != old:
        raise SystemExit("mdat payload moved")
    write(dst, out)


def cmd_mdat_size0(src, dst):
    data = open(src, "rb").read()
    nodes = to_nodes(data, 0, len(data))
    if not nodes or nodes[-1].type != b"mdat":
        raise SystemExit("mdat is not the last top-level box of " + src)
    nodes[-1].size0 = True
    old = mdat_positions(nodes)
    write(dst, rebuild(nodes, old))


def cmd_add_chpl(src, dst, specs):
    data = open(src, "rb").read()
    nodes = to_nodes(data, 0, len(data))
    old = mdat_positions(nodes)
    moov = next(n for n in nodes if n.type == b"moov")
    udta = next((n for n in moov.children if n.type == b"udta"), None)
    if udta is None:
        udta = Node(b"udta", children=[])
        moov.children.append(udta)
    udta.children = [c for c in udta.children if c.type != b"chpl"]
    body = bytearray(struct.pack(">BBBBIB", 1, 0, 0, 0, 0, len(specs)))
    for spec in specs:
        start, title = spec.split(":", 1)
        t = title.encode("utf-8")[:255]
        body += struct.pack(">QB", int(round(float(start) * 1e7)), len(t)) + t
    udta.children.append(Node(b"chpl", bytes(body)))
    write(dst, rebuild(nodes, old))


def cmd_mdta_to_moov(src, dst):
    data = open(src, "rb").read()
    nodes = to_nodes(data, 0, len(data))
    old = mdat_positions(nodes)
    moov = next(n for n in nodes if n.type == b"moov")
    udta = next(n for n in moov.children if n.type == b"udta")
    meta = next(n for n in udta.children if n.type == b"meta")
    raw = meta.raw
    if raw[8:12] != b"hdlr" or raw[12 + 8:12 + 12] != b"mdta":
        raise SystemExit("udta/meta is not an ISO full box with hdlr mdta")
    udta.children.remove(meta)
    if not [c for c in udta.children if c.type is not None]:
        moov.children.remove(udta)
    moov.children.append(Node(b"meta", raw[4:]))  # drop version/flags
    write(dst, rebuild(nodes, old))


def cmd_reset_mtime(path):
    data, boxes = load(path)
    buf = bytearray(data)
    for _, b in walk(boxes):
        if b.type in (b"mvhd", b"tkhd", b"mdhd"):
            p = b.payload_start
            if buf[p] == 1:
                buf[p + 12:p + 20] = buf[p + 4:p + 12]
            else:
                buf[p + 8:p + 12] = buf[p + 4:p + 8]
    write(path, bytes(buf))


# ------------------------------------------------------------------ JPEG/Exif
def tiff_ifd(entries, ifd_offset, next_ifd=0):
    """entries: list of (tag, type, count, value_bytes); returns (ifd, data)."""
    entries = sorted(entries)
    data_at = ifd_offset + 2 + 12 * len(entries) + 4
    ifd = struct.pack(">H", len(entries))
    extra = b""
    for tag, typ, count, val in entries:
        if len(val) <= 4:
            ifd += struct.pack(">HHI", tag, typ, count) + val.ljust(4, b"\0")
        else:
            ifd += struct.pack(">HHII", tag, typ, count, data_at + len(extra))
            extra += val + (b"\0" if len(val) % 2 else b"")
    return ifd + struct.pack(">I", next_ifd) + extra


def exif_tiff():
    def asc(s):
        b = s.encode("ascii") + b"\0"
        return (2, len(b), b)
    make, model, dt = asc("FixtureCam"), asc("Model 1"), asc("2021:06:01 12:00:00")
    ifd0_entries = [
        (0x010F,) + make, (0x0110,) + model,
        (0x0112, 3, 1, struct.pack(">H", 1)),          # Orientation = 1
        (0x0132,) + dt,
        (0x8769, 4, 1, struct.pack(">I", 0)),          # ExifIFD pointer (patched)
    ]
    ifd0 = tiff_ifd(ifd0_entries, 8)
    exif_ifd_at = 8 + len(ifd0)
    ifd0_entries[-1] = (0x8769, 4, 1, struct.pack(">I", exif_ifd_at))
    ifd0 = tiff_ifd(ifd0_entries, 8)
    exif_ifd = tiff_ifd([(0x9003,) + dt, (0x9000, 7, 4, b"0232")], exif_ifd_at)
    return b"MM\0*" + struct.pack(">I", 8) + ifd0 + exif_ifd


def cmd_jpeg_exif(src, dst):
    jpg = open(src, "rb").read()
    if jpg[:2] != b"\xff\xd8":
        raise SystemExit("not a JPEG: " + src)
    pos = 2
    while jpg[pos] == 0xFF and jpg[pos + 1] in (0xE0, 0xFE):  # drop JFIF/COM
        pos += 2 + u16(jpg, pos + 2)
    app1 = b"Exif\0\0" + exif_tiff()
    write(dst, b"\xff\xd8\xff\xe1" + struct.pack(">H", len(app1) + 2) + app1 + jpg[pos:])


def jpeg_app1_exif(path):
    jpg = open(path, "rb").read()
    pos = 2
    while pos + 4 <= len(jpg) and jpg[pos] == 0xFF:
        ln = u16(jpg, pos + 2)
        if jpg[pos + 1] == 0xE1 and jpg[pos + 4:pos + 10] == b"Exif\0\0":
            return jpg[pos + 4:pos + 2 + ln]
        pos += 2 + ln
    raise SystemExit("no Exif APP1 in " + path)


# ------------------------------------------------------------------ HEIF
def box(t, payload):
    return struct.pack(">I4s", 8 + len(payload), t) + payload


def fullbox(t, v, flags, payload):
    return box(t, struct.pack(">I", (v << 24) | flags) + payload)


def cmd_heif_jpeg(jpeg_path, width, height, dst, exif_from=None):
    """Minimal HEIF (ISO/IEC 23008-12) with one 'jpeg' image item.

    Optional second item: 'Exif' (exif_tiff_header_offset = 6, then the
    "Exif\\0\\0" prefix and the TIFF data) linked with iref 'cdsc'.
    """
    jpeg = open(jpeg_path, "rb").read()
    items = [(1, b"jpeg", b"Image\0", jpeg)]
    if exif_from:
        exif = jpeg_app1_exif(exif_from)
        items.append((2, b"Exif", b"Exif\0", struct.pack(">I", 6) + exif))
    ftyp = box(b"ftyp", b"mif1" + struct.pack(">I", 0) + b"mif1heicmiaf")
    hdlr = fullbox(b"hdlr", 0, 0, struct.pack(">I", 0) + b"pict" + b"\0" * 12 + b"\0")
    pitm = fullbox(b"pitm", 0, 0, struct.pack(">H", 1))
    infes = b"".join(fullbox(b"infe", 2, 0, struct.pack(">HH", iid, 0) + it + nm)
                     for iid, it, nm, _ in items)
    iinf = fullbox(b"iinf", 0, 0, struct.pack(">H", len(items)) + infes)
    ispe = fullbox(b"ispe", 0, 0, struct.pack(">II", width, height))
    ipco = box(b"ipco", ispe)
    ipma = fullbox(b"ipma", 0, 0, struct.pack(">IHBB", 1, 1, 1, 1))  # ispe, not essential
    iprp = box(b"iprp", ipco + ipma)
    iref = b""
    if len(items) > 1:
        iref = fullbox(b"iref", 0, 0, box(b"cdsc", struct.pack(">HHH", 2, 1, 1)))

    def make_meta(mdat_payload_at):
        # iloc version 1, offset_size 4, length_size 4, base_offset_size 0
        body = struct.pack(">BBH", 0x44, 0x00, len(items))
        at = mdat_payload_at
        for iid, _, _, payload in items:
            body += struct.pack(">HHHHII", iid, 0, 0, 1, at, len(payload))
            at += len(payload)
        iloc = fullbox(b"iloc", 1, 0, body)
        return fullbox(b"meta", 0, 0, hdlr + pitm + iloc + iinf + iref + iprp)
    meta_len = len(make_meta(0))
    meta = make_meta(len(ftyp) + meta_len + 8)
    mdat = box(b"mdat", b"".join(p for _, _, _, p in items))
    write(dst, ftyp + meta + mdat)


# ------------------------------------------------------------------ ID3 / MPEG
# Writers for the tag layouts mutagen cannot make (ID3v2.2, per-frame
# unsynchronisation / compression, non-syncsafe v2.4 frame sizes, a tag
# appended with a footer, APEv2, Lyrics3v2, a hand-made ID3v1) and `tags`,
# an independent reader that prints where every tag, frame and the first
# audio frame are.

ID3_TERM = {0: b"\0", 1: b"\0\0", 2: b"\0\0", 3: b"\0"}
ID3_CODEC = {0: "latin-1", 1: "utf-16", 2: "utf-16-be", 3: "utf-8"}


def syncsafe(n, width=4):
    if n >= 1 << (7 * width):
        raise SystemExit("%d does not fit a %d-byte syncsafe integer" % (n, width))
    return bytes((n >> (7 * (width - 1 - i))) & 0x7F for i in range(width))


def from_syncsafe(b):
    n = 0
    for c in b:
        n = (n << 7) | (c & 0x7F)
    return n


def unsynchronise(data):
    """ID3v2 unsynchronisation: insert 0x00 after every 0xFF that is followed
    by a byte >= 0xE0 or by 0x00, and after a 0xFF at the very end."""
    out = bytearray()
    n = len(data)
    for i, c in enumerate(data):
        out.append(c)
        if c == 0xFF and (i + 1 == n or data[i + 1] >= 0xE0 or data[i + 1] == 0):
            out.append(0)
    return bytes(out)


def deunsynchronise(data):
    return data.replace(b"\xff\x00", b"\xff")


def id3_str(s, enc):
    if enc == 1:
        return b"\xff\xfe" + s.encode("utf-16-le")  # BOM + little-endian
    return s.encode(ID3_CODEC[enc])


def t_body(values, enc=0):
    """Text frame (also TXXX: [description, value]); v2.4 separates several
    values with the encoding's terminator."""
    return bytes([enc]) + ID3_TERM[enc].join(id3_str(v, enc) for v in values)


def comm_body(lang, desc, text, enc=0):
    return bytes([enc]) + lang.encode("ascii") + id3_str(desc, enc) + ID3_TERM[enc] + id3_str(text, enc)


def apic_body(mime, ptype, desc, data, enc=0, v22_format=None):
    head = v22_format.encode("ascii") if v22_format else mime.encode("latin-1") + b"\0"
    return bytes([enc]) + head + bytes([ptype]) + id3_str(desc, enc) + ID3_TERM[enc] + data


def priv_body(owner, data):
    return owner.encode("latin-1") + b"\0" + data


def id3_frame(fid, body, version=4, flags=0, size=None):
    """One frame; `size` overrides the written size field (v2.4 sizes are
    syncsafe unless size is given as ('plain', n))."""
    fid = fid.encode("ascii")
    if version == 2:
        return fid + struct.pack(">I", len(body))[1:] + body
    if isinstance(size, tuple):
        sz = struct.pack(">I", size[1])
    elif version == 4:
        sz = syncsafe(len(body))
    else:
        sz = struct.pack(">I", len(body))
    return fid + sz + struct.pack(">H", flags) + body


def id3_tag(version, frames, padding=0, flags=0, footer=False):
    body = b"".join(frames) + b"\0" * padding
    if footer:
        if padding:
            raise SystemExit("an ID3v2.4 tag with a footer must not have padding")
        flags |= 0x10
    head = bytes([version, 0, flags]) + syncsafe(len(body))
    return b"ID3" + head + body + (b"3DI" + head if footer else b"")


def id3v1(title, artist, album, year, comment, genre, track=None, pad=b"\0"):
    """128-byte ID3v1 tag; v1.1 (byte 125 = 0, byte 126 = track) if track is
    given.  `pad` fills title/artist/album (some writers use spaces)."""
    def field(s, n, p):
        b = s.encode("latin-1")
        if len(b) > n:
            raise SystemExit("ID3v1 field too long: %r" % s)
        return b + p * (n - len(b))
    if track is None:
        cm = field(comment, 30, b"\0")
    else:
        cm = field(comment, 28, b"\0") + b"\0" + bytes([track])
    out = (b"TAG" + field(title, 30, pad) + field(artist, 30, pad) + field(album, 30, pad)
           + year.encode("ascii") + cm + bytes([genre]))
    assert len(out) == 128
    return out


def ape_tag(items):
    """APEv2 with header and footer; items: (key, value bytes, item flags).
    The size field counts the items and the footer, not the header."""
    body = b"".join(struct.pack("<II", len(v), fl) + k.encode("ascii") + b"\0" + v
                    for k, v, fl in items)

    def hf(flags):
        return b"APETAGEX" + struct.pack("<IIII", 2000, len(body) + 32, len(items), flags) + b"\0" * 8
    return hf(0xA0000000) + body + hf(0x80000000)  # bit 31 has header, bit 29 is header


def lyrics3v2(fields):
    body = b"LYRICSBEGIN" + b"".join(f.encode("ascii") + b"%05d" % len(v) + v for f, v in fields)
    return body + b"%06d" % len(body) + b"LYRICS200"


def read_audio(path):
    data = open(path, "rb").read()
    if data[:3] == b"ID3" or data[-128:-125] == b"TAG":
        raise SystemExit("%s already has a tag; want bare audio" % path)
    return data


def cmd_id3v22(mp3, jpeg, dst):
    """ID3v2.2: 3-character IDs, 3-byte sizes, no frame flags; PIC has a
    3-character image format instead of a MIME type."""
    v = 2
    frames = [
        id3_frame("TT2", t_body(["v2.2 T\u00edtle"], 1), v),
        id3_frame("TP1", t_body(["v2.2 Artist"]), v),
        id3_frame("TAL", t_body(["v2.2 Album"]), v),
        id3_frame("TYE", t_body(["2018"]), v),
        id3_frame("TRK", t_body(["7/9"]), v),
        id3_frame("TCO", t_body(["(17)"]), v),
        id3_frame("COM", comm_body("eng", "", "v2.2 comment"), v),
        id3_frame("TXX", t_body(["v2.2 key", "v2.2 value"]), v),
        id3_frame("PIC", apic_body(None, 3, "Cover", open(jpeg, "rb").read(), v22_format="JPG"), v),
    ]
    write(dst, id3_tag(2, frames, padding=32) + read_audio(mp3))


def cmd_id3_unsync(src, dst):
    """Unsynchronise the body of the leading ID3v2.3 tag of SRC (header flag
    0x80); frame sizes keep counting the bytes before unsynchronisation."""
    data = open(src, "rb").read()
    if data[:4] != b"ID3\x03" or data[5] != 0:
        raise SystemExit("%s: want a leading ID3v2.3 tag without flags" % src)
    size = from_syncsafe(data[6:10])
    body = unsynchronise(data[10:10 + size])
    if len(body) == size:
        raise SystemExit("%s: nothing to unsynchronise" % src)
    write(dst, b"ID3\x03\x00\x80" + syncsafe(len(body)) + body + data[10 + size:])


def frame_flags_tag(jpeg):
    lyrics = "".join("Line %02d: la la la, the same words again and again.\n" % i for i in range(1, 21))
    uslt = comm_body("eng", "", lyrics, 0)
    z = zlib.compress(uslt, 9)
    pic = apic_body("image/jpeg", 3, "Unsynchronised cover", open(jpeg, "rb").read())
    upic = unsynchronise(pic)
    priv = priv_body("org.example.unsync", b"\xff\xe0\xff\x00\xff\xfb\x90\x64\xff")
    upriv = unsynchronise(priv)
    if upic == pic or upriv == priv:
        raise SystemExit("frame data has no false sync to unsynchronise")
    frames = [
        id3_frame("TIT2", t_body(["Frame Flags Title"], 3)),
        id3_frame("TPE1", t_body(["Frame Flags Artist"], 3)),
        # 0x0003: unsynchronisation + data length indicator (size before unsync)
        id3_frame("APIC", syncsafe(len(pic)) + upic, flags=0x0003),
        # 0x0009: zlib compression + data length indicator (decompressed size)
        id3_frame("USLT", syncsafe(len(uslt)) + z, flags=0x0009),
        # 0x0002: unsynchronisation without a data length indicator
        id3_frame("PRIV", upriv, flags=0x0002),
        # 0x1000 status flag: read only
        id3_frame("TXXX", t_body(["ReadOnlyKey", "read-only value"]), flags=0x1000),
    ]
    return id3_tag(4, frames, padding=64)


def cmd_id3_frame_flags(mp3, jpeg, dst):
    write(dst, frame_flags_tag(jpeg) + read_audio(mp3))


def cmd_id3_nonsyncsafe(mp3, dst):
    """v2.4 tag whose frame sizes are plain 32-bit numbers (old iTunes); the
    tag size in the header stays syncsafe."""
    txxx = t_body(["Long Value", "x" * 188])            # 200 bytes: 00 00 00 C8
    comm = comm_body("eng", "Long", "y" * 291)          # 300 bytes: 00 00 01 2C
    assert len(txxx) == 200 and len(comm) == 300, (len(txxx), len(comm))
    frames = [id3_frame("TIT2", t_body(["Non-syncsafe Title"]))]
    frames += [id3_frame(fid, body, size=("plain", len(body)))
               for fid, body in (("TXXX", txxx), ("COMM", comm))]
    frames += [id3_frame("TPE1", t_body(["Non-syncsafe Artist"]), size=("plain", 20)),
               id3_frame("TALB", t_body(["Non-syncsafe Album"]), size=("plain", 19))]
    write(dst, id3_tag(4, frames, padding=64) + read_audio(mp3))


def cmd_id3_appended(mp3, dst):
    """No leading tag: audio, then an ID3v2.4 tag with footer, then ID3v1.1."""
    frames = [
        id3_frame("TIT2", t_body(["Appended Title"], 3)),
        id3_frame("TPE1", t_body(["Appended Artist"], 3)),
        id3_frame("TALB", t_body(["Appended Album"], 3)),
        id3_frame("TRCK", t_body(["9/10"])),
        id3_frame("COMM", comm_body("eng", "", "tag appended after the audio", 3)),
    ]
    v1 = id3v1("ID3v1 Title", "ID3v1 Artist", "ID3v1 Album", "2020", "v1 after appended v2", 12, track=9)
    write(dst, read_audio(mp3) + id3_tag(4, frames, footer=True) + v1)


def cmd_ape_lyrics3(mp3, png, dst):
    """Leading ID3v2.3; at the end APEv2 (header + footer), Lyrics3v2, ID3v1.1."""
    v = 3
    lead = id3_tag(3, [
        id3_frame("TIT2", t_body(["Leading ID3v2.3 Title"]), v),
        id3_frame("TPE1", t_body(["Leading ID3v2.3 Artist"]), v),
        id3_frame("TALB", t_body(["Leading ID3v2.3 Album"]), v),
    ], padding=16)
    ape = ape_tag([
        ("Title", b"APE Title", 0),
        ("Artist", b"APE Artist One\0APE Artist Two", 0),  # two values
        ("Album", b"APE Album", 0),
        ("Year", b"2022", 0),
        ("Track", b"4/10", 0),
        ("Genre", b"Ambient", 0),
        ("Comment", "APE comment \u00dcn\u00efc\u00f6d\u00e9".encode("utf-8"), 0),
        ("Catalog", b"APE-0001", 1),                       # read-only flag
        ("Related", b"https://example.org/related", 4),   # external locator
        ("Cover Art (Front)", b"cover.png\0" + open(png, "rb").read(), 2),  # binary
    ])
    lyr = lyrics3v2([("IND", b"10"), ("LYR", b"hello"), ("ETT", b"Lyrics3 Title"),
                     ("EAR", b"Lyrics3 Artist")])
    v1 = id3v1("ID3v1 Title", "ID3v1 Artist", "ID3v1 Album", "2022", "after APE and Lyrics3", 26, track=4)
    write(dst, lead + read_audio(mp3) + ape + lyr + v1)


def cmd_two_tags(mp3, dst):
    """Two ID3v2 tags back to back (v2.4 then v2.3), 7 junk bytes, audio."""
    first = id3_tag(4, [id3_frame("TIT2", t_body(["First Tag Title"], 3)),
                        id3_frame("TPE1", t_body(["First Tag Artist"], 3))], padding=0)
    second = id3_tag(3, [id3_frame("TIT2", t_body(["Second Tag Title"]), 3),
                         id3_frame("TALB", t_body(["Second Tag Album"]), 3)], padding=8)
    write(dst, first + second + b"junk\x00\x01\x02" + read_audio(mp3))


def cmd_hls_timestamp(aac, dst, ts="8589934000"):
    """HLS packed-audio segment: ID3v2.4 tag with one PRIV frame
    com.apple.streaming.transportStreamTimestamp = 33-bit 90 kHz PTS as an
    8-byte big-endian number, then ADTS AAC."""
    ts = int(ts)
    if not (1 << 32) < ts < (1 << 33):
        raise SystemExit("timestamp should be a 33-bit value above 2^32")
    frame = id3_frame("PRIV", priv_body("com.apple.streaming.transportStreamTimestamp",
                                        struct.pack(">Q", ts)))
    write(dst, id3_tag(4, [frame]) + read_audio(aac))


def cmd_id3v1_only(mp3, dst):
    """ID3v1.0: 30-byte comment (byte 125 is not 0, so it is no v1.1 track),
    title padded with spaces, the rest with NULs."""
    comment = "Thirty character v1.0 comment."
    assert len(comment) == 30
    tag = id3v1("ID3v1.0 Title", "ID3v1.0 Artist", "ID3v1.0 Album", "1999", comment, 17)
    tag = tag[:3] + tag[3:33].replace(b"\0", b" ") + tag[33:]
    write(dst, read_audio(mp3) + tag)


def cmd_append_id3v1(path, title, artist, album, year, comment, genre, track=None):
    data = open(path, "rb").read()
    if data[-128:-125] == b"TAG":
        raise SystemExit("%s already ends in an ID3v1 tag" % path)
    write(path, data + id3v1(title, artist, album, year, comment, int(genre),
                             None if track is None else int(track)))


# --- reader ----------------------------------------------------------------
MPEG_KBPS = {
    (3, 3): [0, 32, 64, 96, 128, 160, 192, 224, 256, 288, 320, 352, 384, 416, 448],
    (3, 2): [0, 32, 48, 56, 64, 80, 96, 112, 128, 160, 192, 224, 256, 320, 384],
    (3, 1): [0, 32, 40, 48, 56, 64, 80, 96, 112, 128, 160, 192, 224, 256, 320],
    (2, 3): [0, 32, 48, 56, 64, 80, 96, 112, 128, 144, 160, 176, 192, 224, 256],
    (2, 2): [0, 8, 16, 24, 32, 40, 48, 56, 64, 80, 96, 112, 128, 144, 160],
}
MPEG_KBPS[(2, 1)] = MPEG_KBPS[(2, 2)]
MPEG_RATES = {3: (44100, 48000, 32000), 2: (22050, 24000, 16000), 0: (11025, 12000, 8000)}
ADTS_RATES = (96000, 88200, 64000, 48000, 44100, 32000, 24000, 22050, 16000, 12000, 11025, 8000, 7350)


def mpeg_frame(data, pos):
    """(length, description, extra) of an MPEG audio frame header at pos."""
    if pos + 4 > len(data) or data[pos] != 0xFF or data[pos + 1] & 0xE0 != 0xE0:
        return None
    ver, layer = (data[pos + 1] >> 3) & 3, (data[pos + 1] >> 1) & 3
    bri, sri, pad = data[pos + 2] >> 4, (data[pos + 2] >> 2) & 3, (data[pos + 2] >> 1) & 1
    mode = data[pos + 3] >> 6
    if ver == 1 or layer == 0 or bri in (0, 15) or sri == 3:
        return None
    kbps = MPEG_KBPS[(3 if ver == 3 else 2, layer)][bri]
    rate = MPEG_RATES[ver][sri]
    if layer == 3:
        length = (12 * kbps * 1000 // rate + pad) * 4
    else:
        length = (144 if (layer == 2 or ver == 3) else 72) * kbps * 1000 // rate + pad
    name = "MPEG-%s Layer %s %d Hz %s %d kbps" % (
        {3: "1", 2: "2", 0: "2.5"}[ver], "I" * (4 - layer), rate,
        "mono" if mode == 3 else "stereo", kbps)
    extra = ""
    if layer == 1:
        side = (17 if mode == 3 else 32) if ver == 3 else (9 if mode == 3 else 17)
        x = pos + 4 + side
        if data[x:x + 4] in (b"Xing", b"Info"):
            fl = u32(data, x + 4)
            q = x + 8
            fields = []
            if fl & 1:
                fields.append("frames=%d" % u32(data, q))
                q += 4
            if fl & 2:
                fields.append("bytes=%d" % u32(data, q))
                q += 4
            if fl & 4:
                fields.append("toc")
                q += 100
            if fl & 8:
                fields.append("quality=%d" % u32(data, q))
                q += 4
            extra = " %s@%d flags=0x%x %s" % (data[x:x + 4].decode(), x, fl, " ".join(fields))
            enc = data[q:q + 9]
            if enc[:4] in (b"LAME", b"Lavf", b"Lavc", b"L3.9", b"GOGO"):
                extra += " LAME-tag@%d encoder=%r" % (q, enc.rstrip(b"\0").decode("latin-1"))
        elif data[pos + 36:pos + 40] == b"VBRI":
            extra = " VBRI@%d" % (pos + 36)
    return length, name, extra


def adts_frame(data, pos):
    if pos + 7 > len(data) or data[pos] != 0xFF or data[pos + 1] & 0xF6 != 0xF0:
        return None
    b2, b3 = data[pos + 2], data[pos + 3]
    sri = (b2 >> 2) & 15
    if sri >= len(ADTS_RATES):
        return None
    length = ((b3 & 3) << 11) | (data[pos + 4] << 3) | (data[pos + 5] >> 5)
    if length < 7:
        return None
    return length, "ADTS AAC profile=%d %d Hz channels=%d%s" % (
        (b2 >> 6) + 1, ADTS_RATES[sri], ((b2 & 1) << 2) | (b3 >> 6),
        "" if data[pos + 1] & 1 else " crc"), ""


def first_audio_frame(data, pos, end):
    """First offset >= pos where two frames follow each other (or one ends at end)."""
    for p in range(pos, min(end, pos + (256 << 10))):
        if data[p] != 0xFF:
            continue
        for reader in (adts_frame, mpeg_frame):
            f = reader(data, p)
            if f and (p + f[0] == end or (p + f[0] < end and reader(data, p + f[0]))):
                return p, f
    return None, None


def split_term(b, enc):
    """Split at the encoding's terminator (aligned for UTF-16)."""
    if enc in (1, 2):
        out, start = [], 0
        for i in range(0, len(b) - 1, 2):
            if b[i:i + 2] == b"\0\0":
                out.append(b[start:i])
                start = i + 2
        out.append(b[start:])
        return out
    return b.split(b"\0")


def id3_dec(b, enc):
    if enc == 1 and b[:2] not in (b"\xff\xfe", b"\xfe\xff"):
        return b.decode("utf-16-le", "replace")  # BOM-less (seen in the wild)
    return b.decode(ID3_CODEC.get(enc, "latin-1"), "replace")


def short(s, n=48):
    s = "%r" % s
    return s if len(s) <= n else s[:n - 4] + "...'"


def cstring(b, pos, enc=0):
    """(text, next offset) of a terminated string at pos."""
    term = ID3_TERM[enc]
    step = len(term)
    i = pos
    while i + step <= len(b) and b[i:i + step] != term:
        i += step
    return id3_dec(b[pos:i], enc), i + step


def id3_frame_summary(fid, c, ver, indent, base):
    """One line (plus sub-frame lines for CHAP/CTOC) describing frame content."""
    f = fid.decode("ascii")
    f4 = {"TXX": "TXXX", "WXX": "WXXX", "COM": "COMM", "ULT": "USLT", "PIC": "APIC", "UFI": "UFID",
          "POP": "POPM", "CNT": "PCNT", "GEO": "GEOB"}.get(f, f)
    sub = []
    try:
        if f4 in ("TXXX", "WXXX"):
            enc = c[0]
            desc, q = cstring(c, 1, enc)
            val = (c[q:].rstrip(b"\0").decode("latin-1") if f4 == "WXXX"
                   else [id3_dec(x, enc) for x in split_term(c[q:], enc)])
            if f4 == "TXXX" and len(val) > 1 and val[-1] == "":
                val.pop()  # a terminator after the last value
            s = "enc=%d desc=%r value=%s" % (enc, desc, short(val, 60))
        elif f4[0] == "T":
            enc = c[0]
            vals = [id3_dec(x, enc) for x in split_term(c[1:], enc)]
            if len(vals) > 1 and vals[-1] == "":
                vals.pop()
            s = "enc=%d %s" % (enc, short(vals if len(vals) > 1 else vals[0], 64))
        elif f4[0] == "W":
            s = repr(c.rstrip(b"\0").decode("latin-1"))
        elif f4 in ("COMM", "USLT"):
            enc = c[0]
            desc, q = cstring(c, 4, enc)
            s = "enc=%d lang=%r desc=%r text=%s" % (enc, c[1:4].decode("latin-1"), desc,
                                                     short(id3_dec(c[q:], enc).rstrip("\0"), 44))
        elif f4 == "APIC":
            enc = c[0]
            if ver == 2:
                mime, q = c[1:4].decode("latin-1"), 4
            else:
                mime, q = cstring(c, 1)
            ptype = c[q]
            desc, q = cstring(c, q + 1, enc)
            s = "enc=%d %s=%r type=%d desc=%r %d bytes (%s...)" % (
                enc, "format" if ver == 2 else "mime", mime, ptype, desc, len(c) - q, c[q:q + 4].hex())
        elif f4 in ("PRIV", "UFID"):
            owner, q = cstring(c, 0)
            d = c[q:]
            s = "owner=%r data=%s" % (owner, d.hex() if len(d) <= 16 and f4 == "PRIV" else short(d, 44))
            if owner == "com.apple.streaming.transportStreamTimestamp" and len(d) == 8:
                s += " (33-bit PTS %d = %.6f s)" % (u64(d, 0) & ((1 << 33) - 1), (u64(d, 0) & ((1 << 33) - 1)) / 90000)
        elif f4 == "POPM":
            email, q = cstring(c, 0)
            s = "email=%r rating=%d count=%d" % (email, c[q], int.from_bytes(c[q + 1:], "big"))
        elif f4 == "PCNT":
            s = "count=%d" % int.from_bytes(c, "big")
        elif f4 == "GEOB":
            enc = c[0]
            mime, q = cstring(c, 1)
            fn, q = cstring(c, q, enc)
            desc, q = cstring(c, q, enc)
            s = "enc=%d mime=%r filename=%r desc=%r data=%s" % (enc, mime, fn, desc, short(c[q:], 30))
        elif f4 == "CHAP":
            eid, q = cstring(c, 0)
            st, en, so, eo = struct.unpack_from(">IIII", c, q)
            s = "id=%r start=%dms end=%dms start_offset=0x%x end_offset=0x%x" % (eid, st, en, so, eo)
            sub = id3_frames_lines(c, q + 16, len(c), ver, indent + "    ", base)
        elif f4 == "CTOC":
            eid, q = cstring(c, 0)
            fl, cnt = c[q], c[q + 1]
            q += 2
            kids = []
            for _ in range(cnt):
                k, q = cstring(c, q)
                kids.append(k)
            s = "id=%r flags=0x%02x%s%s children=%s" % (eid, fl, " top-level" if fl & 2 else "",
                                                         " ordered" if fl & 1 else "", kids)
            sub = id3_frames_lines(c, q, len(c), ver, indent + "    ", base)
        elif f4 == "RVA2":
            ident, q = cstring(c, 0)
            adj = []
            while q + 4 <= len(c):
                ch, gain, bits = c[q], struct.unpack_from(">h", c, q + 1)[0], c[q + 3]
                nb = (bits + 7) // 8
                peak = int.from_bytes(c[q + 4:q + 4 + nb], "big")
                adj.append("channel=%d gain=%+.3fdB peak_bits=%d peak=%d" % (ch, gain / 512.0, bits, peak))
                q += 4 + nb
            s = "id=%r %s" % (ident, "; ".join(adj))
        else:
            s = "%d bytes" % len(c)
    except (IndexError, struct.error, UnicodeError) as e:
        s = "(cannot decode: %s)" % e
    return [s] + sub


def id3_walk(body, start, end, ver, plain):
    """Frames [(offset, id, header size, size, flags)], where the walk
    stopped, and whether it ended cleanly (end of tag or zero padding)."""
    idlen, hlen = (3, 6) if ver == 2 else (4, 10)
    p, frames = start, []
    while p + hlen <= end:
        if body[p] == 0:
            return frames, p, not any(body[p:end])
        fid = body[p:p + idlen]
        if not all(48 <= ch <= 57 or 65 <= ch <= 90 for ch in fid):
            return frames, p, False
        if ver == 2:
            size, flags = int.from_bytes(body[p + 3:p + 6], "big"), 0
        else:
            size = u32(body, p + 4) if (ver == 3 or plain) else from_syncsafe(body[p + 4:p + 8])
            flags = u16(body, p + 8)
        if p + hlen + size > end:
            return frames, p, False
        frames.append((p, fid, hlen, size, flags))
        p += hlen + size
    return frames, p, p == end or not any(body[p:end])


def id3_frame_payload(ver, flags, c):
    """Undo per-frame grouping / data length / unsync / compression."""
    notes = []
    if ver == 4:
        if flags & 0x0040:
            notes.append("group=%d" % c[0])
            c = c[1:]
        if flags & 0x0004:
            return None, notes + ["encrypted"]
        if flags & 0x0001:
            notes.append("data-length=%d" % from_syncsafe(c[:4]))
            c = c[4:]
        if flags & 0x0002:
            n = len(c)
            c = deunsynchronise(c)
            notes.append("unsync %d->%d" % (n, len(c)))
        if flags & 0x0008:
            n = len(c)
            c = zlib.decompress(c)
            notes.append("zlib %d->%d" % (n, len(c)))
    elif ver == 3:
        if flags & 0x0080:
            notes.append("decompressed-size=%d" % u32(c, 0))
            c = c[4:]
        if flags & 0x0040:
            return None, notes + ["encrypted"]
        if flags & 0x0020:
            notes.append("group=%d" % c[0])
            c = c[1:]
        if flags & 0x0080:
            n = len(c)
            c = zlib.decompress(c)
            notes.append("zlib %d->%d" % (n, len(c)))
    return c, notes


def id3_frames_lines(body, start, end, ver, indent, base):
    """Lines for the frames in body[start:end]; base maps body offsets to file
    offsets (None when the body was de-unsynchronised)."""
    plain = False
    frames, stop, ok = id3_walk(body, start, end, ver, False)
    lines = []
    if ver == 4 and not ok:
        frames2, stop2, ok2 = id3_walk(body, start, end, ver, True)
        if ok2:
            frames, stop, ok, plain = frames2, stop2, ok2, True
            lines.append(indent + "(frame sizes are plain 32-bit numbers, not syncsafe)")

    def at(p):
        return "@%d" % (base + p) if base is not None else "@body+%d" % (p - start)
    for p, fid, hlen, size, flags in frames:
        c, notes = id3_frame_payload(ver, flags, body[p + hlen:p + hlen + size])
        sub_base = base + p + hlen if (base is not None and c == body[p + hlen:p + hlen + size]) else None
        desc = id3_frame_summary(fid, c, ver, indent, sub_base) if c is not None else ["(encrypted)"]
        fl = "" if ver == 2 else " flags=0x%04x" % flags
        lines.append("%s%s [%d+%d %s]%s%s %s" % (indent, fid.decode(), hlen, size, at(p), fl,
                                                 (" (" + ", ".join(notes) + ")") if notes else "", desc[0]))
        lines.extend(desc[1:])
    if stop < end:
        lines.append("%s%s %d bytes %s" % (indent, "padding" if ok else "!! unparsed", end - stop, at(stop)))
    return lines


def id3v2_lines(data, pos, indent=""):
    """(end offset, lines) of the ID3v2 tag at pos, or (None, [])."""
    if data[pos:pos + 3] != b"ID3" or pos + 10 > len(data):
        return None, []
    ver, rev, fl = data[pos + 3], data[pos + 4], data[pos + 5]
    size = from_syncsafe(data[pos + 6:pos + 10])
    foot = 10 if (ver == 4 and fl & 0x10) else 0
    end = pos + 10 + size + foot
    names = [n for bit, n in ((0x80, "unsynchronisation"), (0x40, "extended-header"),
                              (0x20, "experimental"), (0x10, "footer")) if fl & bit]
    lines = ["%sID3v2.%d.%d [10+%d%s @%d] flags=0x%02x%s" % (
        indent, ver, rev, size, "+10 footer" if foot else "", pos, fl,
        (" " + ",".join(names)) if names else "")]
    body = data[pos + 10:pos + 10 + size]
    base = pos + 10
    if fl & 0x80 and ver < 4:
        body = deunsynchronise(body)
        base = None
        lines.append("%s  (tag body unsynchronised: %d bytes on disk, %d after decoding)" % (
            indent, size, len(body)))
    start = 0
    if fl & 0x40 and ver == 3:
        start = 4 + u32(body, 0)
    elif fl & 0x40 and ver == 4:
        start = from_syncsafe(body[:4])
    if ver == 2 and fl & 0x40:
        lines.append(indent + "  (v2.2 compression flag: frames not read)")
    else:
        lines += id3_frames_lines(body, start, len(body), ver, indent + "  ", base)
    if foot:
        lines.append("%s  footer '3DI' @%d" % (indent, end - 10))
    return end, lines


def id3v1_line(t, pos):
    def s(a, b):
        return t[a:b].split(b"\0", 1)[0].rstrip(b" ").decode("latin-1")
    v11 = t[125] == 0 and t[126] != 0
    return "ID3v1%s [128 @%d] title=%r artist=%r album=%r year=%r comment=%r%s genre=%d" % (
        ".1" if v11 else ".0", pos, s(3, 33), s(33, 63), s(63, 93), s(93, 97),
        s(97, 125 if v11 else 127), " track=%d" % t[126] if v11 else "", t[127])


def trailing_tags(data, floor):
    """[(start, lines)] of the tags at the end of an MPEG stream, last first."""
    found = []
    end = len(data)
    if end - 128 >= floor and data[end - 128:end - 125] == b"TAG":
        found.append((end - 128, [id3v1_line(data[end - 128:], end - 128)]))
        end -= 128
    moved = True
    while moved:
        moved = False
        if end - 32 >= floor and data[end - 32:end - 24] == b"APETAGEX":
            ver, size, cnt, fl = struct.unpack_from("<IIII", data, end - 24)
            start = end - size - (32 if fl & 0x80000000 else 0)
            lines = ["APEv2 [%d @%d] version=%d items=%d header=%s footer @%d" % (
                end - start, start, ver, cnt, "yes" if fl & 0x80000000 else "no", end - 32)]
            q = end - size
            for _ in range(cnt):
                vlen, ifl = struct.unpack_from("<II", data, q)
                k = data.index(b"\0", q + 8)
                key = data[q + 8:k].decode("ascii", "replace")
                val = data[k + 1:k + 1 + vlen]
                kind = ("utf-8", "binary", "locator", "reserved")[(ifl >> 1) & 3]
                shown = (short(val[:24], 40) + " (%d bytes)" % vlen if kind == "binary"
                         else short([v.decode("utf-8", "replace") for v in val.split(b"\0")], 60))
                lines.append("  %r flags=0x%x %s%s %s" % (key, ifl, kind, " read-only" if ifl & 1 else "", shown))
                q = k + 1 + vlen
            found.append((start, lines))
            end, moved = start, True
        if end - 15 >= floor and data[end - 9:end] == b"LYRICS200" and data[end - 15:end - 9].isdigit():
            size = int(data[end - 15:end - 9])
            start = end - 15 - size
            if data[start:start + 11] == b"LYRICSBEGIN":
                lines = ["Lyrics3v2 [%d @%d] size-field=%d" % (end - start, start, size)]
                q = start + 11
                while q + 8 <= end - 15:
                    fid, n = data[q:q + 3].decode("latin-1"), int(data[q + 3:q + 8])
                    lines.append("  %s [%d] %r" % (fid, n, data[q + 8:q + 8 + n].decode("latin-1")))
                    q += 8 + n
                found.append((start, lines))
                end, moved = start, True
        if end - 20 >= floor and data[end - 10:end - 7] == b"3DI":
            start = end - 20 - from_syncsafe(data[end - 4:end])
            if start >= floor and data[start:start + 3] == b"ID3":
                _, lines = id3v2_lines(data, start)
                found.append((start, lines))
                end, moved = start, True
    return found, end


def iff_lines(data):
    big = data[:4] == b"FORM"
    u = (lambda o: u32(data, o)) if big else (lambda o: struct.unpack_from("<I", data, o)[0])
    lines = ["%s [8+%d @0] form=%r%s" % (data[:4].decode(), u(4), data[8:12].decode("latin-1"),
                                         "" if u(4) + 8 == len(data) else " !! size != file size - 8")]

    def chunks(pos, end, indent, in_list=False):
        while pos + 8 <= end:
            cid, size = data[pos:pos + 4], u(pos + 4)
            pad = size & 1
            info = ""
            if cid == b"LIST":
                info = " list-type=%r" % data[pos + 8:pos + 12].decode("latin-1")
            elif in_list:
                info = " %r" % data[pos + 8:pos + 8 + size].rstrip(b"\0").decode("latin-1")
            lines.append("%s%s [8+%d%s @%d]%s" % (indent, fourcc(cid), size, "+1 pad" if pad else "", pos, info))
            if cid == b"LIST":
                chunks(pos + 12, pos + 8 + size, indent + "  ", True)
            elif cid in (b"ID3 ", b"id3 "):
                _, sub = id3v2_lines(data, pos + 8, indent + "  ")
                lines.extend(sub)
            pos += 8 + size + pad
        if pos != end:
            lines.append("%s!! %d bytes left over @%d" % (indent, end - pos, pos))
    chunks(12, len(data), "  ")
    return lines


def cmd_tags(path):
    data = open(path, "rb").read()
    print("%s: %d bytes" % (path, len(data)))
    if data[:4] in (b"FORM", b"RIFF"):
        for line in iff_lines(data):
            print(line)
        return 0
    pos = 0
    while True:  # leading ID3v2 tags, one after another
        end, lines = id3v2_lines(data, pos)
        if end is None:
            break
        for line in lines:
            print(line)
        pos = end
    trailing, audio_end = trailing_tags(data, pos)
    first, f = first_audio_frame(data, pos, audio_end)
    if first is None:
        print("!! no audio frame found after @%d" % pos)
    else:
        if first > pos:
            print("junk [%d @%d] %r" % (first - pos, pos, data[pos:first][:16]))
        print("audio [%d @%d] first frame: %s, %d bytes%s" % (audio_end - first, first, f[1], f[0], f[2]))
    for _, lines in reversed(trailing):
        for line in lines:
            print(line)
    return 0


def main(argv):
    if len(argv) < 2:
        print(__doc__)
        return 2
    cmd, args = argv[1], argv[2:]
    if cmd == "tree" and len(args) >= 1:
        for a in args:
            cmd_tree(a)
        return 0
    if cmd == "verify" and len(args) >= 1:
        return max(cmd_verify(a) for a in args)
    if cmd == "expect" and len(args) >= 2:
        return cmd_expect(args[0], args[1:])
    if cmd == "co64" and len(args) == 2:
        cmd_co64(*args)
        return 0
    if cmd == "mdat64" and len(args) == 2:
        cmd_mdat64(*args)
        return 0
    if cmd == "mdat-size0" and len(args) == 2:
        cmd_mdat_size0(*args)
        return 0
    if cmd == "add-chpl" and len(args) >= 3:
        cmd_add_chpl(args[0], args[1], args[2:])
        return 0
    if cmd == "heif-jpeg" and len(args) in (4, 5):
        cmd_heif_jpeg(args[0], int(args[1]), int(args[2]), args[3], *args[4:])
        return 0
    if cmd == "mdta-to-moov" and len(args) == 2:
        cmd_mdta_to_moov(*args)
        return 0
    if cmd == "reset-mtime" and len(args) == 1:
        cmd_reset_mtime(args[0])
        return 0
    if cmd == "jpeg-exif" and len(args) == 2:
        cmd_jpeg_exif(*args)
        return 0
    if cmd == "tags" and len(args) >= 1:
        return max(cmd_tags(a) for a in args)
    id3_cmds = {  # name: (function, argument counts)
        "id3v22": (cmd_id3v22, (3,)),
        "id3-unsync": (cmd_id3_unsync, (2,)),
        "id3-frame-flags": (cmd_id3_frame_flags, (3,)),
        "id3-nonsyncsafe": (cmd_id3_nonsyncsafe, (2,)),
        "id3-appended": (cmd_id3_appended, (2,)),
        "ape-lyrics3": (cmd_ape_lyrics3, (3,)),
        "two-tags": (cmd_two_tags, (2,)),
        "hls-timestamp": (cmd_hls_timestamp, (2, 3)),
        "id3v1-only": (cmd_id3v1_only, (2,)),
        "append-id3v1": (cmd_append_id3v1, (7, 8)),
    }
    if cmd in id3_cmds and len(args) in id3_cmds[cmd][1]:
        id3_cmds[cmd][0](*args)
        return 0
    print(__doc__)
    return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv))
