import Foundation
import Testing
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
