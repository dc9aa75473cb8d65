import Foundation
import ReducerCore

/// The message of an error, as ``TaskResult`` compares and encodes it: a `TaskFailure`'s
/// message, or the error's `localizedDescription`.
///
/// Features put this text into their state, so a test or a spec states a failure and the
/// state it leads to with the same words.
func message(of error: any Error) -> String {
  (error as? TaskFailure)?.message ?? error.localizedDescription
}

/// An error of the demo live clients, which answer from memory: no network is used.
struct DemoError: LocalizedError, Equatable, Sendable {
  var message: String

  init(_ message: String) {
    self.message = message
  }

  var errorDescription: String? { message }
}
