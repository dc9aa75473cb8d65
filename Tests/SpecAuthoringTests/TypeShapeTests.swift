import Foundation
import Testing
import SpecFixtures
@testable import SpecAuthoring
@testable import SpecRunner

/// Shapes found by decoding types from the probing decoder, written as `features` prints them.
@MainActor @Suite struct TypeShapeTests {
  struct Tree: Codable, Equatable {
    var name: String
    var children: [Tree]
    var parent: Box?
  }

  final class Box: Codable, Equatable {
    var tree: Tree
    static func == (lhs: Box, rhs: Box) -> Bool { lhs.tree == rhs.tree }
  }

  indirect enum Expression: Codable, Equatable {
    case number(Int)
    case sum(Expression, Expression)
    case negate(of: Expression)
  }

  enum Mark: Int, Codable {
    case cross = 1, nought = 2
  }

  enum Move: Codable, Equatable {
    case place(row: Int, column: Int, mark: Mark)
    case undo
    case stamp(Date?, [String: UUID])
  }

  func lines(_ type: any Decodable.Type) -> [String] {
    var text = ShapeText()
    let shape = ShapeProbe().shape(of: type)
    var lines = [text.text(shape)]
    var index = 0
    while index < text.named.count {
      let (name, shape) = text.named[index]
      index += 1
      lines.append(name + ": " + text.body(of: shape).joined(separator: "; "))
    }
    return lines
  }

  @Test func aTypeInsideItselfIsNamedNotProbedAgain() {
    #expect(
      lines(Tree.self) == [
        "TypeShapeTests.Tree",
        "TypeShapeTests.Tree: name: String; children: [TypeShapeTests.Tree]; parent: TypeShapeTests.Box?",
        "TypeShapeTests.Box: tree: TypeShapeTests.Tree",
      ])
  }

  @Test func anIndirectEnumListsEveryCase() {
    #expect(
      lines(Expression.self) == [
        "TypeShapeTests.Expression",
        "TypeShapeTests.Expression: number: Int; sum: { _0: TypeShapeTests.Expression, _1: TypeShapeTests.Expression }; negate: { of: TypeShapeTests.Expression }",
      ])
  }

  @Test func rawValueEnumsThatAreNotCaseIterableAreReadFromMemory() {
    #expect(lines(Mark.self) == ["1 | 2"])
  }

  @Test func payloadsWithLabelsOptionalsAndDictionaries() {
    #expect(
      lines(Move.self) == [
        "TypeShapeTests.Move",
        "TypeShapeTests.Move: place: { row: Int, column: Int, mark: 1 | 2 }; undo; stamp: { _0: Date (2024-05-01T09:00:00Z)?, _1: [String: UUID] }",
      ])
  }
}

/// An endpoint of several arguments, as `features` and `schema` describe its `calls:`.
@MainActor @Suite struct EndpointArgumentsShapeTests {
  @Test func theArgumentsAreAListOfTheirTypesInOrder() {
    var text = ShapeText()
    #expect(text.text(ShapeProbe().shape(of: EndpointArguments<String, Int, Bool>.self)) == "[String, Int, Bool]")
  }

  @Test func theSchemaOfACallIsAListOfExactlyItsArguments() throws {
    // Compared line by line, without the indentation of where it sits in the document.
    func lines(_ text: String) -> String {
      text.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }.joined(separator: "\n")
    }
    let schema = lines(SpecSchema.document(for: [shelfFeature]).text())
    let calls = """
      "calls": {
        "description": "The calls the endpoint must have had, in order, each the list of its arguments.",
        "type": "array",
        "items": {
          "anyOf": [
            {
              "type": "array",
              "items": [
                {
                  "type": ["string", "number", "boolean"]
                },
                {
                  "type": ["string", "number", "boolean"]
                }
              ],
              "additionalItems": false,
              "minItems": 2
            },
            {
              "$ref": "#/definitions/placeholder"
            }
          ]
        }
      }
      """
    #expect(schema.contains(lines(calls)))
  }
}
