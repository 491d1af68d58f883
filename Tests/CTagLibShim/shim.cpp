// A test-only bridge to the system TagLib (Debian libtag1-dev), used to cross-check the ID3
// layer. It describes what TagLib reads as JSON:
// {"properties": {KEY: [values]}, "id3v2": {"version": N, "frames": [FRAME...]} | null,
//  "id3v1": {"title", "artist", "album", "year", "comment", "track", "genre"} | null,
//  "info": {KEY: value} | null, "mp4": {"items": {NAME: ITEM}} | null}
// FRAME: {"id", ...fields by frame type}.
// NAME: TagLib's MP4 item key ("\u00a9nam" as UTF-8 "©nam", "trkn", "covr",
// "----:com.apple.iTunes:MusicBrainz Track Id"). TagLib reads only moov/udta/meta/ilst and ignores
// `keys`: QuickTime mdta items (atoms named by a key index 00 00 00 0N) all get the key "" because
// TagLib cuts the name at its first NUL, and it keeps only the first of them.
// ITEM: {"kind": "strings", "values": [...]} | {"kind": "int"|"uint"|"longlong"|"byte", "value": N}
//  | {"kind": "bool", "value": B} | {"kind": "pair", "index": N, "total": M}
//  | {"kind": "covers", "values": [{"format": "jpeg"|"png"|"gif"|"bmp"|"unknown", "size": BYTES}]}
//  | {"kind": "bytes", "values": [BYTES...]} | {"kind": "other"}.
// TagLib 1.13's MP4::Item has no type(): the kind follows the item key the way TagLib's own
// MP4::Tag parses and renders it (mp4tag.cpp), and the atom data type for free-form items.
#include "CTagLibShim.h"

#include <taglib/aifffile.h>
#include <taglib/attachedpictureframe.h>
#include <taglib/chapterframe.h>
#include <taglib/commentsframe.h>
#include <taglib/fileref.h>
#include <taglib/id3v1tag.h>
#include <taglib/id3v2tag.h>
#include <taglib/infotag.h>
#include <taglib/mp4file.h>
#include <taglib/mp4item.h>
#include <taglib/mp4tag.h>
#include <taglib/mpegfile.h>
#include <taglib/popularimeterframe.h>
#include <taglib/privateframe.h>
#include <taglib/tpropertymap.h>
#include <taglib/tableofcontentsframe.h>
#include <taglib/textidentificationframe.h>
#include <taglib/uniquefileidentifierframe.h>
#include <taglib/unsynchronizedlyricsframe.h>
#include <taglib/urllinkframe.h>
#include <taglib/wavfile.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <initializer_list>
#include <string>

namespace {

std::string quote(const TagLib::String &text) {
    std::string utf8 = text.to8Bit(true);
    std::string out = "\"";
    for (unsigned char c : utf8) {
        switch (c) {
        case '"': out += "\\\""; break;
        case '\\': out += "\\\\"; break;
        case '\n': out += "\\n"; break;
        case '\r': out += "\\r"; break;
        case '\t': out += "\\t"; break;
        default:
            if (c < 0x20) {
                char buffer[8];
                std::snprintf(buffer, sizeof buffer, "\\u%04x", c);
                out += buffer;
            } else {
                out += static_cast<char>(c);
            }
        }
    }
    return out + "\"";
}

std::string list(const TagLib::StringList &values) {
    std::string out = "[";
    bool first = true;
    for (const auto &value : values) {
        if (!first) out += ",";
        out += quote(value);
        first = false;
    }
    return out + "]";
}

std::string frameJSON(TagLib::ID3v2::Frame *frame) {
    using namespace TagLib::ID3v2;
    std::string out = "{\"id\":" + quote(TagLib::String(frame->frameID(), TagLib::String::Latin1));
    if (auto *user = dynamic_cast<UserTextIdentificationFrame *>(frame)) {
        TagLib::StringList values = user->fieldList();
        if (!values.isEmpty()) values.erase(values.begin());
        out += ",\"description\":" + quote(user->description()) + ",\"values\":" + list(values);
    } else if (auto *text = dynamic_cast<TextIdentificationFrame *>(frame)) {
        out += ",\"values\":" + list(text->fieldList());
    } else if (auto *comment = dynamic_cast<CommentsFrame *>(frame)) {
        out += ",\"language\":" + quote(TagLib::String(comment->language(), TagLib::String::Latin1)) +
               ",\"description\":" + quote(comment->description()) + ",\"text\":" + quote(comment->text());
    } else if (auto *lyrics = dynamic_cast<UnsynchronizedLyricsFrame *>(frame)) {
        out += ",\"language\":" + quote(TagLib::String(lyrics->language(), TagLib::String::Latin1)) +
               ",\"description\":" + quote(lyrics->description()) + ",\"text\":" + quote(lyrics->text());
    } else if (auto *picture = dynamic_cast<AttachedPictureFrame *>(frame)) {
        out += ",\"mimeType\":" + quote(picture->mimeType()) + ",\"pictureType\":" + std::to_string(picture->type()) +
               ",\"description\":" + quote(picture->description()) + ",\"size\":" + std::to_string(picture->picture().size());
    } else if (auto *ufid = dynamic_cast<UniqueFileIdentifierFrame *>(frame)) {
        out += ",\"owner\":" + quote(ufid->owner()) + ",\"size\":" + std::to_string(ufid->identifier().size());
    } else if (auto *priv = dynamic_cast<PrivateFrame *>(frame)) {
        out += ",\"owner\":" + quote(priv->owner()) + ",\"size\":" + std::to_string(priv->data().size());
    } else if (auto *popm = dynamic_cast<PopularimeterFrame *>(frame)) {
        out += ",\"email\":" + quote(popm->email()) + ",\"rating\":" + std::to_string(popm->rating()) +
               ",\"counter\":" + std::to_string(popm->counter());
    } else if (auto *chapter = dynamic_cast<ChapterFrame *>(frame)) {
        out += ",\"elementID\":" + quote(TagLib::String(chapter->elementID(), TagLib::String::Latin1)) +
               ",\"startTime\":" + std::to_string(chapter->startTime()) + ",\"endTime\":" + std::to_string(chapter->endTime()) +
               ",\"subframes\":[";
        bool first = true;
        for (auto *sub : chapter->embeddedFrameList()) {
            if (!first) out += ",";
            out += frameJSON(sub);
            first = false;
        }
        out += "]";
    } else if (auto *toc = dynamic_cast<TableOfContentsFrame *>(frame)) {
        out += ",\"elementID\":" + quote(TagLib::String(toc->elementID(), TagLib::String::Latin1)) +
               ",\"isTopLevel\":" + (toc->isTopLevel() ? "true" : "false") + ",\"isOrdered\":" + (toc->isOrdered() ? "true" : "false") +
               ",\"children\":[";
        bool first = true;
        for (const auto &child : toc->childElements()) {
            if (!first) out += ",";
            out += quote(TagLib::String(child, TagLib::String::Latin1));
            first = false;
        }
        out += "]";
    } else if (auto *userURL = dynamic_cast<UserUrlLinkFrame *>(frame)) {
        out += ",\"description\":" + quote(userURL->description()) + ",\"url\":" + quote(userURL->url());
    } else if (auto *url = dynamic_cast<UrlLinkFrame *>(frame)) {
        out += ",\"url\":" + quote(url->url());
    } else {
        out += ",\"size\":" + std::to_string(frame->size());
    }
    return out + "}";
}

std::string id3v2JSON(TagLib::ID3v2::Tag *tag) {
    if (!tag || tag->isEmpty()) return "null";
    std::string out = "{\"version\":" + std::to_string(tag->header()->majorVersion()) + ",\"frames\":[";
    bool first = true;
    for (auto *frame : tag->frameList()) {
        if (!first) out += ",";
        out += frameJSON(frame);
        first = false;
    }
    return out + "]}";
}

std::string id3v1JSON(TagLib::ID3v1::Tag *tag) {
    if (!tag || tag->isEmpty()) return "null";
    return "{\"title\":" + quote(tag->title()) + ",\"artist\":" + quote(tag->artist()) + ",\"album\":" + quote(tag->album()) +
           ",\"year\":" + std::to_string(tag->year()) + ",\"comment\":" + quote(tag->comment()) +
           ",\"track\":" + std::to_string(tag->track()) + ",\"genre\":" + quote(tag->genre()) + "}";
}

std::string infoJSON(TagLib::RIFF::Info::Tag *tag) {
    if (!tag || tag->isEmpty()) return "null";
    std::string out = "{";
    bool first = true;
    for (const auto &field : tag->fieldListMap()) {
        if (!first) out += ",";
        out += quote(TagLib::String(field.first, TagLib::String::Latin1)) + ":" + quote(field.second);
        first = false;
    }
    return out + "}";
}

bool isOneOf(const TagLib::String &key, std::initializer_list<const char *> names) {
    for (const char *name : names) {
        if (key == TagLib::String(name, TagLib::String::Latin1)) return true;
    }
    return false;
}

const char *coverFormat(TagLib::MP4::CoverArt::Format format) {
    switch (format) {
    case TagLib::MP4::CoverArt::JPEG: return "jpeg";
    case TagLib::MP4::CoverArt::PNG: return "png";
    case TagLib::MP4::CoverArt::GIF: return "gif";
    case TagLib::MP4::CoverArt::BMP: return "bmp";
    default: return "unknown";
    }
}

// The kinds mirror TagLib 1.13's MP4::Tag constructor (which parse function each key gets).
std::string mp4ItemJSON(const TagLib::String &key, const TagLib::MP4::Item &item) {
    using TagLib::MP4::Item;
    auto strings = [](const TagLib::StringList &values) {
        return "{\"kind\":\"strings\",\"values\":" + list(values) + "}";
    };
    auto number = [](const char *kind, const std::string &value) {
        return std::string("{\"kind\":\"") + kind + "\",\"value\":" + value + "}";
    };
    if (key.startsWith("----")) {
        if (item.atomDataType() == TagLib::MP4::TypeUTF8 || !item.toStringList().isEmpty()) return strings(item.toStringList());
        std::string out = "{\"kind\":\"bytes\",\"values\":[";
        bool first = true;
        for (const auto &value : item.toByteVectorList()) {
            if (!first) out += ",";
            out += std::to_string(value.size());
            first = false;
        }
        return out + "]}";
    }
    if (key == "covr") {
        std::string out = "{\"kind\":\"covers\",\"values\":[";
        bool first = true;
        for (const auto &cover : item.toCoverArtList()) {
            if (!first) out += ",";
            out += std::string("{\"format\":\"") + coverFormat(cover.format()) + "\",\"size\":" + std::to_string(cover.data().size()) + "}";
            first = false;
        }
        return out + "]}";
    }
    if (isOneOf(key, {"trkn", "disk"})) {
        Item::IntPair pair = item.toIntPair();
        return "{\"kind\":\"pair\",\"index\":" + std::to_string(pair.first) + ",\"total\":" + std::to_string(pair.second) + "}";
    }
    if (isOneOf(key, {"cpil", "pgap", "pcst", "hdvd", "shwm"})) return number("bool", item.toBool() ? "true" : "false");
    if (isOneOf(key, {"tmpo", "\251mvi", "\251mvc"})) return number("int", std::to_string(item.toInt()));
    if (key == "rate") {
        // Text when stored as UTF-8, a 16-bit integer otherwise.
        if (!item.toStringList().isEmpty()) return strings(item.toStringList());
        return number("int", std::to_string(item.toInt()));
    }
    if (isOneOf(key, {"tvsn", "tves", "cnID", "sfID", "atID", "geID", "cmID"})) return number("uint", std::to_string(item.toUInt()));
    if (key == "plID") return number("longlong", std::to_string(item.toLongLong()));
    if (isOneOf(key, {"stik", "rtng", "akID"})) return number("byte", std::to_string(static_cast<unsigned>(item.toByte())));
    if (!item.toStringList().isEmpty()) return strings(item.toStringList());
    return "{\"kind\":\"other\"}";
}

std::string mp4JSON(TagLib::MP4::Tag *tag) {
    if (!tag) return "{\"items\":{}}";
    std::string out = "{\"items\":{";
    bool first = true;
    for (const auto &entry : tag->itemMap()) {
        if (!first) out += ",";
        out += quote(entry.first) + ":" + mp4ItemJSON(entry.first, entry.second);
        first = false;
    }
    return out + "}}";
}

char *copy(const std::string &text) {
    char *result = static_cast<char *>(std::malloc(text.size() + 1));
    if (result) std::memcpy(result, text.c_str(), text.size() + 1);
    return result;
}

} // namespace

extern "C" char *taglib_shim_describe(const char *path) {
    TagLib::FileRef ref(path, false);
    if (ref.isNull()) return nullptr;
    std::string out = "{\"properties\":{";
    bool first = true;
    for (const auto &property : ref.file()->properties()) {
        if (!first) out += ",";
        out += quote(property.first) + ":" + list(property.second);
        first = false;
    }
    out += "}";
    std::string id3v2 = "null", id3v1 = "null", info = "null", mp4 = "null";
    if (auto *mpeg = dynamic_cast<TagLib::MPEG::File *>(ref.file())) {
        id3v2 = id3v2JSON(mpeg->ID3v2Tag(false));
        id3v1 = id3v1JSON(mpeg->ID3v1Tag(false));
    } else if (auto *aiff = dynamic_cast<TagLib::RIFF::AIFF::File *>(ref.file())) {
        id3v2 = id3v2JSON(aiff->tag());
    } else if (auto *wav = dynamic_cast<TagLib::RIFF::WAV::File *>(ref.file())) {
        id3v2 = id3v2JSON(wav->ID3v2Tag());
        info = infoJSON(wav->InfoTag());
    } else if (auto *mp4File = dynamic_cast<TagLib::MP4::File *>(ref.file())) {
        mp4 = mp4JSON(mp4File->tag());
    }
    out += ",\"id3v2\":" + id3v2 + ",\"id3v1\":" + id3v1 + ",\"info\":" + info + ",\"mp4\":" + mp4 + "}";
    return copy(out);
}

extern "C" int taglib_shim_write_sample(const char *path, int version) {
    using namespace TagLib;
    MPEG::File file(path, false);
    if (!file.isValid()) return 0;
    ID3v2::Tag *tag = file.ID3v2Tag(true);
    tag->setTitle(String("TagLib Títle", String::UTF8));
    tag->setAlbum("TagLib Album");
    tag->setYear(2020);
    tag->setTrack(5);
    tag->setGenre("Jazz");
    auto *artists = new ID3v2::TextIdentificationFrame("TPE1", String::UTF8);
    StringList names;
    names.append("First Artist");
    names.append(String("Zweite Künstlerin", String::UTF8));
    artists->setText(names);
    tag->removeFrames("TPE1");
    tag->addFrame(artists);
    auto *comment = new ID3v2::CommentsFrame(String::UTF16);
    comment->setLanguage("deu");
    comment->setDescription("Notiz");
    comment->setText(String("Grüße", String::UTF8));
    tag->addFrame(comment);
    auto *user = new ID3v2::UserTextIdentificationFrame(String::UTF8);
    user->setDescription("CATALOGNUMBER");
    user->setText("TL-0001");
    tag->addFrame(user);
    auto *picture = new ID3v2::AttachedPictureFrame();
    picture->setMimeType("image/png");
    picture->setType(ID3v2::AttachedPictureFrame::FrontCover);
    picture->setDescription("Cover");
    picture->setPicture(ByteVector("\x89PNG\r\n\x1a\n0123456789", 18));
    tag->addFrame(picture);
    auto *chapter = new ID3v2::ChapterFrame("ch0", 0, 1000, 0xFFFFFFFF, 0xFFFFFFFF);
    auto *chapterTitle = new ID3v2::TextIdentificationFrame("TIT2", String::Latin1);
    chapterTitle->setText("Opening");
    chapter->addEmbeddedFrame(chapterTitle);
    tag->addFrame(chapter);
    return file.save(MPEG::File::ID3v2, File::StripNone, version == 3 ? ID3v2::v3 : ID3v2::v4) ? 1 : 0;
}

extern "C" int taglib_shim_set_mp4_items(const char *path, const char *title, const char *artist, int track, int total) {
    using namespace TagLib;
    if (!path) return 0;
    MP4::File file(path, false);
    if (!file.isValid()) return 0;
    MP4::Tag *tag = file.tag();
    if (!tag) return 0;
    if (title) tag->setItem("\251nam", StringList(String(title, String::UTF8)));
    if (artist) tag->setItem("\251ART", StringList(String(artist, String::UTF8)));
    tag->setItem("trkn", MP4::Item(track, total));
    return file.save() ? 1 : 0;
}

extern "C" void taglib_shim_free(char *json) { std::free(json); }
