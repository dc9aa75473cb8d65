import Foundation

/// Text that a report gathers as a run goes, kept on disk rather than in memory: the JUnit
/// file's suites, written when the run's totals are known, and the run record's entries,
/// merged into the record when the run ends.
///
/// The text is buffered (``flushSize`` at a time) and written to a temporary file that is
/// unlinked as soon as it is opened, so nothing is left behind even when the process is
/// killed. When no temporary file can be made (`TMPDIR` not writable), the text stays in
/// memory: the report is the same, only larger runs cost more memory.
package final class SpoolFile {
  /// How much text is held before it is written out.
  package static let flushSize = 64 * 1024

  private var buffer: [UInt8] = []
  /// The unlinked temporary file; -1 when there is none.
  private var descriptor: Int32 = -1
  /// Bytes written to the file so far.
  private var written = 0

  package init(directory: String = NSTemporaryDirectory()) {
    var template = Array(((directory.hasSuffix("/") ? directory : directory + "/") + "reducer-spec-spool-XXXXXX").utf8CString)
    let descriptor = template.withUnsafeMutableBufferPointer { mkstemp($0.baseAddress!) }
    if descriptor >= 0 {
      template.withUnsafeBufferPointer { _ = unlink($0.baseAddress!) }
      self.descriptor = descriptor
    }
    buffer.reserveCapacity(Self.flushSize)
  }

  deinit {
    if descriptor >= 0 { close(descriptor) }
  }

  /// Whether the text goes to a temporary file (`false`: it stays in memory).
  package var isOnDisk: Bool { descriptor >= 0 }

  /// How many bytes were appended: where the next text starts.
  package var count: Int { written + buffer.count }

  package func append(_ text: String) {
    append(bytes: text.utf8)
  }

  package func append(bytes: some Sequence<UInt8>) {
    buffer.append(contentsOf: bytes)
    if descriptor >= 0 && buffer.count >= Self.flushSize { flush() }
  }

  /// The bytes of `range` (offsets as ``count`` gave them).
  package func read(_ range: Range<Int>) throws -> [UInt8] {
    flush()
    // Flushed: all of it is in the file, or (the file failed) all of it is in memory.
    guard descriptor >= 0 else { return Array(buffer[range]) }
    var bytes = [UInt8](repeating: 0, count: range.count)
    var done = 0
    while done < range.count {
      let count = bytes.withUnsafeMutableBytes {
        pread(descriptor, $0.baseAddress! + done, $0.count - done, off_t(range.lowerBound + done))
      }
      if count < 0 && errno == EINTR { continue }
      guard count > 0 else { throw SpoolError(reason: count == 0 ? "it ended early" : String(cString: strerror(errno))) }
      done += count
    }
    return bytes
  }

  /// Hands the whole text to `write`, in pieces of at most a megabyte, in order.
  package func read(_ write: ([UInt8]) throws -> Void) throws {
    flush()
    if descriptor >= 0 {
      var chunk = [UInt8](repeating: 0, count: 1 << 20)
      var offset = 0
      while offset < written {
        let count = chunk.withUnsafeMutableBytes { pread(descriptor, $0.baseAddress, $0.count, off_t(offset)) }
        if count < 0 && errno == EINTR { continue }
        guard count > 0 else { throw SpoolError(reason: count == 0 ? "it ended early" : String(cString: strerror(errno))) }
        try write(Array(chunk[..<count]))
        offset += count
      }
    }
    if !buffer.isEmpty { try write(buffer) }
  }

  /// Writes what is buffered to the file; on an error, keeps it in memory from then on.
  private func flush() {
    guard descriptor >= 0, !buffer.isEmpty else { return }
    var offset = 0
    while offset < buffer.count {
      let count = buffer.withUnsafeBytes { write(descriptor, $0.baseAddress! + offset, $0.count - offset) }
      if count < 0 && errno == EINTR { continue }
      guard count > 0 else {
        // The disk is full, say: the rest stays in memory, after what the file holds.
        buffer.removeFirst(offset)
        written += offset
        let kept = buffer
        buffer = []
        var earlier: [UInt8] = []
        try? read { earlier += $0 }
        close(descriptor)
        descriptor = -1
        buffer = earlier + kept
        return
      }
      offset += count
    }
    written += offset
    buffer.removeAll(keepingCapacity: true)
  }

  package struct SpoolError: Error, CustomStringConvertible {
    package var reason: String
    package var description: String { "cannot read back a temporary file: \(reason)" }
  }
}
