// CSwiftTaskHook is its header (include/CSwiftTaskHook.h); a C target needs a source file.
#include "CSwiftTaskHook.h"
