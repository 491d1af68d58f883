// libFuzzer's entry point for programs that keep their own main (compiler-rt's
// FuzzerInterface.h). Only declared here: it is linked in by -sanitize=fuzzer, and mediafuzz
// calls it only in the fuzzing build (-DFUZZING).
#include <stddef.h>
#include <stdint.h>

int LLVMFuzzerRunDriver(int *argc, char ***argv, int (*callback)(const uint8_t *data, size_t size));
