import Foundation
import TestSupport
import Testing

/// Whether tmux is on the PATH (Debian: tmux; `.ci/run` installs it).
let tmuxPath: String? = {
  let searchPath = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
  return searchPath.split(separator: ":").map { "\($0)/tmux" }.first { FileManager.default.isExecutableFile(atPath: $0) }
}()
let tmuxAvailable = tmuxPath != nil

/// `reducer-spec --watch` as a terminal program: started in a detached tmux session of
/// 120 × 40, driven with `send-keys`, and read back with `capture-pane -p`, on a copy of
/// two small spec files that the test edits.
@Suite(.serialized) struct WatchEndToEndTests {
  static let counter = """
    feature: Counter
    scenarios:
      - name: Incrementing counts up
        steps:
          - send: increment
            state: { count: 1 }
      - name: Decrementing counts down
        steps:
          - send: decrement
            state: { count: -1 }

    """

  static let second = """
    feature: Counter
    scenarios:
      - name: Twice up
        steps:
          - send: increment
            state: { count: 1 }
          - send: increment
            state: { count: 2 }

    """

  static let status = "press a (all), f (failed), q (quit)"

  /// Writes `text` to `url` in place, or `atomically` (a copy renamed onto it, as editors
  /// save), through descriptors that are close-on-exec. Foundation's `write(to:atomically:)`
  /// opens its file without close-on-exec: a process that another test started at that
  /// moment would hold the file open, and its last close, whenever that process ends, is a
  /// file event that the watch would rerun the file for.
  static func write(_ text: String, to url: URL, atomically: Bool) throws {
    let target = url.path
    let path = atomically ? target + ".saving-\(UUID().uuidString.prefix(8))" : target
    let descriptor = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
    guard descriptor >= 0 else { throw TmuxError(description: "cannot write \(path): \(String(cString: strerror(errno)))") }
    let handle = FileHandle(fileDescriptor: descriptor, closeOnDealloc: true)
    try handle.write(contentsOf: Data(text.utf8))
    try handle.close()
    if atomically, rename(path, target) != 0 {
      throw TmuxError(description: "cannot rename \(path) to \(target): \(String(cString: strerror(errno)))")
    }
  }

  struct TmuxError: Error, CustomStringConvertible {
    var description: String
  }

  /// A tmux server of the test's own (its own socket), with one session.
  final class Tmux {
    let socket = "reducer-spec-watch-\(UUID().uuidString.prefix(8))"
    let session = "watch"

    /// Runs a tmux command and returns its output (standard output and error). Not with
    /// Foundation's `Process`: on Linux it sees a process end when a descriptor it passes
    /// to it closes, and the server that `new-session` starts keeps it open for ever.
    @discardableResult
    func run(_ arguments: [String]) throws -> String {
      let outputPath = NSTemporaryDirectory() + "reducer-spec-tmux-\(UUID().uuidString)"
      defer { unlink(outputPath) }
      #if os(macOS)
        var actions: posix_spawn_file_actions_t?
      #else
        var actions = posix_spawn_file_actions_t()
      #endif
      posix_spawn_file_actions_init(&actions)
      defer { posix_spawn_file_actions_destroy(&actions) }
      posix_spawn_file_actions_addopen(&actions, 1, outputPath, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
      posix_spawn_file_actions_adddup2(&actions, 1, 2)
      // Nothing else of the test process's: the server lives on, and would keep the pipes
      // of the processes that other tests run open (and their reads waiting).
      #if os(Linux)
        // glibc 2.34's posix_spawn_file_actions_addclosefrom_np, which Swift's Glibc does not
        // declare.
        typealias CloseFrom = @convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>, Int32) -> Int32
        if let symbol = dlsym(nil, "posix_spawn_file_actions_addclosefrom_np") {
          _ = unsafeBitCast(symbol, to: CloseFrom.self)(&actions, 3)
        }
      #endif
      let argv = ([tmuxPath!, "-L", socket] + arguments).map { strdup($0) } + [nil]
      defer { argv.forEach { free($0) } }
      var pid = pid_t()
      guard posix_spawn(&pid, tmuxPath!, &actions, nil, argv, environ) == 0 else {
        throw TmuxError(description: "could not start tmux \(arguments)")
      }
      var status: Int32 = 0
      while waitpid(pid, &status, 0) < 0, errno == EINTR {}
      return (try? String(contentsOfFile: outputPath, encoding: .utf8)) ?? ""
    }

    func screen() throws -> String { try run(["capture-pane", "-p", "-t", session]) }

    func send(_ keys: String) throws { try run(["send-keys", "-t", session, "-l", keys]) }

    /// Waits (up to 30 s) for the screen to satisfy `condition`; returns the screen.
    func waitFor(_ what: String, _ condition: (String) -> Bool) throws -> String {
      let deadline = Date().addingTimeInterval(30)
      var screen = ""
      while Date() < deadline {
        screen = try self.screen()
        if condition(screen) { return screen }
        usleep(100_000)
      }
      Issue.record("timed out waiting for \(what); the screen:\n\(screen)")
      return screen
    }

    /// The process id of the command: the child of the pane's shell.
    func commandPID() throws -> Int32? {
      let shell = Int32(try run(["display-message", "-p", "-t", session, "#{pane_pid}"]).trimmingCharacters(in: .whitespacesAndNewlines))
      #if os(Linux)
        return shell.flatMap { BuiltCommand.children(of: $0).first }
      #else
        return nil
      #endif
    }

    deinit {
      _ = try? run(["kill-server"])
      let directory = ProcessInfo.processInfo.environment["TMUX_TMPDIR"] ?? "/tmp"
      unlink("\(directory)/tmux-\(getuid())/\(socket)")
    }
  }

  /// Off a terminal (pipes), keys still come from standard input, and nothing clears the
  /// screen; Ctrl-C (SIGINT) ends the watch with exit status 0.
  @Test func offATerminalNothingIsCleared() async throws {
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent("reducer-spec-watch-\(UUID().uuidString)")
    defer { try? FileManager.default.removeItem(at: directory) }
    let specs = directory.appendingPathComponent("specs")
    try FileManager.default.createDirectory(at: specs, withIntermediateDirectories: true)
    try Self.write(Self.counter, to: specs.appendingPathComponent("counter.yaml"), atomically: true)

    let process = BuiltCommand.process(
      ["--watch", "--jobs", "1", "specs"],
      executable: BuiltCommand.productsDirectory.appendingPathComponent("reducer-spec"), directory: directory)
    let input = Pipe()
    let output = Pipe()
    process.standardInput = input
    process.standardOutput = output
    process.standardError = output
    let collected = Collected()
    output.fileHandleForReading.readabilityHandler = { collected.append($0.availableData, done: false) }
    try process.run()
    func waitFor(statusLines count: Int) async throws {
      let deadline = Date().addingTimeInterval(30)
      while collected.text.components(separatedBy: "press a (all)").count - 1 < count, Date() < deadline {
        try await Task.sleep(for: .milliseconds(50))
      }
    }
    try await waitFor(statusLines: 1)
    input.fileHandleForWriting.write(Data("a".utf8))
    try await waitFor(statusLines: 2)
    process.interrupt()
    try await BuiltCommand.onThread { process.waitUntilExit() }
    output.fileHandleForReading.readabilityHandler = nil
    collected.append(output.fileHandleForReading.readDataToEndOfFile(), done: true)

    #expect(process.terminationStatus == 0)
    #expect(
      BuiltCommand.normalized(collected.text) == """
        specs/counter.yaml
          ✓ Incrementing counts up (TIME)
          ✓ Decrementing counts down (TIME)

        2 passed, 0 failed, 0 skipped
        Watching 1 file · all passed · press a (all), f (failed), q (quit)
        Rerunning all the specs

        specs/counter.yaml
          ✓ Incrementing counts up (TIME)
          ✓ Decrementing counts down (TIME)

        2 passed, 0 failed, 0 skipped
        Watching 1 file · all passed · press a (all), f (failed), q (quit)


        """)
  }

  @Test(.enabled(if: ContinuousIntegration.runs(whenFound: tmuxAvailable), "tmux is not installed (Debian: tmux), so watch mode was NOT tested in a terminal"))
  func rerunsWhatChangedAndWhatTheKeysSay() async throws {
    guard tmuxAvailable else { throw MissingTool("tmux", debianPackage: "tmux") }
    try await BuiltCommand.onThread { try Self.drive() }
  }

  static func drive() throws {
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent("reducer-spec-watch-\(UUID().uuidString)")
    defer { try? FileManager.default.removeItem(at: directory) }
    let specs = directory.appendingPathComponent("specs")
    try FileManager.default.createDirectory(at: specs.appendingPathComponent("more"), withIntermediateDirectories: true)
    let counterFile = specs.appendingPathComponent("counter.yaml")
    try write(counter, to: counterFile, atomically: true)
    try write(second, to: specs.appendingPathComponent("more/second.yaml"), atomically: true)

    let tmux = Tmux()
    let executable = BuiltCommand.productsDirectory.appendingPathComponent("reducer-spec").path
    // After the command: its exit status, and whether the terminal is back in canonical
    // mode with echo (`stty -a` says `icanon` and `echo`, not `-icanon` and `-echo`).
    let script = """
      '\(executable)' --watch --jobs 1 specs; echo "exit status $?"; \
      stty -a | tr ' ;' '\\n\\n' | grep -x -e icanon -e -icanon -e echo -e -echo | tr '\\n' ' '; echo; read line
      """
    try tmux.run([
      "new-session", "-d", "-x", "120", "-y", "40", "-s", tmux.session, "-c", directory.path,
      "env", "-u", "NO_COLOR", "-u", "CI", "-u", "GITHUB_ACTIONS", "-u", "COLUMNS", "sh", "-c", script,
    ])
    let first = try tmux.waitFor("the first run") { $0.contains(status) }
    #expect(first.contains("specs/counter.yaml\n  ✓ Incrementing counts up"))
    #expect(first.contains("specs/more/second.yaml\n  ✓ Twice up"))
    #expect(first.contains("3 passed, 0 failed, 0 skipped"))
    #expect(first.contains("Watching 2 files · all passed · press a (all), f (failed), q (quit)"))
    let command = try tmux.commandPID()
    let workers = command.map { BuiltCommand.children(of: $0) } ?? []

    // Break a file: only it runs again, and fails.
    try write(counter.replacingOccurrences(of: "{ count: 1 }", with: "{ count: 7 }"), to: counterFile, atomically: false)
    let broken = try tmux.waitFor("the rerun of the broken file") { $0.contains("1 failed · press") }
    #expect(broken.hasPrefix("Changed: specs/counter.yaml\n\nspecs/counter.yaml\n  ✗ Incrementing counts up"))
    #expect(!broken.contains("second.yaml"))
    #expect(broken.contains("1 passed, 1 failed, 0 skipped"))
    #expect(broken.contains("Watching 2 files · 1 failed · press a (all), f (failed), q (quit)"))
    // The worker of the first run ran this one too: it stays warm between runs.
    if command != nil {
      #expect(!workers.isEmpty)
      #expect(BuiltCommand.children(of: command!) == workers)
    }

    // f: the failed scenario alone.
    try tmux.send("f")
    let failed = try tmux.waitFor("the rerun of the failed scenario") { $0.hasPrefix("Rerunning the 1 failed") && $0.contains(status) }
    #expect(failed.contains("specs/counter.yaml\n  ✗ Incrementing counts up"))
    #expect(!failed.contains("Decrementing"))
    #expect(failed.contains("0 passed, 1 failed, 0 skipped"))

    // Fix it.
    try write(counter, to: counterFile, atomically: true)
    let fixed = try tmux.waitFor("the rerun of the fixed file") { $0.hasPrefix("Changed:") && $0.contains("all passed · press") }
    #expect(fixed.hasPrefix("Changed: specs/counter.yaml\n\nspecs/counter.yaml\n  ✓ Incrementing counts up"))
    #expect(fixed.contains("2 passed, 0 failed, 0 skipped"))

    // A new file in a directory made while watching.
    try FileManager.default.createDirectory(at: specs.appendingPathComponent("new"), withIntermediateDirectories: true)
    try write(second, to: specs.appendingPathComponent("new/third.yaml"), atomically: true)
    let added = try tmux.waitFor("the run of the added file") { $0.contains("Watching 3 files") }
    #expect(added.hasPrefix("Added: specs/new/third.yaml\n\nspecs/new/third.yaml\n  ✓ Twice up"))

    // a: everything.
    try tmux.send("a")
    let all = try tmux.waitFor("the rerun of all") { $0.hasPrefix("Rerunning all the specs") && $0.contains(status) }
    #expect(all.contains("4 passed, 0 failed, 0 skipped"))
    #expect(all.contains("Watching 3 files · all passed · press a (all), f (failed), q (quit)"))

    // q: exit status 0, and the terminal as it was.
    try tmux.send("q")
    let end = try tmux.waitFor("the end") { $0.contains("exit status") && $0.contains("echo") }
    #expect(end.contains("exit status 0\n"))
    #expect(end.contains("icanon echo"))
  }
}
