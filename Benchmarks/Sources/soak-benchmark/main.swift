// Soak and scale: runs generated suites of 1,000, 10,000 and 50,000 scenarios with the
// release `reducer-spec` and shows how time and memory grow with the size of the suite, and
// whether a worker that ran many scenarios holds more memory than one that ran few:
//
//     swift build -c release --product reducer-spec      # in the root package
//     cd Benchmarks && swift run -c release soak-benchmark
//
// See Benchmarks/README.md ("Soak") for what each column measures.
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import BenchmarkSupport
import Foundation

struct Options {
  var binary = "../.build/release/reducer-spec"
  var sizes = [1_000, 10_000, 50_000]
  var jobs = [1, 2]
  var workerSizes = [100, 10_000]
  var scenarios = 5
  var steps = 20
  var repeats = 3
  var sampling = 10
  var junit = false
  var directory: String?

  init(arguments: [String]) {
    var iterator = arguments.makeIterator()
    while let argument = iterator.next() {
      func value() -> String {
        guard let next = iterator.next() else { fail("\(argument) needs a value") }
        return next
      }
      func number(_ text: String) -> Int {
        guard let number = Int(text.replacingOccurrences(of: "_", with: "")), number > 0 else {
          fail("\(argument) takes positive whole numbers, not \(text)")
        }
        return number
      }
      func numbers() -> [Int] { value().split(separator: ",").map { number(String($0)) } }
      switch argument {
      case "--binary": binary = value()
      case "--sizes": sizes = numbers()
      case "--jobs": jobs = numbers()
      case "--worker-sizes": workerSizes = numbers()
      case "--scenarios": scenarios = number(value())
      case "--steps": steps = number(value())
      case "--repeat": repeats = number(value())
      case "--sample": sampling = number(value())
      case "--junit": junit = true
      case "--corpus": directory = value()
      case "-h", "--help":
        print(
          """
          soak-benchmark [--binary PATH] [--sizes N,N,…] [--jobs N,N,…] [--worker-sizes N,N,…]
                         [--scenarios N] [--steps N] [--repeat N] [--sample MS] [--junit] [--corpus DIR]
          """)
        exit(0)
      default: fail("unknown option \(argument)")
      }
    }
    for size in Set(sizes + workerSizes) where size % scenarios != 0 {
      fail("\(size) scenarios is not a whole number of files of \(scenarios) scenarios")
    }
  }
}

func fail(_ message: String) -> Never {
  FileHandle.standardError.write(Data("soak-benchmark: \(message)\n".utf8))
  exit(2)
}

func median(_ values: [Double]) -> Double { values.sorted()[values.count / 2] }
func megabytes(_ bytes: Int) -> String { String(format: "%.1f MB", Double(bytes) / 1e6) }
func seconds(_ value: Double) -> String { value < 10 ? String(format: "%.2f s", value) : String(format: "%.1f s", value) }
func microseconds(_ value: Double) -> String { String(format: "%.0f µs", value * 1e6) }
func grouped(_ number: Int) -> String {
  let digits = String(number)
  var out = ""
  for (index, digit) in digits.enumerated() {
    if index > 0, (digits.count - index) % 3 == 0 { out += "," }
    out.append(digit)
  }
  return out
}

// MARK: - Main

let options = Options(arguments: Array(CommandLine.arguments.dropFirst()))
let binary = (options.binary as NSString).standardizingPath
guard FileManager.default.isExecutableFile(atPath: binary) else {
  fail("no executable at \(binary): build it with `swift build -c release --product reducer-spec` in the root package")
}
let binaryPath = binary.hasPrefix("/") ? binary : FileManager.default.currentDirectoryPath + "/" + binary
let base = options.directory ?? NSTemporaryDirectory() + "reducer-spec-soak-\(getpid())"
let output = base + "/output.txt"

/// The working directory of the runs of a suite: each run reads the record of the last
/// (.reducer-spec/last-run.json) and writes its own there, as on a developer's machine; a
/// suite of its own size, so that a record of 50,000 scenarios never weighs on a run of 1,000.
func workingDirectory(_ size: Int) throws -> String {
  let directory = base + "/work-\(size)"
  try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
  return directory
}

/// The corpus of `size` scenarios, generated unless it is there already.
func corpus(_ size: Int) throws -> String {
  let directory = base + "/scenarios-\(size)"
  if !FileManager.default.fileExists(atPath: directory) {
    let count = try CounterCorpus.generate(
      in: directory, files: size / options.scenarios, scenarios: options.scenarios, steps: options.steps)
    precondition(count == size)
  }
  return directory
}

func run(size: Int, jobs: Int) throws -> CommandRun {
  var arguments = [binaryPath, "--jobs", "\(jobs)", "--color", "never"]
  if options.junit { arguments += ["--junit", base + "/report.xml"] }
  arguments.append(try corpus(size))
  guard let run = CommandRun.measure(arguments, output: output, directory: try workingDirectory(size), sampling: options.sampling)
  else {
    fail("cannot start \(binaryPath)")
  }
  let expected = "\(size) passed, 0 failed, 0 skipped"
  guard run.status == 0, run.lastLine == expected else {
    fail("\(size) scenarios, --jobs \(jobs): exited \(run.status) with \"\(run.lastLine)\", expected \"\(expected)\" (see \(output))")
  }
  return run
}

print("binary:  \(binaryPath)")
print("cores:   \(ProcessInfo.processInfo.activeProcessorCount)")
print("corpora: \(options.scenarios) scenarios of \(options.steps) steps a file, in \(base)")
print("rounds:  \(options.repeats) after a warm-up run of each suite, sizes and --jobs interleaved in each; memory read every \(options.sampling) ms")
// Each suite once, unmeasured: its corpus is generated and in the page cache, and its
// record is there for the next run to read.
for size in Set(options.sizes + options.workerSizes).sorted() {
  _ = try run(size: size, jobs: options.jobs.max()!)
}

// Suites of each size, with each number of jobs, round after round.
var runs: [Int: [Int: [CommandRun]]] = [:]
for round in 1...options.repeats {
  var line = "round \(round):"
  for size in options.sizes {
    for jobs in options.jobs {
      let sample = try run(size: size, jobs: jobs)
      runs[size, default: [:]][jobs, default: []].append(sample)
      line += " \(grouped(size))/j\(jobs) \(seconds(sample.seconds))"
    }
  }
  print(line)
}

struct Row {
  var wall: Double
  var wallRange: (Double, Double)
  var cpu: Double
  var command: Int
  var worker: Int
  var overall: Int
  var workers: Int
}

func row(_ samples: [CommandRun]) -> Row {
  let walls = samples.map(\.seconds)
  return Row(
    wall: median(walls), wallRange: (walls.min()!, walls.max()!), cpu: median(samples.map(\.cpuSeconds)),
    command: samples.compactMap(\.commandPeakBytes).max()!, worker: samples.compactMap(\.workerPeakBytes).max()!,
    overall: samples.map(\.peakBytes).max()!, workers: samples.map(\.workersSeen).max()!)
}

print("")
print("Medians of \(options.repeats) rounds; memory: the highest of the rounds.")
for size in options.sizes {
  print("")
  print("\(grouped(size)) scenarios (\(grouped(size / options.scenarios)) files):")
  print("")
  print("| --jobs | wall (range) | CPU | wall per scenario | CPU per scenario | command peak | worker peak | max RSS (wait4) | workers |")
  print("| --- | --- | --- | --- | --- | --- | --- | --- | --- |")
  for jobs in options.jobs {
    let r = row(runs[size]![jobs]!)
    print(
      "| \(jobs) | \(seconds(r.wall)) (\(seconds(r.wallRange.0))–\(seconds(r.wallRange.1))) | \(seconds(r.cpu)) "
        + "| \(microseconds(r.wall / Double(size))) | \(microseconds(r.cpu / Double(size))) "
        + "| \(megabytes(r.command)) | \(megabytes(r.worker)) | \(megabytes(r.overall)) | \(r.workers) |")
  }
}

// Growth: each size against the smallest.
if options.sizes.count > 1, let smallest = options.sizes.min() {
  print("")
  print("Growth against \(grouped(smallest)) scenarios (time: ratio of the per-scenario medians; memory: difference):")
  print("")
  print("| --jobs | scenarios | x scenarios | x wall time | x CPU time | command peak | worker peak |")
  print("| --- | --- | --- | --- | --- | --- | --- |")
  for jobs in options.jobs {
    let first = row(runs[smallest]![jobs]!)
    for size in options.sizes.sorted() where size != smallest {
      let r = row(runs[size]![jobs]!)
      let factor = Double(size) / Double(smallest)
      print(
        "| \(jobs) | \(grouped(size)) | "
          + String(
            format: "%.0fx | %.2fx (per scenario %.2fx) | %.2fx (per scenario %.2fx) | %+.1f MB | %+.1f MB |",
            factor, r.wall / first.wall, r.wall / first.wall / factor, r.cpu / first.cpu,
            r.cpu / first.cpu / factor, Double(r.command - first.command) / 1e6, Double(r.worker - first.worker) / 1e6))
    }
  }
}

// One worker that ran few scenarios against one that ran many.
if !options.workerSizes.isEmpty {
  var workerRuns: [Int: [CommandRun]] = [:]
  for _ in 1...options.repeats {
    for size in options.workerSizes {
      workerRuns[size, default: []].append(try run(size: size, jobs: 1))
    }
  }
  print("")
  print("One worker (--jobs 1) for the whole run: its peak memory after N scenarios (highest of \(options.repeats) rounds):")
  print("")
  print("| scenarios | worker peak | worker peak, lowest round | command peak | wall, median | workers |")
  print("| --- | --- | --- | --- | --- | --- |")
  for size in options.workerSizes {
    let samples = workerRuns[size]!
    let peaks = samples.compactMap(\.workerPeakBytes)
    print(
      "| \(grouped(size)) | \(megabytes(peaks.max()!)) | \(megabytes(peaks.min()!)) "
        + "| \(megabytes(samples.compactMap(\.commandPeakBytes).max()!)) | \(seconds(median(samples.map(\.seconds)))) "
        + "| \(samples.map(\.workersSeen).max()!) |")
  }
  if let few = options.workerSizes.min(), let many = options.workerSizes.max(), few != many {
    let difference = workerRuns[many]!.compactMap(\.workerPeakBytes).max()! - workerRuns[few]!.compactMap(\.workerPeakBytes).max()!
    print("")
    print(
      "A worker after \(grouped(many)) scenarios holds "
        + String(format: "%+.1f MB", Double(difference) / 1e6) + " against one after \(grouped(few)) ("
        + String(format: "%+.0f bytes a scenario", Double(difference) / Double(many - few)) + ").")
  }
}
try? FileManager.default.removeItem(atPath: output)
if options.directory == nil { try? FileManager.default.removeItem(atPath: base) }
