#ifndef CTAGLIBSHIM_H
#define CTAGLIBSHIM_H

#ifdef __cplusplus
extern "C" {
#endif

/// What the system TagLib reads from the file at `path`, as a JSON document (see shim.cpp),
/// allocated with malloc; NULL when TagLib cannot open the file. Test-only: the products
/// never link TagLib.
char *taglib_shim_describe(const char *path);

/// Writes a fixed set of frames with TagLib into the MP3 at `path` as ID3v2.`version` (3 or 4):
/// title, two artists, album, year, track, genre, a comment with language and description, a
/// TXXX, a front-cover PNG and a chapter with an embedded title. Returns 1 on success.
int taglib_shim_write_sample(const char *path, int version);

/// Sets the MP4 items `©nam` = `title`, `©ART` = `artist` (UTF-8; NULL leaves the item as it
/// is) and `trkn` = `track`/`total` with TagLib in the MP4/M4A at `path`, and saves the file.
/// Returns 1 on success, 0 when TagLib cannot open it as MP4 or fails to save.
int taglib_shim_set_mp4_items(const char *path, const char *title, const char *artist, int track, int total);

/// Frees a string returned by taglib_shim_describe.
void taglib_shim_free(char *json);

#ifdef __cplusplus
}
#endif

#endif
