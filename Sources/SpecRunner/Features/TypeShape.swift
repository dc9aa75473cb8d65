import Foundation
import SpecYAML

/// The shape of a `Decodable` type as a spec writes its values: what `reducer-spec features`
/// prints and what `reducer-spec schema` turns into a JSON Schema.
///
/// Shapes are found by decoding the type from a probing decoder (``ShapeProbe``), so they
/// are the type's own: a struct is the keys its `init(from:)` reads, an enum with a
/// synthesized `Codable` conformance is its cases (listed through its `CodingKeys`, as
/// ``CodingKeyProbe`` does) with the keys each case's payload reads.
package indirect enum TypeShape: Equatable {
  /// A value written as one scalar.
  case scalar(Scalar)
  /// `null`, or the wrapped value.
  case optional(TypeShape)
  /// A list.
  case list(TypeShape)
  /// The arguments of a call of an endpoint that takes several: a list of exactly these, in
  /// order.
  case arguments([TypeShape])
  /// A mapping from strings to values.
  case dictionary(TypeShape)
  /// A struct: its fields, in the order its `init(from:)` reads them.
  case record(Named, [Field])
  /// An enum: one case, written as the case's name (no payload) or as `{ case: payload }`.
  case enumeration(Named, [Case])
  /// An enum decoded from its raw value (`enum Alert: String, Codable`): one of `values`.
  case rawValues(Named, [String])
  /// A type that contains itself, met again inside itself.
  case recursive(Named)
  /// `null` only: the value of an endpoint that returns nothing, or has no input.
  case nothing
  /// A type whose shape the probe could not find: any value.
  case unknown(String)
  /// ReducerCore's `IdentifiedArray`: a list of elements, each identified by its `id` field.
  case identified(TypeShape)
  /// ReducerCore's `PresentationState` (`@Presents`): `null`, or the presented child's state.
  case presented(TypeShape)
  /// ReducerCore's `StackState`: a navigation stack, written `[{ id: Int, state: ELEMENT }]`.
  case stack(TypeShape)
  /// ReducerCore's `BindingAction` of a state with `BindableStateFields`: `{ FIELD: VALUE }`,
  /// one of the bindable fields.
  case binding(Named, [Field])

  package enum Scalar: Equatable {
    case string, integer(String), number(String), bool, date, uuid, url, data, decimal
  }

  /// A type's identity and its name as Swift writes it (`AlertState.Button`).
  package struct Named: Equatable {
    package var id: ObjectIdentifier
    package var name: String
    /// What the type is for, when it is one of ReducerCore's navigation types.
    package var role: Role = .plain

    package init(id: ObjectIdentifier, name: String, role: Role = .plain) {
      self.id = id
      self.name = name
      self.role = role
    }
  }

  /// ReducerCore's types whose shape is an ordinary enum or struct, but which are written
  /// (by `reducer-spec features`) as what they are for.
  package enum Role: Equatable, Sendable {
    case plain
    /// `PresentationAction`: `{ presented: ACTION } | dismiss`.
    case presentationAction
    /// `IdentifiedAction`: `{ element: { id: ID, action: ACTION } }`.
    case identifiedAction
    /// `StackAction`: `{ push: … } | { popFrom: … } | { element: … }`.
    case stackAction
    /// `AlertState` and `ConfirmationDialogState`.
    case alert
    /// `ButtonState`: written inline, `{ label: String, role: …, action: … }`.
    case button
  }

  package struct Field: Equatable {
    package var name: String
    package var shape: TypeShape
    /// Read with `decode` (the key must be there) rather than `decodeIfPresent`.
    package var isRequired: Bool
  }

  package struct Case: Equatable {
    package var name: String
    package var payload: Payload

    package init(name: String, payload: Payload) {
      self.name = name
      self.payload = payload
    }
  }

  package enum Payload: Equatable {
    /// A case without a value: `increment`.
    case none
    /// One unlabelled value: `{ setCount: "42" }` (or `{ setCount: { _0: "42" } }`).
    case value(TypeShape)
    /// Labelled values: `{ move: { row: 1, column: 2 } }`.
    case fields([Field])
  }

  /// The named type this shape is, if any.
  package var named: Named? {
    switch self {
    case .record(let named, _), .enumeration(let named, _), .rawValues(let named, _), .recursive(let named),
      .binding(let named, _):
      return named
    default:
      return nil
    }
  }
}

// MARK: - The probe

/// Finds the ``TypeShape`` of `Decodable` types by decoding them from a decoder that makes up
/// every value asked for and records what was asked.
///
/// A struct is decoded once: each `decode(_:forKey:)` records a field, and is answered with
/// a made-up value of the field's type (found the same way). An enum with a synthesized
/// conformance asks for `allKeys`; it is then decoded once per case of its `CodingKeys`,
/// with that case as its only key, which records the case's payload.
package final class ShapeProbe {
  private var shapes: [ObjectIdentifier: TypeShape] = [:]
  private var inProgress: Set<ObjectIdentifier> = []
  /// A value of each enum being probed, once one of its cases made one: what a later case
  /// that holds the enum itself (`indirect case sum(Expression, Expression)`) is given.
  private var partialValues: [ObjectIdentifier: Any] = [:]

  package init() {}

  /// The shape of a type.
  package func shape(of type: any Decodable.Type) -> TypeShape {
    func open<T: Decodable>(_ type: T.Type) -> TypeShape { probe(T.self).shape }
    return open(type)
  }

  /// The shape of a feature's state or action type, which may depend on the feature
  /// (``FeatureDependentShape``): what `userInfo` says of it.
  package func shape(of type: any Decodable.Type, userInfo: [CodingUserInfoKey: any Sendable]) -> TypeShape {
    if let dependent = type as? any FeatureDependentShape.Type { return dependent.shape(userInfo: userInfo, probe: self) }
    return shape(of: type)
  }

  struct Failure: Error {}

  /// The shape of `T`, and a value of it made up from nothing, if one could be made.
  func probe<T: Decodable>(_ type: T.Type) -> (shape: TypeShape, value: T?) {
    if let known = Self.builtIn(T.self) { return (known.shape, known.value as? T) }
    if let optional = T.self as? any OptionalShape.Type {
      return (.optional(shape(of: optional.wrappedDecodable)), optional.noneValue as? T)
    }
    if let arguments = T.self as? any ArgumentListShape.Type {
      return (.arguments(arguments.argumentTypes.map { self.shape(of: $0) }), nil)
    }
    if let array = T.self as? any ArrayShape.Type {
      return (.list(shape(of: array.elementDecodable)), array.empty as? T)
    }
    if let dictionary = T.self as? any DictionaryShape.Type {
      return (.dictionary(shape(of: dictionary.valueDecodable)), dictionary.empty as? T)
    }
    if let identified = T.self as? any IdentifiedArrayShape.Type {
      return (.identified(shape(of: identified.elementDecodable)), identified.empty as? T)
    }
    if let presented = T.self as? any PresentationStateShape.Type {
      return (.presented(shape(of: presented.wrappedDecodable)), presented.noneValue as? T)
    }
    if let stack = T.self as? any StackStateShape.Type {
      return (.stack(shape(of: stack.elementDecodable)), stack.empty as? T)
    }
    let id = ObjectIdentifier(T.self)
    let role = (T.self as? any RoleShape.Type)?.shapeRole ?? .plain
    let named = TypeShape.Named(id: id, name: typeName(T.self), role: role)
    if let binding = T.self as? any BindingActionShape.Type {
      if let shape = shapes[id] { return (shape, nil) }
      // One decoding per bindable field, with that field as the only key.
      var fields: [TypeShape.Field] = []
      var value: T?
      for name in binding.fieldNames {
        let decoder = ProbeDecoder(probe: self, selecting: name)
        if let decoded = try? T(from: decoder), value == nil { value = decoded }
        let read = decoder.reads.first { $0.key == name }
        fields.append(TypeShape.Field(name: name, shape: read?.shape ?? .unknown(named.name), isRequired: true))
      }
      let shape = TypeShape.binding(named, fields)
      shapes[id] = shape
      return (shape, value)
    }
    if let iterable = T.self as? any (CaseIterable & Encodable).Type, let raw = Self.rawValues(of: iterable) {
      return (.rawValues(named, raw.values), raw.first as? T)
    }
    if inProgress.contains(id) {
      // Met inside itself: the shape is the one being found; a value only when one of its
      // cases (found first) made one.
      return (.recursive(named), partialValues[id] as? T)
    }
    if let shape = shapes[id] {
      return (shape, try? T(from: ProbeDecoder(probe: self, selecting: Self.firstCase(of: shape))))
    }
    inProgress.insert(id)
    defer { inProgress.remove(id) }

    let first = ProbeDecoder(probe: self, selecting: nil)
    var value = try? T(from: first)
    let shape: TypeShape
    switch first.kind {
    case .keyed(let caseNames, let readAllKeys) where readAllKeys:
      // An enum: once per case, with that case as its only key.
      var cases: [TypeShape.Case] = []
      for name in caseNames ?? [] {
        let decoder = ProbeDecoder(probe: self, selecting: name)
        let caseValue = try? T(from: decoder)
        if value == nil, let caseValue {
          value = caseValue
          partialValues[id] = caseValue
        }
        cases.append(TypeShape.Case(name: name, payload: decoder.payload(of: name)))
      }
      shape = caseNames == nil ? .unknown(named.name) : .enumeration(named, cases)
    case .keyed:
      let labels = value.map(Self.wrapperLabels) ?? (optional: [], presented: [])
      shape = .record(named, first.fields(optionalLabels: labels.optional, presentedLabels: labels.presented))
    case .single(let inner):
      if value == nil, T.self is any RawRepresentable.Type, let raw = payloadFreeEnumCases(of: T.self) {
        // A raw-value enum that is not `CaseIterable`: its cases are read from memory.
        value = raw.first
        let texts = raw.compactMap { ($0 as? any RawRepresentable).map { "\($0.rawValue)" } }
        shape = texts.count == raw.count ? .rawValues(named, texts) : inner
      } else {
        shape = inner
      }
    case .unkeyed(let element):
      shape = .list(element ?? .unknown(named.name))
    case .none:
      shape = .unknown(named.name)
    }
    shapes[id] = shape
    return (shape, value)
  }

  private static func firstCase(of shape: TypeShape) -> String? {
    if case .enumeration(_, let cases) = shape { return cases.first?.name }
    return nil
  }

  /// The stored properties of a value that are optionals (`var alert: AlertState?`), by label.
  /// The stored properties of a value that are optionals (`var alert: AlertState?`), and
  /// those that are presented children (`@Presents var destination`, stored as
  /// `_destination`), by the label a `Codable` conformance reads them with.
  private static func wrapperLabels(_ value: Any) -> (optional: Set<String>, presented: Set<String>) {
    var optional: Set<String> = []
    var presented: Set<String> = []
    for child in Mirror(reflecting: value).children {
      guard let label = child.label else { continue }
      let type = type(of: child.value)
      if type is any AnyOptional.Type { optional.insert(label) }
      if type is any PresentationStateShape.Type, label.hasPrefix("_") { presented.insert(String(label.dropFirst())) }
    }
    return (optional, presented)
  }

  /// Scalars the decoder reads itself, with a value of each.
  private static func builtIn(_ type: Any.Type) -> (shape: TypeShape, value: Any)? {
    switch type {
    case is String.Type: return (.scalar(.string), "")
    case is Bool.Type: return (.scalar(.bool), false)
    case is Int.Type: return (.scalar(.integer("Int")), 0 as Int)
    case is Int8.Type: return (.scalar(.integer("Int8")), 0 as Int8)
    case is Int16.Type: return (.scalar(.integer("Int16")), 0 as Int16)
    case is Int32.Type: return (.scalar(.integer("Int32")), 0 as Int32)
    case is Int64.Type: return (.scalar(.integer("Int64")), 0 as Int64)
    case is UInt.Type: return (.scalar(.integer("UInt")), 0 as UInt)
    case is UInt8.Type: return (.scalar(.integer("UInt8")), 0 as UInt8)
    case is UInt16.Type: return (.scalar(.integer("UInt16")), 0 as UInt16)
    case is UInt32.Type: return (.scalar(.integer("UInt32")), 0 as UInt32)
    case is UInt64.Type: return (.scalar(.integer("UInt64")), 0 as UInt64)
    case is Double.Type: return (.scalar(.number("Double")), 0 as Double)
    case is Float.Type: return (.scalar(.number("Float")), 0 as Float)
    case is Decimal.Type: return (.scalar(.decimal), Decimal(0))
    case is Date.Type: return (.scalar(.date), Date(timeIntervalSince1970: 0))
    case is UUID.Type: return (.scalar(.uuid), UUID(uuid: (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)))
    case is URL.Type: return (.scalar(.url), URL(string: "https://example.com")!)
    case is Data.Type: return (.scalar(.data), Data())
    case is Nothing.Type: return (.nothing, Nothing())
    default: return nil
    }
  }

  /// The raw values of a `CaseIterable` enum that encodes as scalars, and its first case.
  private static func rawValues<C: CaseIterable & Encodable>(of type: C.Type) -> (values: [String], first: C?)? {
    var values: [String] = []
    for value in C.allCases {
      guard let node = try? YAMLEncoder().encode(value), let scalar = node.scalar else { return nil }
      values.append(scalar.value)
    }
    return (values, C.allCases.first)
  }
}

// MARK: - Standard library types

private protocol AnyOptional {}
extension Optional: AnyOptional {}

private protocol OptionalShape {
  static var wrappedDecodable: any Decodable.Type { get }
  static var noneValue: Any { get }
}

extension Optional: OptionalShape where Wrapped: Decodable {
  static var wrappedDecodable: any Decodable.Type { Wrapped.self }
  static var noneValue: Any { Optional<Wrapped>.none as Any }
}

private protocol ArrayShape {
  static var elementDecodable: any Decodable.Type { get }
  static var empty: Any { get }
}

extension Array: ArrayShape where Element: Decodable {
  static var elementDecodable: any Decodable.Type { Element.self }
  static var empty: Any { [Element]() }
}

private protocol DictionaryShape {
  static var valueDecodable: any Decodable.Type { get }
  static var empty: Any { get }
}

extension Dictionary: DictionaryShape where Key == String, Value: Decodable {
  static var valueDecodable: any Decodable.Type { Value.self }
  static var empty: Any { [String: Value]() }
}

// MARK: - Shapes that other modules give their types

// A store's module makes its collection and action types known by conforming them to these:
// ReducerCoreSpecs does for `IdentifiedArray`, `StackState`, `BindingAction` and the rest.

/// A collection of identified elements (`IdentifiedArray`): `[ELEMENT]`, each with its `id`.
package protocol IdentifiedArrayShape {
  static var elementDecodable: any Decodable.Type { get }
  static var empty: Any { get }
}

/// An optional destination (`PresentationState`): the state, or `null`.
package protocol PresentationStateShape {
  static var wrappedDecodable: any Decodable.Type { get }
  static var noneValue: Any { get }
}

/// A navigation stack (`StackState`): `[{ id: Int, state: ELEMENT }]`.
package protocol StackStateShape {
  static var elementDecodable: any Decodable.Type { get }
  static var empty: Any { get }
}

/// A binding action (`BindingAction`): `{ FIELD: VALUE }` for each bindable field.
package protocol BindingActionShape {
  static var fieldNames: [String] { get }
  static var rootName: String { get }
}

extension YAMLDecoder {
  /// The decoder of a spec's values: a field of a binding action that is not bindable is
  /// named with the bindable fields (``YAMLDecoder/keyNames``).
  package static var spec: YAMLDecoder {
    var decoder = YAMLDecoder()
    decoder.keyNames = { type in
      guard let binding = type as? any BindingActionShape.Type else { return nil }
      return KeyNames(noun: "bindable field", owner: binding.rootName, names: binding.fieldNames)
    }
    return decoder
  }
}

/// A type whose shape its feature gives, through the `userInfo` its values are decoded with:
/// a Redux feature's actions are the action types it registers (ReduxSpecs).
package protocol FeatureDependentShape {
  static func shape(userInfo: [CodingUserInfoKey: any Sendable], probe: ShapeProbe) -> TypeShape
}

/// A type with a role of its own in the shapes `features` shows (an alert, a presentation
/// action).
package protocol RoleShape {
  static var shapeRole: TypeShape.Role { get }
}

// MARK: - The probing decoder

/// Decodes a type once, making up every value and recording what was read.
private final class ProbeDecoder: Decoder {
  enum Kind {
    case none
    /// A keyed container: the names of its key type's cases (when they can be listed), and
    /// whether the type asked for `allKeys` (as an enum's synthesized decoder does).
    case keyed([String]?, readAllKeys: Bool)
    case single(TypeShape)
    case unkeyed(TypeShape?)
  }

  let probe: ShapeProbe
  /// The enum case to decode: the only key `allKeys` gives.
  let selecting: String?
  var kind = Kind.none
  /// What the keyed container read, in order: each key, its shape, and whether it must be there.
  var reads: [(key: String, shape: TypeShape, isRequired: Bool)] = []
  /// The fields each case's payload read (through `nestedContainer`), by case name.
  var nestedReads: [String: [(key: String, shape: TypeShape, isRequired: Bool)]] = [:]

  var codingPath: [any CodingKey] { [] }
  var userInfo: [CodingUserInfoKey: Any] { [:] }

  init(probe: ShapeProbe, selecting: String?) {
    self.probe = probe
    self.selecting = selecting
  }

  func fields(optionalLabels: Set<String>, presentedLabels: Set<String>) -> [TypeShape.Field] {
    var seen: Set<String> = []
    return reads.compactMap { read in
      guard seen.insert(read.key).inserted else { return nil }
      // `decodeIfPresent` reads a declared optional, or a field with a default.
      var shape = !read.isRequired && optionalLabels.contains(read.key) ? .optional(read.shape) : read.shape
      if presentedLabels.contains(read.key) {
        // A presented child that a hand-written `init(from:)` reads as its optional state.
        switch read.shape {
        case .presented: break
        case .optional(let wrapped): shape = .presented(wrapped)
        default: shape = .presented(read.shape)
        }
      }
      return TypeShape.Field(name: read.key, shape: shape, isRequired: read.isRequired)
    }
  }

  /// A case's payload. A synthesized decoder reads an optional value with `decodeIfPresent`.
  func payload(of name: String) -> TypeShape.Payload {
    func shape(_ read: (key: String, shape: TypeShape, isRequired: Bool)) -> TypeShape {
      read.isRequired ? read.shape : .optional(read.shape)
    }
    if let direct = reads.first(where: { $0.key == name }) { return .value(shape(direct)) }
    guard let nested = nestedReads[name], !nested.isEmpty else { return .none }
    if nested.count == 1, nested[0].key == "_0" { return .value(shape(nested[0])) }
    return .fields(nested.map { TypeShape.Field(name: $0.key, shape: shape($0), isRequired: $0.isRequired) })
  }

  func container<Key: CodingKey>(keyedBy type: Key.Type) throws -> KeyedDecodingContainer<Key> {
    if case .none = kind { kind = .keyed(payloadFreeEnumCases(of: Key.self)?.map(\.stringValue), readAllKeys: false) }
    return KeyedDecodingContainer(ProbeKeyedContainer<Key>(decoder: self, payloadOf: nil))
  }

  func unkeyedContainer() throws -> any UnkeyedDecodingContainer {
    if case .none = kind { kind = .unkeyed(nil) }
    return ProbeUnkeyedContainer(decoder: self)
  }

  func singleValueContainer() throws -> any SingleValueDecodingContainer {
    ProbeSingleValueContainer(decoder: self)
  }

  /// A made-up value of `T`, recording its shape.
  func value<T: Decodable>(_ type: T.Type) throws -> (T, TypeShape) {
    let (shape, value) = probe.probe(T.self)
    guard let value else { throw ShapeProbe.Failure() }
    return (value, shape)
  }
}

private struct ProbeKeyedContainer<Key: CodingKey>: KeyedDecodingContainerProtocol {
  let decoder: ProbeDecoder
  /// The case whose payload this container reads (`nestedContainer`), or `nil` for the top.
  let payloadOf: String?

  var codingPath: [any CodingKey] { [] }

  var allKeys: [Key] {
    guard payloadOf == nil else { return [] }
    if case .keyed(let names, _) = decoder.kind { decoder.kind = .keyed(names, readAllKeys: true) }
    return decoder.selecting.flatMap { Key(stringValue: $0) }.map { [$0] } ?? []
  }

  func contains(_ key: Key) -> Bool {
    return payloadOf == nil && decoder.selecting == key.stringValue
  }

  private func record(_ key: Key, _ shape: TypeShape, isRequired: Bool) {
    let read = (key: key.stringValue, shape: shape, isRequired: isRequired)
    if let payloadOf {
      decoder.nestedReads[payloadOf, default: []].append(read)
    } else {
      decoder.reads.append(read)
    }
  }

  func decodeNil(forKey key: Key) throws -> Bool { false }

  func decode<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T {
    let (shape, value) = decoder.probe.probe(T.self)
    record(key, shape, isRequired: true)
    guard let value else { throw ShapeProbe.Failure() }
    return value
  }

  // The protocol's own `decodeIfPresent` for these types would ask `contains` first.
  func decodeIfPresent(_ type: Bool.Type, forKey key: Key) throws -> Bool? { try decodeIfPresent(generic: type, key) }
  func decodeIfPresent(_ type: String.Type, forKey key: Key) throws -> String? { try decodeIfPresent(generic: type, key) }
  func decodeIfPresent(_ type: Double.Type, forKey key: Key) throws -> Double? { try decodeIfPresent(generic: type, key) }
  func decodeIfPresent(_ type: Float.Type, forKey key: Key) throws -> Float? { try decodeIfPresent(generic: type, key) }
  func decodeIfPresent(_ type: Int.Type, forKey key: Key) throws -> Int? { try decodeIfPresent(generic: type, key) }
  func decodeIfPresent(_ type: Int8.Type, forKey key: Key) throws -> Int8? { try decodeIfPresent(generic: type, key) }
  func decodeIfPresent(_ type: Int16.Type, forKey key: Key) throws -> Int16? { try decodeIfPresent(generic: type, key) }
  func decodeIfPresent(_ type: Int32.Type, forKey key: Key) throws -> Int32? { try decodeIfPresent(generic: type, key) }
  func decodeIfPresent(_ type: Int64.Type, forKey key: Key) throws -> Int64? { try decodeIfPresent(generic: type, key) }
  func decodeIfPresent(_ type: UInt.Type, forKey key: Key) throws -> UInt? { try decodeIfPresent(generic: type, key) }
  func decodeIfPresent(_ type: UInt8.Type, forKey key: Key) throws -> UInt8? { try decodeIfPresent(generic: type, key) }
  func decodeIfPresent(_ type: UInt16.Type, forKey key: Key) throws -> UInt16? { try decodeIfPresent(generic: type, key) }
  func decodeIfPresent(_ type: UInt32.Type, forKey key: Key) throws -> UInt32? { try decodeIfPresent(generic: type, key) }
  func decodeIfPresent(_ type: UInt64.Type, forKey key: Key) throws -> UInt64? { try decodeIfPresent(generic: type, key) }

  func decodeIfPresent<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T? {
    try decodeIfPresent(generic: type, key)
  }

  private func decodeIfPresent<T: Decodable>(generic type: T.Type, _ key: Key) throws -> T? {
    record(key, decoder.probe.probe(T.self).shape, isRequired: false)
    return nil
  }

  func nestedContainer<NestedKey: CodingKey>(
    keyedBy type: NestedKey.Type, forKey key: Key
  ) throws -> KeyedDecodingContainer<NestedKey> {
    if decoder.nestedReads[key.stringValue] == nil { decoder.nestedReads[key.stringValue] = [] }
    return KeyedDecodingContainer(ProbeKeyedContainer<NestedKey>(decoder: decoder, payloadOf: key.stringValue))
  }

  func nestedUnkeyedContainer(forKey key: Key) throws -> any UnkeyedDecodingContainer {
    throw ShapeProbe.Failure()
  }

  func superDecoder() throws -> any Decoder { throw ShapeProbe.Failure() }
  func superDecoder(forKey key: Key) throws -> any Decoder { throw ShapeProbe.Failure() }
}

/// Gives one element, then ends: records the element's shape.
private struct ProbeUnkeyedContainer: UnkeyedDecodingContainer {
  let decoder: ProbeDecoder
  var currentIndex = 0

  var codingPath: [any CodingKey] { [] }
  var count: Int? { nil }
  var isAtEnd: Bool { currentIndex > 0 }

  init(decoder: ProbeDecoder) {
    self.decoder = decoder
  }

  mutating func decodeNil() throws -> Bool { false }

  mutating func decode<T: Decodable>(_ type: T.Type) throws -> T {
    currentIndex += 1
    let (shape, value) = decoder.probe.probe(T.self)
    if case .unkeyed(nil) = decoder.kind { decoder.kind = .unkeyed(shape) }
    guard let value else { throw ShapeProbe.Failure() }
    return value
  }

  mutating func nestedContainer<NestedKey: CodingKey>(
    keyedBy type: NestedKey.Type
  ) throws -> KeyedDecodingContainer<NestedKey> {
    throw ShapeProbe.Failure()
  }

  mutating func nestedUnkeyedContainer() throws -> any UnkeyedDecodingContainer {
    throw ShapeProbe.Failure()
  }

  mutating func superDecoder() throws -> any Decoder { throw ShapeProbe.Failure() }
}

/// A value decoded as one value of another type (a wrapper, a raw-value enum).
private struct ProbeSingleValueContainer: SingleValueDecodingContainer {
  let decoder: ProbeDecoder

  var codingPath: [any CodingKey] { [] }

  func decodeNil() -> Bool { false }

  func decode<T: Decodable>(_ type: T.Type) throws -> T {
    let (shape, value) = decoder.probe.probe(T.self)
    if case .none = decoder.kind { decoder.kind = .single(shape) }
    guard let value else { throw ShapeProbe.Failure() }
    return value
  }
}
