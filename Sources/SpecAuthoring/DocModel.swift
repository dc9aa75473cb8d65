import SpecRunner
import SpecYAML

/// What `reducer-spec doc` documents: the spec files as their authors wrote them, grouped
/// by feature.
///
/// Each file is first loaded as a run loads it (``SpecEngine/load(files:)``: the format,
/// the feature, every action, assignment and stub); a file with an error is only listed,
/// with its first error. The others are read again as YAML trees, so that the pages show
/// what the author wrote: outlines with their placeholders, scenario descriptions, values
/// as YAML. The engine's scenarios give each scenario and example row the test case name a
/// run reports it under.
package struct DocProject {
  /// Sorted by name (byte order).
  package var features: [DocFeature]
  /// In path order.
  package var brokenFiles: [DocBrokenFile]

  package var fileCount: Int { features.reduce(0) { $0 + $1.files.count } + brokenFiles.count }
}

package struct DocFeature {
  package var name: String
  /// The page's file name in the output directory: `Counter.md`.
  package var page: String
  /// In path order.
  package var files: [DocFile]

  /// Every test case of the feature's files, in order.
  package var testCases: [String] { files.flatMap(\.testCases).map(\.name) }
}

/// A spec file that could not be read or bound to its feature.
package struct DocBrokenFile {
  package var path: String
  package var error: SpecFileError
  /// How many errors the file has.
  package var errorCount: Int
}

package struct DocFile {
  package var path: String
  package var description: String?
  package var tags: [String]
  package var initialState: YAMLNode?
  package var dependencies: YAMLNode?
  package var scenarios: [DocScenario]

  /// Every test case of the file, in order: a scenario, or one per example row.
  package var testCases: [(file: String, name: String)] {
    scenarios.flatMap { scenario in
      scenario.examples.map { $0.map { (path, $0.testCase) } } ?? [(path, scenario.testCase)]
    }
  }
}

package struct DocScenario {
  /// The name as written: with an outline's placeholders.
  package var name: String
  package var description: String?
  /// The scenario's own tags (the file's are shown with the file).
  package var tags: [String]
  package var skip: String?
  package var isExhaustive: Bool
  /// `exhaustivity: { off: { showSkippedAssertions: true } }`.
  var showsSkippedAssertions = false
  package var initialState: YAMLNode?
  package var dependencies: YAMLNode?
  package var steps: [DocStep]
  /// The test case name of a scenario without examples.
  package var testCase: String
  /// An outline's rows; `nil` for a scenario without `examples`.
  package var examples: [DocExample]?
}

package struct DocExample {
  /// The row's mapping of placeholder values.
  package var values: YAMLNode.Mapping
  /// The row's test case name: the scenario's name filled in.
  package var testCase: String
}

package struct DocStep {
  /// `send`, `receive`, `advance`…
  package var keyword: String
  package var value: YAMLNode
  package var state: YAMLNode?
  package var timeout: YAMLNode?
  /// The name `as:` gives a `send`'s effects.
  package var taskName: YAMLNode?
  package var note: String?
}

extension DocProject {
  /// Loads `paths` (spec files, in the order given) with `engine`.
  @MainActor
  package static func load(_ paths: [String], engine: SpecEngine) -> DocProject {
    var byFeature: [String: [DocFile]] = [:]
    var broken: [DocBrokenFile] = []
    for loaded in engine.load(files: paths) {
      if let error = loaded.errors.first {
        broken.append(DocBrokenFile(path: loaded.file, error: error, errorCount: loaded.errors.count))
        continue
      }
      let root: YAMLNode
      do {
        root = try YAMLParser().parseDocument(contentsOf: loaded.file).root
      } catch {
        // The engine read it a moment ago; only a file changed meanwhile gets here.
        let location = (error as? YAMLError)?.location ?? FileLocation(file: loaded.file, line: 0, column: 0)
        let message = (error as? YAMLError)?.message ?? "cannot read the file: \(error)"
        broken.append(
          DocBrokenFile(
            path: loaded.file, error: SpecFileError(file: loaded.file, location: location, message: message),
            errorCount: 1))
        continue
      }
      let feature = loaded.feature ?? root["feature"]?.scalar?.value ?? ""
      byFeature[feature, default: []].append(DocFile(path: loaded.file, root: root, planned: loaded.scenarios))
    }
    var features: [DocFeature] = []
    var pages: Set<String> = ["readme.md"]
    for name in byFeature.keys.sorted(by: { Array($0.utf8).lexicographicallyPrecedes(Array($1.utf8)) }) {
      let base = Markdown.fileName(name)
      var page = base + ".md"
      var number = 2
      while !pages.insert(page.lowercased()).inserted {
        page = "\(base)-\(number).md"
        number += 1
      }
      features.append(DocFeature(name: name, page: page, files: byFeature[name]!))
    }
    return DocProject(features: features, brokenFiles: broken)
  }
}

extension DocFile {
  /// A file that the engine loaded without errors, from its YAML tree and the engine's
  /// scenarios (which name each test case).
  package init(path: String, root: YAMLNode, planned: [PlannedScenario]) {
    self.path = path
    description = root["description"]?.scalar?.value
    tags = Self.tags(root["tags"])
    initialState = root["initialState"]
    dependencies = root["dependencies"]
    // Test case names as the JUnit report writes them: equal names get ` (2)`, ` (3)`…
    var names = JUnitReporter.UniqueNames(originals: Set(planned.map(\.name)))
    var testCases: [ScenarioID: String] = [:]
    for scenario in planned { testCases[scenario.id] = names.claim(scenario.name) }

    var scenarios: [DocScenario] = []
    for (index, node) in (root["scenarios"]?.sequence ?? []).enumerated() {
      let name = node["name"]?.scalar?.value ?? ""
      let steps = (node["steps"]?.sequence ?? []).map(DocStep.init)
      var examples: [DocExample]?
      if let rows = node["examples"]?.sequence {
        examples = rows.enumerated().map { row, values in
          DocExample(
            values: values.mapping ?? .init(),
            testCase: testCases[ScenarioID(file: path, scenario: index, row: row)] ?? name)
        }
      }
      let exhaustivity = node["exhaustivity"]
      let off = exhaustivity?.mapping?["off"]
      var scenario = DocScenario(
        name: name, description: node["description"]?.scalar?.value, tags: Self.tags(node["tags"]),
        skip: node["skip"]?.scalar?.value, isExhaustive: exhaustivity?.scalar?.value != "off" && off == nil,
        initialState: node["initialState"], dependencies: node["dependencies"], steps: steps,
        testCase: testCases[ScenarioID(file: path, scenario: index)] ?? name, examples: examples)
      scenario.showsSkippedAssertions = off?.mapping?["showSkippedAssertions"]?.scalar?.value == "true"
      scenarios.append(scenario)
    }
    self.scenarios = scenarios
  }

  private static func tags(_ node: YAMLNode?) -> [String] {
    guard let node else { return [] }
    if let scalar = node.scalar { return [scalar.value] }
    return (node.sequence ?? []).compactMap { $0.scalar?.value }
  }
}

extension DocStep {
  package init(_ node: YAMLNode) {
    let mapping = node.mapping ?? .init()
    let kind = mapping.entries.first { SpecParser.stepKinds.contains($0.name) }
    keyword = kind?.name ?? ""
    value = kind?.value ?? .null
    state = mapping["state"]
    timeout = mapping["timeout"]
    taskName = mapping["as"]
    note = mapping["note"]?.scalar?.value
  }
}

