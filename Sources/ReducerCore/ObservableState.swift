/// A feature's state, marked by the ``ObservableState()`` macro, as TCA's `ObservableState`.
///
/// ReducerCore has no views, so nothing observes a state and the protocol has no
/// requirements. What the macro adds to a struct state is its list of bindable fields
/// (``BindableStateFields``) and, for a `Codable` struct, decoding in which missing fields
/// take their defaults.
public protocol ObservableState {}

// MARK: - Decoding with defaults

extension KeyedDecodingContainer {
  /// Sets `value` to the value for `key`, or leaves it as it is when the key is absent.
  ///
  /// The decoding that ``ObservableState()`` and ``CodableDefaults()`` generate reads each
  /// property that has an initial value with it: the property has that value when
  /// `init(from:)` starts, as in any initializer of the struct, and the type comes from the
  /// property:
  ///
  /// ```swift
  /// try container.decode(.count, into: &self.count)
  /// ```
  ///
  /// A `null` leaves the value too, except for an optional, which becomes `nil`. The key is
  /// still asked for, so a decoder that rejects the keys it was not asked for (as the spec
  /// runner's YAML decoder does) still rejects unknown ones.
  @_disfavoredOverload
  public func decode<Value: Decodable>(_ key: Key, into value: inout Value) throws {
    if let optional = Value.self as? any _DecodableOptional.Type {
      let decoded = try optional._decodeWrappedIfPresent(from: self, forKey: key) as! Value
      if contains(key) { value = decoded }
    } else if let decoded = try decodeIfPresent(Value.self, forKey: key) {
      value = decoded
    }
  }

  /// The value for `key`, or `defaultValue` when the key is absent.
  ///
  /// The decoding that ``ObservableState()`` and ``CodableDefaults()`` generate reads each
  /// property of an optional type that has no initial value with it (a `@Presents` property
  /// too), the type coming from the property:
  ///
  /// ```swift
  /// self.note = try container.decode(.note, default: nil)
  /// ```
  ///
  /// A `null` is the default too, except for an optional, where it is `nil`. The key is still
  /// asked for, so a decoder that rejects the keys it was not asked for (as the spec runner's
  /// YAML decoder does) still rejects unknown ones.
  ///
  /// A module's own `decode(_:default:)` of the same shape, a common helper, is preferred to
  /// this one where both are visible.
  @_disfavoredOverload
  public func decode<Value: Decodable>(
    _ key: Key, default defaultValue: @autoclosure () throws -> Value
  ) throws -> Value {
    if let optional = Value.self as? any _DecodableOptional.Type {
      let decoded = try optional._decodeWrappedIfPresent(from: self, forKey: key) as! Value
      return contains(key) ? decoded : try defaultValue()
    }
    return try decodeIfPresent(Value.self, forKey: key) ?? defaultValue()
  }

  /// The value for `key`, of the type of the property it is assigned to.
  ///
  /// The decoding that ``ObservableState()`` and ``CodableDefaults()`` generate reads each
  /// property that has no initial value with it, naming no type, so that a type nested in the
  /// type around the struct (`var child: Child.State` in a feature that nests `Child`) needs
  /// no qualification in the extension:
  ///
  /// ```swift
  /// self.child = try container.decode(.child)
  /// ```
  @_disfavoredOverload
  public func decode<Value: Decodable>(_ key: Key) throws -> Value {
    try decode(Value.self, forKey: key)
  }
}

/// An optional known only as a generic parameter, read as Swift's synthesized decoding reads an
/// optional property: `decodeIfPresent` of its wrapped type. (Reading `Optional<Wrapped>` itself
/// would tell a decoder that inspects the types it is asked for, as the spec tools' shape probe
/// does, of an optional of an optional.)
protocol _DecodableOptional {
  static func _decodeWrappedIfPresent<Key>(from container: KeyedDecodingContainer<Key>, forKey key: Key) throws -> Self
}

extension Optional: _DecodableOptional where Wrapped: Decodable {
  static func _decodeWrappedIfPresent<Key>(from container: KeyedDecodingContainer<Key>, forKey key: Key) throws -> Self {
    try container.decodeIfPresent(Wrapped.self, forKey: key)
  }
}
