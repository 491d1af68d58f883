#!/usr/bin/env bash
# Benchmarks for the atom, tag and timed-metadata readers; the numbers in the Benchmarks article
# (Sources/MediaMetadata/MediaMetadata.docc/Benchmarks.md) and the README come from this script.
#
#   Tools/benchmark.sh [COUNT]     COUNT copies of a tagged M4A for the parse benchmark (default 1000)
#
# Needs: the Swift toolchain; for the TagLib reference, g++ and Debian's libtag1-dev
# (`apt-get install -y g++ libtag1-dev`); it is skipped when they are missing.
# Writes its scratch files under a temporary directory and removes them afterwards.
set -euo pipefail
cd "$(dirname "$0")/.."
count=${1:-1000}
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT

swift build -c release --product atombench >/dev/null
bench=$(swift build -c release --show-bin-path)/atombench

echo "machine: $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //'), $(uname -sr)"
echo "cpu flags: $(grep -m1 '^flags' /proc/cpuinfo | tr ' ' '\n' | grep -x -E 'sha_ni|avx512f|avx2|aes' | tr '\n' ' ')(of sha_ni, avx512f, avx2, aes)"

# 1. Parsing the tree of a typical tagged M4A, COUNT files in one process.
mkdir -p "$scratch/m4a"
for i in $(seq 1 "$count"); do cp Fixtures/aac-itunes-tags-cover.m4a "$scratch/m4a/$i.m4a"; done
"$bench" parse "$scratch"/m4a/*.m4a
"$bench" iofloor "$scratch"/m4a/*.m4a
if command -v g++ >/dev/null && [ -f /usr/include/taglib/fileref.h ]; then
    g++ -O2 -o "$scratch/taglib_read" Tools/bench/taglib_read.cpp $(pkg-config --cflags --libs taglib 2>/dev/null || echo -ltag)
    "$scratch/taglib_read" "$scratch"/m4a/*.m4a
else
    echo "taglib: skipped (install g++ and libtag1-dev)"
fi

# 1b. Reading all MP4 metadata (every area of moov and its tracks) of the same files; the
#     TagLib line above is the reference (TagLib reads the whole item list when it opens a file).
"$bench" metadata "$scratch"/m4a/*.m4a

# 2. Reading the ID3 tags of a typical tagged MP3 (a v2.4 tag with a 50 KB cover), COUNT files.
mkdir -p "$scratch/mp3"
make_mp3() {  # make_mp3 OUTPUT COVER_BYTES
python3 - "$1" "$2" <<'PY'
import random, struct, sys
audio = open("Fixtures/no-tags.mp3", "rb").read()
def syncsafe(n): return bytes([(n >> 21) & 0x7F, (n >> 14) & 0x7F, (n >> 7) & 0x7F, n & 0x7F])
def frame(fid, body): return fid.encode() + syncsafe(len(body)) + b"\0\0" + body
def text(fid, value): return frame(fid, b"\x03" + value.encode())
random.seed(1)
cover = b"\xff\xd8\xff\xe0" + random.randbytes(int(sys.argv[2]))
frames = b"".join([
    text("TIT2", "Benchmark Title"), text("TPE1", "Benchmark Artist"), text("TALB", "Benchmark Album"),
    text("TRCK", "3/12"), text("TDRC", "2021-06-01"), text("TCON", "Electronic"), text("TPE2", "Album Artist"),
    frame("COMM", b"\x03eng\x00A comment"), frame("TXXX", b"\x03MusicBrainz Album Id\x008f3b2a5e-0000-4000-8000-000000000002"),
    frame("APIC", b"\x00image/jpeg\x00\x03\x00" + cover),
])
padding = 1024
tag = b"ID3\x04\x00\x00" + syncsafe(len(frames) + padding) + frames + b"\0" * padding
open(sys.argv[1], "wb").write(tag + audio)
PY
}
make_mp3 "$scratch/mp3/template.mp3" $((50 * 1024))
for i in $(seq 1 "$count"); do cp "$scratch/mp3/template.mp3" "$scratch/mp3/$i.mp3"; done
rm "$scratch/mp3/template.mp3"
"$bench" id3 "$scratch"/mp3/*.mp3
"$bench" iofloor "$scratch"/mp3/*.mp3
[ -x "$scratch/taglib_read" ] && "$scratch/taglib_read" "$scratch"/mp3/*.mp3

# 2b. The same with a 1 MB cover (COUNT/5 files): the cover is left in the file until asked for.
mkdir -p "$scratch/mp3big"
make_mp3 "$scratch/mp3big/template.mp3" $((1000 * 1000))
for i in $(seq 1 $((count / 5))); do cp "$scratch/mp3big/template.mp3" "$scratch/mp3big/$i.mp3"; done
rm "$scratch/mp3big/template.mp3"
"$bench" id3 "$scratch"/mp3big/*.mp3
[ -x "$scratch/taglib_read" ] && "$scratch/taglib_read" "$scratch"/mp3big/*.mp3

# 3. The tree of a large movie with its moov at the end (sparse files: nothing large is written).
python3 - "$scratch" <<'PY'
import struct, sys
scratch = sys.argv[1]
data = open("Fixtures/moov-after-mdat.m4a", "rb").read()
# ftyp, then the fixture's moov after a large mdat.
pos, boxes = 0, {}
while pos < len(data):
    size, kind = struct.unpack(">I4s", data[pos:pos + 8])
    boxes[kind] = data[pos:pos + size]
    pos += size
for name, payload, sixty_four in (("movie-1g.mp4", 1 << 30, False), ("movie-5g.mp4", 5 << 30, True)):
    with open(f"{scratch}/{name}", "wb") as f:
        f.write(boxes[b"ftyp"])
        if sixty_four:
            f.write(struct.pack(">I4sQ", 1, b"mdat", payload + 16))
        else:
            f.write(struct.pack(">I4s", payload + 8, b"mdat"))
        f.seek(payload, 1)
        f.write(boxes[b"moov"])
PY
"$bench" bigfile "$scratch/movie-1g.mp4"
"$bench" bigfile "$scratch/movie-5g.mp4"

# 4. Decoding sample tables of a million entries.
"$bench" table 1000000

# 5. Saving a title into a 1 GiB M4A (moov before mdat, 72 bytes of padding in meta), real
#    data (not sparse) so that cp has something to copy. TagLib's in-place save is the
#    reference for the in-place path; cp + sync of the same file for the rewrite path.
python3 - "$scratch/big.m4a" <<'PY'
import struct, sys
data = bytearray(open("Fixtures/aac-itunes-tags-cover.m4a", "rb").read())
pos = 0
while pos < len(data):
    size, kind = struct.unpack(">I4s", data[pos:pos + 8])
    if kind == b"mdat":
        break
    pos += size
extra = 1 << 30
assert pos + size == len(data), "mdat must be last"
data[pos:pos + 4] = struct.pack(">I", size + extra)
block = bytes(range(256)) * 65536  # 16 MiB
with open(sys.argv[1], "wb") as f:
    f.write(data)
    for _ in range(extra // len(block)):
        f.write(block)
PY
sync
"$bench" save "$scratch/big.m4a" 21
if command -v g++ >/dev/null && [ -f /usr/include/taglib/fileref.h ]; then
    g++ -O2 -o "$scratch/taglib_mp4_save" Tools/bench/taglib_mp4_save.cpp $(pkg-config --cflags --libs taglib 2>/dev/null || echo -ltag)
    "$scratch/taglib_mp4_save" "$scratch/big.m4a" 21
fi
cp_start=$(date +%s.%N); cp "$scratch/big.m4a" "$scratch/cp.m4a"; sync; cp_end=$(date +%s.%N)
echo "cp+sync: $(python3 -c "print(f'{($cp_end - $cp_start) * 1000:.0f}')") ms wall for the same 1 GiB file"
rm "$scratch/cp.m4a"
cp "$scratch/big.m4a" "$scratch/grow.m4a"; sync
"$bench" grow "$scratch/grow.m4a" 3000
"$bench" grow "$scratch/grow.m4a" 500   # the padding left by the rewrite takes this in place
rm "$scratch/grow.m4a"
if [ -x "$scratch/taglib_mp4_save" ]; then
    cp "$scratch/big.m4a" "$scratch/grow.m4a"; sync
    "$scratch/taglib_mp4_save" --grow "$scratch/grow.m4a"
    "$scratch/taglib_mp4_save" --grow "$scratch/grow.m4a"
fi

# 6. The browser (atominspect browse): the first screen of a 5 GiB sparse movie whose one
#    track has a million samples, then keypresses scrolling that track's sample table. The
#    reference is this machine's floor for touching the same file (open, read 64 KiB, close)
#    and the plain atom-tree parse, measured in the same run.
"$bench" largemovie "$scratch/million.mp4"
"$bench" browse "$scratch/million.mp4"
"$bench" iofloor "$scratch/million.mp4"
"$bench" bigfile "$scratch/million.mp4"
rm "$scratch/million.mp4"

swift build -c release --product atominspect >/dev/null
inspect_tree=$(swift build -c release --show-bin-path)/atominspect
# 6a. The browser's search in a file of 3,600 fragments (ffmpeg's fragmented AAC, a fragment every
#     0.1 s): the first node holding a value of the last fragment, then a text no node holds; the
#     I/O floor of the same file is the reference.
ffmpeg -v error -nostdin -y -f lavfi -i sine=duration=360 -c:a aac -b:a 32k \
    -movflags +frag_keyframe+empty_moov+default_base_moof -frag_duration 100000 "$scratch/fragments.m4a"
last=$("$inspect_tree" tree "$scratch/fragments.m4a" --path "moof[3100]/traf/tfdt" 2>/dev/null | sed -n 's/.*baseMediaDecodeTime=\([0-9]*\).*/\1/p')
"$bench" search "$scratch/fragments.m4a" "baseMediaDecodeTime=$last"
"$bench" iofloor "$scratch/fragments.m4a"
rm "$scratch/fragments.m4a"

# 6b. atominspect diff of two 1 GiB movies that differ only in their last media byte, against
#     cmp on the same pair (the page cache warm for both: medians of five runs taken in turns),
#     and check --profile web of one of them.
swift build -c release --product atominspect >/dev/null
inspect=$(swift build -c release --show-bin-path)/atominspect
python3 - "$scratch/diff-a.m4a" <<'PY'
import os, struct, sys
head = open("Fixtures/moov-before-mdat.m4a", "rb").read()
head = head[:head.index(b"mdat") - 4]
size = 1 << 30
block = os.urandom(1 << 24)
with open(sys.argv[1], "wb") as f:
    f.write(head + struct.pack(">I", 1) + b"mdat" + struct.pack(">Q", size + 16))
    for _ in range(size // len(block)): f.write(block)
PY
cp "$scratch/diff-a.m4a" "$scratch/diff-b.m4a"
printf '\001' | dd of="$scratch/diff-b.m4a" bs=1 seek=$(( $(stat -c %s "$scratch/diff-b.m4a") - 1 )) conv=notrunc 2>/dev/null
cat "$scratch/diff-a.m4a" "$scratch/diff-b.m4a" >/dev/null
seconds() { local start end; start=$(date +%s.%N); "$@" >/dev/null 2>&1 || true; end=$(date +%s.%N); awk "BEGIN { printf \"%.3f\", $end - $start }"; echo; }
median() { sort -n | sed -n 3p; }
cmp_times=(); diff_times=()
for _ in 1 2 3 4 5; do
    cmp_times+=("$(seconds cmp "$scratch/diff-a.m4a" "$scratch/diff-b.m4a")")
    diff_times+=("$(seconds "$inspect" diff "$scratch/diff-a.m4a" "$scratch/diff-b.m4a")")
done
cmp_median=$(printf '%s\n' "${cmp_times[@]}" | median)
diff_median=$(printf '%s\n' "${diff_times[@]}" | median)
echo "diff of two 1 GiB movies (last media byte differs): atominspect diff ${diff_median} s, cmp ${cmp_median} s: $(awk "BEGIN { printf \"%.2f\", $diff_median / $cmp_median }")x cmp"
check_median=$(for _ in 1 2 3 4 5; do seconds "$inspect" check --profile web "$scratch/diff-a.m4a"; done | median)
echo "check --profile web of one of them: ${check_median} s"
rm "$scratch/diff-a.m4a" "$scratch/diff-b.m4a"

# 7. Listing the timed ID3 events of a 1 GiB transport stream recording (Tools/bench/make_ts.py:
#    an ADTS audio stream and an ID3 event every 5000 PES packets), as a user runs it: the
#    whole `tagedit timed --json` process, against reading the file with cat and against
#    ffprobe listing the same packets, best of three each after a warm-up read.
swift build -c release --product tagedit >/dev/null
tagedit=$(swift build -c release --show-bin-path)/tagedit
python3 Tools/bench/make_ts.py "$scratch/recording.ts" 1024
best_of_3() {  # prints the fastest wall time in ms of three runs of "$@"
    local best=""
    for _ in 1 2 3; do
        local start end ms
        start=$(date +%s%N); "$@" >/dev/null 2>&1; end=$(date +%s%N)
        ms=$(( (end - start) / 1000000 ))
        if [ -z "$best" ] || [ "$ms" -lt "$best" ]; then best=$ms; fi
    done
    echo "$best"
}
cat "$scratch/recording.ts" >/dev/null
cat_ms=$(best_of_3 cat "$scratch/recording.ts")
timed_ms=$(best_of_3 "$tagedit" timed --json "$scratch/recording.ts")
ffprobe_ms=""
if command -v ffprobe >/dev/null; then
    ffprobe_ms=$(best_of_3 ffprobe -v error -show_packets -select_streams d "$scratch/recording.ts")
fi
events=$("$tagedit" timed --json "$scratch/recording.ts" | grep -c '"source": "ts"')
python3 - "$cat_ms" "$timed_ms" "${ffprobe_ms:-0}" "$events" <<'PY'
import sys
cat, timed, ffprobe, events = (int(v) for v in sys.argv[1:])
print(f"timed ID3 of a 1 GiB TS ({events} events): tagedit timed --json {timed} ms = {timed / max(cat, 1):.2f}x cat ({cat} ms)"
      + (f", {timed / ffprobe:.2f}x ffprobe -show_packets -select_streams d ({ffprobe} ms)" if ffprobe else ", ffprobe: not installed"))
PY
rm "$scratch/recording.ts"

# 8. The tools as a user runs them (issue 15): listing 1000 tagged M4A and MP3 files, setting a
#    title on all of them, and editing 1 GiB files (same length, and growing past the padding),
#    each a whole process against TagLib (small C++ programs built here), mutagen, exiftool,
#    AtomicParsley, cp + sync and the I/O floor, tools taking turns (and atominspect --json of a
#    tagged file and of the 1 GiB movie against the I/O floor); the audio is checked
#    unchanged after every tool's writes. tagedit is built as Tools/install.sh installs it
#    (a static executable). Tools/bench/tools_bench.py says how the corpora are made;
#    the markdown table it prints is the one the README quotes (also left in Tools/bench/RESULTS.md).
static=(-c release --static-swift-stdlib -Xswiftc -static-executable --scratch-path .build-static)  # as Tools/install.sh builds
swift build "${static[@]}" --product tagedit >/dev/null
swift build "${static[@]}" --product atominspect >/dev/null
static_tagedit=$(swift build "${static[@]}" --show-bin-path)/tagedit
if command -v g++ >/dev/null && [ -f /usr/include/taglib/fileref.h ] && command -v ffmpeg >/dev/null && [ -d /usr/lib/python3/dist-packages/mutagen ]; then
    g++ -O2 -o "$scratch/taglib_show" Tools/bench/taglib_show.cpp $(pkg-config --cflags --libs taglib 2>/dev/null || echo -ltag)
    g++ -O2 -o "$scratch/taglib_export" Tools/bench/taglib_export.cpp $(pkg-config --cflags --libs taglib 2>/dev/null || echo -ltag)
    g++ -O2 -o "$scratch/taglib_set" Tools/bench/taglib_set.cpp $(pkg-config --cflags --libs taglib 2>/dev/null || echo -ltag)
    cc -O2 -o "$scratch/io_floor" Tools/bench/io_floor.c
    /usr/bin/python3 Tools/bench/tools_bench.py "$scratch/tools" "$static_tagedit" "$scratch" --markdown Tools/bench/RESULTS.md
else
    echo "tools: skipped (install g++, libtag1-dev, ffmpeg and python3-mutagen)"
fi

# 9. Hostile files (issue 31): the resource-bound suite run against the installed build (the
#    static release tools above), each tool run on each hostile file of
#    Tests/ToolEndToEndTests/ResourceBoundTests.swift (a million atoms, 500,000 items,
#    200,000 timed events, inflate bombs...) held to 256 MiB peak and 2 s.
swift build --build-tests >/dev/null
RESOURCE_BOUND_TOOLS=$(swift build "${static[@]}" --show-bin-path) RESOURCE_BOUND_SECONDS=2 \
    swift test --skip-build --filter ResourceBoundTests 2>&1 | grep -E "resource bound:|✘|passed|failed" || true
