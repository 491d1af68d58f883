#!/usr/bin/env python3
"""Byte-level helpers for the ISO-BMFF / QuickTime test fixtures.

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
"""

import struct
import sys

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
    print(__doc__)
    return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv))
