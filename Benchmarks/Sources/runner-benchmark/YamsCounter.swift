// The Yams row: every corpus file decoded with Yams' `YAMLDecoder` into Codable structs
// that mirror a Counter spec file, as a project without reducer-spec might read its specs.
// Only this file imports Yams.
import Foundation
import Yams

/// A spec file of the corpus's `Counter`.
struct CounterSpecFile: Decodable {
  var feature: String
  var description: String?
  var tags: [String]?
  var scenarios: [CounterScenario]
}

struct CounterScenario: Decodable {
  var name: String
  var initialState: CounterState
  var steps: [CounterStep]
}

struct CounterState: Decodable {
  var count: Int
  var secret: Int
}

/// `send: increment`, then `state: { count: 1 }`.
struct CounterStep: Decodable {
  var send: CounterAction
  var state: CounterStepState
}

struct CounterStepState: Decodable {
  var count: Int
}

/// `increment`, `decrement`, or `{ setCount: "123" }`: a plain string for a case without a
/// payload, a mapping of one key for a case with one.
enum CounterAction: Decodable {
  case increment
  case decrement
  case setCount(String)

  struct CaseName: CodingKey {
    var stringValue: String
    var intValue: Int? { nil }
    init(stringValue: String) { self.stringValue = stringValue }
    init?(intValue: Int) { nil }
  }

  init(from decoder: Decoder) throws {
    // Most steps send a plain string: try that first, then the one-key mapping.
    if let name = try? decoder.singleValueContainer().decode(String.self) {
      switch name {
      case "increment": self = .increment
      case "decrement": self = .decrement
      default:
        throw DecodingError.dataCorrupted(
          .init(codingPath: decoder.codingPath, debugDescription: "unknown action \(name)"))
      }
      return
    }
    let container = try decoder.container(keyedBy: CaseName.self)
    guard container.allKeys.count == 1, let key = container.allKeys.first else {
      throw DecodingError.dataCorrupted(
        .init(codingPath: decoder.codingPath, debugDescription: "an action with a payload is a mapping of one key"))
    }
    switch key.stringValue {
    case "setCount": self = .setCount(try container.decode(String.self, forKey: key))
    default:
      throw DecodingError.dataCorrupted(
        .init(codingPath: decoder.codingPath, debugDescription: "unknown action \(key.stringValue)"))
    }
  }
}

enum YamsCounter {
  /// Decodes every text (read before the clock starts) and returns the time it took, the
  /// scenarios and steps decoded, and how many steps sent `setCount` (so that a decode
  /// that did nothing, or read every action the same way, shows).
  static func decodeAll(_ texts: [String]) throws -> (seconds: Double, scenarios: Int, steps: Int, setCounts: Int) {
    let decoder = YAMLDecoder()
    var files: [CounterSpecFile] = []
    files.reserveCapacity(texts.count)
    let start = DispatchTime.now().uptimeNanoseconds
    for text in texts {
      files.append(try decoder.decode(CounterSpecFile.self, from: text))
    }
    let seconds = Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
    var scenarios = 0
    var steps = 0
    var setCounts = 0
    for file in files {
      scenarios += file.scenarios.count
      for scenario in file.scenarios {
        steps += scenario.steps.count
        for step in scenario.steps {
          if case .setCount = step.send { setCounts += 1 }
        }
      }
    }
    return (seconds, scenarios, steps, setCounts)
  }
}
