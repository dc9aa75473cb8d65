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
/// A worker that crashes or runs past the timeout fails only its scenario, as `.error`
/// with what happened and the tail of its standard error; the next scenario gets a fresh
/// worker. One `poll` loop on the calling thread watches every worker's pipes, the
/// deadlines, and the interrupt pipe.
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
    var stopping = false
    func report(_ index: Int, _ result: ScenarioResult, output: [UInt8]) {
      if configuration.stopAfterFailure, result.outcome == .failed || result.outcome == .error {
        stopping = true
      }
      onResult(index, result, output)
    }
    func finish(_ slot: Slot, _ result: ScenarioResult, output: [UInt8]) {
      let index = slot.task!.index
      slot.task = nil
      report(index, result, output: output)
    }

    defer { shutDown() }
    while true {
      removeEndedWorkers()
      // Dispatch: an idle worker, or a new one while there are fewer than `jobs`.
      while !stopping, next < scenarios.count {
        let slot: Slot
        if let idle = slots.first(where: { $0.task == nil && $0.process.output >= 0 }) {
          slot = idle
        } else if slots.count < configuration.jobs {
          do {
            slot = Slot(process: try WorkerProcess.spawn(
              executable: configuration.executable, arguments: configuration.arguments,
              environment: configuration.environment))
            slots.append(slot)
          } catch {
            report(next, errorResult(scenarios[next], message: "could not start a worker: \(error)", duration: 0), output: [])
            next += 1
            continue
          }
        } else {
          break
        }
        let scenario = scenarios[next]
        slot.task = Slot.Task(index: next, scenario: scenario, started: clock.now)
        let request = WorkerRequest(id: scenario.id, timeout: configuration.timeout.inSeconds)
        _ = slot.process.send(encodeLine(request))  // A dead worker shows as the end of its output.
        next += 1
      }
      if slots.allSatisfy({ $0.task == nil }), stopping || next == scenarios.count {
        return next == scenarios.count ? .completed : .stoppedAfterFailure
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
        guard let task = slot.task else {
          // An idle worker that ends: drop it; a new one starts when needed.
          if slot.process.readAvailable(from: .output) == nil { slot.isDead = true }
          continue
        }
        if let bytes = slot.process.readAvailable(from: .output) {
          for line in slot.lines.append(bytes) {
            switch handle(line, of: slot, task: task) {
            case .none: break
            case .finished(let result):
              drainErrors(slot)
              finish(slot, result, output: slot.takeErrorOutput())
            case .broken(let message):
              slot.process.forceKill()
              slot.isDead = true
              drainErrors(slot)
              let output = slot.takeErrorOutput()
              finish(slot, errorResult(task, message: message, errorOutput: output), output: output)
            }
            if slot.task == nil { break }
          }
        } else {
          // The worker's output ended in the middle of a scenario: it crashed or exited.
          drainErrors(slot)
          let termination = slot.process.wait()
          slot.isDead = true
          let output = slot.takeErrorOutput()
          let what: String
          switch termination {
          case .signaled(let signal): what = "the worker crashed with signal \(SignalName.describe(signal))"
          case .exited(let status): what = "the worker exited with status \(status)"
          }
          finish(slot, errorResult(task, message: "\(what) \(whereStuck(task))", errorOutput: output), output: output)
        }
      }
      // Deadlines.
      let now = clock.now
      for slot in slots {
        guard let task = slot.task, now >= task.started + configuration.timeout + configuration.grace else { continue }
        slot.process.forceKill()
        slot.process.wait()
        slot.isDead = true
        drainErrors(slot)
        let output = slot.takeErrorOutput()
        let message = "the scenario timed out after \(DurationText.format(configuration.timeout)) \(whereStuck(task))"
        finish(slot, errorResult(task, message: message, errorOutput: output), output: output)
      }
    }
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
      return .broken("the worker broke the protocol with the line '\(text)' \(whereStuck(task))")
    }
    if let step = message.step {
      slot.task?.step = step
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

  /// ` in the step at specs/counter.yaml:12:9`, or ` before its first step`.
  private func whereStuck(_ task: Slot.Task) -> String {
    task.step.map { "in the step at \($0)" } ?? "before its first step"
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
    let deadlines = slots.compactMap { $0.task.map { $0.started + configuration.timeout + configuration.grace } }
    guard let nearest = deadlines.min() else { return -1 }
    let milliseconds = ((nearest - clock.now).inSeconds * 1000).rounded(.up)
    return Int32(min(max(milliseconds, 0), 60_000))
  }

  /// Reaps and forgets the workers that ended (or whose output ended while they were idle).
  private func removeEndedWorkers() {
    for slot in slots where slot.task == nil && (slot.isDead || slot.process.output < 0) {
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

  /// A worker, and the scenario it runs (none while idle).
  private final class Slot {
    struct Task {
      var index: Int
      var scenario: PlannedScenario
      var started: ContinuousClock.Instant
      /// The step that started last.
      var step: FileLocation?
    }

    let process: WorkerProcess
    var task: Task?
    var lines = LineBuffer()
    /// What the worker wrote to standard error since its last scenario ended.
    var errorOutput: [UInt8] = []
    var isDead = false

    init(process: WorkerProcess) { self.process = process }

    func takeErrorOutput() -> [UInt8] {
      defer { errorOutput = [] }
      return errorOutput
    }
  }
}

extension Duration {
  /// The duration in seconds, as a `Double`.
  var inSeconds: Double { Double(components.seconds) + Double(components.attoseconds) / 1e18 }
}
