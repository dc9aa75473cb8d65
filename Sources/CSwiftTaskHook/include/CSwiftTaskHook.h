#ifndef C_SWIFT_TASK_HOOK_H
#define C_SWIFT_TASK_HOOK_H

// What ReducerCore's test store needs from C to run effects one at a time, on the main queue.

// The Swift runtime's hook for jobs enqueued on the global executor (swift_Concurrency
// exports it; it is a Swift-calling-convention function pointer, kept opaque here).
//
// The test store points it at the main actor while a store lives, so that effects run one at
// a time. The address is taken by the linker, not looked up by name at run time as dlsym
// does: a binary built with `--static-swift-stdlib` links the runtime without exporting its
// symbols, and a lookup by name finds nothing there.
extern void *_Nullable swift_task_enqueueGlobal_hook;

/// Where the hook is kept.
static inline void *_Nullable *_Nonnull reducer_spec_task_enqueue_global_hook(void) {
  return &swift_task_enqueueGlobal_hook;
}

/// Queues `work(context)` on the main dispatch queue, behind what is queued there: libdispatch's
/// `dispatch_async_f`, which Swift does not import on Linux (TaskHook.c). Unlike
/// `DispatchQueue.main.async`, it allocates nothing: the test store queues one for each job of
/// an effect's nonisolated code and for each turn of the main queue that it waits.
void reducer_spec_main_queue_async(void *_Nullable context, void (*_Nonnull work)(void *_Nullable));

#endif
