#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif
internal import CCloseOnExecPipe
import SpecRunner
import SpecYAML

/// The write end of the self-pipe, for the signal handler (which may touch nothing else).
nonisolated(unsafe) private var interruptWriteEnd: Int32 = -1

/// Turns `SIGINT` and `SIGTERM` into a byte on a pipe that the pool's `poll` loop watches,
/// so that the command, not the signal, decides how the run ends: workers killed, reports
/// written with what finished, exit status 128 + the signal.
package final class InterruptPipe {
  /// The read end, for `poll`.
  package let readEnd: Int32
  private let writeEnd: Int32
  private static let signals = [SIGINT, SIGTERM]

  /// Creates the pipe and installs the handlers, and unblocks the signals on the calling
  /// thread (a process may start with them blocked: Foundation's `Process` passes on its
  /// thread's mask). Only one may exist at a time.
  package init() {
    var fds: [Int32] = [-1, -1]
    _ = reducer_spec_cloexec_pipe(&fds)
    for fd in fds { _ = fcntl(fd, F_SETFL, O_NONBLOCK) }
    readEnd = fds[0]
    writeEnd = fds[1]
    interruptWriteEnd = writeEnd
    for number in Self.signals {
      var action = sigaction()
      #if os(Linux)
        action.__sigaction_handler.sa_handler = interruptHandler
      #else
        action.__sigaction_u.__sa_handler = interruptHandler
      #endif
      sigemptyset(&action.sa_mask)
      action.sa_flags = SA_RESTART
      sigaction(number, &action, nil)
    }
    var unblocked = sigset_t()
    sigemptyset(&unblocked)
    for number in Self.signals { sigaddset(&unblocked, number) }
    pthread_sigmask(SIG_UNBLOCK, &unblocked, nil)
  }

  /// Puts the default actions back and closes the pipe.
  deinit {
    for number in Self.signals { _ = signal(number, SIG_DFL) }
    interruptWriteEnd = -1
    close(readEnd)
    close(writeEnd)
  }

  /// The first signal that arrived since the last call, or `nil`.
  package func received() -> Int32? {
    var byte: UInt8 = 0
    var first: Int32?
    while read(readEnd, &byte, 1) == 1 {
      if first == nil { first = Int32(byte) }
    }
    return first
  }
}

private func interruptHandler(_ signal: Int32) {
  let saved = errno
  var byte = UInt8(truncatingIfNeeded: signal)
  _ = write(interruptWriteEnd, &byte, 1)
  errno = saved
}
