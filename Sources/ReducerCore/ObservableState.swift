/// A feature's state, marked by the ``ObservableState()`` macro, as TCA's `ObservableState`.
///
/// ReducerCore has no views, so nothing observes a state and the protocol has no
/// requirements. What the macro adds to a struct state is its list of bindable fields
/// (``BindableStateFields``) and, for a `Codable` struct, decoding in which missing fields
/// take their defaults.
public protocol ObservableState {}

// MARK: - Decoding with defaults

extension KeyedDecodingContainer {
  /// The value for `key`, or `defaultValue` when the key is absent.
  ///
  /// The decoding that ``ObservableState()`` and ``CodableDefaults()`` generate reads each
  /// property that has an initial value with it, the type coming from the property:
  ///
  /// ```swift
  /// self.count = try container.decode(.count, default: 0)
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
    if let value = try decodeIfPresent(Value.self, forKey: key) { return value }
    if let optional = Value.self as? any _OptionalNone.Type, contains(key) {
      return optional._none as! Value
    }
    return try defaultValue()
  }
}

/// `nil` of an optional type known only as a generic parameter.
protocol _OptionalNone {
  static var _none: Self { get }
}

extension Optional: _OptionalNone {
  static var _none: Self { nil }
}
