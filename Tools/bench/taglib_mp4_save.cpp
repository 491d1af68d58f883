// Reference for saving an MP4 tag with TagLib: wall time per save, flush included.
//
//   taglib_mp4_save FILE ITERATIONS   alternately sets the title of FILE (an M4A/MP4 whose ilst has
//                                     padding) to two strings of the same length and saves; prints
//                                     taglib_mp4_save iterations=N median_ms=X min_ms=Y
//   taglib_mp4_save --grow FILE       appends 3000 characters to the title once and saves (the ilst
//                                     outgrows its padding); prints taglib_mp4_grow ms=X
//
// FILE is modified: run it on a scratch copy. Each iteration opens FILE with TagLib::MP4::File and
// sets the title untimed, then times save(), closing TagLib's stream (which flushes its stdio
// buffer) and an fsync() of the file through a POSIX descriptor, with CLOCK_MONOTONIC.
// Build: g++ -O2 -o taglib_mp4_save Tools/bench/taglib_mp4_save.cpp $(pkg-config --cflags --libs taglib)
#include <fcntl.h>
#include <taglib/mp4file.h>
#include <taglib/mp4tag.h>
#include <taglib/tstring.h>
#include <time.h>
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <string>
#include <vector>

static double now_ms() {
    timespec ts{};
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

static bool sync_file(const char *path) {
    int fd = open(path, O_RDWR);
    if (fd < 0) return false;
    bool ok = fsync(fd) == 0;
    return close(fd) == 0 && ok;
}

// Opens `path`, sets the title (untimed), then returns the milliseconds taken by the save, the
// close and the fsync; a negative value when TagLib cannot open or save the file.
static double timed_save(const char *path, const TagLib::String &title, bool append) {
    auto file = std::make_unique<TagLib::MP4::File>(path, false);
    if (!file->isValid() || !file->tag()) return -1;
    TagLib::MP4::Tag *tag = file->tag();
    tag->setTitle(append ? tag->title() + title : title);
    double start = now_ms();
    bool saved = file->save();
    file.reset();
    bool synced = sync_file(path);
    double elapsed = now_ms() - start;
    return saved && synced ? elapsed : -1;
}

static int usage() {
    std::fprintf(stderr, "usage: taglib_mp4_save FILE ITERATIONS\n       taglib_mp4_save --grow FILE\n");
    return 64;
}

int main(int argc, char **argv) {
    if (argc != 3) return usage();
    if (std::strcmp(argv[1], "--grow") == 0) {
        double ms = timed_save(argv[2], TagLib::String(std::string(3000, 'g')), true);
        if (ms < 0) {
            std::fprintf(stderr, "taglib_mp4_save: TagLib could not open or save %s\n", argv[2]);
            return 1;
        }
        std::printf("taglib_mp4_grow ms=%.3f\n", ms);
        return 0;
    }
    char *end = nullptr;
    long iterations = std::strtol(argv[2], &end, 10);
    if (*argv[2] == '\0' || *end != '\0' || iterations <= 0) return usage();
    // Same length, so every save after the first rewrites the ilst in place.
    const TagLib::String titles[2] = {"Benchmark Title A", "Benchmark Title B"};
    std::vector<double> times;
    times.reserve(iterations);
    for (long i = 0; i < iterations; i++) {
        double ms = timed_save(argv[1], titles[i % 2], false);
        if (ms < 0) {
            std::fprintf(stderr, "taglib_mp4_save: TagLib could not open or save %s\n", argv[1]);
            return 1;
        }
        times.push_back(ms);
    }
    std::sort(times.begin(), times.end());
    size_t n = times.size();
    double median = n % 2 ? times[n / 2] : (times[n / 2 - 1] + times[n / 2]) / 2;
    std::printf("taglib_mp4_save iterations=%ld median_ms=%.3f min_ms=%.3f\n", iterations, median, times[0]);
    return 0;
}
