// Reference for setting a title with TagLib as a user runs it: one process that opens each FILE,
// sets its title and saves it, like `tagedit set FILE... TITLE=...`.
//
//   taglib_set [--fsync] [--append] TITLE FILE...
//
// --fsync   fsyncs each file after TagLib saved it (TagLib itself never does; tagedit always does)
// --append  appends TITLE to the file's title instead of replacing it (to outgrow the padding)
// Exit status 1 when a file could not be opened or saved.
// Build: g++ -O2 -o taglib_set Tools/bench/taglib_set.cpp $(pkg-config --cflags --libs taglib)
#include <fcntl.h>
#include <taglib/fileref.h>
#include <taglib/tag.h>
#include <taglib/tstring.h>
#include <unistd.h>

#include <cstdio>
#include <cstring>

int main(int argc, char **argv) {
    bool sync = false, append = false;
    int i = 1;
    for (; i < argc && argv[i][0] == '-'; i++) {
        if (std::strcmp(argv[i], "--fsync") == 0) sync = true;
        else if (std::strcmp(argv[i], "--append") == 0) append = true;
        else { std::fprintf(stderr, "unknown option %s\n", argv[i]); return 64; }
    }
    if (argc - i < 2) { std::fprintf(stderr, "usage: taglib_set [--fsync] [--append] TITLE FILE...\n"); return 64; }
    TagLib::String title(argv[i++], TagLib::String::UTF8);
    int status = 0;
    for (; i < argc; i++) {
        bool ok = false;
        {
            TagLib::FileRef file(argv[i], false);
            if (!file.isNull() && file.tag()) {
                file.tag()->setTitle(append ? file.tag()->title() + title : title);
                ok = file.save();
            }
        }
        if (ok && sync) {
            int fd = open(argv[i], O_RDWR);
            ok = fd >= 0 && fsync(fd) == 0;
            if (fd >= 0) close(fd);
        }
        if (!ok) { std::fprintf(stderr, "%s: not saved\n", argv[i]); status = 1; }
    }
    return status;
}
