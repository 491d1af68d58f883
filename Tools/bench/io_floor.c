// The I/O floor for listing tags, as a process: open each FILE, read its first 64 KiB (the tag or
// the moov of a typical music file), close it. Prints nothing.
// Build: cc -O2 -o io_floor Tools/bench/io_floor.c
#include <fcntl.h>
#include <unistd.h>

int main(int argc, char **argv) {
    static char buffer[65536];
    for (int i = 1; i < argc; i++) {
        int fd = open(argv[i], O_RDONLY);
        if (fd < 0) return 1;
        if (pread(fd, buffer, sizeof buffer, 0) < 0) return 1;
        close(fd);
    }
    return 0;
}
