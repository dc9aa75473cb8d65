/// The cases of an enum without payloads, in declaration order, read from memory without
/// an instance; `nil` when `T` is not laid out as such an enum.
///
/// A payload-free enum of one case occupies no storage. One of 2 to 256 cases is stored
/// as the numbers 0 to n-1 in one byte, and its `Optional`'s `none` is the first number
/// past the last case, so the optional still fits in that byte. A one-byte type whose
/// optional needs a second byte has no spare values and is not such an enum.
///
/// Used for synthesized `CodingKeys` (``CodingKeyProbe``) and for raw-value enums that
/// are not `CaseIterable` (SpecRunner's `TypeShape`). The caller checks that `T` is an
/// enum of the kind it expects: any other type of size 0, or of one byte with spare
/// values, would be read the same way.
package func payloadFreeEnumCases<T>(of type: T.Type) -> [T]? {
  switch MemoryLayout<T>.size {
  case 0:
    return [unsafeBitCast((), to: T.self)]
  case 1 where MemoryLayout<T?>.size == 1:
    var cases: [T] = []
    for tag in UInt8.min...UInt8.max {
      guard let value = unsafeBitCast(tag, to: T?.self) else { break }
      cases.append(value)
    }
    return cases
  default:
    return nil
  }
}
