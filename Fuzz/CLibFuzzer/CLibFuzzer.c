// Nothing to compile: the module is the declaration in include/CLibFuzzer.h.
#include "CLibFuzzer.h"
