import CustomDump
import Foundation
import SpecYAML

/// The arguments of one call of an endpoint that takes several, as a spec writes them: a list
/// with one value per argument, in order. For
/// `getArchiveResponse: @Sendable (String, String) async throws -> ArchiveSceneResponse`,
/// `calls: [[pizza, italian], ["", ""]]` lists two calls.
public struct EndpointArguments<each Argument: Decodable & Equatable & Sendable>: Sendable {
  /// The arguments, in order.
  public let values: (repeat each Argument)

  public init(_ values: repeat each Argument) {
    self.values = (repeat each values)
  }

  /// How many arguments a call takes.
  static var count: Int {
    var count = 0
    for _ in repeat (each Argument).self { count += 1 }
    return count
  }

  /// The arguments' types, in order.
  package static var argumentTypes: [any Decodable.Type] {
    var types: [any Decodable.Type] = []
    for type in repeat (each Argument).self { types.append(type) }
    return types
  }

  /// `(String, String)`, for messages.
  static var typeList: String {
    "(" + argumentTypes.map { typeName($0) }.joined(separator: ", ") + ")"
  }
}

extension EndpointArguments: Decodable {
  public init(from decoder: any Decoder) throws {
    func mistake(_ text: String) -> DecodingError {
      .dataCorrupted(.init(codingPath: decoder.codingPath, debugDescription: text))
    }
    guard var container = try? decoder.unkeyedContainer() else {
      throw mistake("a call takes \(Self.count) arguments \(Self.typeList): write it as a list of them")
    }
    if let found = container.count, found != Self.count {
      throw mistake("a call takes \(Self.count) arguments \(Self.typeList), but this list has \(found)")
    }
    func next<T: Decodable>(_ type: T.Type) throws -> T { try container.decode(T.self) }
    values = (repeat try next((each Argument).self))
  }
}

extension EndpointArguments: Equatable {
  public static func == (lhs: Self, rhs: Self) -> Bool {
    for (left, right) in repeat (each lhs.values, each rhs.values) {
      guard left == right else { return false }
    }
    return true
  }
}

extension EndpointArguments: CustomDumpStringConvertible {
  /// The arguments as a list, `["pizza", "italian"]`, as a spec writes a call.
  public var customDumpDescription: String {
    var texts: [String] = []
    for value in repeat each values {
      var text = ""
      customDump(value, to: &text)
      texts.append(text)
    }
    return "[" + texts.joined(separator: ", ") + "]"
  }
}

/// An endpoint input that is a list of arguments, for the shape that `features` and `schema`
/// describe.
package protocol ArgumentListShape {
  static var argumentTypes: [any Decodable.Type] { get }
}

extension EndpointArguments: ArgumentListShape {}
