import Foundation
import LibYAMLScan

/// `yaml-benchmark`: times SpecRunner's YAML layer against libyaml's raw event scan and Yams.
///
///     yaml-benchmark [DIR] [--files N] [--size BYTES] [--seed S] [--repeat N]
///                    [--keys N] [--skip-yams-large]
///     yaml-benchmark --generate DIR [--files N] [--size BYTES] [--seed S]
@main
struct Benchmark {
  struct Options {
    var directory: String?
    var generateInto: String?
    var files = 200
    var size = 50_000
    var seed: UInt64 = 42
    var repetitions = 5
    var keys = 16_000
    var skipYamsLarge = false
    /// Rows to run (`a`, `a2`, `b`, … and `large`); `nil` runs everything and the cross-check.
    var only: Set<String>?
    /// Time each corpus measurement in a process of its own.
    var isolate = false
    /// Internal: measure one row in this process and print `seconds checksum`.
    var child: String?

    func runs(_ row: String) -> Bool { only?.contains(row) ?? true }
  }

  static let usage = """
    usage: yaml-benchmark [DIR] [--files N] [--size BYTES] [--seed S] [--repeat N] [--keys N] [--skip-yams-large]
           yaml-benchmark --generate DIR [--files N] [--size BYTES] [--seed S]

      DIR               time the *.yaml files in DIR (they must decode as the generated specs do);
                        without it, generate --files files of about --size bytes into a temporary directory
      --generate DIR    only write the corpus into DIR and exit
      --files N         files to generate (200)
      --size BYTES      size of each generated file (50000)
      --seed S          generator seed (42)
      --repeat N        runs of each corpus measurement; best and median are reported (5)
      --keys N          keys in the large-mapping measurement (16000)
      --skip-yams-large skip Yams on the large mapping (it is quadratic: ~10 s or more)
      --only LIST       run only these rows, e.g. `--only c` or `--only a,b,large` (for profiling);
                        skips the cross-check of the two decoders
      --isolate         time every run in a fresh process (after a warm-up run) instead of
                        in this one
    """

  static func parseOptions(_ arguments: [String]) -> Options {
    var options = Options()
    var iterator = arguments.makeIterator()
    func value(_ flag: String) -> String {
      guard let value = iterator.next() else { fail("\(flag) needs a value\n\n\(usage)") }
      return value
    }
    func number<T: FixedWidthInteger>(_ flag: String) -> T {
      let text = value(flag)
      guard let number = T(text), number > 0 else { fail("\(flag) takes a positive number, not `\(text)`") }
      return number
    }
    while let argument = iterator.next() {
      switch argument {
      case "--generate": options.generateInto = value(argument)
      case "--files": options.files = number(argument)
      case "--size": options.size = number(argument)
      case "--seed": options.seed = number(argument)
      case "--repeat": options.repetitions = number(argument)
      case "--keys": options.keys = number(argument)
      case "--skip-yams-large": options.skipYamsLarge = true
      case "--isolate": options.isolate = true
      case "--child": options.child = value(argument)
      case "--only":
        let rows = Set(value(argument).split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) })
        let known: Set = ["a", "a2", "b", "b2", "c", "c2", "d", "e", "large"]
        guard rows.isSubset(of: known) else {
          fail("--only takes rows among \(known.sorted().joined(separator: ",")), not `\(rows.subtracting(known).sorted().joined(separator: ","))`")
        }
        options.only = rows
      case "-h", "--help":
        print(usage)
        exit(0)
      default:
        if argument.hasPrefix("-") || options.directory != nil { fail("unknown argument `\(argument)`\n\n\(usage)") }
        options.directory = argument
      }
    }
    return options
  }

  static func main() throws {
    let options = parseOptions(Array(CommandLine.arguments.dropFirst()))
    if let directory = options.generateInto {
      let paths = try CorpusGenerator.write(
        count: options.files, size: options.size, seed: options.seed, to: directory)
      let total = paths.reduce(0) { $0 + ((try? FileManager.default.attributesOfItem(atPath: $1)[.size] as? Int) ?? 0) }
      print("wrote \(paths.count) files, \(formatBytes(total)), into \(directory)")
      return
    }
    try run(options)
  }

  // MARK: - The run

  static func run(_ options: Options) throws {
    #if DEBUG
    print("warning: this is a debug build; run `swift run -c release yaml-benchmark` for real numbers\n")
    #endif
    let directory: String
    var corpusNote: String
    if let given = options.directory {
      directory = given
      corpusNote = "the *.yaml files in \(given)"
    } else {
      directory = (NSTemporaryDirectory() as NSString).appendingPathComponent(
        "yaml-benchmark-corpus-\(options.seed)-\(options.files)x\(options.size)")
      _ = try CorpusGenerator.write(count: options.files, size: options.size, seed: options.seed, to: directory)
      corpusNote = "generated: \(options.files) files of ~\(options.size / 1000) KB, seed \(options.seed)"
    }
    let paths = try FileManager.default.contentsOfDirectory(atPath: directory)
      .filter { $0.hasSuffix(".yaml") || $0.hasSuffix(".yml") }
      .sorted()
      .map { (directory as NSString).appendingPathComponent($0) }
    guard !paths.isEmpty else { fail("no *.yaml files in \(directory)") }

    // Everything is read up front: no measurement includes file I/O.
    let corpus: [(path: String, bytes: [UInt8], text: String)] = try paths.map { path in
      let data = try Data(contentsOf: URL(fileURLWithPath: path))
      return (path, [UInt8](data), String(decoding: data, as: UTF8.self))
    }
    let totalBytes = corpus.reduce(0) { $0 + $1.bytes.count }
    let shared = SharedLibYAML()

    if let row = options.child {
      guard let spec = makeSpecs(Set([row]), corpus: corpus, shared: shared).first else { fail("no row `\(row)`") }
      _ = try spec.body()  // warm-up
      let clock = ContinuousClock()
      var checksum = 0
      let elapsed = try clock.measure { checksum = try spec.body() }
      print("\(seconds(elapsed)) \(checksum)")
      return
    }

    print("YAML layer benchmark (Benchmarks/yaml-benchmark)")
    print(String(repeating: "=", count: 47))
    print("corpus:   \(corpus.count) files, \(formatBytes(totalBytes)) in all (\(corpusNote))")
    print("          in \(directory)")
    print("machine:  \(machineDescription())")
    print("build:    \(buildDescription())")
    print("libyaml:  (a)-(c) call \(RawScan.resolvedLibrary(shared: shared))")
    if let shared { print("          (a2) calls \(shared.path) through dlopen") }
    print("method:   files read into memory first; each corpus row is the whole corpus,")
    print("          best and median of \(options.repetitions) rounds, rows interleaved, " + (options.isolate ? "each run in a fresh process after a warm-up run" : "Yams rows last") + " (ContinuousClock); MB = 10^6 bytes")
    print()

    // Both decoders must agree before anything is timed.
    var mismatches: [String] = []
    for file in options.only == nil ? corpus : [] {
      let ours: SpecFile
      do { ours = try Layer.decodeSpec(file.bytes, path: file.path) } catch {
        fail("SpecRunner's YAMLDecoder failed on \(file.path):\n\(Layer.describe(error))")
      }
      let theirs: SpecFile
      do { theirs = try YamsBench.decodeSpec(file.text) } catch {
        fail("Yams failed on \(file.path):\n\(error)")
      }
      if ours != theirs { mismatches.append(file.path) }
    }
    if options.only != nil {
      print("check:    skipped (--only)")
    } else if mismatches.isEmpty {
      print("check:    both decoders decode every file to equal SpecFile values")
    } else {
      print("check:    DECODERS DISAGREE on \(mismatches.count) files, first \(mismatches[0])")
    }
    print()

    let n = options.repetitions
    let specs = makeSpecs(options.only, corpus: corpus, shared: shared)
    // In one process, Yams' rows run after the others rather than interleaved with them:
    // the heap that Yams leaves behind slowed whatever ran next by up to a third.
    let ours = specs.filter { !["d", "e"].contains($0.id) }
    let yams = specs.filter { ["d", "e"].contains($0.id) }
    let rows =
      options.isolate
      ? try measureIsolated(specs, directory: directory, bytes: totalBytes, runs: n)
      : try measureInterleaved(ours, bytes: totalBytes, runs: n) + measureInterleaved(yams, bytes: totalBytes, runs: n)
    printCorpusTable(rows)
    let byLabel = Dictionary(rows.map { (String($0.label.prefix(4)), $0) }, uniquingKeysWith: { a, _ in a })
    print()
    print("Ratios (time, best runs; higher = slower)")
    printRatio("(c)/(a)", byLabel["(c) "], byLabel["(a) "], "parse + decode vs libyaml's raw scan")
    printRatio("(b)/(a)", byLabel["(b) "], byLabel["(a) "], "parse only vs libyaml's raw scan")
    printRatio("(b2)/(a)", byLabel["(b2)"], byLabel["(a) "], "parse into a node tree vs libyaml's raw scan")
    printRatio("(c)/(b)", byLabel["(c) "], byLabel["(b) "], "parse + decode vs parse only")
    printRatio("(d)/(c)", byLabel["(d) "], byLabel["(c) "], "Yams vs this layer, both parse + decode")
    printRatio("(e)/(b)", byLabel["(e) "], byLabel["(b) "], "Yams' parse vs this layer's parse")
    print()

    if options.runs("large") {
      try largeMapping(options)
      print()
    }
    print("checksums: " + rows.map { "\($0.label.prefix(4).trimmingCharacters(in: .whitespaces))=\($0.checksum)" }
      .joined(separator: " "))
  }

  typealias Spec = (id: String, label: String, body: () throws -> Int)

  /// The corpus rows to run, in order.
  static func makeSpecs(
    _ only: Set<String>?, corpus: [(path: String, bytes: [UInt8], text: String)], shared: SharedLibYAML?
  ) -> [Spec] {
    func runs(_ row: String) -> Bool { only?.contains(row) ?? true }
    var specs: [Spec] = []
    if runs("a") {
      specs.append((
        "a", "(a)  libyaml raw event scan (yaml_parser_parse loop)", {
          corpus.reduce(0) { $0 + RawScan.events(in: $1.bytes) }
        }))
    }
    if let shared, runs("a2") {
      specs.append((
        "a2", "(a2) same scan, shared libyaml via dlopen", {
          corpus.reduce(0) { $0 + shared.events(in: $1.bytes) }
        }))
    }
    if runs("b") {
      specs.append((
        "b", "(b)  YAMLParser parse only (YAMLDocument)", {
          try corpus.reduce(0) { $0 + (try Layer.parseDocument($1.bytes, path: $1.path)) }
        }))
    }
    if runs("b2") {
      specs.append((
        "b2", "(b2) YAMLParser parse into a YAMLNode tree", {
          try corpus.reduce(0) { $0 + (try Layer.parseTree($1.bytes, path: $1.path)) }
        }))
    }
    if runs("c") {
      specs.append((
        "c", "(c)  YAMLParser parse + YAMLDecoder decode", {
          try corpus.reduce(0) { $0 + (try Layer.decodeSpec($1.bytes, path: $1.path)).stepCount }
        }))
    }
    if runs("c2") {
      let documents = try! corpus.map { try Layer.document($0.bytes, path: $0.path) }
      specs.append((
        "c2", "(c2) YAMLDecoder decode only (documents parsed before)", {
          try documents.reduce(0) { $0 + (try Layer.decodeSpec(from: $1)).stepCount }
        }))
    }
    if runs("d") {
      specs.append((
        "d", "(d)  Yams YAMLDecoder().decode(from: String)", {
          try corpus.reduce(0) { $0 + (try YamsBench.decodeSpec($1.text)).stepCount }
        }))
    }
    if runs("e") {
      specs.append((
        "e", "(e)  Yams compose only (its parse, no decode)", {
          try corpus.reduce(0) { $0 + (try YamsBench.compose($1.text)) }
        }))
    }

    return specs
  }

  // MARK: - The large mapping

  static func largeMapping(_ options: Options) throws {
    let text = CorpusGenerator.largeMapping(keys: options.keys)
    let bytes = Array(text.utf8)
    print("One mapping of \(options.keys) keys (`key00001: 1` …, \(formatBytes(bytes.count))) into [String: Int]")
    let layerRuns = max(options.repetitions, 3)
    var layerRow: Row
    do {
      layerRow = try measure("this layer: parse + decode", bytes: bytes.count, runs: layerRuns) {
        let value = try Layer.decodeDictionary(bytes, path: "large.yaml")
        guard value.count == options.keys, value["key00001"] == 1 else { fail("wrong decode: \(value.count) keys") }
        return value.count
      }
    } catch {
      fail("SpecRunner failed on the large mapping:\n\(Layer.describe(error))")
    }
    layerRow.label += " (\(layerRuns) runs)"
    var largeRows = [layerRow]
    if options.skipYamsLarge {
      printLargeTable(largeRows)
      print("(Yams skipped: --skip-yams-large)")
      return
    }
    var yamsRow = try measure("Yams YAMLDecoder (1 run)", bytes: bytes.count, runs: 1) {
      let value = try YamsBench.decodeDictionary(text)
      guard value.count == options.keys else { fail("Yams: wrong decode: \(value.count) keys") }
      return value.count
    }
    yamsRow.label = "Yams YAMLDecoder (1 run)"
    largeRows.append(yamsRow)
    printLargeTable(largeRows)
    print(
      "Yams / this layer: \(String(format: "%.0f", yamsRow.best / layerRow.best))x "
        + "(Yams' keyed decoding looks each key up linearly: quadratic in the number of keys)")
  }

  // MARK: - Measuring

  struct Row {
    var label: String
    var bytes: Int
    var times: [Double]
    var checksum: Int
    var best: Double { times.min()! }
    var median: Double {
      let sorted = times.sorted()
      let middle = sorted.count / 2
      return sorted.count % 2 == 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2
    }
  }

  static func measure(_ label: String, bytes: Int, runs: Int, _ body: () throws -> Int) rethrows -> Row {
    let clock = ContinuousClock()
    var times: [Double] = []
    var checksum = 0
    for _ in 0..<runs {
      var result = 0
      let elapsed = try clock.measure { result = try body() }
      times.append(seconds(elapsed))
      checksum = result
    }
    return Row(label: label, bytes: bytes, times: times, checksum: checksum)
  }

  /// Runs every row once per round, for `runs` rounds, so that a machine that speeds up or
  /// slows down during the run (a shared VM) affects every row alike.
  static func measureInterleaved(_ specs: [Spec], bytes: Int, runs: Int) throws -> [Row] {
    let clock = ContinuousClock()
    var rows = specs.map { Row(label: $0.label, bytes: bytes, times: [], checksum: 0) }
    for _ in 0..<runs {
      for (index, spec) in specs.enumerated() {
        // Give freed memory back first, so that one row's heap does not slow the next row.
        #if canImport(Glibc)
        _ = mallocTrim(0)
        #endif
        var result = 0
        let elapsed = try clock.measure { result = try spec.body() }
        rows[index].times.append(seconds(elapsed))
        rows[index].checksum = result
      }
    }
    return rows
  }

  /// Runs every measurement in a fresh process (`--child`), rows interleaved per round, so
  /// that neither the machine's drift nor one row's heap (Yams leaves a large one) weighs
  /// on another row. Each child reads the corpus, runs the row once to warm up, then times it.
  static func measureIsolated(_ specs: [Spec], directory: String, bytes: Int, runs: Int) throws -> [Row] {
    let executable = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath()
    var rows = specs.map { Row(label: $0.label, bytes: bytes, times: [], checksum: 0) }
    for _ in 0..<runs {
      for (index, spec) in specs.enumerated() {
        let process = Process()
        process.executableURL = executable
        process.arguments = ["--child", spec.id, directory]
        let output = Pipe()
        process.standardOutput = output
        try process.run()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        let fields = String(decoding: data, as: UTF8.self).split(separator: " ")
        guard process.terminationStatus == 0, fields.count == 2, let time = Double(fields[0]),
          let checksum = Int(fields[1].trimmingCharacters(in: .whitespacesAndNewlines))
        else {
          fail("the measurement of row \(spec.id) failed (status \(process.terminationStatus))")
        }
        rows[index].times.append(time)
        rows[index].checksum = checksum
      }
    }
    return rows
  }

  static func seconds(_ duration: Duration) -> Double {
    Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18
  }

  // MARK: - Printing

  static func printCorpusTable(_ rows: [Row]) {
    let width = max(rows.map(\.label.count).max() ?? 0, 9)
    let header =
      "benchmark".padding(toLength: width, withPad: " ", startingAt: 0)
      + "  " + pad("best", 9) + "  " + pad("median", 9) + "  " + pad("MB/s best", 10) + "  " + pad("MB/s median", 11)
    print(header)
    print(String(repeating: "-", count: header.count))
    for row in rows {
      let mb = Double(row.bytes) / 1e6
      print(
        row.label.padding(toLength: width, withPad: " ", startingAt: 0)
          + "  " + pad(formatTime(row.best), 9) + "  " + pad(formatTime(row.median), 9)
          + "  " + pad(String(format: "%.1f", mb / row.best), 10)
          + "  " + pad(String(format: "%.1f", mb / row.median), 11))
    }
  }

  static func printLargeTable(_ rows: [Row]) {
    let width = max(rows.map(\.label.count).max() ?? 0, 9)
    let header =
      "decoder".padding(toLength: width, withPad: " ", startingAt: 0)
      + "  " + pad("best", 9) + "  " + pad("median", 9) + "  " + pad("keys/s best", 12)
    print(header)
    print(String(repeating: "-", count: header.count))
    for row in rows {
      print(
        row.label.padding(toLength: width, withPad: " ", startingAt: 0)
          + "  " + pad(formatTime(row.best), 9) + "  " + pad(formatTime(row.median), 9)
          + "  " + pad(String(format: "%.0f", Double(row.checksum) / row.best), 12))
    }
  }

  static func printRatio(_ name: String, _ top: Row?, _ bottom: Row?, _ meaning: String) {
    guard let top, let bottom else { return }
    print("  \(name)  \(pad(String(format: "%.2f", top.best / bottom.best), 7))x   \(meaning)")
  }

  static func pad(_ text: String, _ width: Int) -> String {
    text.count >= width ? text : String(repeating: " ", count: width - text.count) + text
  }

  static func formatTime(_ seconds: Double) -> String {
    if seconds >= 1 { return String(format: "%.2f s", seconds) }
    if seconds >= 1e-3 { return String(format: "%.1f ms", seconds * 1e3) }
    return String(format: "%.0f µs", seconds * 1e6)
  }

  static func formatBytes(_ bytes: Int) -> String {
    bytes >= 1_000_000 ? String(format: "%.2f MB", Double(bytes) / 1e6) : String(format: "%.1f KB", Double(bytes) / 1e3)
  }

  static func machineDescription() -> String {
    let info = ProcessInfo.processInfo
    var cpu = "unknown CPU"
    if let text = try? String(contentsOfFile: "/proc/cpuinfo", encoding: .utf8),
      let line = text.split(separator: "\n").first(where: { $0.hasPrefix("model name") }),
      let colon = line.firstIndex(of: ":")
    {
      cpu = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
    }
    let memory = String(format: "%.0f GiB", Double(info.physicalMemory) / Double(1 << 30))
    return "\(info.activeProcessorCount) cores, \(cpu), \(memory), \(info.operatingSystemVersionString)"
  }

  static func buildDescription() -> String {
    var text = ""
    #if compiler(>=6.3)
    text = "Swift 6.3 or later"
    #elseif compiler(>=6.0)
    text = "Swift 6.x"
    #else
    text = "Swift"
    #endif
    #if DEBUG
    text += ", debug"
    #else
    text += ", release (-c release)"
    #endif
    return text
  }
}

func fail(_ message: String) -> Never {
  FileHandle.standardError.write(Data("yaml-benchmark: \(message)\n".utf8))
  exit(1)
}

#if canImport(Glibc)
/// glibc's `malloc_trim`, which Swift's Glibc module does not import.
@_silgen_name("malloc_trim")
func mallocTrim(_ pad: Int) -> Int32
#endif
