#ifndef CTAGLIBSHIM_H
#define CTAGLIBSHIM_H

#ifdef __cplusplus
extern "C" {
#endif

/// What the system TagLib reads from the file at `path`, as a JSON document (see shim.cpp),
/// allocated with malloc; NULL when TagLib cannot open the file. Test-only: the products
/// never link TagLib.
char *taglib_shim_describe(const char *path);

/// Frees a string returned by taglib_shim_describe.
void taglib_shim_free(char *json);

#ifdef __cplusplus
}
#endif

#endif
