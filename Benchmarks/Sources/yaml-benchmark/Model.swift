// The Swift types the corpus decodes into. Both decoders decode these same structs, so
// only forms that both accept appear in the corpus: actions are plain strings (`send:`)
// or a mapping from a case name to a payload of strings and ints (`receive:`).

/// One spec file: a feature, its initial state and its scenarios.
struct SpecFile: Codable, Equatable, Sendable {
  var feature: String
  var description: String?
  var initialState: State?
  var scenarios: [Scenario]
}

/// The reducer's state, as a step expects it.
struct State: Codable, Equatable, Sendable {
  var count: Int
  var label: String
  var isLoading: Bool
  var history: [Int]
  var flags: [String]?
}

struct Scenario: Codable, Equatable, Sendable {
  var name: String
  var tags: [String]
  var steps: [Step]
}

/// One step: an action sent or an effect's action received, then the state after it.
struct Step: Codable, Equatable, Sendable {
  var send: String?
  var receive: [String: Payload]?
  var state: State?
  var note: String?
}

/// The value of a received action: `{ factResponse: { value: 3, text: "…" } }`.
struct Payload: Codable, Equatable, Sendable {
  var value: Int?
  var text: String?
}

extension SpecFile {
  /// Steps in all scenarios, as a checksum that the decode really happened.
  var stepCount: Int { scenarios.reduce(0) { $0 + $1.steps.count } }
}
