import Foundation

extension UUID {
  /// TCA's `UUID(N)`: `0` is 00000000-0000-0000-0000-000000000000, `1` is …0001, `10` is
  /// …000a (the last 12 hexadecimal digits). `nil` for text that is not a non-negative
  /// decimal integer below 16^12.
  package static func fromInteger(_ text: String) -> UUID? {
    guard !text.isEmpty, text.utf8.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }), text.utf8.count <= 15,
      let value = UInt64(text), value < 1 << 48
    else { return nil }
    let hex = String(value, radix: 16)
    return UUID(uuidString: "00000000-0000-0000-0000-" + String(repeating: "0", count: 12 - hex.count) + hex)
  }

  /// The integer N of a UUID that is `UUID(N)` (…000a is 10), or `nil`.
  package var integerForm: UInt64? {
    let text = uuidString
    guard text.hasPrefix("00000000-0000-0000-0000-") else { return nil }
    return UInt64(text.suffix(12), radix: 16)
  }
}
