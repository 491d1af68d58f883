// The TagLib reference for `tagedit show -r`: one process that prints every property of every
// file named (TagLib's PropertyMap, with audio properties), as a minimal tag lister would.
#include <cstdio>
#include <taglib/fileref.h>
#include <taglib/tpropertymap.h>

int main(int argc, char **argv) {
    for (int i = 1; i < argc; i++) {
        TagLib::FileRef ref(argv[i], true, TagLib::AudioProperties::Fast);
        std::printf("%s\n", argv[i]);
        if (ref.isNull()) continue;
        if (auto *audio = ref.audioProperties())
            std::printf("  audio: %d Hz, %d channels, %d kb/s, %d ms\n", audio->sampleRate(), audio->channels(), audio->bitrate(), audio->lengthInMilliseconds());
        const TagLib::PropertyMap properties = ref.file()->properties();
        for (auto it = properties.begin(); it != properties.end(); ++it)
            for (const auto &value : it->second)
                std::printf("  %s  %s\n", it->first.toCString(true), value.toCString(true));
    }
    return 0;
}
