#!/usr/bin/env bash
# Regenerates every media test file in Fixtures/ (and Fixtures/README.md)
# from nothing: all audio is ffmpeg lavfi `sine`, all pictures and video are
# ffmpeg `testsrc`, so nothing copyrighted goes in.  MP3 (libmp3lame), ADTS
# AAC, AIFF and WAV files carry ID3v1/ID3v2/APEv2/Lyrics3v2 tags written by
# mutagen or by the standard-library writers in Tools/fixture_patch.py.
#
# Debian packages needed (bookworm):
#   ffmpeg               ffmpeg/ffprobe with libx264 (audio, video, containers)
#   atomicparsley        iTunes ilst tags + artwork
#   python3-mutagen      free-form '----' iTunes items, padding; ID3v2.3/2.4 tags
#                        in MP3, AIFF and WAV; reads every ID3 fixture back
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
"$PYTHON" -c 'import mutagen.aiff, mutagen.wave' 2>/dev/null || { echo "missing python3-mutagen" >&2; exit 1; }

TMP="$(mktemp -d)"
trap 'rm -rf "$TMP"' EXIT

mkdir -p "$OUT"
# Start from nothing: drop every file this script makes.
find "$OUT" -maxdepth 1 -type f \( -name '*.m4a' -o -name '*.m4b' -o -name '*.mp4' \
  -o -name '*.mov' -o -name '*.3gp' -o -name '*.heic' -o -name '*.heif' -o -name '*.mp3' -o -name '*.aac' \
  -o -name '*.aiff' -o -name '*.aif' -o -name '*.wav' -o -name '*.flac' -o -name '*.ogg' -o -name '*.opus' -o -name '*.oga' -o -name '*.spx' -o -name 'README.md' -o -name 'box-walk.txt' \) -delete

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

# ------------------------------------------------ 13. MP3 / AAC / AIFF / WAV with ID3
# Bare audio first (no tags: -id3v2_version 0 -write_id3v1 0), then mutagen
# (deterministic: fixed frames, explicit padding) or the stdlib writers in
# fixture_patch.py for layouts mutagen cannot make.  The mp3 muxer's
# Xing/Info frame carries a LAME tag whose encoder string is "Lavf lame".
MP3=(-c:a libmp3lame -ac 1 -write_xing 1 -id3v2_version 0 -write_id3v1 0 -f mp3)
"${FF[@]}" -f lavfi -i "$(sine 440 44100 0.5)" "${BX[@]}" -b:a 32k "${MP3[@]}" "$TMP/plain.mp3"
"${FF[@]}" -f lavfi -i "$(sine 440 44100 0.5)" "${BX[@]}" -q:a 9 "${MP3[@]}" "$TMP/plain-vbr.mp3"
"${FF[@]}" -f lavfi -i "$(sine 440 22050 0.5)" "${BX[@]}" -b:a 32k "${MP3[@]}" "$TMP/plain22.mp3"
"${FF[@]}" -f lavfi -i "$(sine 440 22050 0.5)" "${BX[@]}" -c:a aac -b:a 24k -ac 1 -f adts "$TMP/plain.aac"

# 13a. ID3v2.4 with (nearly) every frame type, then an ID3v1.1 tag.
cp "$TMP/plain.mp3" "$OUT/id3v24-full.mp3"
"$PYTHON" - "$OUT/id3v24-full.mp3" "$TMP/image.jpg" "$TMP/cover.png" <<'EOF'
import sys
from mutagen.id3 import (ID3, APIC, CHAP, COMM, CTOC, CTOCFlags, GEOB, PCNT, POPM, PRIV, RVA2,
                         TALB, TBPM, TCMP, TCOM, TCON, TDOR, TDRC, TIPL, TIT2, TMOO, TPE1, TPE2,
                         TPOS, TRCK, TSOP, TXXX, UFID, USLT, WOAR, WXXX)
path, jpg, png = sys.argv[1], open(sys.argv[2], "rb").read(), open(sys.argv[3], "rb").read()
t = ID3()
t.add(TIT2(encoding=1, text=["Fixture Title \u266a"]))            # UTF-16 with BOM
t.add(TPE1(encoding=0, text=["Fixture Artist"]))
t.add(TALB(encoding=3, text=["Fixture \u00c4lbum \u2713"]))         # UTF-8 (v2.4 only)
t.add(TPE2(encoding=2, text=["Fixture Album Artist"]))              # UTF-16BE (v2.4 only)
t.add(TCOM(encoding=0, text=["Composer One", "Composer Two"]))      # two values, NUL-separated
t.add(TRCK(encoding=0, text=["3/12"]))
t.add(TPOS(encoding=0, text=["1/2"]))
t.add(TDRC(encoding=0, text=["2021-06-01"]))
t.add(TDOR(encoding=0, text=["2020"]))
t.add(TCON(encoding=0, text=["Electronic"]))
t.add(TBPM(encoding=0, text=["120"]))
t.add(TCMP(encoding=0, text=["1"]))
t.add(TSOP(encoding=0, text=["Artist, Fixture"]))
t.add(TMOO(encoding=0, text=["Calm"]))
t.add(TIPL(encoding=0, people=[["producer", "Fixture Producer"]]))
t.add(COMM(encoding=0, lang="eng", desc="", text=["Generated test fixture"]))
t.add(COMM(encoding=3, lang="eng", desc="Fixture note", text=["\u00dcn\u00efc\u00f6d\u00e9 note"]))
t.add(USLT(encoding=3, lang="eng", desc="", text="First lyric line\nSecond lyric line"))
t.add(TXXX(encoding=0, desc="MusicBrainz Album Id", text=["8f3b2a5e-0000-4000-8000-000000000002"]))
t.add(TXXX(encoding=0, desc="CATALOGNUMBER", text=["FIX-0001"]))
t.add(UFID(owner="http://musicbrainz.org", data=b"8f3b2a5e-0000-4000-8000-000000000001"))
t.add(POPM(email="fixture@example.org", rating=196, count=7))
t.add(PCNT(count=42))
t.add(PRIV(owner="org.example.fixtures", data=b"\x00\x01\x02\x03private"))
t.add(WXXX(encoding=0, desc="Fixture homepage", url="https://example.org/fixture"))
t.add(WOAR(url="https://example.org/artist"))
t.add(GEOB(encoding=0, mime="text/plain", filename="note.txt", desc="Fixture object",
           data=b"hello, encapsulated object\n"))
t.add(APIC(encoding=0, mime="image/jpeg", type=3, desc="Front", data=jpg))
t.add(APIC(encoding=0, mime="image/png", type=4, desc="Back", data=png))
t.add(RVA2(desc="track", channel=1, gain=-2.5, peak=0.5))
t.add(CHAP(element_id="chp0", start_time=0, end_time=250, start_offset=0xFFFFFFFF,
           end_offset=0xFFFFFFFF, sub_frames=[TIT2(encoding=3, text=["Chapter 1"])]))
t.add(CHAP(element_id="chp1", start_time=250, end_time=500, start_offset=0xFFFFFFFF,
           end_offset=0xFFFFFFFF, sub_frames=[TIT2(encoding=3, text=["Chapter 2"])]))
t.add(CTOC(element_id="toc", flags=CTOCFlags.TOP_LEVEL | CTOCFlags.ORDERED,
           child_element_ids=["chp0", "chp1"], sub_frames=[TIT2(encoding=3, text=["Contents"])]))
t.save(path, v2_version=4, v1=0, padding=lambda info: 64)
EOF
python3 "$PATCH" append-id3v1 "$OUT/id3v24-full.mp3" "Fixture Title" "Fixture Artist" "Fixture Album" \
  2021 "Generated test fixture" 52 3

# 13b. ID3v2.3, all text UTF-16, date split over TYER/TDAT/TIME, "(13)Pop".
cp "$TMP/plain-vbr.mp3" "$OUT/id3v23-utf16.mp3"
"$PYTHON" - "$OUT/id3v23-utf16.mp3" "$TMP/cover.jpg" <<'EOF'
import sys
from mutagen.id3 import ID3, APIC, COMM, TALB, TCON, TDRC, TIT2, TPE1, TRCK, TXXX
path, jpg = sys.argv[1], open(sys.argv[2], "rb").read()
t = ID3()
t.add(TIT2(encoding=1, text=["UTF-16 T\u00edtle \u266b"]))
t.add(TPE1(encoding=1, text=["Artist One", "Artist Two"]))   # v2.3: saved as "Artist One/Artist Two"
t.add(TALB(encoding=1, text=["UTF-16 Album"]))
t.add(TDRC(encoding=1, text=["2019-03-07T14:30"]))          # -> TYER 2019, TDAT 0703, TIME 1430
t.add(TRCK(encoding=1, text=["5/10"]))
t.add(COMM(encoding=1, lang="eng", desc="", text=["UTF-16 comment"]))
t.add(TXXX(encoding=1, desc="Fixture Key", text=["Fixture Value"]))
t.add(APIC(encoding=1, mime="image/jpeg", type=3, desc="Cover \u00e9", data=jpg))
t.update_to_v23()
t.add(TCON(encoding=1, text=["(13)Pop"]))  # after update_to_v23, which would rewrite it to "Pop"
t.save(path, v2_version=3, v23_sep="/", v1=0, padding=lambda info: 1024)
EOF

# 13c. ID3v2.2 (hand-made).
python3 "$PATCH" id3v22 "$TMP/plain22.mp3" "$TMP/cover.jpg" "$OUT/id3v22.mp3"

# 13d. ID3v2.3 with the whole tag body unsynchronised (mutagen tag, patched).
cp "$TMP/plain.mp3" "$TMP/unsync.mp3"
"$PYTHON" - "$TMP/unsync.mp3" "$TMP/cover.jpg" <<'EOF'
import sys
from mutagen.id3 import ID3, APIC, PRIV, TIT2, TPE1
path, jpg = sys.argv[1], open(sys.argv[2], "rb").read()
t = ID3()
t.add(TIT2(encoding=0, text=["Unsynchronised Title"]))
t.add(TPE1(encoding=0, text=["Unsynchronised Artist"]))
t.add(PRIV(owner="org.example.sync", data=b"\xff\xfb\x90\x64\xff\x00\xff\xe0\xff"))
t.add(APIC(encoding=0, mime="image/jpeg", type=3, desc="", data=jpg))
t.save(path, v2_version=3, v1=0, padding=lambda info: 16)
EOF
python3 "$PATCH" id3-unsync "$TMP/unsync.mp3" "$OUT/id3v23-unsynchronised.mp3"

# 13e. Hand-made layouts (fixture_patch.py, standard library): per-frame flags,
# non-syncsafe frame sizes, a tag appended with footer, APEv2 + Lyrics3v2,
# two leading tags + junk, HLS timestamp PRIV, no tags, ID3v1.0.
python3 "$PATCH" id3-frame-flags "$TMP/plain.mp3" "$TMP/cover.jpg" "$OUT/id3v24-frame-unsync-compressed.mp3"
python3 "$PATCH" id3-nonsyncsafe "$TMP/plain.mp3" "$OUT/id3v24-nonsyncsafe-sizes.mp3"
python3 "$PATCH" id3-appended "$TMP/plain.mp3" "$OUT/id3v2-appended-footer.mp3"
python3 "$PATCH" ape-lyrics3 "$TMP/plain.mp3" "$TMP/cover.png" "$OUT/ape-lyrics3-id3v1.mp3"
python3 "$PATCH" two-tags "$TMP/plain.mp3" "$OUT/two-leading-tags-junk.mp3"
python3 "$PATCH" hls-timestamp "$TMP/plain.aac" "$OUT/hls-timestamp.aac" 8589934000
cp "$TMP/plain.mp3" "$OUT/no-tags.mp3"
# A transport stream with a timed ID3 stream (the benchmark's generator, 20 KiB, an event
# every 4 PES packets; standard library only).
python3 "$(dirname "$0")/bench/make_ts.py" "$OUT/timed-id3.ts" 20K 4
python3 "$PATCH" id3v1-only "$TMP/plain.mp3" "$OUT/id3v1-only.mp3"

# 13f. AIFF with an 'ID3 ' chunk (mutagen.aiff).
"${FF[@]}" -f lavfi -i "$(sine 440 8000 0.25)" "${BX[@]}" -c:a pcm_s16be -ac 1 -f aiff "$OUT/aiff-id3.aiff"
"$PYTHON" - "$OUT/aiff-id3.aiff" "$TMP/cover.png" <<'EOF'
import sys
from mutagen.aiff import AIFF
from mutagen.id3 import APIC, COMM, TALB, TIT2, TPE1
f = AIFF(sys.argv[1])
f.add_tags()
f.tags.add(TIT2(encoding=3, text=["AIFF Title"]))
f.tags.add(TPE1(encoding=3, text=["AIFF Artist"]))
f.tags.add(TALB(encoding=3, text=["AIFF Album"]))
f.tags.add(COMM(encoding=3, lang="eng", desc="", text=["AIFF comment"]))
f.tags.add(APIC(encoding=0, mime="image/png", type=3, desc="", data=open(sys.argv[2], "rb").read()))
f.save(v2_version=4, padding=lambda info: 16)
EOF

# 13g. WAV with LIST/INFO (ffmpeg) and an 'id3 ' chunk (mutagen.wave).
"${FF[@]}" -f lavfi -i "$(sine 440 8000 0.25)" "${BX[@]}" -c:a pcm_s16le -ac 1 \
  -metadata title="WAV INFO Title" -metadata artist="WAV INFO Artist" -metadata album="WAV INFO Album" \
  -metadata comment="WAV INFO comment" -metadata date=2021 -metadata genre=Ambient -metadata ITRK=7 \
  -f wav "$OUT/wav-id3-info.wav"
"$PYTHON" - "$OUT/wav-id3-info.wav" <<'EOF'
import sys
from mutagen.wave import WAVE
from mutagen.id3 import TALB, TIT2, TPE1
f = WAVE(sys.argv[1])
f.add_tags()
f.tags.add(TIT2(encoding=3, text=["WAV ID3 Title"]))
f.tags.add(TPE1(encoding=3, text=["WAV ID3 Artist"]))
f.tags.add(TALB(encoding=3, text=["WAV ID3 Album"]))
f.save(v2_version=4, padding=lambda info: 16)
EOF

# 13h. FLAC: Vorbis comment (number and total as two fields, `ALBUM ARTIST` spelled with a
# space, CHAPTERnnn chapters, a custom field), a PICTURE block (ffmpeg attached picture) and
# ffmpeg's 8192-byte padding; then a stream behind an ID3v2 tag (mutagen), as some taggers
# leave it.
"${FF[@]}" -f lavfi -i "$(sine 523 8000 1)" -i "$TMP/cover.png" \
  "${BX[@]}" -map 0:a -map 1:v -c:a flac -ac 1 -c:v png -disposition:v attached_pic -metadata:s:v comment="Cover (front)" \
  -metadata title="FLAC Title" -metadata artist="FLAC Artist" -metadata album="FLAC Album" \
  -metadata "ALBUM ARTIST=FLAC Album Artist" -metadata date=2022-05-06 -metadata genre=Chamber \
  -metadata TRACKNUMBER=3 -metadata TRACKTOTAL=12 -metadata DISCNUMBER=1 -metadata DISCTOTAL=2 \
  -metadata CHAPTER001=00:00:00.000 -metadata CHAPTER001NAME="Opening" \
  -metadata CHAPTER002=00:00:00.500 -metadata CHAPTER002NAME="Second half" \
  -metadata "FIXTURE NOTE=kept as written" -f flac "$OUT/flac-tags-picture.flac"
"${FF[@]}" -f lavfi -i "$(sine 660 8000 0.5)" "${BX[@]}" -c:a flac -ac 1 -metadata title="Vorbis Title" \
  -f flac "$OUT/flac-id3-leading.flac"
"$PYTHON" - "$OUT/flac-id3-leading.flac" <<'EOF'
import sys
from mutagen.id3 import ID3, TIT2, TPE1
tag = ID3()
tag.add(TIT2(encoding=3, text=["ID3 Title before fLaC"]))
tag.add(TPE1(encoding=3, text=["ID3 Artist"]))
tag.save(sys.argv[1], v2_version=4, padding=lambda info: 0)
EOF

# 13i. Ogg: Vorbis (libvorbis) with number and total fields, `ALBUM ARTIST`, CHAPTERnnn chapters
# and a METADATA_BLOCK_PICTURE field (mutagen, no padding); Opus (opusenc, fixed serial, its
# zero padding after the comment and a picture); FLAC in Ogg and Speex (ffmpeg).
"${FF[@]}" -f lavfi -i "$(sine 440 8000 1)" "${BX[@]}" -c:a libvorbis -ac 1 -q:a 0 \
  -metadata title="Vorbis Title" -metadata artist="Vorbis Artist" -metadata album="Vorbis Album" \
  -metadata "ALBUM ARTIST=Vorbis Album Artist" -metadata date=2021-03-04 -metadata TRACKNUMBER=2 -metadata TRACKTOTAL=10 \
  -metadata CHAPTER001=00:00:00.000 -metadata CHAPTER001NAME="Start" \
  -metadata CHAPTER002=00:00:00.600 -metadata CHAPTER002NAME="End" \
  -metadata "FIXTURE NOTE=kept as written" -f ogg "$OUT/ogg-vorbis-tags.ogg"
"$PYTHON" - "$OUT/ogg-vorbis-tags.ogg" "$TMP/cover.png" <<'EOF'
import base64, sys
from mutagen.oggvorbis import OggVorbis
from mutagen.flac import Picture
f = OggVorbis(sys.argv[1])
pic = Picture()
pic.type, pic.mime, pic.desc, pic.width, pic.height, pic.depth = 3, "image/png", "Cover (front)", 16, 16, 24
pic.data = open(sys.argv[2], "rb").read()
f["METADATA_BLOCK_PICTURE"] = [base64.b64encode(pic.write()).decode("ascii")]
f.save(padding=lambda info: 0)
EOF
"${FF[@]}" -f lavfi -i "$(sine 330 48000 1)" "${BX[@]}" -ac 1 -f wav "$TMP/opus-in.wav"
opusenc --quiet --serial 1234 --bitrate 12 --title "Opus Title" --artist "Opus Artist" --album "Opus Album" \
  --comment TRACKNUMBER=5 --comment R128_TRACK_GAIN=-512 --picture "3||Cover (front)||$TMP/cover.png" \
  "$TMP/opus-in.wav" "$OUT/opus-tags-picture.opus"
"${FF[@]}" -f lavfi -i "$(sine 587 8000 0.5)" "${BX[@]}" -c:a flac -ac 1 -metadata title="Ogg FLAC Title" \
  -metadata artist="Ogg FLAC Artist" -f ogg "$OUT/ogg-flac.oga"
"${FF[@]}" -f lavfi -i "$(sine 494 8000 0.5)" "${BX[@]}" -c:a libspeex -ac 1 -metadata title="Speex Title" \
  -metadata artist="Speex Artist" -f ogg "$OUT/speex.spx"

# 13j. AIFF with only its own text chunks (no ID3 chunk): NAME, AUTH, (c) , ANNO, as ffmpeg's
# AIFF muxer writes them from -metadata.
"${FF[@]}" -f lavfi -i "$(sine 440 8000 0.25)" "${BX[@]}" -metadata title="AIFF Name" -metadata author="AIFF Author" \
  -metadata copyright="(C) 2026 Fixture" -metadata comment="An annotation" -write_id3v2 0 -f aiff "$OUT/aiff-text-chunks.aiff"

# ---------------------------------------------------------------- checks
fail=0
check_decode() { # ffprobe + full decode must print nothing at -v error (but lines matching $2)
  local f="$1" err
  err="$(ffprobe -v error -show_format -show_streams "$f" 2>&1 >/dev/null || echo "ffprobe failed")"
  err+="$(ffmpeg -nostdin -v error -i "$f" -map 0:v? -map 0:a? -f null - 2>&1 || echo "ffmpeg failed")"
  [ -z "${2:-}" ] || err="$(printf '%s\n' "$err" | grep -Ev "$2" || true)"
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
# MP3 / AAC / AIFF / WAV: decode, an independent read with mutagen, and the
# tag layout as fixture_patch.py's own reader (`tags`) sees it.
for f in "$OUT"/*.mp3 "$OUT"/*.aac "$OUT"/*.aiff "$OUT"/*.wav; do
  case "$f" in
    # ffmpeg 5.1 does not know appended ID3v2 tags: it hands the tag bytes to the
    # decoder as one more (broken) frame after all the audio decoded fine.
    */id3v2-appended-footer.mp3) check_decode "$f" \
      'Header missing|Error while decoding stream #0:0: Invalid data found when processing input' ;;
    *) check_decode "$f" ;;
  esac
  t="$(python3 "$PATCH" tags "$f")"
  [[ "$t" != *'!!'* ]] || { echo "tags: $t" >&2; fail=1; }
done
tags_has() { # tags_has FILE STRING...: `fixture_patch.py tags FILE` prints every STRING
  local f="$OUT/$1" t s
  shift
  t="$(python3 "$PATCH" tags "$f")"
  for s in "$@"; do
    [[ "$t" == *"$s"* ]] || { echo "$f: no \"$s\" in the tags output" >&2; fail=1; }
  done
}
tags_has id3v24-full.mp3 'ID3v2.4.0 [' 'Info@' 'LAME-tag@' "CTOC [" 'padding 64 bytes' 'ID3v1.1 [128'
tags_has id3v23-utf16.mp3 'ID3v2.3.0 [' "TYER [" "TDAT [" "TIME [" "enc=1 '(13)Pop'" 'padding 1024 bytes' 'Xing@'
tags_has id3v22.mp3 'ID3v2.2.0 [' 'PIC [6+' "format='JPG'" 'MPEG-2 Layer III 22050 Hz'
tags_has id3v23-unsynchronised.mp3 'flags=0x80 unsynchronisation' 'tag body unsynchronised'
tags_has id3v24-frame-unsync-compressed.mp3 'flags=0x0003 (data-length=' 'flags=0x0009 (data-length=' \
  'flags=0x0002 (unsync' 'flags=0x1000'
tags_has id3v24-nonsyncsafe-sizes.mp3 '(frame sizes are plain 32-bit numbers' 'TXXX [10+200 ' 'COMM [10+300 '
tags_has id3v2-appended-footer.mp3 ' @0] first frame' "+10 footer @" "footer '3DI'" 'ID3v1.1 [128'
tags_has ape-lyrics3-id3v1.mp3 'ID3v2.3.0 [' 'APEv2 [' 'items=10 header=yes' 'Lyrics3v2 [' 'ID3v1.1 [128'
tags_has two-leading-tags-junk.mp3 'ID3v2.4.0 [10+53 @0]' 'ID3v2.3.0 [10+62 @63]' 'junk [7 @135]'
tags_has hls-timestamp.aac 'ID3v2.4.0 [10+63 @0]' '33-bit PTS 8589934000' 'ADTS AAC'
tags_has id3v1-only.mp3 ' @0] first frame' 'ID3v1.0 [128'
tags_has no-tags.mp3 ' @0] first frame'
[[ "$(python3 "$PATCH" tags "$OUT/no-tags.mp3")" != *ID3* ]] || { echo "no-tags.mp3 has a tag" >&2; fail=1; }
tags_has aiff-id3.aiff 'ID3  [8+' 'ID3v2.4.0 ['
tags_has wav-id3-info.wav "list-type='INFO'" 'ITRK [' 'id3  [8+' 'ID3v2.4.0 ['
"$PYTHON" - "$OUT" "$TMP/image.jpg" "$TMP/cover.jpg" "$TMP/cover.png" <<'EOF' || fail=1
import os, struct, sys
from mutagen.aac import AAC
from mutagen.aiff import AIFF
from mutagen.apev2 import APEv2
from mutagen.id3 import ID3, ID3NoHeaderError
from mutagen.mp3 import MP3
from mutagen.wave import WAVE
d = sys.argv[1]
jpg, cover, png = (open(p, "rb").read() for p in sys.argv[2:5])
bad = []
def want(what, got, exp):  # (a missing frame raises KeyError: also a failure)
    if got != exp:
        bad.append("%s: got %r, want %r" % (what, got, exp))
def text(tags, key):
    return [str(v) for v in tags[key].text] if key in tags else None
def load(name, **kw):
    return ID3(os.path.join(d, name), **kw)

t = load("id3v24-full.mp3")
want("full version", t.version, (2, 4, 0))
for key, exp in [("TIT2", ["Fixture Title \u266a"]), ("TPE1", ["Fixture Artist"]),
                 ("TALB", ["Fixture \u00c4lbum \u2713"]), ("TPE2", ["Fixture Album Artist"]),
                 ("TCOM", ["Composer One", "Composer Two"]), ("TRCK", ["3/12"]), ("TPOS", ["1/2"]),
                 ("TDRC", ["2021-06-01"]), ("TCON", ["Electronic"]), ("TBPM", ["120"]), ("TCMP", ["1"]),
                 ("COMM::eng", ["Generated test fixture"]),
                 ("COMM:Fixture note:eng", ["\u00dcn\u00efc\u00f6d\u00e9 note"]),
                 ("TXXX:MusicBrainz Album Id", ["8f3b2a5e-0000-4000-8000-000000000002"]),
                 ("TXXX:CATALOGNUMBER", ["FIX-0001"])]:
    want("full " + key, text(t, key), exp)
want("full encodings", [t[k].encoding for k in ("TIT2", "TPE1", "TALB", "TPE2")], [1, 0, 3, 2])
want("full USLT", t["USLT::eng"].text, "First lyric line\nSecond lyric line")
want("full UFID", t["UFID:http://musicbrainz.org"].data, b"8f3b2a5e-0000-4000-8000-000000000001")
want("full POPM", (t["POPM:fixture@example.org"].rating, t["POPM:fixture@example.org"].count), (196, 7))
want("full PCNT", t["PCNT"].count, 42)
want("full PRIV", t["PRIV:org.example.fixtures:\x00\x01\x02\x03private"].data, b"\x00\x01\x02\x03private")
want("full WXXX", t["WXXX:Fixture homepage"].url, "https://example.org/fixture")
want("full WOAR", t["WOAR:https://example.org/artist"].url, "https://example.org/artist")
want("full GEOB", t["GEOB:Fixture object"].data, b"hello, encapsulated object\n")
want("full APIC front", (t["APIC:Front"].type, t["APIC:Front"].mime, t["APIC:Front"].data), (3, "image/jpeg", jpg))
want("full APIC back", (t["APIC:Back"].type, t["APIC:Back"].mime, t["APIC:Back"].data), (4, "image/png", png))
want("full RVA2", (t["RVA2:track"].channel, t["RVA2:track"].gain, round(t["RVA2:track"].peak, 6)), (1, -2.5, 0.5))
want("full CHAP", [(c.element_id, c.start_time, c.end_time, str(c.sub_frames["TIT2"]))
                   for c in t.getall("CHAP")], [("chp0", 0, 250, "Chapter 1"), ("chp1", 250, 500, "Chapter 2")])
toc = t["CTOC:toc"]
want("full CTOC", (int(toc.flags), toc.child_element_ids, str(toc.sub_frames["TIT2"])), (3, ["chp0", "chp1"], "Contents"))
want("full info", (MP3(os.path.join(d, "id3v24-full.mp3")).info.sample_rate), 44100)

t = load("id3v23-utf16.mp3", translate=False)
want("v23 version", t.version, (2, 3, 0))
for key, exp in [("TIT2", ["UTF-16 T\u00edtle \u266b"]), ("TPE1", ["Artist One/Artist Two"]),
                 ("TALB", ["UTF-16 Album"]), ("TYER", ["2019"]), ("TDAT", ["0703"]), ("TIME", ["1430"]),
                 ("TCON", ["(13)Pop"]), ("TRCK", ["5/10"]), ("COMM::eng", ["UTF-16 comment"]),
                 ("TXXX:Fixture Key", ["Fixture Value"])]:
    want("v23 " + key, text(t, key), exp)
want("v23 all UTF-16", sorted(set(f.encoding for f in t.values())), [1])
want("v23 APIC", t["APIC:Cover \u00e9"].data, cover)
want("v23 TDRC (translated)", text(load("id3v23-utf16.mp3"), "TDRC"), ["2019-03-07 14:30:00"])

# (mutagen names v2.2 frames by their v2.3 IDs: TT2 -> TIT2, PIC -> APIC, ...)
t = load("id3v22.mp3", translate=False)
want("v22 version", t.version, (2, 2, 0))
for key, exp in [("TIT2", ["v2.2 T\u00edtle"]), ("TPE1", ["v2.2 Artist"]), ("TALB", ["v2.2 Album"]),
                 ("TYER", ["2018"]), ("TRCK", ["7/9"]), ("TCON", ["(17)"]), ("COMM::eng", ["v2.2 comment"]),
                 ("TXXX:v2.2 key", ["v2.2 value"])]:
    want("v22 " + key, text(t, key), exp)
want("v22 PIC", (t["APIC:Cover"].mime, t["APIC:Cover"].type, t["APIC:Cover"].data), ("JPG", 3, cover))
want("v22 TIT2 encoding", t["TIT2"].encoding, 1)

t = load("id3v23-unsynchronised.mp3")
want("unsync flag", (t.version, t.f_unsynch), ((2, 3, 0), True))
want("unsync PRIV", t.getall("PRIV")[0].data, b"\xff\xfb\x90\x64\xff\x00\xff\xe0\xff")
want("unsync APIC", t.getall("APIC")[0].data, cover)
want("unsync TIT2", text(t, "TIT2"), ["Unsynchronised Title"])

t = load("id3v24-frame-unsync-compressed.mp3")
want("frame flags APIC", t.getall("APIC")[0].data, cover)
want("frame flags USLT", t["USLT::eng"].text.splitlines()[19], "Line 20: la la la, the same words again and again.")
want("frame flags PRIV", t.getall("PRIV")[0].data, b"\xff\xe0\xff\x00\xff\xfb\x90\x64\xff")
want("frame flags TXXX", text(t, "TXXX:ReadOnlyKey"), ["read-only value"])

t = load("id3v24-nonsyncsafe-sizes.mp3")
want("nonsyncsafe", (text(t, "TXXX:Long Value"), text(t, "COMM:Long:eng"), text(t, "TPE1"), text(t, "TALB")),
     (["x" * 188], ["y" * 291], ["Non-syncsafe Artist"], ["Non-syncsafe Album"]))

want("two tags (mutagen reads the first)", text(load("two-leading-tags-junk.mp3"), "TIT2"), ["First Tag Title"])

a = APEv2(os.path.join(d, "ape-lyrics3-id3v1.mp3"))
want("APE keys", sorted(a.keys()), sorted(["Title", "Artist", "Album", "Year", "Track", "Genre", "Comment",
                                           "Catalog", "Related", "Cover Art (Front)"]))
want("APE Artist", list(a["Artist"]), ["APE Artist One", "APE Artist Two"])
want("APE cover", a["Cover Art (Front)"].value, b"cover.png\0" + png)
want("APE leading v2.3", text(load("ape-lyrics3-id3v1.mp3"), "TIT2"), ["Leading ID3v2.3 Title"])

t = load("hls-timestamp.aac")
want("HLS PRIV", [(p.owner, p.data) for p in t.getall("PRIV")],
     [("com.apple.streaming.transportStreamTimestamp", struct.pack(">Q", 8589934000))])
want("HLS ADTS", AAC(os.path.join(d, "hls-timestamp.aac")).info.sample_rate, 22050)

t = AIFF(os.path.join(d, "aiff-id3.aiff")).tags
want("AIFF", (text(t, "TIT2"), text(t, "TPE1"), text(t, "TALB"), text(t, "COMM::eng"), t.getall("APIC")[0].data),
     (["AIFF Title"], ["AIFF Artist"], ["AIFF Album"], ["AIFF comment"], png))
t = WAVE(os.path.join(d, "wav-id3-info.wav")).tags
want("WAV", (text(t, "TIT2"), text(t, "TPE1"), text(t, "TALB")),
     (["WAV ID3 Title"], ["WAV ID3 Artist"], ["WAV ID3 Album"]))

for name in ("no-tags.mp3", "id3v1-only.mp3", "id3v2-appended-footer.mp3"):
    try:
        ID3(os.path.join(d, name), load_v1=False)
        bad.append(name + ": has a leading ID3v2 tag")
    except ID3NoHeaderError:
        pass
# mutagen reads ID3v1 (it takes byte 126 as a track number even for v1.0)
want("ID3v1.0", text(load("id3v1-only.mp3"), "TIT2"), ["ID3v1.0 Title"])
if bad:
    print("mutagen checks failed:\n  " + "\n  ".join(bad), file=sys.stderr)
    sys.exit(1)
EOF
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
- Debian packages: ffmpeg $(pkgver ffmpeg), libx264 $(pkgver 'libx264-*'), libx265 $(pkgver 'libx265-*'), libheif1 $(pkgver libheif1), python3-mutagen $(pkgver python3-mutagen), libmp3lame0 $(pkgver libmp3lame0)

Inspect any file with \`python3 Tools/fixture_patch.py tree FILE\` (box tree with
decoded fields); \`python3 Tools/fixture_patch.py verify FILE\` checks that all
stco/co64 chunk offsets land inside an mdat. \`box-walk.txt\` is that walker's
tree of every ISO-BMFF / QuickTime / HEIF fixture (not of the MP3, AAC, AIFF and
WAV files); the Swift tests check that the parser finds every box it lists at
the same offset with the same header and total size.

\`python3 Tools/fixture_patch.py tags FILE\` is an independent reader for the
MP3 / AAC / AIFF / WAV fixtures: it prints every ID3v2 tag (version, flags, and
its frames with \`[header+payload @offset]\`, frame flags and decoded values),
junk before the audio, the first audio frame (with its Xing/Info and LAME
headers), an appended ID3v2 tag, APEv2, Lyrics3v2 and ID3v1, or the chunk tree
of an AIFF/WAV file. Its output for those files is at the end of this README.

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
row flac-tags-picture.flac \
  'ffmpeg `-c:a flac` with an attached PNG picture and `-metadata` fields' \
  'FLAC: STREAMINFO, VORBIS_COMMENT (`TRACKNUMBER`+`TRACKTOTAL` and `DISCNUMBER`+`DISCTOTAL` as separate fields, `ALBUM ARTIST` with a space, `CHAPTER001`/`CHAPTER001NAME` chapters, a custom `FIXTURE NOTE`), PICTURE (front cover, image/png 16×16), PADDING 8192'
row flac-id3-leading.flac \
  'ffmpeg `-c:a flac`, then mutagen `ID3.save` puts an ID3v2.4 tag (TIT2, TPE1, no padding) before `fLaC`' \
  'an ID3v2 tag before the FLAC marker (not part of FLAC; some taggers write it): detected as FLAC, kept by edits, removed by `clear`'
row ogg-vorbis-tags.ogg \
  'ffmpeg `-c:a libvorbis -f ogg` with `-metadata` fields, then mutagen adds a `METADATA_BLOCK_PICTURE` field (no padding)' \
  'Ogg Vorbis: identification, comment and setup headers; `TRACKNUMBER`+`TRACKTOTAL` as separate fields, `ALBUM ARTIST` with a space, `CHAPTER001`/`CHAPTER001NAME` chapters, a custom `FIXTURE NOTE`, a Base64 FLAC picture (front cover, image/png 16×16); no padding after the comment, so any growing edit is a rewrite'
row opus-tags-picture.opus \
  '`opusenc --serial 1234 --bitrate 12` with `--title`/`--artist`/`--album`/`--comment`/`--picture`' \
  'Opus: `OpusHead` (mono, pre-skip 312, 48 kHz), `OpusTags` with `TRACKNUMBER`, `R128_TRACK_GAIN`, `ENCODER_OPTIONS`, a `METADATA_BLOCK_PICTURE` (front cover) and opusenc'"'"'s zero padding after the comment (688 bytes), so a small edit is written in place'
row ogg-flac.oga \
  'ffmpeg `-c:a flac -f ogg`' \
  'FLAC in Ogg: the `0x7F FLAC` mapping header with STREAMINFO, then the VORBIS_COMMENT block as the second packet (title, artist, encoder)'
row speex.spx \
  'ffmpeg `-c:a libspeex -f ogg`' \
  'Speex: the 80-byte `Speex   ` header (8 kHz, mono, narrowband), the comment packet (no framing bit), then audio'
row aiff-text-chunks.aiff \
  'ffmpeg `-f aiff -write_id3v2 0` with `-metadata title/author/copyright/comment`' \
  'AIFF with no ID3 chunk, only its own text chunks before `COMM`: `NAME` "AIFF Name", `AUTH` "AIFF Author", `(c) ` "(C) 2026 Fixture", `ANNO` "An annotation" (ffmpeg counts the terminating NUL in NAME, AUTH and ANNO, not in `(c) `)'
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
row id3v24-full.mp3 \
  'ffmpeg libmp3lame 44.1 kHz mono 32 kb/s CBR 0.5 s (`-write_xing 1`, no tags), then mutagen `ID3.save(v2_version=4, v1=0, padding=64)`, then `fixture_patch.py append-id3v1`' \
  'ID3v2.4.0 at 0, no flags, 64 bytes padding, frames in mutagen order: `TIT2` UTF-16+BOM "Fixture Title ♪", `TPE1` "Fixture Artist", `TRCK` 3/12, `TALB` **UTF-8** "Fixture Älbum ✓", `TPOS` 1/2, `TDRC` 2021-06-01, `TCON` Electronic, `TCMP` 1, `PCNT` 42, `TBPM` 120, `TDOR` 2020, `TMOO` Calm, `RVA2` "track" master (channel 1) −2.5 dB peak 16 bits 16384 (0.5), `TSOP`, `TXXX` CATALOGNUMBER=FIX-0001, `POPM` fixture@example.org rating 196 count 7, `TCOM` **two values** "Composer One"\0"Composer Two", `TIPL` producer/Fixture Producer, `WOAR`, `COMM` eng "" Latin-1, `PRIV` org.example.fixtures (00 01 02 03 "private"), `COMM` eng "Fixture note" UTF-8 "Ünïcödé note", `CTOC` "toc" flags 0x03 (top-level+ordered) children chp0, chp1 + embedded `TIT2` "Contents", `USLT` eng "" UTF-8 two lines, `CHAP` chp0 0–250 ms and chp1 250–500 ms (offsets 0xFFFFFFFF) each with embedded `TIT2` "Chapter 1"/"Chapter 2", `TPE2` **UTF-16BE** "Fixture Album Artist", `WXXX` "Fixture homepage", `TXXX` "MusicBrainz Album Id", `UFID` http://musicbrainz.org, `GEOB` text/plain note.txt "Fixture object", `APIC` type 4 image/png "Back" (16×16), `APIC` type 3 image/jpeg "Front" (64×64, 1.3 KB). mutagen ends every text value with a terminator (e.g. `TPE1` is 1+14+1 bytes): a reader must not report an empty extra value. v2.4-only here: `TDRC TDOR TMOO TSOP TIPL RVA2`, encodings 2 and 3 (TagLib downgrades/replaces them when writing v2.3). Audio: first frame is the 56 kb/s `Info` frame with a LAME tag (encoder string "Lavf lame"). ID3v1.1 at the end: "Fixture Title"/"Fixture Artist"/"Fixture Album"/2021/"Generated test fixture"/track 3/genre 52 (Electronic)'
row id3v23-utf16.mp3 \
  'ffmpeg libmp3lame VBR `-q:a 9`, then mutagen `update_to_v23()` + `save(v2_version=3, v23_sep="/", v1=0, padding=1024)`' \
  'ID3v2.3.0, every text frame encoding 1 (UTF-16 with BOM FF FE): `TIT2` "UTF-16 Títle ♫", `TPE1` "Artist One/Artist Two" (v2.3 has no multi-value separator; mutagen joins with "/"), `TRCK` 5/10, `TALB`, `TCON` "(13)Pop" (ID3v1 genre reference + refinement; current TagLib turns it into the single value "Pop" because genre 13 *is* Pop, older TagLib into "13", "Pop"), date split over `TYER` 2019 + `TDAT` 0703 (DDMM) + `TIME` 1430 (HHMM) = 2019-03-07T14:30 (TagLib merges them into `TDRC`), `COMM` eng "" "UTF-16 comment", `TXXX` "Fixture Key"="Fixture Value", `APIC` type 3 image/jpeg desc "Cover é" (UTF-16); 1024 bytes padding; v2.3 frame sizes are plain 32-bit. Audio is VBR, so the first frame holds a **`Xing`** header (not `Info`)'
row id3v22.mp3 \
  '`fixture_patch.py id3v22` (hand-made tag) on ffmpeg libmp3lame 22.05 kHz mono 32 kb/s' \
  'ID3v2.2.0 (3-character IDs, 3-byte sizes, no frame flags), 32 bytes padding: `TT2` UTF-16 "v2.2 Títle", `TP1` "v2.2 Artist", `TAL` "v2.2 Album", `TYE` 2018, `TRK` 7/9, `TCO` "(17)" (= Rock), `COM` eng "" "v2.2 comment", `TXX` "v2.2 key"="v2.2 value", `PIC` image format **"JPG"** (3 chars, not a MIME type) type 3 "Cover" (the 32×32 JPEG). TagLib converts v2.2 frames to v2.4 IDs on read (TT2→TIT2, PIC→APIC with image/jpeg, TYE→TDRC, COM→COMM, TXX→TXXX). Audio is **MPEG-2** Layer III (LSF, 576-sample granules)'
row id3v23-unsynchronised.mp3 \
  'mutagen v2.3 tag (padding 16), then `fixture_patch.py id3-unsync`' \
  'ID3v2.3.0 with header flag **0x80** and the whole tag body unsynchronised (a 0x00 inserted after each 0xFF followed by ≥0xE0 or 0x00): 1018 bytes of frames+padding stored as 1025 (the header size counts the stored bytes; frame sizes count the decoded bytes). Frames: `TIT2` "Unsynchronised Title", `TPE1` "Unsynchronised Artist", `PRIV` org.example.sync = FF FB 90 64 FF 00 FF E0 FF (false syncs, and a 0xFF at the end of the frame), `APIC` type 3 image/jpeg "" (the 32×32 JPEG, which has FF 00 byte stuffing)'
row id3v24-frame-unsync-compressed.mp3 \
  '`fixture_patch.py id3-frame-flags` (hand-made tag, Python `zlib`)' \
  'ID3v2.4.0 (no header flags, 64 bytes padding) with per-frame format flags: `APIC` flags **0x0003** (unsynchronisation + data length indicator: 4-byte syncsafe 911 = size before unsync, then 915 unsynchronised bytes) image/jpeg "Unsynchronised cover" (32×32 JPEG); `USLT` flags **0x0009** (zlib compression + data length indicator 1025 = decompressed size; 119 compressed bytes) eng "" 20 lines "Line NN: la la la, …"; `PRIV` flags **0x0002** (unsynchronisation without a data length indicator) org.example.unsync = FF E0 FF 00 FF FB 90 64 FF; `TXXX` status flag **0x1000** (read-only) "ReadOnlyKey"="read-only value"; plain `TIT2` "Frame Flags Title", `TPE1` "Frame Flags Artist" (UTF-8)'
row id3v24-nonsyncsafe-sizes.mp3 \
  '`fixture_patch.py id3-nonsyncsafe` (hand-made tag)' \
  'ID3v2.4.0 whose **frame** sizes are plain 32-bit big-endian numbers (old iTunes; the tag size in the header is syncsafe), 64 bytes padding: `TIT2` "Non-syncsafe Title" (19), `TXXX` "Long Value"="x"×188 (size 200 = 00 00 00 C8: not a valid syncsafe number), `COMM` eng "Long" "y"×291 (size 300 = 00 00 01 2C: a *valid* syncsafe number meaning 172, so only the next frame ID tells), `TPE1` "Non-syncsafe Artist", `TALB` "Non-syncsafe Album". TagLib: a size byte with bit 7 set makes `SynchData::toUInt` fall back to a plain integer (the `TXXX` case); a valid syncsafe size > 127 whose next frame ID is invalid is re-read as plain (its iTunes hack, unless built with NO_ITUNES_HACKS: the `COMM` case). mutagen walks the frames both ways and keeps the reading that finds more frame IDs (`determine_bpi`)'
row id3v2-appended-footer.mp3 \
  '`fixture_patch.py id3-appended` on the bare 44.1 kHz MP3' \
  'no leading tag; audio from 0; then an ID3v2.4.0 tag with header flag **0x10** (footer present, no padding): `TIT2` "Appended Title", `TPE1` "Appended Artist", `TALB` "Appended Album" (UTF-8), `TRCK` 9/10, `COMM` eng "" "tag appended after the audio"; its 10-byte footer `3DI` (same version/flags/size as the header) ends right before an ID3v1.1 tag ("ID3v1 Title"/"ID3v1 Artist"/"ID3v1 Album"/2020/"v1 after appended v2"/track 9/genre 12). Found by reading the footer backwards from the ID3v1 tag. TagLib and mutagen only read ID3v2 at offset 0 (they see the ID3v1 tag only); ffmpeg 5.1 decodes the appended tag as a broken frame ("Header missing"), which the decode check allows for this file only'
row ape-lyrics3-id3v1.mp3 \
  '`fixture_patch.py ape-lyrics3` (hand-made tags)' \
  'leading ID3v2.3.0 (`TIT2` "Leading ID3v2.3 Title", `TPE1`, `TALB`, 16 bytes padding); audio; then **APEv2** (version 2000, 32-byte `APETAGEX` header flags 0xA0000000 and footer flags 0x80000000, little-endian size = items + footer, 10 items: `Title` "APE Title", `Artist` "APE Artist One"\0"APE Artist Two", `Album`, `Year` 2022, `Track` 4/10, `Genre` Ambient, `Comment` UTF-8 "APE comment Ünïcödé", `Catalog` read-only (item flags 1), `Related` external locator (flags 4) https://example.org/related, `Cover Art (Front)` binary (flags 2) "cover.png\0"+PNG); then **Lyrics3v2** (`LYRICSBEGIN`, `IND`00002 "10", `LYR`00005 "hello", `ETT` "Lyrics3 Title", `EAR` "Lyrics3 Artist", size field 000077 = bytes from `LYRICSBEGIN` up to the size field, `LYRICS200`); then ID3v1.1 ("ID3v1 Title", track 4, genre 26). The APE footer is *not* directly before the ID3v1 tag: TagLib does not find the APE tag here (it only looks right before ID3v1); mutagen does'
row two-leading-tags-junk.mp3 \
  '`fixture_patch.py two-tags`' \
  'ID3v2.4.0 at 0 (`TIT2` "First Tag Title", `TPE1` "First Tag Artist", UTF-8, no padding, 63 bytes) immediately followed by ID3v2.3.0 at 63 (`TIT2` "Second Tag Title", `TALB` "Second Tag Album", 8 bytes padding, 72 bytes), then 7 junk bytes "junk" 00 01 02 at 135, first MPEG frame at 142. mutagen and TagLib read only the first tag; ffmpeg reads both'
row hls-timestamp.aac \
  'ffmpeg native AAC-LC 22.05 kHz mono 24 kb/s `-f adts` 0.5 s, then `fixture_patch.py hls-timestamp`' \
  'HLS packed-audio layout: ID3v2.4.0 at 0 (73 bytes, no padding) with one `PRIV` frame, owner `com.apple.streaming.transportStreamTimestamp`, data 8 bytes big-endian 00 00 00 01 FF FF FD B0 = 8589934000 (33-bit MPEG-2 90 kHz PTS above 2^32 = 95443.711111 s); ADTS frames from 73 (no CRC). mutagen.File guesses MP3 for it (use `mutagen.aac.AAC` / `ID3`)'
row aiff-id3.aiff \
  'ffmpeg `pcm_s16be` 8 kHz mono 0.25 s `-f aiff`, then mutagen.aiff (`padding=16`)' \
  '`FORM`/`AIFF` with `COMM`, `SSND`, then an **`ID3 `** chunk (odd size 333 + 1 pad byte; FORM size includes the pad) holding ID3v2.4.0: `TIT2` "AIFF Title", `TPE1` "AIFF Artist", `TALB` "AIFF Album", `COMM` eng "" "AIFF comment" (UTF-8), `APIC` type 3 image/png (16×16)'
row wav-id3-info.wav \
  'ffmpeg `pcm_s16le` 8 kHz mono 0.25 s `-f wav -metadata title/artist/album/comment/date/genre/ITRK`, then mutagen.wave (`padding=16`)' \
  '`RIFF`/`WAVE`: `fmt `, **`LIST`/`INFO`** before `data` with `IART` "WAV INFO Artist", `ICMT` "WAV INFO comment", `ICRD` 2021, `IGNR` Ambient, `INAM` "WAV INFO Title", `IPRD` "WAV INFO Album", `ITRK` 7 (NUL-terminated values; odd sizes followed by a pad byte), then `data` (4000 bytes), then a lower-case **`id3 `** chunk (mutagen writes `id3 `; others write `ID3 `) with ID3v2.4.0 `TIT2` "WAV ID3 Title", `TPE1` "WAV ID3 Artist", `TALB` "WAV ID3 Album" — values differ from INFO so a test can tell which one it read'
row no-tags.mp3 \
  'ffmpeg libmp3lame 44.1 kHz mono 32 kb/s `-write_xing 1 -id3v2_version 0 -write_id3v1 0`' \
  'no tag at all: first MPEG-1 Layer III frame at 0 is the 56 kb/s `Info` frame (Xing flags 0xF: frames, bytes, TOC, quality; LAME tag "Lavf lame"), then 32 kb/s frames. The bare audio every other MP3 fixture here is built from (except `id3v22.mp3` and `id3v23-utf16.mp3`)'
row id3v1-only.mp3 \
  '`fixture_patch.py id3v1-only` on `no-tags.mp3`' \
  'audio + **ID3v1.0** (not 1.1): 30-byte comment "Thirty character v1.0 comment." (byte 125 is "t", so there is no track byte), title "ID3v1.0 Title" padded with **spaces**, artist/album padded with NULs, year 1999, genre 17 (Rock). TagLib reads v1.0 correctly; mutagen always takes byte 126 as a track (it reports track 46)'
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
- `export-v1/` holds the version 1 export documents of six fixtures, as
  `tagedit export Fixtures/NAME --output Fixtures/export-v1/NAME.json` wrote
  them at commit 767bec6 (2026-11-29), the last code that wrote version 1 (each
  picture also in its native item, every picture with its SHA-256). They are
  kept as written, not made by this script: `import` must go on restoring
  them (`ExportDocumentTests`). Re-running this script leaves them alone; if
  it changes one of the six fixtures, check the test still restores it (a
  version 1 document restores the fixture it was written from).
- The checks at the end of `make-fixtures.sh` fail the run unless every file
  passes `ffprobe -v error` and a full `ffmpeg -v error … -f null -` decode,
  all chunk offsets land in an mdat, the expected box paths exist, and every
  file is under 100 KB. For the MP3 / AAC / AIFF / WAV files they also read
  every tag back with mutagen (frame values, encodings, flags, pictures) and
  check the layout printed by `fixture_patch.py tags`.
- ffmpeg 5.1 does not know ID3v2 tags appended at the end of an MP3: it hands
  the tag of `id3v2-appended-footer.mp3` to the decoder as one more frame
  ("Header missing"); the decode check allows that message for this file only.
- mutagen cannot write ID3v2.2, per-frame unsynchronisation or compression,
  non-syncsafe frame sizes, footers, appended or repeated tags, Lyrics3v2 or
  ID3v1.0 (and it writes APEv2 only directly before ID3v1): those tags come
  from the Python standard-library writers in `fixture_patch.py`; the
  mutagen-written tags use explicit padding.
- The MP3 audio comes from ffmpeg's mp3 muxer with `-write_xing 1`: the first
  frame is an `Info` (CBR) or `Xing` (VBR) frame at a higher bitrate than the
  rest (56 kb/s in the 32 kb/s files) whose LAME tag carries the encoder string
  "Lavf lame" (ffmpeg fills that field itself, not LAME's "LAME3.100").
- ID3v2.4-only features used: frames `TDRC TDOR TMOO TSOP TIPL RVA2`, text
  encodings 2 (UTF-16BE) and 3 (UTF-8), several NUL-separated values in one
  text frame, per-frame unsynchronisation / data length indicator, footers.
  ID3v2.3 has `TYER TDAT TIME` (and `IPLS`, `RVAD`) instead; `CHAP`/`CTOC`
  are an addendum valid for both.
EOF
echo
echo '## Tag walk of the MP3 / AAC / AIFF / WAV files'
echo
echo 'Output of `python3 Tools/fixture_patch.py tags FILE` (offsets are absolute'
echo 'file offsets, except `@body+N`: inside an unsynchronised tag body).'
echo
echo '```'
for f in "$OUT"/*.mp3 "$OUT"/*.aac "$OUT"/*.aiff "$OUT"/*.wav; do
  python3 "$PATCH" tags "$f" | sed "1s|^$OUT/||"
  echo
done
echo '```'
} > "$OUT/README.md"

# An independent box walk of every fixture (this script's Python walker, not the Swift
# parser), which the Swift tests compare their offsets and sizes against.
for f in "$OUT"/*.m4a "$OUT"/*.m4b "$OUT"/*.mp4 "$OUT"/*.mov "$OUT"/*.3gp "$OUT"/*.heic "$OUT"/*.heif; do
  "$PYTHON" "$PATCH" tree "$f" | sed "1s|^$OUT/||"
done > "$OUT/box-walk.txt"

echo "fixtures written to $OUT:"
ls -l "$OUT"
