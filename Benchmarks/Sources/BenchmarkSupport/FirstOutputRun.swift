#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation

/// One run of a command whose standard output is a pipe, timed from just before
/// `posix_spawn` to the first output, to the first appearance of a marker (a scenario's
/// result), and to its exit: `runner-benchmark`'s first-result row.
public struct FirstOutputRun {
  /// Until the first bytes of any output were read from the pipe; `nil` without output.
  public var firstOutputSeconds: Double?
  /// Until the read that completed the first occurrence of the marker returned; `nil` if it
  /// never appeared.
  public var markerSeconds: Double?
  /// Until the command exited (after its output was drained).
  public var seconds: Double
  public var lastLine: String
  public var status: Int32

  /// Runs `arguments` (the executable first), its standard output to a pipe that this
  /// process reads as fast as the command writes, its standard error to /dev/null, with
  /// `NO_COLOR=1`, in `directory` (or here); notes when `marker` (UTF-8) first appears in the
  /// output, reads the rest, and waits for the command.
  public static func measure(_ arguments: [String], marker: String, directory: String? = nil) -> FirstOutputRun? {
    var fds: [Int32] = [0, 0]
    guard pipe(&fds) == 0 else { return nil }
    let (readEnd, writeEnd) = (fds[0], fds[1])
    // Neither end may leak into another process this one spawns; the child's standard
    // output is a copy made by dup2, which clears the flag.
    _ = fcntl(readEnd, F_SETFD, FD_CLOEXEC)
    _ = fcntl(writeEnd, F_SETFD, FD_CLOEXEC)
    defer { close(readEnd) }

    var actions = posix_spawn_file_actions_t()
    posix_spawn_file_actions_init(&actions)
    defer { posix_spawn_file_actions_destroy(&actions) }
    posix_spawn_file_actions_adddup2(&actions, writeEnd, 1)
    posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
    var argv = arguments.map { strdup($0) } + [nil]
    defer { for pointer in argv { free(pointer) } }
    var envp = CommandRun.commandEnvironment()
    defer { for pointer in envp { free(pointer) } }

    var pid: pid_t = 0
    // posix_spawn has no working directory before glibc 2.29's addchdir_np: change ours.
    let here = FileManager.default.currentDirectoryPath
    if let directory { _ = FileManager.default.changeCurrentDirectoryPath(directory) }
    let start = DispatchTime.now().uptimeNanoseconds
    let spawned = posix_spawn(&pid, arguments[0], &actions, nil, &argv, &envp)
    if directory != nil { _ = FileManager.default.changeCurrentDirectoryPath(here) }
    close(writeEnd)
    guard spawned == 0 else { return nil }
    func elapsed() -> Double { Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9 }

    let needle = Array(marker.utf8)
    var output: [UInt8] = []
    output.reserveCapacity(1 << 20)
    var buffer = [UInt8](repeating: 0, count: 1 << 16)
    var firstOutput: Double?
    var markerAt: Double?
    while true {
      let count = buffer.withUnsafeMutableBytes { read(readEnd, $0.baseAddress, $0.count) }
      if count < 0 && errno == EINTR { continue }
      if count <= 0 { break }
      let now = elapsed()
      if firstOutput == nil { firstOutput = now }
      let searchFrom = max(0, output.count - needle.count + 1)
      output.append(contentsOf: buffer[0..<count])
      if markerAt == nil, contains(needle, in: output, from: searchFrom) { markerAt = now }
    }
    var status: Int32 = 0
    while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
    let seconds = elapsed()
    let text = String(decoding: output, as: UTF8.self)
    let lastLine = text.split(separator: "\n").last.map(String.init) ?? ""
    let exitStatus = (status & 0x7f) == 0 ? (status >> 8) & 0xff : 128 + (status & 0x7f)
    return FirstOutputRun(
      firstOutputSeconds: firstOutput, markerSeconds: markerAt, seconds: seconds, lastLine: lastLine,
      status: exitStatus)
  }

  static func contains(_ needle: [UInt8], in haystack: [UInt8], from start: Int) -> Bool {
    guard !needle.isEmpty, haystack.count >= needle.count else { return false }
    var index = start
    while index + needle.count <= haystack.count {
      if haystack[index] == needle[0] && haystack[index..<(index + needle.count)].elementsEqual(needle) { return true }
      index += 1
    }
    return false
  }
}
