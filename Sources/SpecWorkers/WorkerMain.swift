#if canImport(Glibc)
  @preconcurrency import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif
import Foundation
import SpecAuthoring
import SpecProcess
import SpecRunner
import SpecYAML

/// The worker side of the pool: reads ``WorkerRequest``s from standard input, runs each
/// scenario on this process's engine, and answers on standard output (see
/// `WorkerProtocol.swift`).
package enum WorkerMain {
  /// Serves requests until standard input ends; returns the exit status.
  ///
  /// - Parameters:
  ///   - engine: Reads files and runs scenarios for `plan`, `run` and `check` requests.
  ///   - recorder: Reads and runs files for `record` requests: the features' own engine.
  @MainActor
  package static func serve(engine: any ScenarioEngine, recorder: SpecEngine) async -> Int32 {
    prepareProcess()
    let board = StepBoard.attach(environment: ProcessInfo.processInfo.environment)
    let channel = duplicateStandardOutput()
    var lines = LineBuffer()
    /// The scenarios of the files this worker read last, as their plans said, for `passed`
    /// answers, newest last: a scenario of another file (a retry, or a batch that another
    /// worker read) makes it read that file first. Only the last few, as the engine keeps
    /// only a few files, so that a worker's memory stays flat however many files it reads.
    var plans: [(file: String, scenarios: [ScenarioID: PlannedScenario])] = []
    func remember(_ file: String, _ plan: LoadedFile) {
      plans.removeAll { $0.file == file }
      if plans.count >= keptPlans { plans.removeFirst() }
      var scenarios: [ScenarioID: PlannedScenario] = [:]
      for scenario in plan.scenarios { scenarios[scenario.id] = scenario }
      plans.append((file, scenarios))
    }
    func plan(of file: String) -> Int? {
      for index in plans.indices.reversed() where plans[index].file == file { return index }
      return nil
    }
    var sequence: UInt32 = 0
    /// For `check` requests, made at the first.
    var checker: SpecCheck?
    var buffer = [UInt8](repeating: 0, count: 4096)
    // Built for code coverage, with a profile whose name has `%m` (`coverage --code`): the
    // counts go to the profile at the end of each batch of scenarios, so that a crash or a
    // timeout's kill, which write nothing, loses only the batch it ended. (After every
    // scenario would cost about 15 ms each: the profile of a debug build is megabytes.)
    let writesProfileAsItGoes =
      getenv("LLVM_PROFILE_FILE").map { String(cString: $0).contains("%m") } == true
      && ProfileRuntime.isInstrumented(executable: WorkerProcess.currentExecutable()) == true
    /// Ends a request's share of standard error, then answers it.
    func answer(_ message: WorkerMessage) {
      fflush(stdout)
      fflush(stderr)
      // The parent tells one request's output from the next one's by the marker (requests
      // come in batches).
      if !scenarioEndMarker.withUnsafeBytes({ writeAll(2, $0) }) { _exit(4) }
      send(message, to: channel)
    }
    /// A request starts: the board says so, and no step yet.
    func start() {
      sequence &+= 1
      board?.write(StepBoard.Record(sequence: sequence, line: 0, column: 0))
    }
    /// As each step of a scenario of `file` starts: a store into the shared board, which
    /// the parent reads only if this worker dies; a message only for a step in another
    /// file (or without a board).
    func stepStarted(_ location: FileLocation, file: String) {
      if let board {
        if location.file == file, let line = UInt32(exactly: location.line),
          let column = UInt32(exactly: location.column), line != StepBoard.elsewhere
        {
          board.write(StepBoard.Record(sequence: sequence, line: line, column: column))
          return
        }
        board.write(StepBoard.Record(sequence: sequence, line: StepBoard.elsewhere, column: 0))
      }
      send(.step(location), to: channel)
    }
    while true {
      let count = buffer.withUnsafeMutableBytes { read(0, $0.baseAddress, $0.count) }
      if count < 0, errno == EINTR { continue }
      guard count > 0 else {
        // The cancelled effects of the last scenario return once the main actor is free (it
        // was blocked in `read`): let them, so that the worker ends with nothing of theirs
        // still allocated. Half a second at most: the pool waits 2 s before it kills.
        let deadline = ContinuousClock.now.advanced(by: .milliseconds(500))
        for feature in recorder.features.values {
          await feature.waitForCancelledEffects(ContinuousClock.now.duration(to: deadline))
        }
        return 0
      }
      for line in lines.append(buffer[..<count]) {
        guard let request = WorkerRequest(line: line) else {
          fputs("reducer-spec worker: not a request: \(String(decoding: line, as: UTF8.self))\n", stderr)
          return 2
        }
        switch request {
        case .plan(let file):
          start()
          let plan = engine.load(files: [file])[0]
          remember(file, plan)
          answer(.plan(plan))
        case .run(let ids, let timeout):
          for id in ids {
            start()
            if plan(of: id.file) == nil { remember(id.file, engine.load(files: [id.file])[0]) }
            let result = await engine.run(id, timeout: .seconds(timeout)) { stepStarted($0, file: id.file) }
            if writesProfileAsItGoes, id == ids.last { ProfileRuntime.writeOwnProfile() }
            answer(.answer(result, planned: plan(of: id.file).flatMap { plans[$0].scenarios[id] }))
          }
        case .record(let file, let filter):
          start()
          let recorded = await SpecRecorder.record(
            file, filter: filter, engine: recorder,
            onScenario: {
              // Each scenario has the timeout to itself, and starts with no step.
              board?.write(StepBoard.Record(sequence: sequence, line: 0, column: 0))
              send(.recording, to: channel)
            },
            onStep: { stepStarted($0, file: file) })
          answer(.recorded(recorded))
        case .check(let file):
          start()
          let check = checker ?? SpecCheck(reader: engine)
          checker = check
          answer(.checked(check.check(file: file)))
        case .forget:
          plans = []
          engine.forgetFiles()
        }
      }
    }
  }

  /// How many files' plans a worker keeps (see `serve`): more than the engine's cache, which
  /// is more than the files a worker has in hand at once (those it was asked to read ahead,
  /// `WorkerPool.readsAhead`, and the batches of those it read before them).
  static let keptPlans = SpecEngine.cacheSize + 8

  /// Ignores `SIGINT` (the parent alone handles Ctrl-C) and exits if the parent dies.
  private static func prepareProcess() {
    signal(SIGINT, SIG_IGN)
    var unblocked = sigset_t()
    sigemptyset(&unblocked)
    sigaddset(&unblocked, SIGINT)
    pthread_sigmask(SIG_UNBLOCK, &unblocked, nil)

    // A worker whose parent was killed outright must not hang on forever: when the parent
    // changes (the worker is adopted), exit.
    let parent = getppid()
    Thread.detachNewThread {
      while true {
        sleep(1)
        if getppid() != parent { _exit(3) }
      }
    }
  }

  /// Moves the protocol to a descriptor of its own and points standard output at standard
  /// error, so that whatever a reducer prints cannot break the protocol: it is captured
  /// with the worker's standard error instead.
  private static func duplicateStandardOutput() -> Int32 {
    fflush(stdout)
    let channel = dup(1)
    _ = fcntl(channel, F_SETFD, FD_CLOEXEC)
    dup2(2, 1)
    setvbuf(stdout, nil, _IOLBF, 0)
    return channel
  }

  private static func send(_ message: WorkerMessage, to channel: Int32) {
    let bytes = message.line
    let sent = bytes.withUnsafeBytes { writeAll(channel, $0) }
    if !sent { _exit(4) }  // The parent is gone.
  }
}
