import Foundation
import IssueReporting
import ReducerCore

// `teststore-benchmark`: sends per second through ReducerCore's TestStore.
//
//     teststore-benchmark [--sends N] [--repeat N] [--only effect-free|effect] [--run-loop]

/// A counter without effects.
struct Counter: Reducer {
  struct State: Equatable { var count = 0 }
  enum Action: Equatable { case increment }

  func reduce(into state: inout State, action: Action) -> Effect<Action> {
    state.count += 1
    return .none
  }
}

/// A counter whose every `increment` starts an effect that finishes and sends `incremented`.
struct EffectCounter: Reducer {
  struct State: Equatable { var count = 0 }
  enum Action: Equatable, Sendable { case increment, incremented }

  func reduce(into state: inout State, action: Action) -> Effect<Action> {
    switch action {
    case .increment:
      return .run { send in await send(.incremented) }
    case .incremented:
      state.count += 1
      return .none
    }
  }
}

/// Counts the issues a run reports: a benchmark whose assertions fail must say so.
final class IssueCounter: IssueReporter, @unchecked Sendable {
  private let lock = NSLock()
  private var count = 0
  private var first: String?

  var issues: (count: Int, first: String?) {
    lock.lock()
    defer { lock.unlock() }
    return (count, first)
  }

  func reportIssue(
    _ message: @autoclosure () -> String?, severity: IssueSeverity, fileID: StaticString, filePath: StaticString,
    line: UInt, column: UInt
  ) {
    let text = message()
    lock.lock()
    count += 1
    if first == nil { first = text }
    lock.unlock()
  }
}

struct Options {
  var sends = 100_000
  var repetitions = 5
  /// Run one row only (for profiling): `effect-free` or `effect`.
  var only: String?
}

let usage = """
  usage: teststore-benchmark [--sends N] [--repeat N] [--only effect-free|effect] [--run-loop]

    --sends N    sends per run (100000; the effect row uses a tenth of it)
    --repeat N   runs of each row; best, median and slowest are reported (5)
    --only ROW   run one row only, `effect-free` or `effect` (to profile it)
    --run-loop   serve the main queue from the main thread's run loop, not dispatchMain():
                 for Valgrind, which crashes in dispatchMain(). Not for timing: the effect
                 row is several times slower this way
  """

func parseOptions() -> Options {
  var options = Options()
  var arguments = CommandLine.arguments.dropFirst().makeIterator()
  while let argument = arguments.next() {
    func number() -> Int {
      guard let text = arguments.next(), let value = Int(text), value > 0 else {
        print("\(argument) takes a positive number\n\n\(usage)")
        exit(64)
      }
      return value
    }
    switch argument {
    case "--sends": options.sends = number()
    case "--repeat": options.repetitions = number()
    case "--only":
      guard let row = arguments.next(), row == "effect-free" || row == "effect" else {
        print("--only takes `effect-free` or `effect`\n\n\(usage)")
        exit(64)
      }
      options.only = row
    case "--run-loop": break  // read at the top level, before `run`
    case "-h", "--help":
      print(usage)
      exit(0)
    default:
      print("unknown argument `\(argument)`\n\n\(usage)")
      exit(64)
    }
  }
  return options
}

/// One run: `sends` effect-free sends, each with its assertion.
@MainActor
func effectFree(_ sends: Int) async -> Int {
  let store = TestStore(initialState: Counter.State()) { Counter() }
  for _ in 0..<sends {
    await store.send(.increment) { $0.count += 1 }
  }
  return store.state.count
}

/// One run: `sends` sends whose effect finishes and is received.
@MainActor
func withEffects(_ sends: Int) async -> Int {
  let store = TestStore(initialState: EffectCounter.State()) { EffectCounter() }
  for _ in 0..<sends {
    await store.send(.increment)
    await store.receive(.incremented) { $0.count += 1 }
  }
  return store.state.count
}

struct Row {
  var label: String
  var sends: Int
  var times: [Double] = []
  var best: Double { times.min() ?? 0 }
  var median: Double { times.sorted()[times.count / 2] }
  var slowest: Double { times.max() ?? 0 }
}

@MainActor
func measure(_ label: String, sends: Int, runs: Int, _ body: (Int) async -> Int) async -> Row {
  var row = Row(label: label, sends: sends)
  let clock = ContinuousClock()
  for _ in 0..<runs {
    var result = 0
    let elapsed = await clock.measure { result = await body(sends) }
    precondition(result == sends, "the run counted \(result), not \(sends)")
    row.times.append(Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18)
  }
  return row
}

@MainActor
func run() async {
  let options = parseOptions()
  #if DEBUG
  print("warning: this is a debug build; run `swift run -c release teststore-benchmark` for real numbers\n")
  #endif
  let counter = IssueCounter()
  let rows = await withIssueReporters([counter]) {
    var rows: [Row] = []
    if options.only != "effect" {
      rows.append(
        await measure("effect-free send + assertion", sends: options.sends, runs: options.repetitions, effectFree))
    }
    if options.only != "effect-free" {
      rows.append(
        await measure(
          "send + effect + receive + assertion", sends: max(1, options.sends / 10), runs: options.repetitions,
          withEffects))
    }
    return rows
  }
  print("TestStore benchmark (Benchmarks/teststore-benchmark)")
  print(
    "machine:  \(ProcessInfo.processInfo.activeProcessorCount) cores; best, median and slowest of \(options.repetitions) runs")
  print()
  let width = rows.map(\.label.count).max() ?? 0
  print(
    "row".padding(toLength: width, withPad: " ", startingAt: 0)
      + "     sends   sends/s best  sends/s median  sends/s slowest")
  for row in rows {
    let best = String(format: "%.0f", Double(row.sends) / row.best)
    let median = String(format: "%.0f", Double(row.sends) / row.median)
    let slowest = String(format: "%.0f", Double(row.sends) / row.slowest)
    print(
      row.label.padding(toLength: width, withPad: " ", startingAt: 0)
        + String(repeating: " ", count: max(1, 10 - String(row.sends).count)) + String(row.sends)
        + String(repeating: " ", count: max(1, 14 - best.count)) + best
        + String(repeating: " ", count: max(1, 16 - median.count)) + median
        + String(repeating: " ", count: max(1, 17 - slowest.count)) + slowest)
  }
  let (issues, first) = counter.issues
  if issues > 0 {
    print("\nwarning: \(issues) issues were reported during the runs; first:\n\(first ?? "")")
    exit(1)
  }
}

// The main actor's work is on the main queue. By default the main thread hands it to
// `dispatchMain()`, as a top-level `await` would; with `--run-loop` the main thread serves it
// from its run loop instead, since Valgrind 3.19 crashes in `dispatchMain()` (in the thread
// that it parks in `sigsuspend`).
Task { @MainActor in
  await run()
  exit(0)
}
if CommandLine.arguments.contains("--run-loop") {
  RunLoop.main.run()
} else {
  dispatchMain()
}
