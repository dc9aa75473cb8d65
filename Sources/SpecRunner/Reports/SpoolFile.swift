import Foundation

/// Text that a report gathers as a run goes, kept on disk rather than in memory: the JUnit
/// file's suites, written when the run's totals are known, and the run record's entries,
/// merged into the record when the run ends.
///
/// The text is buffered (``flushSize`` at a time) and written to a temporary file that is
/// unlinked as soon as it is opened, so nothing is left behind even when the process is
/// killed. When no temporary file can be made (`TMPDIR` not writable), or one stops taking
/// text (the disk is full), the rest stays in memory: the text is the same, only a larger
/// run costs more memory.
package final class SpoolFile {
  /// How much text is held before it is written out.
  package static let flushSize = 64 * 1024

  /// The text after the first ``written`` bytes.
  private var buffer: [UInt8] = []
  /// The unlinked temporary file; -1 when there is none.
  private let descriptor: Int32
  /// Bytes written to the file: the text's first ones.
  private var written = 0
  /// Whether the file still takes text.
  private var isWritable: Bool

  package convenience init(directory: String = NSTemporaryDirectory()) {
    var template = Array(((directory.hasSuffix("/") ? directory : directory + "/") + "reducer-spec-spool-XXXXXX").utf8CString)
    let descriptor = template.withUnsafeMutableBufferPointer { mkstemp($0.baseAddress!) }
    if descriptor >= 0 { template.withUnsafeBufferPointer { _ = unlink($0.baseAddress!) } }
    self.init(descriptor: descriptor)
  }

  /// Spools into `descriptor`, open for reading and writing (-1: in memory), which it closes.
  package init(descriptor: Int32) {
    self.descriptor = descriptor
    isWritable = descriptor >= 0
    buffer.reserveCapacity(Self.flushSize)
  }

  deinit {
    if descriptor >= 0 { close(descriptor) }
  }

  /// Whether the text goes to a temporary file (`false`: it stays in memory).
  package var isOnDisk: Bool { isWritable }

  /// How many bytes were appended: where the next text starts.
  package var count: Int { written + buffer.count }

  package func append(_ text: String) {
    append(bytes: text.utf8)
  }

  package func append(bytes: some Sequence<UInt8>) {
    buffer.append(contentsOf: bytes)
    if buffer.count >= Self.flushSize { flush() }
  }

  /// The bytes of `range` (offsets as ``count`` gave them).
  package func read(_ range: Range<Int>) throws -> [UInt8] {
    flush()
    // The part in the file, then the part in memory.
    let split = min(max(range.lowerBound, written), range.upperBound)
    var bytes = try readFile(range.lowerBound..<split)
    if range.upperBound > split { bytes += buffer[(split - written)..<(range.upperBound - written)] }
    return bytes
  }

  /// Hands the whole text to `write`, in pieces of at most a megabyte, in order.
  package func read(_ write: ([UInt8]) throws -> Void) throws {
    flush()
    for start in stride(from: 0, to: written, by: 1 << 20) {
      try write(try readFile(start..<min(start + (1 << 20), written)))
    }
    if !buffer.isEmpty { try write(buffer) }
  }

  /// Bytes the file holds.
  private func readFile(_ range: Range<Int>) throws -> [UInt8] {
    var bytes = [UInt8](repeating: 0, count: range.count)
    var done = 0
    while done < range.count {
      let count = bytes.withUnsafeMutableBytes {
        pread(descriptor, $0.baseAddress! + done, $0.count - done, off_t(range.lowerBound + done))
      }
      if count < 0 && errno == EINTR { continue }
      guard count > 0 else {
        throw SpoolError(reason: count == 0 ? "it ended early" : String(cString: strerror(errno)).lowercased())
      }
      done += count
    }
    return bytes
  }

  /// Writes what is buffered to the file; when the file takes no more, keeps the rest in
  /// memory from then on.
  private func flush() {
    guard isWritable, !buffer.isEmpty else { return }
    var offset = 0
    while offset < buffer.count {
      let count = buffer.withUnsafeBytes { pwrite(descriptor, $0.baseAddress! + offset, $0.count - offset, off_t(written + offset)) }
      if count < 0 && errno == EINTR { continue }
      guard count > 0 else {
        isWritable = false
        break
      }
      offset += count
    }
    written += offset
    buffer.removeFirst(offset)
  }

  package struct SpoolError: Error, CustomStringConvertible {
    package var reason: String
    package init(reason: String) { self.reason = reason }
    package var description: String { "cannot read back a temporary file: \(reason)" }
  }
}
