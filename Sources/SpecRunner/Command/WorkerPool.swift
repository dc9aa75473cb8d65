#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif
import Foundation

/// Runs scenarios in worker processes, `jobs` at a time, and reports each result as it
/// arrives (in completion order; ``OrderedDelivery`` puts them back in run order).
///
/// A worker is sent a few scenarios of a file at once (a batch), which it runs one after
/// another, answering each as it ends; this saves a round trip through the parent per
/// scenario, whose serial work would otherwise limit what more workers can do.
///
/// A worker that crashes or runs past the timeout fails only the scenario it was in, as
/// `.error` with what happened and the tail of its standard error; the rest of its batch
/// goes to a fresh worker. One `poll` loop on the calling thread watches every worker's
/// pipes, the deadlines, and the interrupt pipe.
@MainActor
final class WorkerPool {
  struct Configuration: Sendable {
    /// The executable to start as a worker, and its arguments.
    var executable: String
    var arguments: [String] = [workerArgument]
    var environment: [String: String]
    var jobs: Int
    /// How long a scenario may take.
    var timeout: Duration
    /// How much longer the pool waits before it kills a worker, so that an engine that
    /// enforces the timeout itself can report its own result first.
    var grace: Duration = .milliseconds(500)
    /// Dispatch nothing more once a scenario failed (`--fail-fast`).
    var stopAfterFailure: Bool
  }

  /// How a run of the pool ended.
  enum Ending: Equatable {
    /// Every scenario ran.
    case completed
    /// A scenario failed with `stopAfterFailure`, and some scenarios were not started.
    case stoppedAfterFailure
    /// A signal arrived on the interrupt pipe; the workers were killed.
    case interrupted(signal: Int32)
  }

  /// How many lines of a worker's standard error an `.error` result quotes.
  nonisolated static let quotedErrorLines = 10
  /// The most scenarios a worker is sent at once.
  nonisolated static let maxBatch = 16

  private let configuration: Configuration
  private var slots: [Slot] = []
  private let clock = ContinuousClock()

  init(_ configuration: Configuration) {
    self.configuration = configuration
  }

  // MARK: - Running

  /// Runs `scenarios`; calls `onResult` with each one's index in `scenarios`, its result
  /// and what its worker wrote to standard error while it ran.
  func run(
    _ scenarios: [PlannedScenario], interrupt: InterruptPipe?,
    onResult: (_ index: Int, _ result: ScenarioResult, _ errorOutput: [UInt8]) -> Void
  ) -> Ending {
    var next = 0
    /// Scenarios of batches whose worker died before it ran them: they go first.
    var retries: [Int] = []
    var stopping = false
    func report(_ index: Int, _ result: ScenarioResult, output: [UInt8]) {
      if configuration.stopAfterFailure, result.outcome == .failed || result.outcome == .error {
        stopping = true
      }
      onResult(index, result, output)
    }
    /// Ends the slot's current scenario; the next of its batch starts now.
    func finish(_ slot: Slot, _ result: ScenarioResult, output: [UInt8]) {
      let index = slot.tasks.removeFirst().index
      if !slot.tasks.isEmpty { slot.tasks[0].started = clock.now }
      report(index, result, output: output)
    }
    /// Fails the slot's current scenario, whose worker is dead, and hands the rest of its
    /// batch to the next workers.
    func fail(_ slot: Slot, _ result: ScenarioResult, output: [UInt8]) {
      let index = slot.tasks.removeFirst().index
      retries = (retries + slot.tasks.map(\.index)).sorted()
      slot.tasks = []
      report(index, result, output: output)
    }
    /// The next scenarios to send a worker: the retries, or a run of scenarios of one file.
    func takeBatch() -> [Int] {
      if !retries.isEmpty {
        defer { retries = [] }
        return retries
      }
      // Small enough that the workers run out of work at about the same time, and one at
      // a time with --fail-fast, which must not start what follows a failure.
      let remaining = scenarios.count - next
      let limit =
        configuration.stopAfterFailure ? 1 : max(1, min(Self.maxBatch, remaining / (2 * configuration.jobs)))
      let file = scenarios[next].id.file
      var batch = [next]
      next += 1
      while batch.count < limit, next < scenarios.count, scenarios[next].id.file == file {
        batch.append(next)
        next += 1
      }
      return batch
    }

    defer { shutDown() }
    while true {
      removeEndedWorkers()
      // Dispatch: an idle worker, or a new one while there are fewer than `jobs`.
      while !stopping, !retries.isEmpty || next < scenarios.count {
        let slot: Slot
        if let idle = slots.first(where: { $0.tasks.isEmpty && $0.process.output >= 0 }) {
          slot = idle
        } else if slots.count < configuration.jobs {
          do {
            slot = try spawn()
            slots.append(slot)
          } catch {
            let batch = takeBatch()
            report(batch[0], errorResult(scenarios[batch[0]], message: "could not start a worker: \(error)", duration: 0), output: [])
            retries = (retries + batch.dropFirst()).sorted()
            continue
          }
        } else {
          break
        }
        var requests: [UInt8] = []
        let now = clock.now
        for index in takeBatch() {
          slot.sent &+= 1
          slot.tasks.append(Slot.Task(index: index, scenario: scenarios[index], started: now, sequence: slot.sent))
          requests += encodeLine(WorkerRequest(id: scenarios[index].id, timeout: configuration.timeout.inSeconds))
        }
        _ = slot.process.send(requests)  // A dead worker shows as the end of its output.
      }
      if slots.allSatisfy({ $0.tasks.isEmpty }), stopping || (next == scenarios.count && retries.isEmpty) {
        return next == scenarios.count && retries.isEmpty ? .completed : .stoppedAfterFailure
      }

      // Wait for output, the end of a worker, a deadline, or a signal.
      var fds: [pollfd] = []
      if let interrupt { fds.append(pollfd(fd: interrupt.readEnd, events: Int16(POLLIN), revents: 0)) }
      for slot in slots {
        for fd in [slot.process.output, slot.process.errors] where fd >= 0 {
          fds.append(pollfd(fd: fd, events: Int16(POLLIN), revents: 0))
        }
      }
      _ = poll(&fds, nfds_t(fds.count), pollTimeout())

      if let signal = interrupt?.received() {
        for slot in slots { slot.process.forceKill() }
        return .interrupted(signal: signal)
      }
      for slot in slots {
        if let bytes = slot.process.readAvailable(from: .errors) { slot.errorOutput.append(contentsOf: bytes) }
        guard !slot.tasks.isEmpty else {
          // An idle worker that ends: drop it; a new one starts when needed.
          if slot.process.readAvailable(from: .output) == nil { slot.isDead = true }
          continue
        }
        if let bytes = slot.process.readAvailable(from: .output) {
          for line in slot.lines.append(bytes) {
            guard let task = slot.tasks.first else { break }
            switch handle(line, of: slot, task: task) {
            case .none: break
            case .finished(let result):
              drainErrors(slot)
              finish(slot, result, output: slot.takeScenarioOutput())
            case .broken(let message):
              slot.process.forceKill()
              slot.isDead = true
              drainErrors(slot)
              let output = slot.takeAllOutput()
              fail(slot, errorResult(task, message: message, errorOutput: output), output: output)
            }
          }
        } else {
          // The worker's output ended in the middle of a scenario: it crashed or exited.
          drainErrors(slot)
          let termination = slot.process.wait()
          slot.isDead = true
          let output = slot.takeAllOutput()
          let what: String
          switch termination {
          case .signaled(let signal): what = "the worker crashed with signal \(SignalName.describe(signal))"
          case .exited(let status): what = "the worker exited with status \(status)"
          }
          let task = slot.tasks[0]
          fail(slot, errorResult(task, message: "\(what) \(whereStuck(task, of: slot))", errorOutput: output), output: output)
        }
      }
      // Deadlines.
      let now = clock.now
      for slot in slots {
        guard let task = slot.tasks.first, now >= task.started + configuration.timeout + configuration.grace else { continue }
        slot.process.forceKill()
        slot.process.wait()
        slot.isDead = true
        drainErrors(slot)
        let output = slot.takeAllOutput()
        let message = "the scenario timed out after \(DurationText.format(configuration.timeout)) \(whereStuck(task, of: slot))"
        fail(slot, errorResult(task, message: message, errorOutput: output), output: output)
      }
    }
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
    return Slot(process: process, board: board?.board)
  }

  // MARK: - Messages from a worker

  private enum Handled {
    case none
    case finished(ScenarioResult)
    case broken(String)
  }

  private func handle(_ line: [UInt8], of slot: Slot, task: Slot.Task) -> Handled {
    guard let message = try? JSONDecoder().decode(WorkerMessage.self, from: Data(line)) else {
      let text = String(decoding: line.prefix(200), as: UTF8.self)
      return .broken("the worker broke the protocol with the line '\(text)' \(whereStuck(task, of: slot))")
    }
    if let step = message.step {
      slot.tasks[0].step = step
      return .none
    }
    if let result = message.result {
      guard result.id == task.scenario.id else {
        return .broken("the worker answered for \(result.id) instead of \(task.scenario.id)")
      }
      return .finished(result)
    }
    return .none
  }

  /// ` in the step at specs/counter.yaml:12:9`, or ` before its first step`: from the
  /// worker's step board when it is on this scenario, else from its `step` messages.
  private func whereStuck(_ task: Slot.Task, of slot: Slot) -> String {
    var step = task.step
    if let record = slot.board?.read(), record.sequence == task.sequence, record.line != StepBoard.elsewhere,
      record.line > 0
    {
      step = FileLocation(file: task.scenario.id.file, line: Int(record.line), column: Int(record.column))
    }
    return step.map { "in the step at \($0)" } ?? "before its first step"
  }

  private func errorResult(_ task: Slot.Task, message: String, errorOutput: [UInt8]) -> ScenarioResult {
    var text = message
    let tail = Self.tail(of: errorOutput, lines: Self.quotedErrorLines)
    if !tail.isEmpty { text += "\nThe worker's last lines on standard error:\n" + tail }
    return errorResult(task.scenario, message: text, duration: (clock.now - task.started).inSeconds)
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
  nonisolated static func tail(of output: [UInt8], lines count: Int) -> String {
    let lines = String(decoding: output, as: UTF8.self).split(whereSeparator: \.isNewline)
    let beforeTrace = lines.prefix { !$0.hasPrefix("Current stack trace:") && !$0.hasPrefix("💣 Program crashed") }
    return beforeTrace.filter { !$0.allSatisfy(\.isWhitespace) }
      .suffix(count).map { "  " + $0 }.joined(separator: "\n")
  }

  // MARK: - Workers

  private func drainErrors(_ slot: Slot) {
    if let bytes = slot.process.readAvailable(from: .errors) { slot.errorOutput.append(contentsOf: bytes) }
  }

  /// Milliseconds until the nearest deadline, or -1 (no deadline).
  private func pollTimeout() -> Int32 {
    let deadlines = slots.compactMap { $0.tasks.first.map { $0.started + configuration.timeout + configuration.grace } }
    guard let nearest = deadlines.min() else { return -1 }
    let milliseconds = ((nearest - clock.now).inSeconds * 1000).rounded(.up)
    return Int32(min(max(milliseconds, 0), 60_000))
  }

  /// Reaps and forgets the workers that ended (or whose output ended while they were idle).
  private func removeEndedWorkers() {
    for slot in slots where slot.tasks.isEmpty && (slot.isDead || slot.process.output < 0) {
      slot.process.wait()
      slot.isDead = true
    }
    slots.removeAll(where: \.isDead)
  }

  /// Lets idle workers end (their input closes) and reaps every worker.
  private func shutDown() {
    for slot in slots { slot.process.closeInput() }
    for slot in slots { slot.process.wait() }
    slots = []
  }

  /// A worker, and the scenarios it was sent and has not answered yet (none while idle).
  private final class Slot {
    struct Task {
      var index: Int
      var scenario: PlannedScenario
      /// When it started: when it was sent, or when the one before it in the batch ended.
      var started: ContinuousClock.Instant
      /// Which request to the worker it is (the worker's `StepBoard` numbers them alike).
      var sequence: UInt32
      /// The step that started last, when the worker sent it as a message.
      var step: FileLocation?
    }

    let process: WorkerProcess
    let board: StepBoard?
    /// The batch in order: the first one is running.
    var tasks: [Task] = []
    /// How many requests the worker was sent.
    var sent: UInt32 = 0
    var lines = LineBuffer()
    /// What the worker wrote to standard error since its last scenario ended.
    var errorOutput: [UInt8] = []
    var isDead = false

    init(process: WorkerProcess, board: StepBoard?) {
      self.process = process
      self.board = board
    }

    /// What the scenario that just ended wrote: the output up to its end marker.
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

extension Duration {
  /// The duration in seconds, as a `Double`.
  var inSeconds: Double { Double(components.seconds) + Double(components.attoseconds) / 1e18 }
}
