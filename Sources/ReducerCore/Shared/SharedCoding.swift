import IdentifiedCollections

// MARK: - Codable

// swift-sharing leaves `Shared` without `Codable` (a reference has no value of its own to
// write). Specs read and write a feature's State through `Codable`, so here a `Shared` of a
// `Codable` value is coded as its value, and a `SharedReader` likewise:
//
// - Encoding writes the value (while a test store checks a step, the value the step is
//   expected to leave, as reading it gives).
// - Decoding makes a `Shared(value:)`: a reference of its own, shared with nothing. A
//   decoder cannot know a key, and a reference shared with a feature cannot come out of a
//   file.
//
// A state's property with a key, `@Shared(.count) var count = 0`, is not decoded as a
// `Shared`: its initial value makes the keyed reference before `init(from:)` runs, and its
// decoding writes the decoded value through that reference (`withLock`; see
// `KeyedDecodingContainer.decode(_:into:)` below). So a spec's `initialState: { count: 5 }`
// sets the key's value to 5 before the scenario starts, in the key's storage (in tests, the
// test's in-memory storage), as a test that runs `$count.withLock { $0 = 5 }` before its
// first step does: every feature holding the key sees 5. While a test store checks a step,
// the same decoding sets the value the step is expected to leave instead, as an assertion
// closure's `withLock` does. A property with no key (`@Shared var syncUp: SyncUp`) decodes
// as a `Shared(value:)` of the value given.

extension Shared: Encodable where Value: Encodable {
  /// Encodes the value.
  public func encode(to encoder: any Encoder) throws {
    var container = encoder.singleValueContainer()
    try container.encode(wrappedValue)
  }
}

extension Shared: Decodable where Value: Decodable {
  /// A `Shared(value:)` of the decoded value.
  public init(from decoder: any Decoder) throws {
    let container = try decoder.singleValueContainer()
    self.init(reference: ValueReference(try container.decode(Value.self)))
  }
}

extension SharedReader: Encodable where Value: Encodable {
  /// Encodes the value.
  public func encode(to encoder: any Encoder) throws {
    var container = encoder.singleValueContainer()
    try container.encode(wrappedValue)
  }
}

extension SharedReader: Decodable where Value: Decodable {
  /// A `SharedReader(value:)` of the decoded value.
  public init(from decoder: any Decoder) throws {
    let container = try decoder.singleValueContainer()
    self.init(reference: ValueReference(try container.decode(Value.self)))
  }
}

extension KeyedDecodingContainer {
  /// Sets a shared value to the value for `key`, when there is one: the decoding of a
  /// `@Shared` property with a key and an initial value, in generated coding,
  ///
  /// ```swift
  /// try container.decode(.count, into: self._count)
  /// ```
  ///
  /// which writes through the key's reference (see the note on coding above), where assigning
  /// `self.count` would go through the deprecated setter, and would need every other property
  /// initialized first. A `null` leaves the value as it is, except for an optional, which
  /// becomes `nil`.
  public func decode<Value: Decodable>(_ key: Key, into shared: Shared<Value>) throws {
    var value = shared.wrappedValue
    try decode(key, into: &value)
    guard contains(key) else { return }
    shared.withLock { $0 = value }
  }
}

extension KeyedDecodingContainer {
  /// Checks the value for `key`, when there is one, against a read-only shared value: the
  /// decoding of a `@SharedReader` property with a key, in generated coding, which decodes
  /// such properties before any other, so that the value is the key's before the decoding
  /// writes to it. A reader follows its key and cannot write it, so a different value is an
  /// error that says what to write instead.
  public func decode<Value: Decodable & Equatable>(_ key: Key, matching shared: SharedReader<Value>) throws {
    guard contains(key) else { return }
    let value = try decode(Value.self, forKey: key)
    guard value != shared.wrappedValue else { return }
    throw DecodingError.dataCorruptedError(
      forKey: key, in: self,
      debugDescription:
        "`\(key.stringValue)` follows its key (`@SharedReader`) and cannot be set: leave it out, and set the field that writes the key, or the key's value with `shared:`"
    )
  }

  /// Reads the value for `key`, when there is one, of a read-only shared value whose type is
  /// not `Equatable`: it cannot be checked, and a reader cannot write it.
  public func decode<Value: Decodable>(_ key: Key, matching shared: SharedReader<Value>) throws {
    guard contains(key) else { return }
    _ = try decode(Value.self, forKey: key)
  }
}

// MARK: - Collections

extension RangeReplaceableCollection {
  /// The shared elements of a shared identified collection, each a reference into it:
  /// `Array($syncUps)`.
  public init<Value: _MutableIdentifiedCollection>(_ shared: Shared<Value>)
  where Element == Shared<Value.Element>, Value.Index == Value.IDs.Index {
    self.init()
    let value = shared.wrappedValue
    reserveCapacity(value.count)
    for id in value.ids {
      append(Shared<Value.Element>(shared[id: id])!)
    }
  }

  /// The read-only shared elements of a read-only shared identified collection.
  public init<Value: _IdentifiedCollection>(_ shared: SharedReader<Value>)
  where Element == SharedReader<Value.Element>, Value.Index == Value.IDs.Index {
    self.init()
    let value = shared.wrappedValue
    reserveCapacity(value.count)
    for id in value.ids {
      append(SharedReader<Value.Element>(shared[id: id])!)
    }
  }
}
