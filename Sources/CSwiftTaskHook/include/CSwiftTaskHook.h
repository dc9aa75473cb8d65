#ifndef C_SWIFT_TASK_HOOK_H
#define C_SWIFT_TASK_HOOK_H

// The Swift runtime's hook for jobs enqueued on the global executor (swift_Concurrency
// exports it; it is a Swift-calling-convention function pointer, kept opaque here).
//
// ReducerCore's test store points it at the main actor while a store lives, so that effects
// run one at a time. The address is taken by the linker, not looked up by name at run time
// as dlsym does: a binary built with `--static-swift-stdlib` links the runtime without
// exporting its symbols, and a lookup by name finds nothing there.
extern void *_Nullable swift_task_enqueueGlobal_hook;

/// Where the hook is kept.
static inline void *_Nullable *_Nonnull reducer_spec_task_enqueue_global_hook(void) {
  return &swift_task_enqueueGlobal_hook;
}

#endif
