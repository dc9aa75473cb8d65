#include "CSwiftTaskHook.h"

// libdispatch's declarations, as <dispatch/dispatch.h> makes them in C. The header is not on a
// C target's include path on Linux (the toolchain keeps it beside Swift's modules); both are
// public, stable API of libdispatch, which every Swift program on Linux and Darwin links.
struct dispatch_queue_s;
extern struct dispatch_queue_s _dispatch_main_q;
extern void dispatch_async_f(struct dispatch_queue_s *queue, void *context, void (*work)(void *));

void reducer_spec_main_queue_async(void *context, void (*work)(void *)) {
  // `dispatch_get_main_queue()` is `&_dispatch_main_q`.
  dispatch_async_f(&_dispatch_main_q, context, work);
}
