import Foundation

extension KeyedDecodingContainer {
  /// The value for `key`, or `defaultValue` when the key is absent.
  ///
  /// A feature's `State` decodes with this, so a spec or a fixture writes only the fields
  /// that differ from `State()` (as in `self: { newGame: { xPlayerName: Blob } }`). Unknown
  /// keys are still the decoder's to reject.
  func decode<T: Decodable>(_ key: Key, default defaultValue: @autoclosure () -> T) throws -> T {
    try decodeIfPresent(T.self, forKey: key) ?? defaultValue()
  }
}
