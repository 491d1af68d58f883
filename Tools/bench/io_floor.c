// The I/O floor for listing tags, as a process: open each FILE, read its first 64 KiB (the tag or
// the moov of a typical music file), close it. Prints nothing. With --bytes N, read the first N
// bytes of each file instead (in 1 MiB reads): the floor for reading a large moov.
// Build: cc -O2 -o io_floor Tools/bench/io_floor.c
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

int main(int argc, char **argv) {
    static char buffer[1 << 20];
    long long limit = 65536;
    int first = 1;
    if (argc > 2 && strcmp(argv[1], "--bytes") == 0) {
        limit = atoll(argv[2]);
        first = 3;
    }
    for (int i = first; i < argc; i++) {
        int fd = open(argv[i], O_RDONLY);
        if (fd < 0) return 1;
        for (long long done = 0; done < limit;) {
            long long want = limit - done < (long long)sizeof buffer ? limit - done : (long long)sizeof buffer;
            ssize_t got = pread(fd, buffer, (size_t)want, done);
            if (got < 0) return 1;
            if (got == 0) break;
            done += got;
        }
        close(fd);
    }
    return 0;
}
