import Foundation

/// The name and description of a signal, for messages: `SIGILL (illegal instruction)`.
package enum SignalName {
  package static func describe(_ signal: Int32) -> String {
    if let (name, meaning) = known[signal] { return "\(name) (\(meaning))" }
    return "\(signal)"
  }

  package static func name(_ signal: Int32) -> String { known[signal]?.name ?? "signal \(signal)" }

  private static let known: [Int32: (name: String, meaning: String)] = [
    SIGHUP: ("SIGHUP", "hangup"),
    SIGINT: ("SIGINT", "interrupt"),
    SIGQUIT: ("SIGQUIT", "quit"),
    SIGILL: ("SIGILL", "illegal instruction"),
    SIGTRAP: ("SIGTRAP", "trace/breakpoint trap"),
    SIGABRT: ("SIGABRT", "aborted"),
    SIGBUS: ("SIGBUS", "bus error"),
    SIGFPE: ("SIGFPE", "floating-point exception"),
    SIGKILL: ("SIGKILL", "killed"),
    SIGSEGV: ("SIGSEGV", "segmentation fault"),
    SIGPIPE: ("SIGPIPE", "broken pipe"),
    SIGALRM: ("SIGALRM", "alarm clock"),
    SIGTERM: ("SIGTERM", "terminated"),
    SIGXCPU: ("SIGXCPU", "CPU time limit exceeded"),
    SIGXFSZ: ("SIGXFSZ", "file size limit exceeded"),
    SIGSYS: ("SIGSYS", "bad system call"),
  ]
}
