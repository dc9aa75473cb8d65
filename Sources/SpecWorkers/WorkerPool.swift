#if canImport(Glibc)
  import Glibc
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

/// Reads spec files and runs their scenarios in worker processes, `jobs` at a time, and
/// reports each file as it is read (in file order) and each result as it arrives (in
/// completion order; ``OrderedDelivery`` puts them back in run order).
///
/// The command reads no spec file itself: a worker reads each file (a `plan` request) and
/// answers with its scenarios, which the command selects and sends back as batches, each
/// to the worker that read the file, which has it loaded still. A worker is always sent the
/// next file to read before the scenarios of the last one, so that it reads one while the
/// command chooses what it runs next, and never waits for the command.
///
/// A worker that crashes or runs past the timeout fails only the scenario it was in (or,
/// while reading a file, that file), with what happened and the tail of its standard
/// error; the rest of what it was sent goes to a fresh worker. One `poll` loop on the
/// calling thread watches every worker's pipes, the deadlines, and the interrupt pipe.
///
/// ``record(files:filter:interrupt:onRecorded:)`` has the workers record files instead
/// (`reducer-spec record`), one file a worker at a time, with the same timeouts, crash
/// reports and output; ``check(files:interrupt:here:onChecked:)`` has them check files
/// (`reducer-spec check`), a few files ahead a worker, while this process checks files too.
@MainActor
package final class WorkerPool {
  package struct Configuration: Sendable {
    /// The executable to start as a worker, and its arguments.
    package var executable: String
    package var arguments: [String] = [workerArgument]
    package var environment: [String: String]
    package var jobs: Int
    /// How long a scenario may take (and reading a file; and recording a scenario).
    package var timeout: Duration
    /// How much longer the pool waits before it kills a worker, so that an engine that
    /// enforces the timeout itself can report its own result first.
    package var grace: Duration = .milliseconds(500)
    /// How long a new worker may take to begin its first request: ten seconds, or the
    /// timeout if that is longer. The time a worker takes to start (loading the executable
    /// and its libraries, which a loaded machine or a sanitized build makes slow) does not
    /// count toward its first request's timeout.
    var startupLimit: Duration { max(.seconds(10), timeout) }
    /// Dispatch nothing more once a scenario failed (`--fail-fast`).
    package var stopAfterFailure: Bool
    /// Keep the idle workers when a run ends, for the pool's next run (`--watch`); the
    /// caller ends them with ``shutDown()``. A run that is interrupted ends them anyway.
    package var keepsWorkers = false

    package init(
      executable: String, arguments: [String] = [workerArgument], environment: [String: String], jobs: Int,
      timeout: Duration, grace: Duration = .milliseconds(500), stopAfterFailure: Bool, keepsWorkers: Bool = false
    ) {
      self.executable = executable
      self.arguments = arguments
      self.environment = environment
      self.jobs = jobs
      self.timeout = timeout
      self.grace = grace
      self.stopAfterFailure = stopAfterFailure
      self.keepsWorkers = keepsWorkers
    }

    /// The command's environment for its workers. Swift's crash backtraces are long and slow
    /// to print, and the report of a crash quotes the end of the worker's standard error,
    /// which should be the fatal error: `SWIFT_BACKTRACE=enable=no`, unless the user set
    /// `SWIFT_BACKTRACE`.
    package static func workerEnvironment(_ environment: [String: String]) -> [String: String] {
      var environment = environment
      if environment["SWIFT_BACKTRACE"] == nil { environment["SWIFT_BACKTRACE"] = "enable=no" }
      return environment
    }
  }

  /// How a run of the pool ended.
  package enum Ending: Equatable {
    /// Every file was read and every scenario selected from them ran.
    case completed
    /// A scenario failed with `stopAfterFailure`, and some scenarios (or files) were not started.
    case stoppedAfterFailure
    /// A signal arrived on the interrupt pipe; the workers were killed.
    case interrupted(signal: Int32)
  }

  /// How many lines of a worker's standard error an `.error` result quotes.
  nonisolated static let quotedErrorLines = 10
  /// The most scenarios a worker is sent at once.
  nonisolated static let maxBatch = 16
  /// How many files a worker with scenarios queued is asked to read ahead of them. A worker
  /// keeps more files than this (``SpecEngine/cacheSize``), so that it has a file's
  /// scenarios still loaded when they come.
  nonisolated static let readsAhead = 10
  /// While a worker has this many scenarios or fewer queued, it is sent the next batches (at
  /// the end of a run, the next one). With this much work in hand (about 12 ms of the
  /// benchmark's scenarios, and the files read ahead), the command wakes about a third as
  /// often as with 32 and 4 files ahead, and each wake-up takes a core from a worker when
  /// every core runs one.
  nonisolated static let runsAhead = 80

  private let configuration: Configuration
  /// How long after its start a request's worker is killed: the timeout and the grace.
  private let killAfter: Duration
  private var slots: [Slot] = []
  private let clock = ContinuousClock()
  /// Reused for every read from a worker.
  private var readBuffer = [UInt8](repeating: 0, count: 65536)

  // The run's state (reset by each run: see `startRun`).
  private var files: [String] = []
  /// The next file no worker was asked to read.
  private var nextFile = 0
  /// Files whose worker died before it read them: they are read first.
  private var rereads: [Int] = []
  /// Files read, waiting for the files before them (selection goes in file order).
  private var arrived = IndexWindow<(file: LoadedFile, output: [UInt8], reader: Slot?)>()
  /// How many files were read and selected from, in file order.
  private var selectedFiles = 0
  /// Every scenario selected so far, in run order: a result's index is its place here.
  private var scenarios = IndexWindow<PlannedScenario>()
  /// How many scenarios were selected: the next one's index.
  private var scenarioCount = 0
  /// Scenarios selected and not yet sent, a batch per file (or part of one).
  private var ready: [Batch] = []
  /// Scenarios whose worker died before it ran them: they go first, to any worker.
  private var retries: [Int] = []
  private var stopping = false
  /// Running scenarios, recording files (with this filter), or checking files.
  private var mode = Mode.run
  /// How many files were recorded or checked, or failed to be.
  private var answeredFiles = 0
  /// The caller's: see `run`.
  private var planned: (_ file: Int, _ loaded: LoadedFile, _ errorOutput: [UInt8]) -> [PlannedScenario] = { _, _, _ in [] }
  private var onResult: (_ index: Int, _ result: ScenarioResult, _ errorOutput: [UInt8]) -> Void = { _, _, _ in }
  private var onRecorded: (_ file: Int, _ answer: RecordAnswer, _ errorOutput: [UInt8]) -> Void = { _, _, _ in }
  private var onChecked: (_ file: Int, _ checked: CheckedFile, _ errorOutput: [UInt8]) -> Void = { _, _, _ in }
  private var checkHere: ((String) -> CheckedFile)?

  private enum Mode {
    case run
    case record(filter: String?)
    case check
  }

  /// How recording a file ended.
  package enum RecordAnswer: Equatable {
    /// The worker answered.
    case recorded(RecordedFile)
    /// The worker crashed or ran past the timeout (`message`, as a run's error says it), or
    /// could not be started; `quote` is the tail of its standard error, under a line that
    /// says what it is (or empty).
    case failed(message: String, quote: String)
  }

  private struct Batch {
    package var indices: [Int]
    /// The worker that read the file, which has it loaded; `nil` when it is gone.
    package var reader: Slot?
  }

  package init(_ configuration: Configuration) {
    self.configuration = configuration
    killAfter = configuration.timeout + configuration.grace
  }

  // MARK: - Running

  /// Reads `files` and runs the scenarios that `planned` selects from each.
  ///
  /// - Parameters:
  ///   - beforeWaiting: Called each time the pool is about to wait for its workers.
  ///   - planned: Called once per file read, in the order of `files`, with what the worker
  ///     wrote to standard error while it read it; returns the file's scenarios to run, in
  ///     order. The results' indices count these across all files.
  ///   - onResult: Called with each result: its scenario's index, the result, and what its
  ///     worker wrote to standard error while it ran.
  /// - Returns: How the run ended. Files not read by then were never passed to `planned`.
  package func run(
    files: [String], interrupt: InterruptPipe?, beforeWaiting: () -> Void = {},
    planned: @escaping (_ file: Int, _ loaded: LoadedFile, _ errorOutput: [UInt8]) -> [PlannedScenario],
    onResult: @escaping (_ index: Int, _ result: ScenarioResult, _ errorOutput: [UInt8]) -> Void
  ) -> Ending {
    startRun(files: files)
    self.planned = planned
    self.onResult = onResult
    return loop(interrupt: interrupt, beforeWaiting: beforeWaiting)
  }

  /// Records `files` (``WorkerRequest/record(_:filter:)``), one at a time in each worker,
  /// and hands each file's answer to `onRecorded` as it arrives (in completion order), with
  /// what its worker wrote to standard error while it recorded it. A scenario that runs
  /// past the timeout is stopped with its worker, as in a run.
  package func record(
    files: [String], filter: String?, interrupt: InterruptPipe?,
    onRecorded: @escaping (_ file: Int, _ answer: RecordAnswer, _ errorOutput: [UInt8]) -> Void
  ) -> Ending {
    startRun(files: files)
    self.mode = .record(filter: filter)
    self.onRecorded = onRecorded
    return loop(interrupt: interrupt, beforeWaiting: {})
  }

  /// Checks `files` (``WorkerRequest/check(_:)``), keeping each worker ``checkAhead`` files
  /// ahead so that it never waits for the command, and hands each file's answer to
  /// `onChecked` as it arrives (in completion order), with what its worker wrote to
  /// standard error while it checked it. A file whose worker crashed or ran past the
  /// timeout is a file that could not be read, with what happened as its error.
  package func check(
    files: [String], interrupt: InterruptPipe?, here: ((String) -> CheckedFile)? = nil,
    onChecked: @escaping (_ file: Int, _ checked: CheckedFile, _ errorOutput: [UInt8]) -> Void
  ) -> Ending {
    startRun(files: files)
    self.mode = .check
    self.checkHere = here
    self.onChecked = onChecked
    return loop(interrupt: interrupt, beforeWaiting: {})
  }

  /// How many files a worker that checks is sent at once.
  static let checkAhead = 3

  /// Checks the next file in this process, when the caller of ``check(files:interrupt:here:onChecked:)``
  /// gave a way to, no file waits for a worker that died, and every worker has
  /// ``checkAhead`` files in hand. Returns whether it did.
  private func checkOneHere() -> Bool {
    guard case .check = mode, let checkHere, rereads.isEmpty, nextFile < files.count,
      slots.allSatisfy({ $0.isDead || $0.tasks.count >= Self.checkAhead })
    else { return false }
    let file = nextFile
    nextFile += 1
    answeredFiles += 1
    onChecked(file, checkHere(files[file]), [])
    return true
  }

  /// Forgets the last run, and tells the workers kept from it to forget the files they
  /// read (they may have changed since).
  private func startRun(files: [String]) {
    self.files = files
    nextFile = 0
    rereads = []
    arrived = IndexWindow()
    selectedFiles = 0
    scenarios = IndexWindow()
    scenarioCount = 0
    ready = []
    retries = []
    stopping = false
    mode = .run
    answeredFiles = 0
    for slot in slots where !slot.isDead && slot.process.output >= 0 {
      _ = slot.process.send(WorkerRequest.forget.line)  // A dead worker shows as the end of its output.
    }
  }

  private func loop(interrupt: InterruptPipe?, beforeWaiting: () -> Void) -> Ending {
    var keepsWorkers = configuration.keepsWorkers
    defer { if !keepsWorkers { shutDown() } }
    while true {
      removeEndedWorkers()
      dispatch()
      if slots.allSatisfy({ $0.tasks.isEmpty }) {
        if isFinished { return .completed }
        if stopping { return .stoppedAfterFailure }
      }

      // Wait for output, the end of a worker, a deadline, or a signal.
      var fds: [pollfd] = []
      if let interrupt { fds.append(pollfd(fd: interrupt.readEnd, events: Int16(POLLIN), revents: 0)) }
      for slot in slots {
        for fd in [slot.process.output, slot.process.errors] where fd >= 0 {
          fds.append(pollfd(fd: fd, events: Int16(POLLIN), revents: 0))
        }
      }
      beforeWaiting()
      // Checking with this process's share: one file while every worker has its files in
      // hand, then a look at the workers without waiting.
      let checkedHere = checkOneHere()
      if !checkedHere { napWhileWorkersAreBusy() }
      _ = poll(&fds, nfds_t(fds.count), checkedHere ? 0 : pollTimeout())
      let readable = Set(fds.filter { $0.revents != 0 }.map(\.fd))

      if let signal = interrupt?.received() {
        for slot in slots { slot.process.forceKill() }
        keepsWorkers = false
        return .interrupted(signal: signal)
      }
      for slot in slots {
        let hasOutput = readable.contains(slot.process.output)
        let output = hasOutput ? read(slot, .output) : []
        // After the output: a worker writes an answer's end marker to standard error
        // before the answer, so the markers of every answer just read are there now.
        if hasOutput || readable.contains(slot.process.errors) { drainErrors(slot) }
        if hasOutput {
          if slot.tasks.isEmpty {
            // An idle worker that ends: drop it; a new one starts when needed.
            if output == nil { slot.isDead = true }
          } else if let bytes = output {
            for line in slot.lines.append(bytes) {
              guard let task = slot.tasks.first else { break }
              switch handle(line, of: slot, task: task) {
              case .none: break
              case .read(let file):
                guard case .read(let index) = slot.tasks.removeFirst().kind else { break }
                startNext(slot, after: task)
                fileRead(index, file, output: slot.takeScenarioOutput(), by: slot)
              case .finished(let result):
                slot.tasks.removeFirst()
                startNext(slot, after: task)
                report(task, result, output: slot.takeScenarioOutput())
              case .recorded(let recorded):
                guard case .record(let index) = slot.tasks.removeFirst().kind else { break }
                startNext(slot, after: task)
                answeredFiles += 1
                onRecorded(index, .recorded(recorded), slot.takeScenarioOutput())
              case .checked(let checked):
                guard case .check(let index) = slot.tasks.removeFirst().kind else { break }
                startNext(slot, after: task)
                answeredFiles += 1
                onChecked(index, checked, slot.takeScenarioOutput())
              case .broken(let message, let placed):
                // Ended and reaped before its step board is read: a live worker may be
                // storing into it while the command reads.
                stop(slot) { placed ? "\(message) \(whereStuck(task, of: slot))" : message }
              }
            }
          }
        }
        // The worker's output ended in the middle of a request, whether or not the same read
        // brought its last answers: it crashed or exited.
        if slot.process.output < 0, !slot.tasks.isEmpty, !slot.isDead {
          let termination = slot.process.wait()
          let what: String
          switch termination {
          case .signaled(let signal): what = "the worker crashed with signal \(SignalName.describe(signal))"
          case .exited(let status): what = "the worker exited with status \(status)"
          }
          fail(slot, "\(what) \(whereStuck(slot.tasks[0], of: slot))")
        }
      }
      // Deadlines.
      let now = clock.now
      for slot in slots {
        guard let task = slot.tasks.first else { continue }
        if !slot.hasBegun {
          // (A slot that has not begun has a board: one without counts as begun.)
          if slot.board?.sequence != 0 {
            // The worker began its first request: that request's time starts now.
            slot.hasBegun = true
            slot.tasks[0].started = now
          } else if now >= slot.spawned + configuration.startupLimit + configuration.grace {
            stop(slot) { "the worker did not start within \(DurationText.format(configuration.startupLimit))" }
          }
          continue
        }
        guard now >= task.started + killAfter else { continue }
        stop(slot) {
          let limit = DurationText.format(configuration.timeout)
          switch task.kind {
          case .read: return "reading the file timed out after \(limit)"
          case .check: return "checking the file timed out after \(limit)"
          case .run: return "the scenario timed out after \(limit) \(whereStuck(task, of: slot))"
          case .record:
            return task.scenarios == 0
              ? "reading the file timed out after \(limit)"
              : "the scenario timed out after \(limit) \(whereStuck(task, of: slot))"
          }
        }
      }
    }
  }

  /// Every file was read and selected from, and every scenario selected was answered (or
  /// every file was recorded, or checked).
  private var isFinished: Bool {
    switch mode {
    case .record, .check: return answeredFiles == files.count
    case .run: break
    }
    return selectedFiles == files.count && ready.isEmpty && retries.isEmpty && arrived.isEmpty
  }

  /// No file is left for a worker to read.
  private var everyFileSent: Bool { nextFile == files.count && rereads.isEmpty }

  // MARK: - Dispatching

  /// Sends each worker what it should do next, and starts workers while there is work that
  /// the running ones will not take.
  private func dispatch() {
    guard !stopping else { return }
    while slots.count < configuration.jobs, hasWorkForANewWorker {
      do {
        slots.append(try spawn())
      } catch {
        failToStart(error)
        if stopping { return }
      }
    }
    if case .run = mode {
      dispatchRuns()
      return
    }
    for slot in slots where !slot.isDead && slot.process.output >= 0 {
      var requests: [UInt8] = []
      let now = clock.now
      func append(_ kind: Slot.Task.Kind, _ request: WorkerRequest) {
        slot.sent &+= 1
        slot.tasks.append(Slot.Task(kind: kind, started: now, sequence: slot.sent))
        requests += request.line
      }
      // Recording: one file at a time, so that a file's scenarios never wait behind another's.
      if case .record(let filter) = mode {
        if slot.tasks.isEmpty, let file = takeFile() {
          append(.record(file: file), .record(files[file], filter: filter))
          _ = slot.process.send(requests)
        }
        continue
      }
      // Checking.
      while slot.tasks.count < Self.checkAhead, let file = takeFile() {
        append(.check(file: file), .check(files[file]))
      }
      if !requests.isEmpty { _ = slot.process.send(requests) }
    }
  }

  /// Sends the workers of a run what they should read and run next.
  ///
  /// - The next file to read goes first: the worker reads it while the command receives the
  ///   results of the batch before, and has it loaded when its scenarios come.
  /// - The next batch goes while the worker still has some of the last one to run, so that it
  ///   never waits for the command between batches; with --fail-fast, only once the last one
  ///   ended.
  /// - A worker with scenarios queued is also asked to read a few more files ahead (not with
  ///   --fail-fast), a file a worker at a time, so that a small suite's files spread over the
  ///   workers: with several milliseconds of work queued, the command naps while it works
  ///   and takes in its answers many at a time (``napWhileWorkersAreBusy()``), instead of
  ///   waking up for each scenario.
  private func dispatchRuns() {
    // (Plain loops: a closure here would check that it runs on the main actor each call.)
    var live: [Slot] = []
    for slot in slots where !slot.isDead && slot.process.output >= 0 { live.append(slot) }
    let now = clock.now
    var requests = [[UInt8]](repeating: [], count: live.count)
    var reads = [Int](repeating: 0, count: live.count)
    var batchesRead = [Int](repeating: 0, count: live.count)
    func read(_ position: Int, _ file: Int) {
      let slot = live[position]
      slot.sent &+= 1
      slot.tasks.append(Slot.Task(kind: .read(file: file), started: now, sequence: slot.sent))
      requests[position] += WorkerRequest.plan(files[file]).line
      reads[position] += 1
    }
    // At the end, one batch at a time: the last scenarios are shared out in small batches.
    let lowWater = configuration.stopAfterFailure ? 0 : everyFileSent ? Self.maxBatch / 2 : Self.runsAhead
    for position in live.indices {
      let slot = live[position]
      for task in slot.tasks where task.isRead { reads[position] += 1 }
      for batch in ready where batch.reader === slot { batchesRead[position] += 1 }
      if reads[position] == 0, batchesRead[position] < 2, let file = takeFile() { read(position, file) }
      var batches = 0
      while slot.tasks.count - reads[position] <= lowWater, batches == 0 || !everyFileSent,
        let batch = takeBatch(for: slot)
      {
        for index in batch {
          slot.sent &+= 1
          slot.tasks.append(Slot.Task(kind: .run(index: index), started: now, sequence: slot.sent))
        }
        requests[position] += WorkerRequest.run(batch.map { plan($0).id }, timeout: configuration.timeout.inSeconds).line
        batches += 1
      }
    }
    // Not with --fail-fast, which reads no more than it must before a failure stops the run.
    var readAhead = !configuration.stopAfterFailure
    while readAhead {
      readAhead = false
      for position in live.indices
      where live[position].tasks.count > reads[position] && reads[position] < Self.readsAhead
        && batchesRead[position] < Self.readsAhead
      {
        // Scenarios are selected in file order: while a file that another worker reads is
        // not in, the files read after it wait unselected, and a worker that went on reading
        // would have dropped the first of them (it keeps ``SpecEngine/cacheSize``) before
        // their scenarios came.
        guard nextFile - selectedFiles < Self.readsAhead * live.count, let file = takeFile() else { break }
        read(position, file)
        readAhead = true
      }
    }
    for position in live.indices where !requests[position].isEmpty {
      _ = live[position].process.send(requests[position])  // A dead worker shows as the end of its output.
    }
  }

  private var hasWorkForANewWorker: Bool {
    if !retries.isEmpty || !everyFileSent || ready.contains(where: { $0.reader == nil }) { return true }
    return !ready.isEmpty && slots.allSatisfy { !$0.tasks.isEmpty }
  }

  private func takeFile() -> Int? {
    if !rereads.isEmpty { return rereads.removeFirst() }
    guard nextFile < files.count else { return nil }
    defer { nextFile += 1 }
    return nextFile
  }

  /// The retries, else a batch of a file this worker read, else (once every file was sent
  /// to be read, or when its reader is gone) any batch.
  private func takeBatch(for slot: Slot) -> [Int]? {
    if !retries.isEmpty {
      defer { retries = [] }
      return retries
    }
    let position =
      ready.firstIndex { $0.reader === slot }
      ?? ready.firstIndex { $0.reader == nil }
      ?? (everyFileSent ? ready.indices.first : nil)
    return position.map { ready.remove(at: $0).indices }
  }

  /// A worker could not be started: the next thing it would have done fails.
  private func failToStart(_ error: WorkerProcess.SpawnError) {
    let message = "could not start a worker: \(error)"
    if case .record = mode, let file = takeFile() {
      answeredFiles += 1
      onRecorded(file, .failed(message: message, quote: ""), [])
    } else if case .check = mode, let file = takeFile() {
      answeredFiles += 1
      onChecked(file, CheckedFile(file: unreadable(files[file], message), skipReasons: []), [])
    } else if let file = takeFile() {
      fileRead(file, unreadable(files[file], message), output: [], by: nil)
    } else if !retries.isEmpty || !ready.isEmpty {
      let index = retries.isEmpty ? ready[0].indices.removeFirst() : retries.removeFirst()
      if ready.first?.indices.isEmpty == true { ready.removeFirst() }
      let result = errorResult(plan(index), message: message, duration: 0)
      report(index: index, result, output: [])
    }
  }

  // MARK: - Answers

  /// The file at `index` of the run's files was read: selects from it and every file after
  /// it that waited for it (selection goes in file order).
  private func fileRead(
    _ index: Int, _ file: LoadedFile, output: [UInt8], by reader: Slot?
  ) {
    arrived[index] = (file, output, reader)
    while let next = arrived.removeValue(forKey: selectedFiles) {
      let selected = planned(selectedFiles, next.file, next.output)
      selectedFiles += 1
      guard !selected.isEmpty else { continue }
      let first = scenarioCount
      for scenario in selected {
        scenarios[scenarioCount] = scenario
        scenarioCount += 1
      }
      // Small batches once the last files are read, so that every worker gets a share of
      // them; one at a time with --fail-fast, which must not start what follows a failure.
      let size =
        configuration.stopAfterFailure
        ? 1 : everyFileSent ? max(1, min(Self.maxBatch, selected.count / (2 * configuration.jobs))) : Self.maxBatch
      let reader = next.reader.flatMap { $0.isDead ? nil : $0 }
      for start in stride(from: first, to: scenarioCount, by: size) {
        ready.append(Batch(indices: Array(start..<min(start + size, scenarioCount)), reader: reader))
      }
    }
  }

  /// The scenario at `index`, which has no result yet.
  private func plan(_ index: Int) -> PlannedScenario {
    guard let scenario = scenarios[index] else { preconditionFailure("scenario \(index) already has its result") }
    return scenario
  }

  private func report(_ task: Slot.Task, _ result: ScenarioResult, output: [UInt8]) {
    guard case .run(let index) = task.kind else { return }
    report(index: index, result, output: output)
  }

  private func report(index: Int, _ result: ScenarioResult, output: [UInt8]) {
    if configuration.stopAfterFailure, result.outcome == .failed || result.outcome == .error {
      stopping = true
    }
    // Its plan is not needed any more: the pool keeps only what is in flight or waiting.
    scenarios[index] = nil
    onResult(index, result, output)
  }

  /// The request after the one that ended starts now. The one that ended is averaged into
  /// the slot's estimate of a request's time.
  private func startNext(_ slot: Slot, after ended: Slot.Task) {
    let now = clock.now
    slot.averageTask += ((now - ended.started).inSeconds - slot.averageTask) / Self.averagedAnswers
    slot.step = nil
    if !slot.tasks.isEmpty { slot.tasks[0].started = now }
  }

  /// Kills and reaps the slot's worker, then fails its current request (``fail(_:_:)``)
  /// with the message `message` makes: made once the worker is dead, as it may read the
  /// worker's step board, which a live worker may be storing into.
  private func stop(_ slot: Slot, _ message: () -> String) {
    slot.process.forceKill()
    slot.process.wait()
    fail(slot, message())
  }

  /// The slot's worker is dead or broken: its current request fails with `message` (and
  /// the tail of its standard error), and the rest of what it was sent goes to other
  /// workers.
  private func fail(_ slot: Slot, _ message: String) {
    slot.isDead = true
    drainErrors(slot)
    let output = slot.takeAllOutput()
    let task = slot.tasks.removeFirst()
    for other in slot.tasks {
      switch other.kind {
      case .read(let file), .record(let file), .check(let file): rereads.append(file)
      case .run(let index): retries.append(index)
      }
    }
    rereads.sort()
    retries.sort()
    slot.tasks = []
    for index in ready.indices where ready[index].reader === slot { ready[index].reader = nil }
    for key in arrived.indices where arrived[key]?.reader === slot { arrived[key]?.reader = nil }
    let text = message + Self.quote(output)
    switch task.kind {
    case .read(let file):
      fileRead(file, unreadable(files[file], text), output: output, by: nil)
    case .run(let index):
      let result = errorResult(plan(index), message: text, duration: (clock.now - task.started).inSeconds)
      report(index: index, result, output: output)
    case .record(let file):
      answeredFiles += 1
      onRecorded(file, .failed(message: message, quote: Self.quote(output)), output)
    case .check(let file):
      answeredFiles += 1
      onChecked(file, CheckedFile(file: unreadable(files[file], text), skipReasons: []), output)
    }
  }

  /// A file that a worker could not read, as the run reports it.
  private func unreadable(_ file: String, _ message: String) -> LoadedFile {
    let error = SpecFileError(file: file, location: FileLocation(file: file, line: 0, column: 0), message: message)
    return LoadedFile(file: file, feature: nil, scenarios: [], errors: [error])
  }

  /// Starts a worker, with a step board when the system gives one.
  private func spawn() throws(WorkerProcess.SpawnError) -> Slot {
    var environment = configuration.environment
    let board = StepBoard.create()
    defer { if let board { close(board.descriptor) } }  // The worker has its own copy.
    if board != nil { environment[StepBoard.environmentKey] = "\(StepBoard.workerDescriptor)" }
    let process = try WorkerProcess.spawn(
      executable: configuration.executable, arguments: configuration.arguments, environment: environment,
      passing: board.map { ($0.descriptor, StepBoard.workerDescriptor) })
    return Slot(process: process, board: board?.board, spawned: clock.now)
  }

  // MARK: - Messages from a worker

  private enum Handled {
    case none
    case read(LoadedFile)
    case finished(ScenarioResult)
    case recorded(RecordedFile)
    case checked(CheckedFile)
    /// The worker must be stopped: the message, and whether the step it was in goes after it.
    case broken(String, placed: Bool = false)
  }

  private func handle(_ line: [UInt8], of slot: Slot, task: Slot.Task) -> Handled {
    guard let message = WorkerMessage(line: line) else {
      let text = String(decoding: line.prefix(200), as: UTF8.self)
      return .broken("the worker broke the protocol with the line '\(text)'", placed: true)
    }
    if case .step(let step) = message {
      slot.step = step
      return .none
    }
    switch task.kind {
    case .read(let file):
      guard case .plan(let loaded) = message, loaded.file == files[file] else {
        return .broken("the worker did not answer with the scenarios of \(files[file])")
      }
      return .read(loaded)
    case .run(let index):
      switch message {
      case .passed(let duration, let stubCalls):
        return .finished(WorkerMessage.passedResult(plan(index), duration: duration, stubCalls: stubCalls))
      case .result(let result):
        guard result.id == plan(index).id else {
          return .broken("the worker answered for \(result.id) instead of \(plan(index).id)")
        }
        return .finished(result)
      default:
        return .broken("the worker did not answer with the result of \(plan(index).id)")
      }
    case .record(let file):
      switch message {
      case .recording:
        // The next scenario has the timeout to itself.
        slot.tasks[0].started = clock.now
        slot.step = nil
        slot.tasks[0].scenarios += 1
        return .none
      case .recorded(let recorded):
        return .recorded(recorded)
      default:
        return .broken("the worker did not answer with the recording of \(files[file])")
      }
    case .check(let file):
      guard case .checked(let checked) = message, checked.file.file == files[file],
        checked.skipReasons.count == (checked.file.errors.isEmpty ? checked.file.scenarios.count : 0)
      else {
        return .broken("the worker did not answer with the check of \(files[file])")
      }
      return .checked(checked)
    }
  }

  /// ` in the step at specs/counter.yaml:12:9`, ` before its first step`, or ` while reading
  /// the file`: from the worker's step board when it is on this request, else from its
  /// `step` messages.
  private func whereStuck(_ task: Slot.Task, of slot: Slot) -> String {
    let file: String
    switch task.kind {
    case .read: return "while reading the file"
    case .check: return "while checking the file"
    case .run(let index): file = plan(index).id.file
    case .record(let index):
      if task.scenarios == 0 { return "while reading the file" }
      file = files[index]
    }
    var step = slot.step
    if let record = slot.board?.read(), record.sequence == task.sequence, record.line != StepBoard.elsewhere,
      record.line > 0
    {
      step = FileLocation(file: file, line: Int(record.line), column: Int(record.column))
    }
    return step.map { "in the step at \($0)" } ?? "before its first step"
  }

  /// The tail of a dead worker's standard error, under a line that says what it is.
  private static func quote(_ errorOutput: [UInt8]) -> String {
    let tail = Self.tail(of: errorOutput, lines: Self.quotedErrorLines)
    return tail.isEmpty ? "" : "\nThe worker's last lines on standard error:\n" + tail
  }

  private func errorResult(_ scenario: PlannedScenario, message: String, duration: Double) -> ScenarioResult {
    ScenarioResult(
      id: scenario.id, name: scenario.name, location: scenario.location, tags: scenario.tags,
      outcome: .error, duration: duration, errorMessage: message)
  }

  /// The last `lines` non-empty lines of `output`, each indented by two spaces, leaving
  /// out a Swift crash's stack trace (from `Current stack trace:` or `💣 Program crashed`
  /// on), so that a trap's quote ends with its `Fatal error: …` line. The whole output is
  /// still forwarded to standard error.
  package nonisolated static func tail(of output: [UInt8], lines count: Int) -> String {
    let lines = String(decoding: output, as: UTF8.self).split(whereSeparator: \.isNewline)
    let beforeTrace = lines.prefix { !$0.hasPrefix("Current stack trace:") && !$0.hasPrefix("💣 Program crashed") }
    return beforeTrace.filter { !$0.allSatisfy(\.isWhitespace) }
      .suffix(count).map { "  " + $0 }.joined(separator: "\n")
  }

  // MARK: - Workers

  /// Reads what is available on one of a worker's pipes (see `WorkerProcess.readAvailable`).
  private func read(_ slot: Slot, _ stream: WorkerProcess.Stream) -> [UInt8]? {
    readBuffer.withUnsafeMutableBytes { slot.process.readAvailable(from: stream, buffer: $0) }
  }

  private func drainErrors(_ slot: Slot) {
    if let bytes = read(slot, .errors) { slot.errorOutput.append(contentsOf: bytes) }
  }

  /// Naps before polling while every worker has work queued, so that the command takes in
  /// their answers several at a time instead of waking up for each: a scenario often takes
  /// a fraction of a millisecond, and on a small machine each wake-up (a `poll` that
  /// blocks, the reads, the reschedule) takes CPU time from the workers. The nap lasts
  /// until the worker with the least work queued has ``napMargin`` of it left, by an
  /// estimate from how long its last requests took, so that the command wakes in time to
  /// send it more. (A fixed nap of a millisecond, taken with less than that queued, once
  /// left `--jobs 1`'s one worker idle half its time; the margin keeps such waits rare.)
  private func napWhileWorkersAreBusy() {
    guard !slots.isEmpty else { return }
    let now = clock.now
    var least = Double.infinity
    for slot in slots {
      guard !slot.isDead, slot.tasks.count >= Self.napQueue, let first = slot.tasks.first else { return }
      let queued =
        slot.averageTask * Double(slot.tasks.count - 1) + max(0, slot.averageTask - (now - first.started).inSeconds)
      least = min(least, queued)
    }
    let nap = min(least - Self.napMargin, Self.longestNap)
    guard nap >= Self.shortestNap else { return }
    usleep(UInt32(nap * 1_000_000))
  }

  /// The requests every worker must have queued for the command to nap.
  private static let napQueue = 4
  /// The work, by its estimate, that the least busy worker has left when a nap ends.
  private static let napMargin = 0.001
  /// Naps shorter than this are not worth their system call.
  private static let shortestNap = 0.0002
  /// No nap is longer than this, whatever the estimate says.
  private static let longestNap = 0.005
  /// How many answers a worker's average request time is taken over, in effect (the
  /// weight of an answer in ``Slot/averageTask`` is one over this).
  private static let averagedAnswers = 64.0

  /// Milliseconds until the nearest deadline, or -1 (no deadline). While a worker starts,
  /// the command looks at its step board every ``startupLook`` to see it begin.
  private func pollTimeout() -> Int32 {
    let now = clock.now
    var nearest: ContinuousClock.Instant?
    for slot in slots where !slot.tasks.isEmpty {
      let deadline = slot.hasBegun ? slot.tasks[0].started + killAfter : now + Self.startupLook
      if nearest == nil || deadline < nearest! { nearest = deadline }
    }
    guard let nearest else { return -1 }
    let milliseconds = ((nearest - clock.now).inSeconds * 1000).rounded(.up)
    return Int32(min(max(milliseconds, 0), 60_000))
  }

  /// How often the command looks whether a starting worker began its first request: its
  /// first request's time starts at most this late.
  private static let startupLook = Duration.milliseconds(20)

  /// Reaps and forgets the workers that ended (or whose output ended while they were idle).
  private func removeEndedWorkers() {
    for slot in slots where slot.tasks.isEmpty && (slot.isDead || slot.process.output < 0) {
      slot.process.wait()
      slot.isDead = true
    }
    slots.removeAll(where: \.isDead)
  }

  /// Lets idle workers end (their input closes) and reaps every worker: at the end of each
  /// run, or (with `keepsWorkers`) when the caller is done with the pool.
  package func shutDown() {
    for slot in slots { slot.process.closeInput() }
    for slot in slots { slot.process.wait() }
    slots = []
  }

  /// A worker, and the requests it was sent and has not answered yet (none while idle).
  private final class Slot {
    package struct Task {
      package enum Kind {
        /// Read the file at this index of the run's files.
        case read(file: Int)
        /// Run the scenario at this index of the run's scenarios.
        case run(index: Int)
        /// Record the file at this index of the files.
        case record(file: Int)
        /// Check the file at this index of the files.
        case check(file: Int)
      }

      package var kind: Kind
      /// When it started: when it was sent, or when the request before it ended (for a
      /// record: when its last scenario started).
      package var started: ContinuousClock.Instant
      /// Which request to the worker it is (the worker's `StepBoard` numbers them alike).
      package var sequence: UInt32
      /// For a record: how many of its scenarios started (the last one is under way).
      package var scenarios = 0

      var isRead: Bool {
        if case .read = kind { return true }
        return false
      }
    }

    package let process: WorkerProcess
    let board: StepBoard?
    /// The requests in order: the first one is under way. (A task is plain data, so that
    /// the command's many looks at them copy no reference.)
    package var tasks: [Task] = []
    /// The step that the request under way started last, when the worker sent it as a
    /// message.
    package var step: FileLocation?
    /// How many requests the worker was sent.
    package var sent: UInt32 = 0
    /// How long a request took lately, on average (an exponential moving average over
    /// ``WorkerPool/averagedAnswers``), in seconds: `Duration`'s arithmetic goes through
    /// 128-bit integers, at every answer.
    ///
    /// Answers read together after a nap count as one long request and several short ones,
    /// which pulls the average down just when the command decides on its next nap. Over 64
    /// answers that pull is small; over eight it kept the naps so short that the command
    /// woke for most answers, at a cost to the workers of both `--jobs 1` and `--jobs 2`
    /// (Benchmarks/HISTORY.md has the measurements). It starts at 0 and rises over a run's first answers, so the first naps are
    /// short. An average that shared a look's time among its answers made naps long enough
    /// for a worker to run out of work, and was dropped.
    var averageTask = 0.0
    package var lines = LineBuffer()
    /// What the worker wrote to standard error since its last answer.
    package var errorOutput: [UInt8] = []
    var isDead = false
    /// When the worker was started.
    package let spawned: ContinuousClock.Instant
    /// The worker began its first request (by its step board; a worker without a board
    /// counts as begun from the start, and its first request's time includes its start).
    var hasBegun: Bool

    package init(process: WorkerProcess, board: StepBoard?, spawned: ContinuousClock.Instant) {
      self.process = process
      self.board = board
      self.spawned = spawned
      hasBegun = board == nil
    }

    /// What the request that just ended wrote: the output up to its end marker.
    func takeScenarioOutput() -> [UInt8] {
      if errorOutput.starts(with: scenarioEndMarker) {  // Nothing written: the usual case.
        errorOutput.removeFirst(scenarioEndMarker.count)
        return []
      }
      guard let marker = errorOutput.firstRange(of: scenarioEndMarker) else { return takeAllOutput() }
      defer { errorOutput.removeSubrange(..<marker.upperBound) }
      return Array(errorOutput[..<marker.lowerBound])
    }

    /// All the output, without end markers (a dead worker's).
    func takeAllOutput() -> [UInt8] {
      defer { errorOutput = [] }
      while let marker = errorOutput.firstRange(of: scenarioEndMarker) { errorOutput.removeSubrange(marker) }
      return errorOutput
    }
  }
}
