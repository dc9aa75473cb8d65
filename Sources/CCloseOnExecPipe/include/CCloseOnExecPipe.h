#ifndef C_CLOSE_ON_EXEC_PIPE_H
#define C_CLOSE_ON_EXEC_PIPE_H

#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <fcntl.h>
#include <unistd.h>

/// A pipe whose two ends are close-on-exec from the moment they exist, as `pipe2(fds,
/// O_CLOEXEC)` makes them on Linux (Swift's Glibc module does not offer `pipe2`). With
/// `pipe` and then `fcntl`, a process that another thread spawns in between (Foundation's
/// `Process`, which takes no lock of ours) would hold an end for its whole life, and a
/// write to a worker that ended would not fail. Elsewhere, `pipe` and `fcntl`.
/// Returns 0, or -1 with `errno` set.
static inline int reducer_spec_cloexec_pipe(int fds[_Nonnull 2]) {
#if defined(__linux__)
  return pipe2(fds, O_CLOEXEC);
#else
  if (pipe(fds) != 0) return -1;
  fcntl(fds[0], F_SETFD, FD_CLOEXEC);
  fcntl(fds[1], F_SETFD, FD_CLOEXEC);
  return 0;
#endif
}

#endif
