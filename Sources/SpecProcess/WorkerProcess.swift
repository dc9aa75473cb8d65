#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif
internal import CCloseOnExecPipe
import Foundation

/// A worker process as its parent sees it: its pid and the parent's ends of the pipes to
/// its standard input, output and error.
///
/// The parent's ends are close-on-exec, so a worker never holds another worker's pipes
/// open; the ends it reads are non-blocking, for the pool's `poll` loop. A worker gets no
/// other descriptor of its parent's (see ``spawn(executable:arguments:environment:passing:)``).
package final class WorkerProcess {
  let pid: pid_t
  /// The worker's standard input (write end), or -1 once closed.
  package private(set) var input: Int32
  /// The worker's standard output (read end), or -1 once closed.
  package private(set) var output: Int32
  /// The worker's standard error (read end), or -1 once closed.
  package private(set) var errors: Int32
  private var status: Termination?

  /// How a worker process ended.
  package enum Termination: Hashable, Sendable {
    case exited(Int32)
    case signaled(Int32)
  }

  private init(pid: pid_t, input: Int32, output: Int32, errors: Int32) {
    self.pid = pid
    self.input = input
    self.output = output
    self.errors = errors
  }

  deinit {
    closeInput()
    closeOutput()
    closeErrors()
  }

  // MARK: - Spawning

  package struct SpawnError: Error, CustomStringConvertible {
    package var call: String
    package var code: Int32
    package var description: String { "\(call) failed: \(String(cString: strerror(code)))" }
  }

  /// Starts `executable` with `arguments` (without the program name) and `environment`;
  /// `descriptor`, when given, becomes the worker's descriptor `descriptor.child`.
  ///
  /// The worker has its three pipes and that descriptor, and nothing else of the parent's:
  /// not what the command was given without close-on-exec by whatever started it (make's
  /// jobserver pipe, a CI runner's descriptors), nor what another thread of a process that
  /// hosts the pool opened without close-on-exec (in this package's tests, a file being
  /// written). A worker that inherited one would hold it open for as long as it runs, so a
  /// file's last close (for a file watcher, a change), a peer's end of file or a pipe
  /// reader's end of input would wait for the worker.
  ///
  /// The child starts with `SIGINT` blocked, so a Ctrl-C that reaches the whole process
  /// group before the worker has set it to be ignored does not kill it; `SIGPIPE` and
  /// `SIGINT` have their default actions.
  package static func spawn(
    executable: String, arguments: [String], environment: [String: String],
    passing descriptor: (parent: Int32, child: Int32)? = nil, listingDescriptors: Bool = false
  ) throws(SpawnError) -> WorkerProcess {
    // The pipes are close-on-exec as they are made (CCloseOnExecPipe), so a process spawned by
    // another thread never holds an end of them. Where that takes two calls (not Linux),
    // the lock keeps this type's own spawns from coming in between.
    spawnLock.lock()
    defer { spawnLock.unlock() }
    let stdin = try makePipe()
    let stdout = try makePipe()
    let stderr = try makePipe()
    #if os(macOS)
      var actions: posix_spawn_file_actions_t?
    #else
      var actions = posix_spawn_file_actions_t()
    #endif
    posix_spawn_file_actions_init(&actions)
    defer { posix_spawn_file_actions_destroy(&actions) }
    var flags = Int32(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF)
    posix_spawn_file_actions_adddup2(&actions, stdin.read, 0)
    posix_spawn_file_actions_adddup2(&actions, stdout.write, 1)
    posix_spawn_file_actions_adddup2(&actions, stderr.write, 2)
    // dup2 onto itself would keep close-on-exec: a descriptor that already has the child's
    // number is copied out of the way first.
    var moved: Int32 = -1
    defer { if moved >= 0 { close(moved) } }
    if let descriptor {
      var source = descriptor.parent
      if source == descriptor.child {
        moved = fcntl(source, F_DUPFD_CLOEXEC, descriptor.child + 1)
        source = moved
      }
      posix_spawn_file_actions_adddup2(&actions, source, descriptor.child)
    }
    closeTheRest(&actions, &flags, from: max(descriptor?.child ?? 2, 2) + 1, byListing: listingDescriptors)

    var attributes = posix_spawnattr_t()
    posix_spawnattr_init(&attributes)
    defer { posix_spawnattr_destroy(&attributes) }
    var blocked = sigset_t()
    sigemptyset(&blocked)
    sigaddset(&blocked, SIGINT)
    posix_spawnattr_setsigmask(&attributes, &blocked)
    var defaults = sigset_t()
    sigemptyset(&defaults)
    sigaddset(&defaults, SIGPIPE)
    sigaddset(&defaults, SIGINT)
    sigaddset(&defaults, SIGTERM)
    posix_spawnattr_setsigdefault(&attributes, &defaults)
    posix_spawnattr_setflags(&attributes, Int16(flags))

    let argv = ([executable] + arguments).map { strdup($0) } + [nil]
    let envp = environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
    defer {
      argv.forEach { free($0) }
      envp.forEach { free($0) }
    }
    var pid = pid_t()
    let code = posix_spawn(&pid, executable, &actions, &attributes, argv, envp)
    // The child's ends now belong to the child (or to nobody, on failure).
    close(stdin.read)
    close(stdout.write)
    close(stderr.write)
    guard code == 0 else {
      close(stdin.write)
      close(stdout.read)
      close(stderr.read)
      throw SpawnError(call: "posix_spawn \(executable)", code: code)
    }
    setNonBlocking(stdout.read)
    setNonBlocking(stderr.read)
    return WorkerProcess(pid: pid, input: stdin.write, output: stdout.read, errors: stderr.read)
  }

  private static let spawnLock = NSLock()

  #if os(macOS)
    package typealias FileActions = posix_spawn_file_actions_t?
  #else
    package typealias FileActions = posix_spawn_file_actions_t
  #endif

  /// Closes, in the child, every descriptor from `first` on that the file actions before
  /// this one did not make: glibc's `posix_spawn_file_actions_addclosefrom_np` (2.34 and
  /// later, looked up at run time), macOS's `POSIX_SPAWN_CLOEXEC_DEFAULT`; elsewhere, or
  /// `byListing` (for tests), a close action for each descriptor that `/proc/self/fd` lists
  /// without close-on-exec (one that another thread opens after the listing can still slip
  /// through).
  private static func closeTheRest(
    _ actions: inout FileActions, _ flags: inout Int32, from first: Int32, byListing: Bool
  ) {
    #if os(macOS)
      flags |= Int32(POSIX_SPAWN_CLOEXEC_DEFAULT)
    #elseif os(Linux)
      if !byListing, let closeFrom = addCloseFrom {
        _ = closeFrom(&actions, first)
        return
      }
      guard let directory = opendir("/proc/self/fd") else { return }
      defer { closedir(directory) }
      let listing = dirfd(directory)
      while let entry = readdir(directory) {
        let name = withUnsafeBytes(of: entry.pointee.d_name) {
          String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self)
        }
        guard let fd = Int32(name), fd >= first, fd != listing else { continue }
        let descriptorFlags = fcntl(fd, F_GETFD)
        if descriptorFlags >= 0, descriptorFlags & FD_CLOEXEC == 0 { posix_spawn_file_actions_addclose(&actions, fd) }
      }
    #endif
  }

  #if os(Linux)
    /// glibc's `posix_spawn_file_actions_addclosefrom_np`, which Swift's Glibc module does not
    /// declare; `nil` before glibc 2.34 and with other C libraries.
    private static let addCloseFrom: (@convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>, Int32) -> Int32)? = {
      guard let symbol = dlsym(nil, "posix_spawn_file_actions_addclosefrom_np") else { return nil }
      return unsafeBitCast(
        symbol, to: (@convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>, Int32) -> Int32).self)
    }()
  #endif

  private static func makePipe() throws(SpawnError) -> (read: Int32, write: Int32) {
    var fds: [Int32] = [-1, -1]
    guard reducer_spec_cloexec_pipe(&fds) == 0 else { throw SpawnError(call: "pipe", code: errno) }
    return (fds[0], fds[1])
  }

  private static func setNonBlocking(_ fd: Int32) {
    let flags = fcntl(fd, F_GETFL)
    _ = fcntl(fd, F_SETFL, flags | O_NONBLOCK)
  }

  // MARK: - Talking to it

  /// Writes `bytes` to the worker's standard input; `false` when the worker is gone.
  ///
  /// Writing to a worker that died raises `SIGPIPE`, which would end the command: the
  /// signal is blocked for the write, and the one the write raised is taken.
  package func send(_ bytes: [UInt8]) -> Bool {
    guard input >= 0 else { return false }
    var pipeSignal = sigset_t()
    sigemptyset(&pipeSignal)
    sigaddset(&pipeSignal, SIGPIPE)
    var previous = sigset_t()
    pthread_sigmask(SIG_BLOCK, &pipeSignal, &previous)
    defer { pthread_sigmask(SIG_SETMASK, &previous, nil) }
    var pending = sigset_t()
    sigpending(&pending)
    let wasPending = sigismember(&pending, SIGPIPE) == 1
    let sent = bytes.withUnsafeBytes { writeAll(input, $0) }
    if !sent, errno == EPIPE, !wasPending {
      var now = timespec()
      _ = sigtimedwait(&pipeSignal, nil, &now)
    }
    return sent
  }

  /// Reads what is available from one of the worker's output pipes into `buffer`: the
  /// bytes (empty when nothing is available yet), or `nil` at the end of the stream (the
  /// pipe is then closed).
  package func readAvailable(from stream: Stream, buffer: UnsafeMutableRawBufferPointer) -> [UInt8]? {
    let fd = stream == .output ? output : errors
    guard fd >= 0 else { return nil }
    var collected: [UInt8] = []
    while true {
      let count = read(fd, buffer.baseAddress, buffer.count)
      if count > 0 {
        collected.append(contentsOf: UnsafeRawBufferPointer(rebasing: buffer[..<count]))
        // A short read took all there was: no second read just to be told so.
        if count < buffer.count { return collected }
        continue
      }
      if count < 0, errno == EINTR { continue }
      if count < 0, errno == EAGAIN || errno == EWOULDBLOCK { return collected }
      // End of stream, or an error that ends it.
      if stream == .output { closeOutput() } else { closeErrors() }
      return collected.isEmpty ? nil : collected
    }
  }

  package enum Stream { case output, errors }

  package func closeInput() {
    if input >= 0 { close(input) }
    input = -1
  }

  private func closeOutput() {
    if output >= 0 { close(output) }
    output = -1
  }

  private func closeErrors() {
    if errors >= 0 { close(errors) }
    errors = -1
  }

  // MARK: - Ending it

  /// Sends `SIGKILL`; the worker cannot catch it.
  package func forceKill() {
    if status == nil { _ = kill(pid, SIGKILL) }
  }

  /// Waits for the worker to end and reaps it. A worker still running after `grace`
  /// is killed.
  @discardableResult
  package func wait(grace: Duration = .seconds(2)) -> Termination {
    if let status { return status }
    let clock = ContinuousClock()
    let deadline = clock.now + grace
    var raw: Int32 = 0
    while true {
      let reaped = waitpid(pid, &raw, WNOHANG)
      if reaped == pid { break }
      if reaped < 0, errno != EINTR {
        // Not our child any more (cannot happen in practice): report it as killed.
        status = .signaled(SIGKILL)
        return .signaled(SIGKILL)
      }
      if clock.now >= deadline {
        forceKill()
        while waitpid(pid, &raw, 0) < 0, errno == EINTR {}
        break
      }
      usleep(2_000)
    }
    let termination: Termination =
      raw & 0x7f == 0 ? .exited((raw >> 8) & 0xff) : .signaled(raw & 0x7f)
    status = termination
    return termination
  }
}

/// Writes all of `bytes` to `fd`, retrying after interruptions; `false` on an error.
package func writeAll(_ fd: Int32, _ bytes: UnsafeRawBufferPointer) -> Bool {
  var offset = 0
  while offset < bytes.count {
    let written = write(fd, bytes.baseAddress! + offset, bytes.count - offset)
    if written < 0 {
      if errno == EINTR { continue }
      return false
    }
    offset += written
  }
  return true
}

extension WorkerProcess {
  /// This process's executable, to start again as a worker.
  package static func currentExecutable() -> String {
    #if os(Linux)
      if let path = try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe") {
        return path
      }
    #endif
    return Bundle.main.executablePath ?? CommandLine.arguments[0]
  }
}
