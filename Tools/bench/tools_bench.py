#!/usr/bin/python3
"""The tools as a user runs them (issue 15), against TagLib, mutagen, exiftool, AtomicParsley, cp.

    tools_bench.py SCRATCH TAGEDIT BENCH_BIN_DIR [--files N] [--big-mib M] [--markdown OUT]

Run by Tools/benchmark.sh, which builds `tagedit` (statically linked, as Tools/install.sh installs
it) and the C/C++ references into BENCH_BIN_DIR (taglib_show, taglib_export, taglib_set, io_floor). Needs ffmpeg
and mutagen (Debian's python3-mutagen, hence /usr/bin/python3); exiftool and AtomicParsley are
measured when installed.

Corpora (in SCRATCH, never committed): N M4A, MP3, FLAC and Opus files made with ffmpeg (1 s of a
sine) and tagged with mutagen (ten text tags, every second file a 32 KB cover); a 1 GiB M4A with
its moov first, a 1 GiB MP3, FLAC and Ogg Vorbis, audio looped from a minute of ffmpeg output with
`-c copy`, tagged with mutagen (1 KiB of padding). `--kinds` and `--big-kinds` pick the formats. Every timed run is a whole process, warm cache, tools taking turns, best of several;
the batches that make every file grow (section 2b) start each round from a fresh copy of the
corpus and report medians of `--batch-rounds`.
After the timed writes of each tool the audio is checked unchanged: ffmpeg's md5 of the decoded
audio for a sample of the small files, of the audio packets for the 1 GiB files (decoding 1 GiB of
audio would take minutes).
"""
import argparse, glob, os, random, shutil, subprocess, sys, time

parser = argparse.ArgumentParser()
parser.add_argument("scratch")
parser.add_argument("tagedit")
parser.add_argument("bins")
parser.add_argument("--files", type=int, default=1000)
parser.add_argument("--big-mib", type=int, default=1024)
parser.add_argument("--markdown")
# Which formats: the listings and batch edits (m4a, mp3, flac, opus), the 1 GiB edits (m4a, mp3, flac, ogg).
parser.add_argument("--kinds", default="m4a,mp3,flac,opus")
parser.add_argument("--big-kinds", default="m4a,mp3,flac,ogg")
parser.add_argument("--batch-rounds", type=int, default=5, help="rounds of the batch growth (section 2b)")
args = parser.parse_args()

import mutagen
from mutagen.id3 import ID3, APIC, TIT2, TPE1, TALB, TPE2, TCON, TDRC, TRCK, TPOS, COMM, TXXX
from mutagen.mp4 import MP4, MP4Cover
from mutagen.flac import Picture

S = args.scratch
TAGEDIT = args.tagedit
# atominspect, built beside tagedit the same way.
ATOMINSPECT = os.path.join(os.path.dirname(TAGEDIT), "atominspect")
BIN = lambda name: os.path.join(args.bins, name)
have = lambda tool: shutil.which(tool) is not None
class Rows(list):
    """The results, each printed as it comes (a long run that fails later keeps what it measured)."""
    def append(self, row):
        section, what, tool, ms, reference = row
        print(f"  {section} | {what} | {tool} | {ms:.0f} ms" + (f" | {ms / reference:.2f}x" if reference else ""), flush=True)
        super().append(row)


rows = Rows()  # (section, what, tool, ms, reference ms or None)
rounds = []  # (what, {tool: [ms of each round]}): the growth runs, round by round
batch_rounds = []  # the same for the batches that grow every file


def run(cmd, check=True):
    result = subprocess.run(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    if check and result.returncode != 0:
        sys.exit(f"failed ({result.returncode}): {' '.join(cmd[:4])}...: {result.stderr.decode()[-400:]}")


def timed(cmd, before=None):
    if before: before()
    start = time.perf_counter()
    run(cmd)
    return (time.perf_counter() - start) * 1000


def best(cmd, runs, before=None):
    return min(timed(cmd if not callable(cmd) else cmd(i), before) for i in range(runs))


def sync_settle():
    subprocess.run(["sync"])
    time.sleep(0.5)


def ffmpeg(*a):
    run(["ffmpeg", "-v", "error", "-y", *a])


def audio_md5(path, decode=True):
    cmd = ["ffmpeg", "-v", "error", "-i", path, "-map", "0:a"] + ([] if decode else ["-c", "copy"]) + ["-f", "md5", "-"]
    return subprocess.run(cmd, capture_output=True, check=True).stdout.strip()


random.seed(1)
cover = b"\xff\xd8\xff\xe0" + random.randbytes(32 * 1024)


def tag_mp4(path, i, with_cover, padding=None):
    f = MP4(path)
    f["\xa9nam"], f["\xa9ART"], f["\xa9alb"], f["aART"] = [f"Title {i}"], ["Artist"], [f"Album {i // 10}"], ["Album Artist"]
    f["\xa9gen"], f["\xa9day"], f["trkn"], f["disk"] = ["Electronic"], ["2021"], [(i % 12 + 1, 12)], [(1, 1)]
    f["\xa9cmt"], f["----:com.apple.iTunes:MusicBrainz Track Id"] = ["Benchmark file"], [b"8f3b2a5e-0000-4000-8000-000000000001"]
    if with_cover: f["covr"] = [MP4Cover(cover, imageformat=MP4Cover.FORMAT_JPEG)]
    f.save(padding=padding)


def tag_mp3(path, i, with_cover, padding=None):
    t = ID3()
    for frame in [TIT2(encoding=3, text=f"Title {i}"), TPE1(encoding=3, text="Artist"), TALB(encoding=3, text=f"Album {i // 10}"),
                  TPE2(encoding=3, text="Album Artist"), TCON(encoding=3, text="Electronic"), TDRC(encoding=3, text="2021"),
                  TRCK(encoding=3, text=f"{i % 12 + 1}/12"), TPOS(encoding=3, text="1/1"), COMM(encoding=3, lang="eng", desc="", text="Benchmark file"),
                  TXXX(encoding=3, desc="MusicBrainz Track Id", text="8f3b2a5e-0000-4000-8000-000000000001")]:
        t.add(frame)
    if with_cover: t.add(APIC(encoding=3, mime="image/jpeg", type=3, desc="", data=cover))
    t.save(path, padding=padding)


def tag_vorbis(path, i, with_cover, padding=None):
    """FLAC, Ogg Vorbis and Opus: the same ten fields as Vorbis comments (number and total as
    two fields, as the taggers write them), the cover as a PICTURE block (FLAC) or a
    METADATA_BLOCK_PICTURE field (Ogg)."""
    f = mutagen.File(path)
    if f.tags is None: f.add_tags()
    for key, value in [("TITLE", f"Title {i}"), ("ARTIST", "Artist"), ("ALBUM", f"Album {i // 10}"), ("ALBUMARTIST", "Album Artist"),
                       ("GENRE", "Electronic"), ("DATE", "2021"), ("TRACKNUMBER", str(i % 12 + 1)), ("TRACKTOTAL", "12"),
                       ("DISCNUMBER", "1"), ("COMMENT", "Benchmark file"), ("MUSICBRAINZ_TRACKID", "8f3b2a5e-0000-4000-8000-000000000001")]:
        f[key] = [value]
    if with_cover:
        picture = Picture()
        picture.type, picture.mime, picture.data = 3, "image/jpeg", cover
        if path.endswith(".flac"):
            f.add_picture(picture)
        else:
            import base64
            f["METADATA_BLOCK_PICTURE"] = [base64.b64encode(picture.write()).decode("ascii")]
    f.save(padding=padding)


# How each kind is encoded (a second of a sine for the listings, a minute for the 1 GiB files)
# and tagged.
CODECS = {"m4a": ["-c:a", "aac", "-b:a", "64k"], "mp3": ["-c:a", "libmp3lame", "-b:a", "64k"],
          "flac": ["-c:a", "flac"], "opus": ["-c:a", "libopus", "-b:a", "64k"], "ogg": ["-c:a", "libvorbis", "-b:a", "64k"]}
BIG_CODECS = {"m4a": ["-c:a", "aac", "-b:a", "320k"], "mp3": ["-c:a", "libmp3lame", "-b:a", "320k"],
              "flac": ["-c:a", "flac", "-ac", "2"], "ogg": ["-c:a", "libvorbis", "-ac", "2", "-b:a", "320k"]}
TAGGERS = {"m4a": tag_mp4, "mp3": tag_mp3, "flac": tag_vorbis, "opus": tag_vorbis, "ogg": tag_vorbis}


def make_corpus(kind):
    folder = os.path.join(S, kind)
    os.makedirs(folder, exist_ok=True)
    base = os.path.join(S, f"base.{kind}")
    ffmpeg("-f", "lavfi", "-i", "sine=frequency=440:duration=1", *CODECS[kind], base)
    for i in range(args.files):
        path = os.path.join(folder, f"{i:05}.{kind}")
        shutil.copyfile(base, path)
        TAGGERS[kind](path, i, i % 2 == 0)
    return folder, sorted(glob.glob(os.path.join(folder, f"*.{kind}")))


# The CPU's model and the flags that change these figures (SHA-256 instructions, vector widths).
cpu_flags = next((l.split(":", 1)[1].split() for l in open("/proc/cpuinfo") if l.startswith("flags")), [])
shown_flags = " ".join(f for f in ["sha_ni", "avx512f", "avx2", "aes"] if f in cpu_flags) or "none of sha_ni, avx512f, avx2, aes"
machine = f"{os.cpu_count()} cores, " + next((l.split(":", 1)[1].strip() for l in open("/proc/cpuinfo") if l.startswith("model name")), "?") + f" ({shown_flags})" + ", " + " ".join(os.uname()[2:3])
print(f"machine: {machine}")
os.makedirs(os.path.join(S, "empty"), exist_ok=True)
startup = best([TAGEDIT, "show", "-r", os.path.join(S, "empty")], 10)
print(f"start-up (tagedit show -r on an empty folder): {startup:.1f} ms")

# 1. Listing.
mutagen_list = ["/usr/bin/python3", "-c", "import mutagen, sys\nfor f in sys.argv[1:]: print(f); print(mutagen.File(f).pprint())"]
for kind in [k for k in args.kinds.split(",") if k]:
    folder, files = make_corpus(kind)
    what = f"list {len(files)} tagged {kind} (half with a 32 KB cover)"
    # The listings take turns, round after round, and each keeps its best: a burst of load on
    # this shared machine then falls on every tool alike instead of on whichever ran during it.
    listings = [("TagLib (C++, every property + audio properties)", [BIN("taglib_show")] + files),
                ("I/O floor (C: open, read 64 KiB, close)", [BIN("io_floor")] + files),
                ("mutagen (Python, pprint)", mutagen_list + files)]
    for label, extra in [("tagedit show -r --jobs 1", ["show", "-r", "--jobs", "1"]), ("tagedit show -r", ["show", "-r"]),
                         ("tagedit show --json -r --jobs 1", ["show", "--json", "-r", "--jobs", "1"]), ("tagedit show --json -r", ["show", "--json", "-r"]),
                         ("tagedit show --json --digests -r --jobs 1 (with each picture's SHA-256)", ["show", "--json", "--digests", "-r", "--jobs", "1"])]:
        listings.append((label, [TAGEDIT] + extra + [folder]))
    # The export: against a TagLib program writing the same content (every property, every
    # picture's bytes in Base64, as JSON), and against TagLib's plain listing.
    taglib_export = "TagLib export (C++: every property and every picture in Base64, as JSON)"
    exports = [(taglib_export, [BIN("taglib_export")] + files),
               ("tagedit export -r --jobs 1 (lossless: pictures once, native items, in Base64)", [TAGEDIT, "export", "-r", "--jobs", "1", folder]),
               ("tagedit export -r", [TAGEDIT, "export", "-r", folder])]
    fastest = {}
    for _ in range(7):
        for label, cmd in listings + exports:
            fastest[label] = min(timed(cmd), fastest.get(label, float("inf")))
    taglib = fastest[listings[0][0]]
    for label, _ in listings[:3]:
        rows.append(("list", what, label, fastest[label], taglib))
    if have("exiftool"):
        rows.append(("list", what, "exiftool -j", best(["exiftool", "-j", "-q", folder], 1), taglib))
    for label, _ in listings[3:]:
        rows.append(("list", what, label, fastest[label], taglib))
    export_what = f"export {len(files)} tagged {kind} (reference: TagLib writing the same content)"
    for label, _ in exports:
        rows.append(("export", export_what, label, fastest[label], fastest[taglib_export]))
    rows.append(("export", export_what, "(the same export against TagLib's plain listing)", fastest[exports[1][0]], taglib))

    if kind == "m4a" and os.path.exists(ATOMINSPECT):
        # Inspecting one tagged file: the whole structure as JSON, against reading its head.
        inspect_what = "atominspect --json of one tagged m4a (reference: I/O floor, one file)"
        floor = best([BIN("io_floor"), files[0]], 10)
        rows.append(("inspect", inspect_what, "I/O floor (C: open, read 64 KiB, close)", floor, floor))
        rows.append(("inspect", inspect_what, "atominspect --json", best([ATOMINSPECT, "--json", files[0]], 10), floor))

    # 2. Setting a title on every file in one command (alternating values so every run changes every file).
    what = f"set a title on {len(files)} {kind} files, one command"
    sample = files[:: max(1, len(files) // 20)]
    before = {f: audio_md5(f) for f in sample}
    results = {}
    results["TagLib, no fsync"] = best(lambda i: [BIN("taglib_set"), f"Batch {i % 2}", *files], 3)
    results["TagLib + fsync of each file"] = best(lambda i: [BIN("taglib_set"), "--fsync", f"Batch {i % 2 + 2}", *files], 3)
    results["mutagen (Python)"] = best(lambda i: ["/usr/bin/python3", "-c", "import mutagen, sys\nfor f in sys.argv[2:]:\n m = mutagen.File(f, easy=True); m['title'] = sys.argv[1]; m.save()", f"Batch {i % 2 + 4}", *files], 3)
    if have("exiftool") and kind == "m4a":  # exiftool does not write MP3 (ID3)
        results["exiftool -overwrite_original"] = best(lambda i: ["exiftool", "-q", "-overwrite_original", f"-Title=Batch {i % 2 + 6}", folder], 1)
    results["tagedit set -r --jobs 1"] = best(lambda i: [TAGEDIT, "set", "-r", "--jobs", "1", folder, f"TITLE=Batch {i % 2 + 8}"], 3)
    results["tagedit set -r"] = best(lambda i: [TAGEDIT, "set", "-r", folder, f"TITLE=Batch {i % 2 + 10}"], 3)
    for f in sample:
        assert audio_md5(f) == before[f], f"{f}: the audio changed"
    reference = results["TagLib + fsync of each file"]
    for tool, ms in results.items():
        rows.append(("set", what, tool, ms, reference))

    # 2b. A batch that makes every file grow: a title longer than any file's padding, each round
    # on a fresh copy of the corpus (untimed, flushed). Medians of the rounds, tools in turns.
    what = f"set a 3000-character title on {len(files)} {kind} files, one command (every file grows)"
    grown_title = "Grown " + "x" * 3000
    pristine_folder = folder + "-pristine"
    shutil.copytree(folder, pristine_folder)
    growers = [("mid3v2 (Python, mutagen's ID3 tool)", ["sh", "-c", 'title="$1"; shift; exec mid3v2 --song="$title" "$@"', "sh", grown_title, *files])] if kind == "mp3" else []
    growers += [("mutagen (Python)", ["/usr/bin/python3", "-c", "import mutagen, sys\nfor f in sys.argv[2:]:\n m = mutagen.File(f, easy=True); m['title'] = sys.argv[1]; m.save()", grown_title, *files]),
                ("TagLib + fsync of each file", [BIN("taglib_set"), "--fsync", grown_title, *files])]
    if have("exiftool") and kind == "m4a":
        growers.append(("exiftool -overwrite_original", ["exiftool", "-q", "-overwrite_original", f"-Title={grown_title}", folder]))
    growers += [("tagedit set -r --jobs 1", [TAGEDIT, "set", "-r", "--jobs", "1", folder, f"TITLE={grown_title}"]),
                ("tagedit set -r", [TAGEDIT, "set", "-r", folder, f"TITLE={grown_title}"])]

    # Each run's corpus is set aside, not deleted, until the section ends: on a file system
    # without a journal (this project's benchmark VM) ext4 makes every new inode skip those freed
    # in the last minutes, so deleting 1000 files before each run slowed only the tools that
    # create files (tagedit's saves: a new file renamed over the old), more each round.
    used = []

    def fresh_corpus():
        used.append(f"{folder}-used-{len(used)}")
        os.rename(folder, used[-1])
        shutil.copytree(pristine_folder, folder)
        sync_settle()

    each = {}
    for _ in range(args.batch_rounds):
        for label, cmd in growers:
            each.setdefault(label, []).append(timed(cmd, fresh_corpus))
    for f in sample:  # the last run was tagedit's
        assert audio_md5(f) == before[f], f"{f}: the audio changed"
    median = lambda values: sorted(values)[len(values) // 2]
    reference_label = growers[0][0] if kind == "mp3" else "TagLib + fsync of each file"
    batch_rounds.append((what, each))
    for label, times in each.items():
        rows.append(("grow", what + f" (median of {args.batch_rounds})", label, median(times), median(each[reference_label])))
    shutil.rmtree(pristine_folder)
    for old in used:
        shutil.rmtree(old)

# 3. Editing a 1 GiB file.
def make_big(kind):
    base = os.path.join(S, f"minute.{kind}")
    ffmpeg("-f", "lavfi", "-i", "sine=frequency=440:duration=60", *BIG_CODECS[kind], base)
    loops = args.big_mib * 1024 * 1024 // os.path.getsize(base) + 1
    big = os.path.join(S, f"big.{kind}")
    ffmpeg("-stream_loop", str(loops), "-i", base, "-c", "copy", *(["-movflags", "+faststart"] if kind == "m4a" else []), big)
    # 1 KiB of padding (mutagen would leave 1 % of the file, 10 MiB): a 3000-character title
    # does not fit, one of the same length does.
    TAGGERS[kind](big, 1, True, padding=lambda info: 1024)
    return big


for kind in [k for k in args.big_kinds.split(",") if k]:
    pristine = make_big(kind)
    size_mib = os.path.getsize(pristine) / 1048576
    packets = audio_md5(pristine, decode=False)
    work = os.path.join(S, f"work.{kind}")

    def restore():
        shutil.copyfile(pristine, work)
        sync_settle()

    def checked(tool):
        assert audio_md5(work, decode=False) == packets, f"{tool}: the audio of the 1 GiB {kind} changed"

    if kind == "m4a" and os.path.exists(ATOMINSPECT):
        # Inspecting a movie of a million samples and more: the floor reads every byte up to the
        # end of its moov (what a full structure dump has to read).
        with open(pristine, "rb") as f:
            position, moov_end = 0, 0
            while moov_end == 0:
                f.seek(position)
                header = f.read(16)
                if len(header) < 8: break
                size = int.from_bytes(header[0:4], "big")
                if size == 1: size = int.from_bytes(header[8:16], "big")
                if header[4:8] == b"moov": moov_end = position + size
                position += size
        dump = subprocess.run([ATOMINSPECT, "--json", pristine], capture_output=True, text=True).stdout
        samples = dump.split('"sampleCount": ', 1)[1].split(",", 1)[0] if '"sampleCount": ' in dump else "?"
        inspect_what = f"atominspect --json of a {size_mib:.0f} MiB m4a of {samples} samples, moov {moov_end / 1048576:.1f} MiB (reference: I/O floor reading up to the end of moov)"
        floor = best([BIN("io_floor"), "--bytes", str(moov_end), pristine], 5)
        rows.append(("inspect", inspect_what, "I/O floor (C: read every byte up to the end of moov)", floor, floor))
        rows.append(("inspect", inspect_what, "atominspect --json", best([ATOMINSPECT, "--json", pristine], 5), floor))

    what = f"same-length title edit of a {size_mib:.0f} MiB {kind}"
    restore()
    results = {}
    results["TagLib, no fsync"] = best(lambda i: [BIN("taglib_set"), f"Same length {i % 2}", work], 5); checked("TagLib")
    results["TagLib + fsync"] = best(lambda i: [BIN("taglib_set"), "--fsync", f"Same length {i % 2 + 2}", work], 5); checked("TagLib")
    results["mutagen (Python)"] = best(lambda i: ["/usr/bin/python3", "-c", "import mutagen, sys\nm = mutagen.File(sys.argv[2], easy=True); m['title'] = sys.argv[1]; m.save()", f"Same length {i % 2 + 4}", work], 3); checked("mutagen")
    if have("exiftool") and kind == "m4a":
        results["exiftool -overwrite_original"] = best(lambda i: ["exiftool", "-q", "-overwrite_original", f"-Title=Same length {i % 2 + 6}", work], 1); checked("exiftool")
    if kind == "m4a" and have("AtomicParsley"):
        results["AtomicParsley --overWrite"] = best(lambda i: ["AtomicParsley", work, "--title", f"Same length {i % 2 + 8}", "--overWrite"], 1); checked("AtomicParsley")
    results["tagedit set (fsync, verified)"] = best(lambda i: [TAGEDIT, "set", work, f"TITLE=Same length {i % 2}"], 5); checked("tagedit")
    for tool, ms in results.items():
        rows.append(("big", what, tool, ms, results["TagLib + fsync"]))

    # Growing the title past the padding (3000 characters). The reference is cp + sync of the
    # same file; each run starts from a fresh copy of the tagged file (untimed).
    what = f"grow the title past the padding of a {size_mib:.0f} MiB {kind}"
    long_title = "x" * 3000
    copy_target = os.path.join(S, f"copy.{kind}")

    def cp_sync(i):
        return ["sh", "-c", f"cp '{work}' '{copy_target}' && sync"]

    # The same copy flushed alone: coreutils' `sync FILE` is an fsync of that file, where a bare
    # `sync` also waits for whatever else the machine has to write (here it swung 0.5-2.8 s
    # for the same copy), and a save fsyncs only its own file.
    def cp_fsync(i):
        return ["sh", "-c", f"cp '{work}' '{copy_target}' && sync '{copy_target}'"]

    def clean_copy():
        restore()
        if os.path.exists(copy_target):
            os.remove(copy_target)
            sync_settle()

    results = {}
    each = {}
    for _ in range(7):  # tools take turns, best of seven each (the disk here swings 2x between runs)
        for tool, cmd in [("cp + sync (reference)", cp_sync(0)),
                          ("cp + fsync of the copy (sync FILE)", cp_fsync(0)),
                          ("TagLib + fsync", [BIN("taglib_set"), "--fsync", "--append", long_title, work]),
                          ("mutagen (Python)", ["/usr/bin/python3", "-c", "import mutagen, sys\nm = mutagen.File(sys.argv[2], easy=True); m['title'] = m['title'][0] + sys.argv[1]; m.save()", long_title, work]),
                          ("tagedit set (fsync, verified)", [TAGEDIT, "set", work, f"TITLE=Title 1{long_title}"])]:
            ms = timed(cmd, clean_copy)
            if not tool.startswith("cp + "): checked(tool)
            results[tool] = min(ms, results.get(tool, ms))
            each.setdefault(tool, []).append(ms)
    rounds.append((what, each))
    restore()
    run([TAGEDIT, "set", work, f"TITLE=Title 1{long_title}"])
    sync_settle()
    results["tagedit, growing again (in the padding left)"] = timed([TAGEDIT, "set", work, f"TITLE=Title 1{long_title}yy"])
    checked("tagedit")
    for tool, ms in results.items():
        rows.append(("big", what, tool, ms, results["cp + sync (reference)"]))
    os.remove(work)
    os.remove(pristine)

# The table.
lines = [f"Measured {time.strftime('%Y-%m-%d')} by `Tools/benchmark.sh` on {machine}; whole processes, warm cache, best of several runs; tagedit start-up (an empty folder) {startup:.1f} ms.", ""]
for section, title in [("list", "Listing tags (reference: TagLib)"), ("export", "Exporting every tag and picture (reference: TagLib writing the same content)"),
                       ("inspect", "Inspecting structure (reference: the I/O floor)"),
                       ("set", "Setting a title on every file (reference: TagLib + fsync)"),
                       ("grow", "Growing every file in one command (reference: mid3v2 for MP3, TagLib + fsync otherwise)"), ("big", "Editing one large file")]:
    lines += [f"#### {title}", "", "| task | tool | wall time | ratio |", "|---|---|---:|---:|"]
    for s, what, tool, ms, reference in rows:
        if s == section:
            lines.append(f"| {what} | {tool} | {ms:.0f} ms | {ms / reference:.2f}× |" if reference else f"| {what} | {tool} | {ms:.0f} ms | |")
    lines.append("")
# The growth runs round by round, and their medians against both copies: one lucky or unlucky
# run of the disk decides a best of seven.
for what, each in rounds:
    median = lambda values: sorted(values)[len(values) // 2]
    reference = median(each["cp + sync (reference)"])
    alone = median(each["cp + fsync of the copy (sync FILE)"])
    lines.append(f"{what[0].upper()}{what[1:]}, each round: " + "; ".join(f"{tool} " + ", ".join(f"{ms:.0f}" for ms in times) + f" ms (median {median(times):.0f} ms, {median(times) / reference:.2f}× cp + sync, {median(times) / alone:.2f}× cp + fsync)" for tool, times in each.items()) + ".")
    lines.append("")
for what, each in batch_rounds:
    lines.append(f"{what[0].upper()}{what[1:]}, each round: " + "; ".join(f"{tool} " + ", ".join(f"{ms:.0f}" for ms in times) + " ms" for tool, times in each.items()) + ".")
    lines.append("")
table = "\n".join(lines)
print(table)
if args.markdown:
    open(args.markdown, "w").write(table)
