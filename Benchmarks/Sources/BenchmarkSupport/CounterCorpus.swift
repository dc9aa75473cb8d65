import Foundation

/// The corpus of `runner-benchmark` and `soak-benchmark`: spec files of the example `Counter`.
public enum CounterCorpus {
  /// Writes `files` spec files of the example `Counter`, each with `scenarios` scenarios of
  /// `steps` steps: sends of `increment`, `decrement` and `setCount` with the state each
  /// leaves, as a person would write them. Each scenario starts from its own `initialState`
  /// and jumps to its own numbers, drawn from a seeded generator, so that no two scenarios
  /// (and no two files) repeat each other: a cache of states or actions cannot make the run
  /// look faster than a real suite would. Deterministic: the first N files of a larger corpus
  /// are byte for byte those of a corpus of N files, and every scenario passes. Returns the number
  /// of scenarios.
  public static func generate(in directory: String, files: Int, scenarios: Int, steps: Int) throws -> Int {
    try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
    var random = SeededGenerator(seed: 0x5EED)
    var total = 0
    for file in 0..<files {
      var text = """
        feature: Counter
        description: |
          Generated spec \(file + 1) for the runner benchmark: the counter counts up and
          down, and setCount jumps to a number.
        tags: [generated]
        scenarios:

        """
      for scenario in 0..<scenarios {
        var count = random.next(in: -50_000...50_000)
        let secret = random.next(in: -100...100)
        text += "  - name: Scenario \(scenario + 1) of file \(file + 1) counts as it is told\n"
        text += "    initialState: { count: \(count), secret: \(secret) }\n"
        text += "    steps:\n"
        for _ in 0..<steps {
          switch random.next(in: 0...4) {
          case 0, 1, 2:
            count += 1
            text += "      - send: increment\n        state: { count: \(count) }\n"
          case 3:
            count -= 1
            text += "      - send: decrement\n        state: { count: \(count) }\n"
          default:
            // A jump to the number it has would change nothing, and the step would fail
            // ("Expected state to change"): about one in 100,001, so twice in 50,000
            // scenarios. Drawn again (after any such draw, the corpus differs from the one
            // generated before; the first 1,000 files had none).
            let from = count
            repeat { count = random.next(in: -50_000...50_000) } while count == from
            text += "      - send: { setCount: \"\(count)\" }\n        state: { count: \(count) }\n"
          }
        }
        total += 1
      }
      let path = (directory as NSString).appendingPathComponent(String(format: "spec-%04d.yaml", file))
      try text.write(toFile: path, atomically: false, encoding: .utf8)
    }
    return total
  }
}
