// The TagLib reference for `tagedit export -r`: one process that writes, for every file named,
// a JSON document with the same content an export has: the path, the audio properties, every
// property (TagLib's PropertyMap) and every embedded picture with its bytes in Base64. Written
// as plainly and efficiently as TagLib 1.13 allows: one FileRef per file, the pictures from
// the tag each format keeps them in (ID3v2 APIC, MP4 covr, FLAC PICTURE blocks, Xiph
// METADATA_BLOCK_PICTURE), one output buffer written in large pieces.
#include <cstdio>
#include <string>
#include <taglib/attachedpictureframe.h>
#include <taglib/flacfile.h>
#include <taglib/fileref.h>
#include <taglib/id3v2tag.h>
#include <taglib/mp4file.h>
#include <taglib/mpegfile.h>
#include <taglib/oggfile.h>
#include <taglib/opusfile.h>
#include <taglib/tpropertymap.h>
#include <taglib/vorbisfile.h>
#include <taglib/xiphcomment.h>

static std::string out;

static void flush(bool force) {
    if (force || out.size() > (1 << 20)) {
        std::fwrite(out.data(), 1, out.size(), stdout);
        out.clear();
    }
}

static void string(const TagLib::String &text) {
    const std::string utf8 = text.to8Bit(true);
    out += '"';
    for (unsigned char c : utf8) {
        switch (c) {
        case '"': out += "\\\""; break;
        case '\\': out += "\\\\"; break;
        case '\n': out += "\\n"; break;
        case '\r': out += "\\r"; break;
        case '\t': out += "\\t"; break;
        default:
            if (c < 0x20) {
                char escaped[8];
                std::snprintf(escaped, sizeof escaped, "\\u%04x", c);
                out += escaped;
            } else {
                out += static_cast<char>(c);
            }
        }
    }
    out += '"';
}

static void picture(const TagLib::String &mime, int type, const TagLib::String &description, const TagLib::ByteVector &data, bool &first) {
    out += first ? "\n    {" : ",\n    {";
    first = false;
    out += "\"mimeType\": ";
    string(mime);
    out += ", \"type\": " + std::to_string(type) + ", \"description\": ";
    string(description);
    out += ", \"size\": " + std::to_string(data.size()) + ", \"data\": \"";
    const TagLib::ByteVector base64 = data.toBase64();
    out.append(base64.data(), base64.size());
    out += "\"}";
}

static void xiphPictures(TagLib::Ogg::XiphComment *comment, bool &first) {
    if (!comment) return;
    for (auto *p : comment->pictureList()) picture(p->mimeType(), p->type(), p->description(), p->data(), first);
}

int main(int argc, char **argv) {
    out.reserve(2 << 20);
    out += "[";
    for (int i = 1; i < argc; i++) {
        out += i == 1 ? "\n  {\"path\": " : ",\n  {\"path\": ";
        string(TagLib::String(argv[i], TagLib::String::UTF8));
        TagLib::FileRef ref(argv[i], true, TagLib::AudioProperties::Fast);
        if (ref.isNull()) {
            out += ", \"error\": \"unreadable\"}";
            continue;
        }
        if (auto *audio = ref.audioProperties()) {
            out += ", \"audio\": {\"sampleRate\": " + std::to_string(audio->sampleRate()) + ", \"channels\": " + std::to_string(audio->channels()) +
                   ", \"bitrate\": " + std::to_string(audio->bitrate()) + ", \"duration\": " + std::to_string(audio->lengthInMilliseconds()) + "}";
        }
        out += ", \"tags\": {";
        const TagLib::PropertyMap properties = ref.file()->properties();
        bool firstKey = true;
        for (auto it = properties.begin(); it != properties.end(); ++it) {
            out += firstKey ? "\n    " : ",\n    ";
            firstKey = false;
            string(it->first);
            out += ": [";
            bool firstValue = true;
            for (const auto &value : it->second) {
                if (!firstValue) out += ", ";
                firstValue = false;
                string(value);
            }
            out += "]";
        }
        out += "}, \"pictures\": [";
        bool first = true;
        TagLib::File *file = ref.file();
        if (auto *mpeg = dynamic_cast<TagLib::MPEG::File *>(file)) {
            if (mpeg->hasID3v2Tag()) {
                for (auto *frame : mpeg->ID3v2Tag()->frameList("APIC")) {
                    auto *apic = static_cast<TagLib::ID3v2::AttachedPictureFrame *>(frame);
                    picture(apic->mimeType(), apic->type(), apic->description(), apic->picture(), first);
                }
            }
        } else if (auto *mp4 = dynamic_cast<TagLib::MP4::File *>(file)) {
            if (mp4->tag() && mp4->tag()->contains("covr")) {
                for (const auto &cover : mp4->tag()->item("covr").toCoverArtList()) {
                    const bool png = cover.format() == TagLib::MP4::CoverArt::PNG;
                    picture(png ? "image/png" : "image/jpeg", 3, "", cover.data(), first);
                }
            }
        } else if (auto *flac = dynamic_cast<TagLib::FLAC::File *>(file)) {
            for (auto *p : flac->pictureList()) picture(p->mimeType(), p->type(), p->description(), p->data(), first);
        } else if (auto *vorbis = dynamic_cast<TagLib::Ogg::Vorbis::File *>(file)) {
            xiphPictures(vorbis->tag(), first);
        } else if (auto *opus = dynamic_cast<TagLib::Ogg::Opus::File *>(file)) {
            xiphPictures(opus->tag(), first);
        }
        out += "]}";
        flush(false);
    }
    out += "\n]\n";
    flush(true);
    return 0;
}
