import CustomDump
import Foundation
import Redux
import SpecRunner
import SpecYAML

/// An action a Redux feature's specs can send and receive: `Action`, `Codable` to be read
/// from a spec and written by `record`, `Equatable` to be compared with what was received.
public typealias SpecAction = Action & Codable & Equatable

/// Any action of a Redux feature, named in a spec by its type.
///
/// A struct without fields is written by its name alone (`send: FailureArchiveAction`), and
/// one with fields as a mapping of its name to them
/// (`send: { RequestArchiveWithInputTextAction: { inputText: チーズ } }`). The types it can
/// be are those the feature registers (``ReduxActionTypes``), which the decoder gets through
/// its `userInfo`.
public struct ReduxAction: Codable, Equatable, Sendable, CustomDumpRepresentable {
  /// The action.
  public let action: any SpecAction
  /// Its type's name, as specs write it.
  public var name: String { Self.name(of: type(of: action)) }

  /// Wraps an action.
  public init(_ action: any SpecAction) {
    self.action = action
  }

  public var customDumpValue: Any { action }

  public static func == (lhs: Self, rhs: Self) -> Bool {
    func isEqual<A: Equatable>(_ left: A, _ right: Any) -> Bool { (right as? A) == left }
    return isEqual(lhs.action, rhs.action)
  }

  /// The name specs give an action type: its own name, without its module or enclosing types.
  static func name(of type: any Action.Type) -> String {
    let full = String(describing: type)
    return full.split(separator: ".").last.map(String.init) ?? full
  }

  public init(from decoder: any Decoder) throws {
    guard let types = decoder.userInfo[.reduxActionTypes] as? ReduxActionTypes else {
      throw DecodingError.dataCorrupted(
        .init(
          codingPath: decoder.codingPath,
          debugDescription: "a Redux action is read with its feature's action types in the decoder's userInfo"))
    }
    if let name = try? decoder.singleValueContainer().decode(String.self) {
      let type = try types.type(named: name)
      // A struct without fields: decoded from an empty mapping.
      do {
        action = try JSONDecoder().decode(type, from: Data("{}".utf8))
      } catch {
        throw DecodingError.dataCorrupted(
          .init(
            codingPath: decoder.codingPath,
            debugDescription: "`\(name)` has fields",
            underlyingError: DecodingProblem(
              "`\(name)` has fields: write them as `{ \(name): { … } }`")))
      }
      return
    }
    let container = try decoder.container(keyedBy: NameKey.self)
    let keys = container.allKeys
    guard keys.count == 1, let key = keys.first else {
      throw DecodingError.dataCorrupted(
        .init(
          codingPath: decoder.codingPath,
          debugDescription: "one action",
          underlyingError: DecodingProblem(
            keys.isEmpty
              ? "expected an action of \(types.feature), found an empty mapping"
              : "expected one action of \(types.feature), found \(keys.count) keys ("
                + keys.map { "`\($0.stringValue)`" }.joined(separator: ", ") + "); write one action per step",
            atFirstKey: false)))
    }
    let type = try types.type(named: key.stringValue)
    func decode<A: SpecAction>(_ type: A.Type) throws -> any SpecAction {
      try container.decode(A.self, forKey: key)
    }
    action = try decode(type)
  }

  public func encode(to encoder: any Encoder) throws {
    // A struct that encodes no field is written by its name alone.
    if let fields = try? JSONEncoder().encode(action), fields == Data("{}".utf8) {
      var container = encoder.singleValueContainer()
      try container.encode(name)
      return
    }
    var container = encoder.container(keyedBy: NameKey.self)
    try container.encode(action, forKey: NameKey(stringValue: name))
  }

  struct NameKey: CodingKey {
    var stringValue: String
    var intValue: Int? { nil }
    init(stringValue: String) { self.stringValue = stringValue }
    init?(intValue: Int) { nil }
  }
}

/// The action types of a Redux feature, by the names specs give them.
public struct ReduxActionTypes: Sendable {
  /// The feature's name, for messages.
  public let feature: String
  /// The types, in the order registered.
  public let types: [any SpecAction.Type]
  let byName: [String: any SpecAction.Type]

  /// The action types of `feature`.
  public init(feature: String, types: [any SpecAction.Type]) {
    self.feature = feature
    self.types = types
    var byName: [String: any SpecAction.Type] = [:]
    for type in types { byName[ReduxAction.name(of: type)] = type }
    self.byName = byName
  }

  /// The names specs give the types, in the order registered.
  public var names: [String] { types.map { ReduxAction.name(of: $0) } }

  func type(named name: String) throws -> any SpecAction.Type {
    if let type = byName[name] { return type }
    throw DecodingError.dataCorrupted(
      .init(
        codingPath: [],
        debugDescription: "unknown action",
        underlyingError: DecodingProblem(
          "unknown action `\(name)` for \(feature)" + Suggestion.hint(for: name, in: names) + "; the actions of \(feature) are "
            + names.map { "`\($0)`" }.joined(separator: ", "),
          atFirstKey: true)))
  }
}

extension CodingUserInfoKey {
  /// A Redux feature's ``ReduxActionTypes``, for decoding its ``ReduxAction``s.
  public static let reduxActionTypes = CodingUserInfoKey(rawValue: "reducer-spec.reduxActionTypes")!
}

extension ReduxAction: FeatureDependentShape {
  /// The feature's action types, as the cases of one enum: `features`, `schema`, `coverage`
  /// and case paths (`receive: .SuccessArchiveAction`) see them so.
  package static func shape(userInfo: [CodingUserInfoKey: any Sendable], probe: ShapeProbe) -> TypeShape {
    guard let types = userInfo[.reduxActionTypes] as? ReduxActionTypes else { return .unknown("ReduxAction") }
    let cases = types.types.map { type -> TypeShape.Case in
      let name = ReduxAction.name(of: type)
      if isWrittenByName(type) { return TypeShape.Case(name: name, payload: .none) }
      let shape = probe.shape(of: type)
      if case .record(_, let fields) = shape { return TypeShape.Case(name: name, payload: fields.isEmpty ? .none : .fields(fields)) }
      return TypeShape.Case(name: name, payload: .value(shape))
    }
    return .enumeration(TypeShape.Named(id: ObjectIdentifier(ReduxAction.self), name: "ReduxAction"), cases)
  }
}

/// Whether specs write an action type by its name alone: it decodes from an empty mapping
/// and encodes to one (a struct without fields).
private func isWrittenByName(_ type: any SpecAction.Type) -> Bool {
  guard let value = try? JSONDecoder().decode(type, from: Data("{}".utf8)),
    let encoded = try? JSONEncoder().encode(value)
  else { return false }
  return encoded == Data("{}".utf8)
}
