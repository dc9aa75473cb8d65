#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif
import SpecRunner
import SpecWorkers
import SpecYAML

/// `reducer-spec --watch`: runs the specs, then waits for a spec file to change (or to be
/// added or removed) and reruns that file's scenarios, or for a key: `a` reruns all, `f`
/// reruns the scenarios that failed, `q` quits (as Ctrl-C does; exit status 0).
///
/// One `poll` waits on the file events (``FileWatcher``), standard input and the interrupt
/// pipe; bursts of events become one rerun (``Debouncer``). The worker processes stay
/// between runs (the pool keeps them, and tells them to read the files again). On a
/// terminal the screen is cleared before each run, and each run ends with the status line
/// (``WatchState/statusLine``).
@MainActor
struct WatchSession {
  /// The paths to watch: those given, or `specs`.
  var roots: [String]
  var worker: WorkerPool.Configuration
  /// A run with fresh reporters.
  var makeRun: () -> SpecRun
  /// Whether standard output is a terminal: the screen is cleared between runs.
  var isTerminal: Bool
  var output: (String) -> Void
  var flushOutput: () -> Void

  /// What a run reruns.
  enum Rerun {
    case all(header: String?)
    case files([String], header: String)
    case failed
  }

  func run() -> Int32 {
    let interrupt = InterruptPipe()
    var configuration = worker
    configuration.keepsWorkers = true
    let pool = WorkerPool(configuration)
    defer { pool.shutDown() }
    let keys = KeyboardInput()
    defer { keys.restore() }
    let watcher = FileWatcher(roots: roots)
    var state = WatchState(files: SpecPaths.snapshot(roots))
    var debouncer = Debouncer()
    let clock = ContinuousClock()

    if !perform(.all(header: nil), state: &state, pool: pool, interrupt: interrupt) { return 0 }
    var readsKeys = true
    var buffer = [UInt8](repeating: 0, count: 64)
    while true {
      flushOutput()
      var fds = [pollfd(fd: interrupt.readEnd, events: Int16(POLLIN), revents: 0)]
      if watcher.descriptor >= 0 { fds.append(pollfd(fd: watcher.descriptor, events: Int16(POLLIN), revents: 0)) }
      if readsKeys { fds.append(pollfd(fd: 0, events: Int16(POLLIN), revents: 0)) }
      _ = poll(&fds, nfds_t(fds.count), debouncer.pollTimeout(at: clock.now))
      let readable = Set(fds.filter { $0.revents != 0 }.map(\.fd))

      if interrupt.received() != nil { return quit() }
      if watcher.descriptor >= 0, readable.contains(watcher.descriptor) {
        debouncer.note(watcher.readEvents(), at: clock.now)
      }
      var rerun: Rerun?
      if readsKeys, readable.contains(0) {
        let count = read(0, &buffer, buffer.count)
        if count <= 0 {
          if count == 0 || (errno != EINTR && errno != EAGAIN) { readsKeys = false }  // No more keys.
        }
        for byte in buffer.prefix(max(count, 0)) {
          switch byte {
          case UInt8(ascii: "q"), UInt8(ascii: "Q"): return quit()
          case UInt8(ascii: "a"), UInt8(ascii: "A"): rerun = .all(header: "Rerunning all the specs")
          case UInt8(ascii: "f"), UInt8(ascii: "F"):
            if case .all = rerun { break }
            rerun = .failed
          default: break
          }
        }
      }
      if case .all = rerun {
        // Every file runs: what the events said is known.
        debouncer.reset()
        _ = state.update(to: SpecPaths.snapshot(roots))
      } else if rerun == nil, let touched = debouncer.take(at: clock.now) {
        let changes = state.update(to: SpecPaths.snapshot(roots), touched: touched)
        if !changes.isEmpty { rerun = .files(changes.toRun, header: changes.summary) }
      }
      if let rerun, !perform(rerun, state: &state, pool: pool, interrupt: interrupt) { return quit() }
    }
  }

  private func quit() -> Int32 {
    output("\n")
    flushOutput()
    return 0
  }

  /// Runs what `rerun` says and writes the status line; `false` when the run was
  /// interrupted (the session ends).
  private func perform(
    _ rerun: Rerun, state: inout WatchState, pool: WorkerPool, interrupt: InterruptPipe
  ) -> Bool {
    var files: [String]
    var header: String?
    var only: (scenarios: Set<ScenarioID>, wholeFiles: Set<String>)?
    var keep: ((PlannedScenario) -> Bool)?
    switch rerun {
    case .all(let text):
      files = SpecPaths.sorted(Array(state.files.keys))
      header = text
    case .files(let changed, let text):
      files = changed
      header = text
    case .failed:
      guard let failed = state.failedRun else {
        output("Nothing failed in the last runs: nothing to rerun.\n" + state.statusLine + "\n")
        return true
      }
      files = failed.files
      only = (failed.scenarios, failed.wholeFiles)
      keep = { failed.scenarios.contains($0.id) || failed.wholeFiles.contains($0.id.file) }
      header = "Rerunning the \(state.failedCount) failed"
    }
    if isTerminal { output("\u{1B}[H\u{1B}[2J") }  // Home, and clear the screen.
    if let header { output(header + "\n\n") }
    if !files.isEmpty {
      let outcome = makeRun().run(files: files, keep: keep, pool: pool, interrupt: interrupt)
      if case .interrupted = outcome.ending { return false }
      if let only {
        // The files with errors ran whole; of the others, only the failed scenarios ran.
        state.record(
          failed: outcome.failedScenarios, broken: outcome.brokenFiles, files: files.filter(only.wholeFiles.contains),
          scenarios: only.scenarios)
      } else {
        state.record(failed: outcome.failedScenarios, broken: outcome.brokenFiles, files: files)
      }
    } else {
      output("No spec files to run.\n\n")
    }
    output(state.statusLine + "\n")
    return true
  }
}

/// Standard input as single key presses: on a terminal, non-canonical mode without echo
/// while watching (each key is read as it is pressed, and not shown); the terminal's own
/// mode again with ``restore()``. Ctrl-C still sends SIGINT (to the interrupt pipe).
final class KeyboardInput {
  private var saved: termios?

  init() {
    guard isatty(0) == 1 else { return }
    var mode = termios()
    guard tcgetattr(0, &mode) == 0 else { return }
    saved = mode
    mode.c_lflag &= ~tcflag_t(ICANON | ECHO)
    withUnsafeMutableBytes(of: &mode.c_cc) { characters in
      characters[Int(VMIN)] = 1
      characters[Int(VTIME)] = 0
    }
    tcsetattr(0, TCSANOW, &mode)
  }

  /// Puts the terminal's mode back (once).
  func restore() {
    guard var mode = saved else { return }
    tcsetattr(0, TCSANOW, &mode)
    saved = nil
  }

  deinit { restore() }
}
