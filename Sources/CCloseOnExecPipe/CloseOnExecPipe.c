// CCloseOnExecPipe is its header (include/CCloseOnExecPipe.h); a C target needs a source file.
#include "CCloseOnExecPipe.h"
