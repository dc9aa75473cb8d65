import Dependencies
import Foundation
import IssueReporting
import SpecYAML

/// The stubs every feature has, for swift-dependencies' built-in dependencies.
///
/// | key | value |
/// | --- | --- |
/// | `uuid` | `incrementing` (00000000-0000-0000-0000-000000000000, …0001, …) or a list of UUIDs, one per use |
/// | `date` | a date: `date.now` returns it |
/// | `clock` | `test` (the default) or `immediate`; handled by the runner, which owns the clock |
/// | `random` | `{ seed: 42 }`: a seeded generator for `withRandomNumberGenerator` |
/// | `locale`, `timeZone`, `calendar` | identifiers: `en_US`, `UTC`, `gregorian` |
package enum BuiltInStubs {
  package static let clockKey = "clock"

  package static let all: [Stub] = [uuid, date, random, locale, timeZone, calendar]

  /// Every built-in key, `clock` included.
  static var names: [String] { all.map(\.name) + [clockKey] }

  static let uuid = Stub(name: "uuid", shape: "`incrementing` or a list of UUIDs") { node, context in
    if let scalar = node.scalar, scalar.style == .plain, scalar.value == "incrementing" {
      return ConfiguredStub(install: { $0.uuid = .incrementing })
    }
    guard node.sequence != nil else {
      throw YAMLError(
        "`uuid` takes `incrementing` or a list of UUIDs (one per use), found \(node.foundDescription)", at: node)
    }
    let uuids = try context.decoder.decode([UUID].self, from: node)
    guard !uuids.isEmpty else { throw YAMLError("the list of UUIDs is empty: give one UUID per use", at: node) }
    let uses = LockIsolated(0)
    let generator = UUIDGenerator {
      let index = uses.withValue { count in
        defer { count += 1 }
        return count
      }
      if index == uuids.count {
        reportIssue(
          "`uuid` was used \(index + 1) times, but the spec gives \(uuids.count) "
            + (uuids.count == 1 ? "UUID" : "UUIDs") + ": give one UUID per use, or write `uuid: incrementing`")
      }
      return uuids[min(index, uuids.count - 1)]
    }
    return ConfiguredStub(install: { $0.uuid = generator })
  }

  static let date = Stub(name: "date", shape: "a date (2024-05-01T09:00:00Z)") { node, context in
    let date = try context.decoder.decode(Date.self, from: node)
    return ConfiguredStub(install: { $0.date = .constant(date) })
  }

  static let random = Stub(name: "random", shape: "`{ seed: 42 }`") { node, context in
    struct Seed: Decodable { var seed: UInt64 }
    guard node.mapping != nil else {
      throw YAMLError("`random` takes `{ seed: NUMBER }`, found \(node.foundDescription)", at: node)
    }
    let seed = try context.decoder.decode(Seed.self, from: node).seed
    return ConfiguredStub(install: { $0.withRandomNumberGenerator = WithRandomNumberGenerator(SeededGenerator(seed: seed)) })
  }

  static let locale = Stub(name: "locale", shape: "a locale identifier (en_US)") { node, _ in
    let identifier = try BuiltInStubs.identifier(node, for: "locale", example: "en_US")
    return ConfiguredStub(install: { $0.locale = Locale(identifier: identifier) })
  }

  static let timeZone = Stub(name: "timeZone", shape: "a time zone identifier (UTC, Europe/Paris)") { node, _ in
    let identifier = try BuiltInStubs.identifier(node, for: "timeZone", example: "UTC")
    guard let zone = TimeZone(identifier: identifier) else {
      throw YAMLError("unknown time zone `\(identifier)`: write an identifier such as `UTC` or `Europe/Paris`", at: node)
    }
    return ConfiguredStub(install: { $0.timeZone = zone })
  }

  package static let calendars: [String: Calendar.Identifier] = [
    "gregorian": .gregorian, "iso8601": .iso8601, "buddhist": .buddhist, "chinese": .chinese, "coptic": .coptic,
    "ethiopicAmeteAlem": .ethiopicAmeteAlem, "ethiopicAmeteMihret": .ethiopicAmeteMihret, "hebrew": .hebrew,
    "indian": .indian, "islamic": .islamic, "islamicCivil": .islamicCivil, "islamicTabular": .islamicTabular,
    "islamicUmmAlQura": .islamicUmmAlQura, "japanese": .japanese, "persian": .persian,
    "republicOfChina": .republicOfChina,
  ]

  static let calendar = Stub(name: "calendar", shape: "a calendar identifier (gregorian)") { node, _ in
    let name = try BuiltInStubs.identifier(node, for: "calendar", example: "gregorian")
    guard let identifier = calendars[name] else {
      throw YAMLError(
        "unknown calendar `\(name)`" + Suggestion.hint(for: name, in: calendars.keys.sorted())
          + " (calendars: \(calendars.keys.sorted().joined(separator: ", ")))",
        at: node)
    }
    return ConfiguredStub(install: { $0.calendar = Calendar(identifier: identifier) })
  }

  private static func identifier(_ node: YAMLNode, for key: String, example: String) throws -> String {
    guard let scalar = node.scalar, !node.isNull, !scalar.value.isEmpty else {
      throw YAMLError("`\(key)` takes an identifier such as `\(example)`, found \(node.foundDescription)", at: node)
    }
    return scalar.value
  }
}

/// A seeded random number generator (SplitMix64): the same seed gives the same numbers on
/// every machine and every run.
struct SeededGenerator: RandomNumberGenerator, Sendable {
  private var state: UInt64

  init(seed: UInt64) {
    state = seed
  }

  mutating func next() -> UInt64 {
    state &+= 0x9E37_79B9_7F4A_7C15
    var z = state
    z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
    z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
    return z ^ (z >> 31)
  }
}
