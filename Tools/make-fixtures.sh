#!/usr/bin/env bash
# Regenerates every media test file in Fixtures/ (and Fixtures/README.md)
# from nothing: all audio is ffmpeg lavfi `sine`, all pictures and video are
# ffmpeg `testsrc`, so nothing copyrighted goes in.
#
# Debian packages needed (bookworm):
#   ffmpeg               ffmpeg/ffprobe with libx264 (audio, video, containers)
#   atomicparsley        iTunes ilst tags + artwork
#   python3-mutagen      free-form '----' iTunes items, padding
#   libheif-examples     heif-enc / heif-info (HEVC-coded HEIF image)
#   python3              Tools/fixture_patch.py (standard library only)
# Optional: libimage-exiftool-perl (only used for an extra sanity print).
# gpac (MP4Box) is NOT needed: it is not in Debian bookworm.
#
#   apt-get install -y ffmpeg atomicparsley python3-mutagen libheif-examples
#
# Usage: Tools/make-fixtures.sh   (idempotent; safe to re-run)
#
# Output is made as deterministic as the tools allow (bitexact flags,
# -threads 1, fixed creation_time, no encoder tags); another ffmpeg /
# x264 / x265 / AtomicParsley version may still produce different bytes.
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
OUT="$ROOT/Fixtures"
PATCH="$ROOT/Tools/fixture_patch.py"
# mutagen comes from Debian's python3-mutagen, i.e. the system interpreter.
PYTHON="${PYTHON:-/usr/bin/python3}"
[ -x "$PYTHON" ] || PYTHON=python3

for tool in ffmpeg ffprobe AtomicParsley heif-enc heif-info; do
  command -v "$tool" >/dev/null || { echo "missing $tool (see header)" >&2; exit 1; }
done
"$PYTHON" -c 'import mutagen' 2>/dev/null || { echo "missing python3-mutagen" >&2; exit 1; }

TMP="$(mktemp -d)"
trap 'rm -rf "$TMP"' EXIT

mkdir -p "$OUT"
# Start from nothing: drop every file this script makes.
find "$OUT" -maxdepth 1 -type f \( -name '*.m4a' -o -name '*.m4b' -o -name '*.mp4' \
  -o -name '*.mov' -o -name '*.3gp' -o -name '*.heic' -o -name '*.heif' -o -name 'README.md' -o -name 'box-walk.txt' \) -delete

export TZ=UTC LC_ALL=C
FF=(ffmpeg -nostdin -hide_banner -v error -y)
# Applied to every encode: no encoder strings, single-threaded, no inherited
# metadata, fixed timestamps in mvhd/tkhd/mdhd.
BXF=(-fflags +bitexact -flags:v +bitexact -flags:a +bitexact -threads 1)
CT=(-metadata creation_time=2020-01-02T03:04:05Z)
BX=("${BXF[@]}" -map_metadata -1 "${CT[@]}")
X264=(-c:v libx264 -preset medium -pix_fmt yuv420p -x264-params threads=1:lookahead_threads=1)
sine() { # sine FREQ RATE DURATION
  echo "sine=frequency=$1:sample_rate=$2:duration=$3"
}

# --------------------------------------------------------------- images
"${FF[@]}" -f lavfi -i "testsrc=size=32x32:rate=1" -frames:v 1 -fflags +bitexact -flags:v +bitexact \
  -threads 1 -pix_fmt yuvj420p -c:v mjpeg -q:v 4 -f image2 "$TMP/cover.jpg"
"${FF[@]}" -f lavfi -i "testsrc=size=16x16:rate=1" -frames:v 1 -fflags +bitexact -flags:v +bitexact \
  -threads 1 -c:v png -f image2 "$TMP/cover.png"
"${FF[@]}" -f lavfi -i "testsrc=size=64x64:rate=1" -frames:v 1 -fflags +bitexact -flags:v +bitexact \
  -threads 1 -pix_fmt yuvj420p -c:v mjpeg -q:v 6 -f image2 "$TMP/image.jpg"
python3 "$PATCH" jpeg-exif "$TMP/image.jpg" "$TMP/image-exif.jpg"

# ------------------------------------------------ 1. iTunes tags + cover
# ffmpeg (plain AAC, no tags) -> mutagen (free-form '----' items, 64-byte
# padding) -> AtomicParsley (standard items, gnre, two covr pictures).
"${FF[@]}" -f lavfi -i "$(sine 440 22050 1)" "${BX[@]}" -c:a aac -b:a 32k -ac 2 -f ipod "$TMP/tags.m4a"
"$PYTHON" - "$TMP/tags.m4a" <<'EOF'
import sys
from mutagen.mp4 import MP4, MP4FreeForm, AtomDataType
f = MP4(sys.argv[1])
f["----:com.apple.iTunes:MusicBrainz Track Id"] = [
    MP4FreeForm(b"8f3b2a5e-0000-4000-8000-000000000001", dataformat=AtomDataType.UTF8)]
f["----:org.example.fixtures:Custom Note"] = [
    MP4FreeForm(b"free-form text", dataformat=AtomDataType.UTF8)]
f.save(padding=lambda info: 64)
EOF
AtomicParsley "$TMP/tags.m4a" --title "Fixture Title" --artist "Fixture Artist" \
  --album "Fixture Album" --albumArtist "Fixture Album Artist" --year 2021 \
  --tracknum 3/12 --disk 1/2 --genre "Electronic" --comment "Generated test fixture" \
  --bpm 120 --compilation true --artwork "$TMP/cover.jpg" --artwork "$TMP/cover.png" \
  --overWrite >/dev/null
# AtomicParsley stamps "now" into mvhd's modification_time; undo that.
python3 "$PATCH" reset-mtime "$TMP/tags.m4a"
cp "$TMP/tags.m4a" "$OUT/aac-itunes-tags-cover.m4a"

# ------------------------------------------------ 2. audiobook chapters
cat > "$TMP/chapters.txt" <<'EOF'
;FFMETADATA1
title=Fixture Audiobook
artist=Fixture Narrator
album=Fixture Audiobook
genre=Audiobook

[CHAPTER]
TIMEBASE=1/1000
START=0
END=1000
title=Chapter 1: Opening

[CHAPTER]
TIMEBASE=1/1000
START=1000
END=2000
title=Chapter 2: Middle

[CHAPTER]
TIMEBASE=1/1000
START=2000
END=3000
title=Chapter 3: End
EOF
"${FF[@]}" -f lavfi -i "$(sine 330 22050 3)" -f ffmetadata -i "$TMP/chapters.txt" \
  "${BXF[@]}" "${CT[@]}" -map 0:a -map_metadata 1 -map_chapters 1 -c:a aac -b:a 16k -ac 1 \
  -brand "M4B " -movflags +faststart -f ipod "$OUT/audiobook-chapters.m4b"

# ------------------------------------------------ 3. H.264 + AAC MP4
"${FF[@]}" -f lavfi -i "testsrc=size=64x48:rate=10:duration=1" -f lavfi -i "$(sine 440 22050 1)" \
  "${BX[@]}" "${X264[@]}" -g 5 -c:a aac -b:a 24k -ac 1 \
  -metadata:s:a language=eng -movflags +faststart -f mp4 "$OUT/video-h264-aac.mp4"

# ------------------------------------------------ 4. QuickTime udta text
"${FF[@]}" -f lavfi -i "testsrc=size=64x48:rate=10:duration=0.5" -f lavfi -i "$(sine 440 22050 0.5)" \
  "${BX[@]}" -c:v mjpeg -q:v 8 -pix_fmt yuvj420p -c:a aac -b:a 24k -ac 1 \
  -metadata title="Fixture QT Title" -metadata artist="Fixture QT Artist" \
  -metadata comment="Fixture QT comment" -metadata album="Fixture QT Album" \
  -metadata date=2021 -metadata genre="Fixture Genre" -metadata copyright="Public domain test data" \
  -metadata make=FixtureCam -metadata model="Model 1" -metadata location="+48.8584+002.2945/" \
  -f mov "$OUT/quicktime-udta-text.mov"

# ------------------------------------------------ 5. QuickTime mdta keys
"${FF[@]}" -f lavfi -i "testsrc=size=64x48:rate=10:duration=0.5" -f lavfi -i "$(sine 440 8000 0.5)" \
  "${BX[@]}" "${X264[@]}" -g 5 -c:a pcm_s16le -movflags use_metadata_tags \
  -metadata com.apple.quicktime.title="Fixture mdta Title" \
  -metadata com.apple.quicktime.location.ISO6709="+48.8584+002.2945/" \
  -metadata com.apple.quicktime.make=FixtureCam -metadata com.apple.quicktime.model="Model 1" \
  -metadata com.apple.quicktime.creationdate=2021-06-01T12:00:00+0200 \
  -f mov "$OUT/quicktime-mdta-keys.mov"
# Apple devices put this meta directly in moov, without version/flags.
python3 "$PATCH" mdta-to-moov "$OUT/quicktime-mdta-keys.mov" "$OUT/quicktime-mdta-keys-moov-meta.mov"

# ------------------------------------------------ 6. fragmented MP4
FRAG_IN=(-f lavfi -i "testsrc=size=64x48:rate=10:duration=1" -f lavfi -i "$(sine 440 22050 1)"
         "${BX[@]}" "${X264[@]}" -g 3 -c:a aac -b:a 24k -ac 1 -frag_duration 200000)
"${FF[@]}" "${FRAG_IN[@]}" -movflags frag_keyframe+empty_moov+default_base_moof \
  -f mp4 "$OUT/fragmented.mp4"
"${FF[@]}" "${FRAG_IN[@]}" -movflags frag_keyframe+empty_moov+default_base_moof+global_sidx \
  -f mp4 "$OUT/fragmented-sidx.mp4"

# ------------------------------------------------ 7. 3GP
# Debian's ffmpeg has no AMR-NB encoder (libopencore_amrnb is decode-only),
# so the audio is AAC; video is H.263 at the legal 128x96 (SQCIF).
"${FF[@]}" -f lavfi -i "testsrc=size=128x96:rate=10:duration=0.5" -f lavfi -i "$(sine 440 8000 0.5)" \
  "${BX[@]}" -c:v h263 -q:v 10 -g 5 -c:a aac -b:a 12k -ac 1 -metadata:s:a language=eng \
  -metadata title="Fixture 3GP Title" -metadata author="Fixture Author" \
  -metadata artist="Fixture Performer" -metadata genre="Fixture Genre" \
  -metadata album="Fixture Album" -metadata copyright="Public domain test data" -metadata date=2021 \
  -f 3gp "$OUT/mobile.3gp"

# ------------------------------------------------ 8. moov before / after mdat
M4A_TAGS=(-metadata title="Layout Title" -metadata artist="Layout Artist" -metadata album="Layout Album"
          -metadata genre="Fixture Genre" -metadata track=5/9 -metadata disc=2/3 -metadata date=2020)
"${FF[@]}" -f lavfi -i "$(sine 523 22050 1)" "${BX[@]}" -c:a aac -b:a 24k -ac 1 "${M4A_TAGS[@]}" \
  -f ipod "$OUT/moov-after-mdat.m4a"
"${FF[@]}" -f lavfi -i "$(sine 523 22050 1)" "${BX[@]}" -c:a aac -b:a 24k -ac 1 "${M4A_TAGS[@]}" \
  -movflags +faststart -f ipod "$OUT/moov-before-mdat.m4a"

# ------------------------------------------------ 9. 64-bit mdat header
# ffmpeg's default layout is ftyp, free(8), mdat, moov: the free box is
# folded into the mdat header (size == 1 + largesize), payload unmoved.
python3 "$PATCH" mdat64 "$OUT/moov-after-mdat.m4a" "$OUT/mdat-64bit-header.m4a"

# ------------------------------------------------ 10. co64
# Two interleaved audio tracks (23 chunks each), moov first, so every
# offset must be shifted by the bytes co64 adds to the moov.
"${FF[@]}" -f lavfi -i "$(sine 440 22050 1)" -f lavfi -i "$(sine 660 22050 1)" "${BX[@]}" \
  -map 0 -map 1 -c:a aac -b:a 16k -ac 1 -metadata:s:a:0 language=eng -metadata:s:a:1 language=deu \
  -disposition:a:1 0 -movflags +faststart -f ipod "$TMP/two-tracks.m4a"
python3 "$PATCH" co64 "$TMP/two-tracks.m4a" "$OUT/co64-chunk-offsets.m4a"

# ------------------------------------------------ 11. HEIF
# HEVC-coded primary image + thumbnail + Exif item (from the JPEG's APP1).
heif-enc -q 30 -t 16 -o "$OUT/heif-image.heic" "$TMP/image-exif.jpg" >/dev/null
# Hand-built minimal HEIF: one JPEG-coded item + Exif item (iref cdsc).
python3 "$PATCH" heif-jpeg "$TMP/image.jpg" 64 64 "$OUT/heif-jpeg-item.heif" "$TMP/image-exif.jpg"

# ------------------------------------------------ 12. extras
"${FF[@]}" -f lavfi -i "$(sine 440 22050 0.5)" "${BX[@]}" -c:a alac -ac 1 -sample_fmt s16p \
  -metadata title="ALAC Title" -f ipod "$OUT/alac.m4a"
python3 "$PATCH" mdat-size0 "$OUT/moov-before-mdat.m4a" "$OUT/mdat-size-zero.m4a"
"${FF[@]}" -f lavfi -i "$(sine 440 96000 0.05)" "${BX[@]}" -c:a pcm_s16le -ac 1 \
  -f mov "$OUT/quicktime-sound-v2-lpcm.mov"
"${FF[@]}" -f lavfi -i "$(sine 440 8000 0.25)" "${BX[@]}" -c:a pcm_s24le -ac 1 \
  -f mov "$OUT/quicktime-sound-v1-in24.mov"

# ---------------------------------------------------------------- checks
fail=0
check_decode() { # ffprobe + full decode must print nothing at -v error
  local f="$1" err
  err="$(ffprobe -v error -show_format -show_streams "$f" 2>&1 >/dev/null || echo "ffprobe failed")"
  err+="$(ffmpeg -nostdin -v error -i "$f" -map 0:v? -map 0:a? -f null - 2>&1 || echo "ffmpeg failed")"
  if [ -n "$err" ]; then echo "DECODE ERROR $f: $err" >&2; fail=1; fi
}
expect() { python3 "$PATCH" expect "$@" || fail=1; }

for f in "$OUT"/*.m4a "$OUT"/*.m4b "$OUT"/*.mp4 "$OUT"/*.mov "$OUT"/*.3gp; do
  check_decode "$f"
done
for f in "$OUT"/*.m4a "$OUT"/*.m4b "$OUT"/*.mov "$OUT"/*.3gp "$OUT/video-h264-aac.mp4"; do
  python3 "$PATCH" verify "$f" >/dev/null || { python3 "$PATCH" verify "$f"; fail=1; }
done
# (libheif 1.15 has no JPEG codec, so heif-info cannot open heif-jpeg-item.heif)
heif-info "$OUT/heif-image.heic" >/dev/null || { echo "heif-info failed" >&2; fail=1; }
S=moov/trak/mdia/minf/stbl
expect "$OUT/aac-itunes-tags-cover.m4a" moov/udta/meta/ilst/©nam moov/udta/meta/ilst/trkn \
  moov/udta/meta/ilst/disk moov/udta/meta/ilst/gnre moov/udta/meta/ilst/tmpo \
  moov/udta/meta/ilst/cpil moov/udta/meta/ilst/covr/data moov/udta/meta/ilst/----/mean \
  moov/udta/meta/free
expect "$OUT/audiobook-chapters.m4b" moov/trak/tref/chap moov/udta/chpl moov/udta/meta/ilst
expect "$OUT/video-h264-aac.mp4" $S/stsd/avc1/avcC $S/ctts $S/stss $S/stsd/mp4a/esds
expect "$OUT/quicktime-udta-text.mov" moov/udta/©nam moov/udta/©xyz $S/stsd/mp4a/wave/frma
expect "$OUT/quicktime-mdta-keys.mov" moov/udta/meta/keys moov/udta/meta/ilst
expect "$OUT/quicktime-mdta-keys-moov-meta.mov" moov/meta/keys moov/meta/ilst
expect "$OUT/fragmented.mp4" moov/mvex/trex moof/mfhd moof/traf/tfhd moof/traf/tfdt \
  moof/traf/trun mfra/tfra mfra/mfro
expect "$OUT/fragmented-sidx.mp4" sidx moof/traf/trun mfra/mfro
expect "$OUT/mobile.3gp" $S/stsd/s263 moov/udta/titl moov/udta/yrrc
expect "$OUT/co64-chunk-offsets.m4a" $S/co64
expect "$OUT/alac.m4a" $S/stsd/alac/alac
expect "$OUT/quicktime-sound-v1-in24.mov" $S/stsd/in24/wave/enda
expect "$OUT/quicktime-sound-v2-lpcm.mov" $S/stsd/lpcm
expect "$OUT/heif-image.heic" meta/iinf/infe meta/iloc meta/iprp/ipco/hvcC meta/iprp/ipma meta/iref
expect "$OUT/heif-jpeg-item.heif" meta/hdlr meta/pitm meta/iloc meta/iinf/infe meta/iprp/ipco/ispe meta/iref
# (tree output is captured first: `tree | grep -q` can die of SIGPIPE under pipefail)
tree_has() { local t; t="$(python3 "$PATCH" tree "$1")"; [[ "$t" == *"$2"* ]]; }
tree_has "$OUT/mdat-64bit-header.m4a" 'size==1 (64-bit' || { echo "no largesize mdat" >&2; fail=1; }
tree_has "$OUT/mdat-size-zero.m4a" 'size==0' || { echo "no size-0 mdat" >&2; fail=1; }
! tree_has "$OUT/co64-chunk-offsets.m4a" ' stco ' || { echo "stco left" >&2; fail=1; }
for f in "$OUT"/*; do
  [ "$(stat -c %s "$f")" -lt 102400 ] || { echo "too big: $f" >&2; fail=1; }
done
[ "$fail" = 0 ] || { echo "fixture checks FAILED" >&2; exit 1; }

# ---------------------------------------------------------------- README
size() { stat -c %s "$OUT/$1"; }
pkgver() { dpkg-query -W -f='${Version} ' "$1" 2>/dev/null | sed 's/ $//' || echo '?'; }
row() { # row FILE HOW QUIRKS
  printf '| `%s` | %s | %s | %s |\n' "$1" "$(size "$1")" "$2" "$3"
}
{
cat <<EOF
# Test fixtures

All files here are generated by \`Tools/make-fixtures.sh\` (byte patches by
\`Tools/fixture_patch.py\`, Python standard library only). Do not edit them by
hand: change the script and re-run it. It needs the Debian packages
\`ffmpeg atomicparsley python3-mutagen libheif-examples\` (plus \`python3\`).
gpac/MP4Box is not used (it is not in Debian bookworm).

Content is synthetic: \`sine\` tones and \`testsrc\` pictures from ffmpeg's
lavfi, so nothing is copyrighted. Encodes use bitexact flags, one thread and a
fixed \`creation_time\` (2020-01-02T03:04:05Z), so re-running with the same tool
versions gives the same bytes; other versions of ffmpeg / x264 / x265 /
AtomicParsley / mutagen / libheif may change bytes (and sizes below). Generated with:

- $(ffmpeg -version | sed -n 1p)
- AtomicParsley $(pkgver atomicparsley) (its \`--version\` prints no number)
- mutagen $("$PYTHON" -c 'import mutagen; print(mutagen.version_string)')
- heif-enc, libheif $(heif-enc --help 2>&1 | sed -n 's/.*libheif version: *//p')
- Debian packages: ffmpeg $(pkgver ffmpeg), libx264 $(pkgver 'libx264-*'), libx265 $(pkgver 'libx265-*'), libheif1 $(pkgver libheif1), python3-mutagen $(pkgver python3-mutagen)

Inspect any file with \`python3 Tools/fixture_patch.py tree FILE\` (box tree with
decoded fields); \`python3 Tools/fixture_patch.py verify FILE\` checks that all
stco/co64 chunk offsets land inside an mdat. \`box-walk.txt\` is that walker's
tree of every fixture; the Swift tests check that the parser finds every box it
lists at the same offset with the same header and total size.

| file | bytes | how it is made | what it exercises |
| --- | ---: | --- | --- |
EOF
row aac-itunes-tags-cover.m4a \
  'ffmpeg AAC (`-f ipod`), then mutagen adds two `----` items (padding 64), then AtomicParsley `--title --artist --album --albumArtist --year --tracknum 3/12 --disk 1/2 --genre Electronic --comment --bpm 120 --compilation true --artwork cover.jpg --artwork cover.png`' \
  'iTunes `moov/udta/meta` (full box, hdlr `mdir`) / `ilst`: `©nam ©ART ©alb aART ©day ©cmt` (data type 1), `trkn` 3/12 (8 bytes) and `disk` 1/2 (type 0 binary, 6-byte form), `gnre` (type 0, ID3 index+1 = 53 → Electronic), `tmpo` 120 (type 21, 2 bytes), `cpil` (type 21, 1 byte), `covr` with **two** `data` children (type 13 JPEG 32×32, type 14 PNG 16×16), `----` free-form items (`mean` com.apple.iTunes / `name` "MusicBrainz Track Id"; `mean` org.example.fixtures / `name` "Custom Note"); a 72-byte `free` *inside* `meta` between `hdlr` and `ilst`; top-level `free`(8) before `moov`; moov before mdat (AtomicParsley rewrote the layout); mvhd modification_time reset to creation_time after AtomicParsley stamped the wall clock'
row audiobook-chapters.m4b \
  'ffmpeg, ffmetadata file with 3 chapters, `-brand "M4B " -f ipod -movflags +faststart`' \
  'ftyp major `M4B `; moov first; QuickTime chapter track: `moov/trak[1]/tref/chap` → track 2, track 2 is hdlr `text` with a QuickTime `text` sample entry (not `tx3g`), 3 samples, tkhd flags 0x2 (disabled), mdhd language code 0, `minf/gmhd/text`; chapter text samples stored before the audio in mdat; Nero `moov/udta/chpl` v1 with 3 entries (0 s, 1 s, 2 s; 100 ns units); `ilst` `©nam ©ART ©alb ©gen`'
row video-h264-aac.mp4 \
  'ffmpeg testsrc 64×48 10 fps 1 s libx264 `-g 5` + AAC mono, `-movflags +faststart`' \
  'brands `isom iso2 avc1 mp41`; `avc1`/`avcC`/`pasp`/`btrt`; B-frames → `ctts` and `elst` media_time 2048; `stss`; interleaved chunks (stco 9 entries per track); `tkhd` 64×48; audio `mdhd` language `eng`; empty `udta/meta/ilst`; 8-byte `free` between moov and mdat'
row quicktime-udta-text.mov \
  'ffmpeg `-f mov`, MJPEG 64×48 + AAC, `-metadata title/artist/comment/album/date/genre/copyright/make/model/location`' \
  'ftyp `qt  `; `wide` before mdat; QuickTime text items directly in `moov/udta`: `©nam ©ART ©alb ©day ©des ©cmt ©gen ©cpy ©mak ©mod ©xyz` (16-bit length + 16-bit packed language `und` + string, no `data` box); `©xyz` ISO 6709 location; `©des` carries the comment text too (ffmpeg behaviour); `jpeg` video sample entry with `fiel`; `mhlr`/`dhlr` handlers, mdhd language 0x7FFF; AAC sound description **version 1** with `wave` (`frma` mp4a, `mp4a`, `esds`, 8-byte zero terminator atom) and `chan`; mvhd creation time 2020-01-02T03:04:05Z'
row quicktime-mdta-keys.mov \
  'ffmpeg `-f mov -movflags use_metadata_tags -metadata com.apple.quicktime.*=…`, H.264 + PCM s16le' \
  '`moov/udta/meta` (ffmpeg writes it as an ISO full box, in udta) with hdlr `mdta`, `keys` (6 `mdta` keys incl. `com.apple.quicktime.location.ISO6709`, `creationdate`, `make`, `model`, and `creation_time`) and `ilst` whose item types are 1-based key indexes (0x00000001…), values `data` type 1; QuickTime-style `hdlr`s (`mhlr` in mdia, `dhlr`/`url ` in minf), mdhd language 0x7FFF; H.264 with `ctts`; `sowt` (little-endian PCM) sound description v0 + `chan`'
row quicktime-mdta-keys-moov-meta.mov \
  '`fixture_patch.py mdta-to-moov` on the previous file' \
  'Apple layout: `moov/meta` (no version/flags, first child `hdlr` at payload offset 0) with `hdlr mdta`, `keys`, `ilst`; no `udta`'
row fragmented.mp4 \
  'ffmpeg H.264 (`-g 3`) + AAC, `-movflags frag_keyframe+empty_moov+default_base_moof -frag_duration 200000`' \
  'ftyp `iso5 iso6 mp41`; empty moov (mvhd/mdhd duration 0, no `mehd`, stsz/stco with 0 entries) with `moov/mvex/trex` ×2; 8 × `moof` (`mfhd` seq 1…8, 2 × `traf` with `tfhd` flags 0x020038 default-base-is-moof, `tfdt` v1, `trun` with data_offset) + `mdat`; `mfra` (`tfra` v1 per track with 7 and 8 entries, `mfro` = 357) at the end; last moof has audio only'
row fragmented-sidx.mp4 \
  'as `fragmented.mp4` plus `+global_sidx`' \
  'two top-level `sidx` v1 (one per track: video 7 references with first_offset 136, which skips the second sidx; audio 8 references) between `moov` and the first `moof`; otherwise same as above incl. `mfra`'
row mobile.3gp \
  'ffmpeg `-f 3gp`, H.263 128×96 + AAC 8 kHz, `-metadata title/author/artist/genre/album/copyright/date`' \
  'ftyp `3gp4` (compat `3gp4 isom iso2`); `s263` sample entry with `d263`; 3GPP asset boxes in `moov/udta`: `titl auth perf gnre albm cprt` (full box + packed language `eng` + string) and `yrrc` (year 2021). AMR-NB was not possible: Debian ffmpeg has no AMR encoder'
row moov-before-mdat.m4a \
  'ffmpeg AAC `-f ipod -movflags +faststart`, ffmpeg-written tags' \
  'ftyp, moov, free(8), mdat; `ilst` as ffmpeg writes it: `©nam ©ART ©alb ©day ©gen` (text `©gen`, not `gnre`), `trkn` 5/9, `disk` 2/3 (8-byte form with trailing zero pad); mono AAC whose ISO `mp4a` entry still says channelcount 2 / samplesize 16 (template values; the real layout is in `esds`); single chunk (stco 1 entry)'
row moov-after-mdat.m4a \
  'same as above without faststart' \
  'ftyp, free(8), mdat, moov (moov at the end; default ffmpeg layout)'
row mdat-64bit-header.m4a \
  '`fixture_patch.py mdat64` on `moov-after-mdat.m4a`' \
  'top-level `mdat` with size field 1 and a 64-bit largesize (16-byte header) that replaced `free`(8) + the 32-bit mdat header, so the payload and all `stco` offsets are unchanged'
row co64-chunk-offsets.m4a \
  'ffmpeg two AAC tracks (eng, deu; second disabled) `-movflags +faststart`, then `fixture_patch.py co64`' \
  'every `stco` replaced by `co64` (8-byte entries, 23 per track); moov precedes mdat so all offsets were shifted by the 184 added bytes; ancestor sizes fixed; two `soun` traks'
row alac.m4a \
  'ffmpeg `-c:a alac -f ipod`' \
  '`alac` sample entry (v0) containing the `alac` magic-cookie box (`stbl/stsd/alac/alac`)'
row mdat-size-zero.m4a \
  '`fixture_patch.py mdat-size0` on `moov-before-mdat.m4a`' \
  'last top-level `mdat` has size field 0 (= extends to end of file)'
row quicktime-sound-v1-in24.mov \
  'ffmpeg `-c:a pcm_s24le -f mov`, audio only' \
  '`in24` sound description **version 1** (samples_per_packet 1, bytes_per_frame 3) with `wave` (`frma` in24, `enda` little-endian flag, terminator) and `chan`'
row quicktime-sound-v2-lpcm.mov \
  'ffmpeg `-c:a pcm_s16le -ar 96000 -f mov`, audio only' \
  '`lpcm` sound description **version 2** (96 kHz does not fit the 16.16 rate field: v0 fields hold 3/16/0x10000; float64 rate 96000, flags 0xc, 2 bytes per frame) + `chan`'
row heif-image.heic \
  'ffmpeg testsrc 64×64 JPEG, Exif APP1 added by `fixture_patch.py jpeg-exif`, then `heif-enc -q 30 -t 16` (libheif + x265)' \
  'ftyp major `heic` (compat `mif1 heic miaf` listed twice); `meta` (full box): `hdlr pict`, `pitm` 1, `idat`, `iloc` v1 (offset/length/base_offset size 4; items 1–3 in mdat, item 4 construction_method 1 = `idat`), `iinf` with `infe` v2: 1 `hvc1` (primary 64×64), 2 `Exif` (hidden, payload = exif_tiff_header_offset 0 + big-endian TIFF: Make/Model/DateTime/DateTimeOriginal), 3 `hvc1` (hidden 64×64 tile), 4 `grid` (16×16 thumbnail); `iprp/ipco` (`hvcC` ×2, `ispe` 64×64 ×2 and 16×16, `pixi` ×2), `ipma` with essential bits; `iref` `cdsc` 2→1, `dimg` 4→3, `thmb` 4→1'
row heif-jpeg-item.heif \
  '`fixture_patch.py heif-jpeg` (hand-built, no encoder)' \
  'minimal HEIF: ftyp `mif1` (compat `mif1 heic miaf`), `meta` (full box) with `hdlr pict`, `pitm` 1, `iloc` v1 (offset/length size 4, base_offset size 0), `iinf` with `infe` v2 `jpeg` item 1 ("Image") and `Exif` item 2, `iref` `cdsc` 2→1, `iprp/ipco/ispe` 64×64 + `ipma` (not essential); Exif item payload = exif_tiff_header_offset 6, then `Exif\0\0` + big-endian TIFF (Make FixtureCam, Model "Model 1", Orientation 1, DateTime, ExifIFD DateTimeOriginal). libheif 1.15 cannot decode JPEG items (`heif-info` rejects the file); exiftool reads it fine'
cat <<'EOF'

## Notes

- AMR-NB audio in `mobile.3gp` was not possible: Debian's ffmpeg only
  decodes AMR (no `libopencore_amrnb` encoder), so the 3GP carries AAC.
- gpac/MP4Box is not packaged in Debian bookworm; HEIF files come from
  libheif's `heif-enc` and from the stdlib writer in `fixture_patch.py`.
- ffmpeg writes both chapter forms for `audiobook-chapters.m4b` by itself
  (QuickTime chapter track + Nero `chpl`); no patch was needed.
- ffmpeg puts the `mdta` metadata in `moov/udta/meta` as an ISO full box;
  `quicktime-mdta-keys-moov-meta.mov` is the same file patched into Apple's
  `moov/meta` layout (no version/flags).
- The checks at the end of `make-fixtures.sh` fail the run unless every file
  passes `ffprobe -v error` and a full `ffmpeg -v error … -f null -` decode,
  all chunk offsets land in an mdat, the expected box paths exist, and every
  file is under 100 KB.
EOF
} > "$OUT/README.md"

# An independent box walk of every fixture (this script's Python walker, not the Swift
# parser), which the Swift tests compare their offsets and sizes against.
for f in "$OUT"/*.m4a "$OUT"/*.m4b "$OUT"/*.mp4 "$OUT"/*.mov "$OUT"/*.3gp "$OUT"/*.heic "$OUT"/*.heif; do
  "$PYTHON" "$PATCH" tree "$f" | sed "1s|^$OUT/||"
done > "$OUT/box-walk.txt"

echo "fixtures written to $OUT:"
ls -l "$OUT"
