// Reference for Tools/benchmark.sh: CPU per file for TagLib to read the tags of each file
// named on the command line (no audio properties), best of three rounds.
#include <sys/resource.h>
#include <taglib/fileref.h>
#include <taglib/tag.h>
#include <cstdio>

static double cpu_seconds() {
    rusage usage{};
    getrusage(RUSAGE_SELF, &usage);
    return usage.ru_utime.tv_sec + usage.ru_utime.tv_usec / 1e6 + usage.ru_stime.tv_sec + usage.ru_stime.tv_usec / 1e6;
}

int main(int argc, char **argv) {
    int files = argc - 1;
    if (files <= 0) return 64;
    unsigned long titles = 0;
    double best = 1e9;
    for (int round = 0; round < 3; round++) {
        double start = cpu_seconds();
        for (int i = 1; i < argc; i++) {
            TagLib::FileRef ref(argv[i], false);
            if (!ref.isNull() && ref.tag()) titles += ref.tag()->title().size();
        }
        double used = cpu_seconds() - start;
        if (used < best) best = used;
    }
    std::printf("taglib: %d files, %.1f us CPU per file (best of 3)%s\n", files, best / files * 1e6, titles ? "" : " (no titles read!)");
    return 0;
}
