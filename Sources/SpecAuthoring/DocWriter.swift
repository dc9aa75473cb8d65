import Foundation
import SpecRunner
import SpecYAML

/// Writes the Markdown pages of `reducer-spec doc`: `README.md`, the index of features,
/// and one page per feature. The text depends only on the spec files and the results, so
/// the same input gives the same pages, byte for byte.
package struct DocWriter {
  package var project: DocProject
  /// A run's outcomes (`--results FILE`), with the file's path as given.
  package var results: (path: String, results: JUnitResults)?

  package init(project: DocProject, results: (path: String, results: JUnitResults)?) {
    self.project = project
    self.results = results
  }

  // MARK: - The index

  /// `README.md`: the features with their files, scenario counts and (with results) their
  /// outcomes, then the files that have errors.
  package func index() -> String {
    var out = "# Features\n\n"
    if let results {
      let total = Tally(project.features.flatMap { feature in feature.files.flatMap(\.testCases) }, results.results)
      out += "Results from \(Markdown.code(results.path)): \(total.summary).\n\n"
    }
    if project.features.isEmpty {
      out += project.brokenFiles.isEmpty ? "No spec files.\n" : "No spec file could be read.\n"
    } else {
      var header = ["Feature", "Files", "Scenarios"]
      if results != nil { header.append("Results") }
      let rows = project.features.map { feature -> [String] in
        let testCases = feature.files.flatMap(\.testCases)
        var row = [
          "[\(Markdown.text(feature.name))](\(feature.page))",
          feature.files.map { Markdown.code($0.path) }.joined(separator: "<br>"),
          "\(testCases.count)",
        ]
        if let results { row.append(Tally(testCases, results.results).summary) }
        return row
      }
      out += Markdown.table(header: header, rows: rows)
    }
    if !project.brokenFiles.isEmpty {
      out += "\n## Files with errors\n\n"
      out += "These files could not be read; a run reports every error.\n\n"
      let rows = project.brokenFiles.map { file -> [String] in
        let more = file.errorCount > 1 ? " (and \(file.errorCount - 1) more)" : ""
        return [
          Markdown.code(file.path),
          Markdown.code(file.error.location.description) + ": " + firstLine(file.error.message) + more,
        ]
      }
      out += Markdown.table(header: ["File", "First error"], rows: rows)
    }
    return out
  }

  // MARK: - A feature's page

  /// The page of one feature: each of its files with its description, each scenario with
  /// its steps.
  package func page(for feature: DocFeature) -> String {
    var out = "# \(Markdown.text(feature.name))\n\n"
    out += "[All features](README.md)\n"
    for file in feature.files {
      out += "\n## \(Markdown.code(file.path))\n\n"
      var facts: [String] = []
      if !file.tags.isEmpty { facts.append("Tags: " + file.tags.map(Markdown.code).joined(separator: ", ")) }
      if let state = file.initialState { facts.append("Initial state: " + entries(state)) }
      if let stubs = file.dependencies { facts.append("Dependencies: " + entries(stubs)) }
      out += introduction(file.description, facts)
      out += file.scenarios.map { scenario(of: file, $0) }.joined(separator: "\n")
    }
    return out
  }

  private func scenario(of file: DocFile, _ scenario: DocScenario) -> String {
    var out = "### \(Markdown.text(scenario.name))\n\n"
    var facts: [String] = []
    if !scenario.tags.isEmpty { facts.append("Tags: " + scenario.tags.map(Markdown.code).joined(separator: ", ")) }
    if let skip = scenario.skip { facts.append("Skipped: " + Markdown.text(skip)) }
    if scenario.showsSkippedAssertions {
      facts.append("Exhaustivity: off (only what the steps state is checked; what is not is shown as notes)")
    } else if !scenario.isExhaustive {
      facts.append("Exhaustivity: off (only what the steps state is checked)")
    }
    if let state = scenario.initialState { facts.append("Initial state: " + entries(state)) }
    if let stubs = scenario.dependencies { facts.append("Dependencies: " + entries(stubs)) }
    if scenario.examples == nil, results != nil {
      facts.append("Result: " + outcome(file: file.path, testCase: scenario.testCase))
    }
    out += introduction(scenario.description, facts)

    let steps = scenario.steps.enumerated().map { offset, step in
      ["\(offset + 1)", self.step(step), step.state.map { assignments($0) } ?? "", step.note ?? ""]
    }
    out += Markdown.table(header: ["#", "Step", "State changes", "Note"], rows: steps)

    if let examples = scenario.examples {
      // The placeholders in the order the rows first give them.
      var names: [String] = []
      for row in examples { for name in row.values.keys where !names.contains(name) { names.append(name) } }
      var header = ["#"] + names.map(Markdown.code) + ["Scenario"]
      if results != nil { header.append("Result") }
      let rows = examples.enumerated().map { offset, row -> [String] in
        var cells = ["\(offset + 1)"]
        cells += names.map { name in row.values[name].map { Markdown.code(YAMLEmitter.flow($0)) } ?? "" }
        cells.append(Markdown.text(row.testCase))
        if results != nil { cells.append(outcome(file: file.path, testCase: row.testCase)) }
        return cells
      }
      out += "\nExamples:\n\n" + Markdown.table(header: header, rows: rows)
    }
    return out
  }

  /// `send `increment``, `receive `.response.success`, timeout `2s``, `finish`,
  /// `send `startTimer` as `timer``, `finish `timer``, `assert `seconds: 3``.
  private func step(_ step: DocStep) -> String {
    var text = step.keyword
    let value = step.value
    let isBareFlag =
      (step.keyword == "finish" && (value.isNull || value.scalar?.value == "true"))
      || ((step.keyword == "skipReceivedActions" || step.keyword == "skipInFlightEffects")
        && value.scalar?.value == "true")
    if step.keyword == "send" || step.keyword == "receive", let mapping = value.mapping, mapping.entries.count == 1,
      let key = mapping.entries.first?.name, key.contains(where: { $0 == "." || $0 == "[" })
    {
      // An action path, as written: `send `todos[id=0].binding.isComplete: true``.
      text += " " + Markdown.code(key + ": " + YAMLEmitter.flow(mapping.entries[0].value))
    } else if step.keyword == "assert", let mapping = value.mapping, !mapping.entries.isEmpty {
      // One code span per assignment, as in the state column.
      text += " " + entries(value)
    } else if !isBareFlag {
      text += " " + Markdown.code(YAMLEmitter.flow(value))
    }
    if let name = step.taskName { text += " as " + Markdown.code(YAMLEmitter.flow(name)) }
    if let timeout = step.timeout { text += ", timeout " + Markdown.code(YAMLEmitter.flow(timeout)) }
    return text
  }

  /// A `state:` mapping: one code span per assignment, one per line.
  private func assignments(_ node: YAMLNode) -> String { entries(node, separator: "<br>") }

  /// A mapping as one code span per entry (an `initialState:` or `dependencies:` on one line).
  private func entries(_ node: YAMLNode, separator: String = ", ") -> String {
    guard let mapping = node.mapping else { return Markdown.code(YAMLEmitter.flow(node)) }
    return mapping.entries.map { Markdown.code("\($0.name): " + YAMLEmitter.flow($0.value)) }
      .joined(separator: separator)
  }

  // MARK: - Outcomes

  /// `✓ passed (0.012s)`, `✗ failed (0.020s)`, `✗ error (1.500s)`, `skipped`, `not run`.
  private func outcome(file: String, testCase: String) -> String {
    guard let result = results?.results.result(file: file, name: testCase) else { return "not run" }
    let time = result.time.map { " (\($0)s)" } ?? ""
    switch result.outcome {
    case .passed: return "✓ passed" + time
    case .failed: return "✗ failed" + time
    case .error: return "✗ error" + time
    case .skipped: return "skipped"
    }
  }

  /// The outcomes of some test cases, counted.
  private struct Tally {
    package var passed = 0, failed = 0, errors = 0, skipped = 0, notRun = 0

    package init(_ testCases: [(file: String, name: String)], _ results: JUnitResults) {
      for testCase in testCases {
        switch results.result(file: testCase.file, name: testCase.name)?.outcome {
        case .passed: passed += 1
        case .failed: failed += 1
        case .error: errors += 1
        case .skipped: skipped += 1
        case nil: notRun += 1
        }
      }
    }

    /// `3 passed, 1 failed, 2 not run`: the counts that are not zero (`0 passed` when all are).
    package var summary: String {
      let parts = [
        (passed, "passed"), (failed, "failed"), (errors, errors == 1 ? "error" : "errors"), (skipped, "skipped"),
        (notRun, "not run"),
      ].filter { $0.0 > 0 }.map { "\($0.0) \($0.1)" }
      return parts.isEmpty ? "0 passed" : parts.joined(separator: ", ")
    }
  }

  /// A description, then the facts as a list. When the description ends with a list of its
  /// own, an empty HTML comment comes between, so that the two lists do not run together.
  private func introduction(_ description: String?, _ facts: [String]) -> String {
    var out = ""
    if let description, case let text = description.trimmed, !text.isEmpty {
      out += text + "\n\n"
      let last = text.split(separator: "\n").last?.drop { $0 == " " } ?? ""
      let endsWithList =
        ["- ", "* ", "+ "].contains { last.hasPrefix($0) } || last.firstMatch(of: #/^[0-9]{1,9}[.)] /#) != nil
      if endsWithList, !facts.isEmpty { out += "<!-- -->\n\n" }
    }
    if !facts.isEmpty { out += facts.map { "- \($0)\n" }.joined() + "\n" }
    return out
  }

  private func firstLine(_ text: String) -> String {
    String(text.prefix { $0 != "\n" && $0 != "\r" })
  }
}

extension String {
  fileprivate var trimmed: String { trimmingCharacters(in: .whitespacesAndNewlines) }
}
