#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif
import Foundation
import SpecRunner
import SpecYAML

/// The step a worker is in, kept in a few bytes of memory that the worker and its parent
/// share (a small unlinked file that both map with `MAP_SHARED`).
///
/// The parent only needs the current step when a worker crashes or runs past its timeout,
/// to name the step in the error. Sending it as a message per step cost a JSON line, a
/// `write` and a wake-up of the parent for every step; a store into shared memory costs
/// next to nothing, and the parent reads it only once the worker is dead (so no store can
/// race the read). While a new worker starts, the parent also reads its ``sequence``, to
/// see it begin its first request: the time a worker takes to start does not count toward
/// that request's timeout.
///
/// The parent creates the board and hands its descriptor to the worker as descriptor
/// ``workerDescriptor``, naming it in the environment variable ``environmentKey``; a
/// worker started without it sends `{"step": …}` lines instead (see `WorkerProtocol.swift`).
package final class StepBoard {
  /// What the worker wrote last.
  package struct Record: Equatable {
    /// Which request of the worker it is in: 1 for the first scenario the worker was sent.
    package var sequence: UInt32
    /// The step's line and column in the scenario's file; 0 before the first step;
    /// ``elsewhere`` when the step is in another file (and was sent as a message).
    package var line: UInt32
    package var column: UInt32
  }

  /// The line of a step that is in another file than its scenario's.
  package static let elsewhere = UInt32.max
  /// The variable that tells a worker which descriptor its board is.
  static let environmentKey = "REDUCER_SPEC_STEP_BOARD_FD"
  /// The descriptor the board has in a worker.
  static let workerDescriptor: Int32 = 3

  private static let size = 4 * MemoryLayout<UInt32>.stride
  private let words: UnsafeMutablePointer<UInt32>

  private init(words: UnsafeMutablePointer<UInt32>) {
    self.words = words
  }

  deinit {
    munmap(UnsafeMutableRawPointer(words), Self.size)
  }

  /// A new board and the descriptor to give the worker (close-on-exec; the caller closes
  /// it once the worker started). `nil` when the system refuses (the worker then sends
  /// its steps as messages).
  package static func create() -> (board: StepBoard, descriptor: Int32)? {
    var template = Array((NSTemporaryDirectory() + "reducer-spec-steps-XXXXXX").utf8CString)
    let fd = template.withUnsafeMutableBufferPointer { mkstemp($0.baseAddress!) }
    guard fd >= 0 else { return nil }
    template.withUnsafeBufferPointer { _ = unlink($0.baseAddress!) }
    _ = fcntl(fd, F_SETFD, FD_CLOEXEC)
    guard ftruncate(fd, off_t(size)) == 0, let board = map(fd) else {
      close(fd)
      return nil
    }
    return (board, fd)
  }

  /// The board the parent handed this worker, if any; closes the descriptor (the mapping
  /// stays), so that nothing the scenarios start inherits it.
  static func attach(environment: [String: String]) -> StepBoard? {
    guard let text = environment[environmentKey], let fd = Int32(text), fd >= 0 else { return nil }
    defer { close(fd) }
    return map(fd)
  }

  private static func map(_ fd: Int32) -> StepBoard? {
    let address = mmap(nil, size, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0)
    guard let address, address != MAP_FAILED else { return nil }
    return StepBoard(words: address.bindMemory(to: UInt32.self, capacity: 4))
  }

  /// Stores where the worker is (the worker's side).
  package func write(_ record: Record) {
    words[0] = record.sequence
    words[1] = record.line
    words[2] = record.column
  }

  /// The request the worker is in, 0 before its first (the parent's side, while the
  /// worker runs: one aligned word, which the worker's store changes whole).
  package var sequence: UInt32 {
    words[0]
  }

  /// What the worker stored last (the parent's side, once the worker is dead).
  package func read() -> Record {
    Record(sequence: words[0], line: words[1], column: words[2])
  }
}
