import Foundation
import SpecFixtures
import SpecYAML
import Testing
@testable import SpecAuthoring
@testable import SpecRunner

/// How `reducer-spec coverage` reads actions and assignments: the case tree of an action
/// type, the case an action as written is in, and the fields an assignment checks.
@MainActor @Suite struct BehaviourCoverageTests {
  static func node(_ yaml: String) throws -> YAMLNode {
    try ActionPath.expand(try YAMLParser.parse(yaml))
  }

  static let roster = ActionCase.tree(of: ShapeProbe().shape(of: Roster.Action.self))
  static let gauge = ActionCase.tree(of: ShapeProbe().shape(of: Gauge.Action.self))

  @Test func theCaseTreeFollowsChildrenElementsPresentationsAndBindings() {
    #expect(ActionCase.leaves(of: Self.roster) == [
      "addButtonTapped", "clearButtonTapped", "destination.dismiss",
      "destination.presented.addMember.cancelButtonTapped", "destination.presented.addMember.delegate.saveMember",
      "destination.presented.addMember.saveButtonTapped", "destination.presented.addMember.setName",
      "destination.presented.alert.confirmClear", "members.element.binding.name",
      "members.element.binding.isFavorite", "memberTapped", "path.element.closeButtonTapped", "path.popFrom",
      "path.push",
    ])
    #expect(ActionCase.leaves(of: Self.gauge) == [
      "raise", "lower", "readTapped", "readResponse.success", "readResponse.failure", "settings.setUnit",
      "settings.setStep", "saveTapped", "calibrateTapped",
    ])
  }

  @Test(arguments: [
    ("raise", ["raise"]),
    ("{ raise: null }", ["raise"]),
    ("{ readTapped: main }", ["readTapped"]),
    ("{ readResponse: { success: 7 } }", ["readResponse.success"]),
    ("{ readResponse: { _0: { failure: boom } } }", ["readResponse.failure"]),
    ("settings.setUnit: psi", ["settings.setUnit"]),
    ("{ settings: { setStep: 2 } }", ["settings.setStep"]),
    ("{ settings: setSteps }", []),
    ("lowr", []),
    ("{ raise: null, lower: null }", []),
  ])
  func anActionIsInTheCaseItWrites(_ yaml: String, _ expected: [String]) throws {
    #expect(ActionCase.covered(by: try Self.node(yaml), in: Self.gauge) == expected)
  }

  @Test(arguments: [
    ("members[id=0].binding.isFavorite: true", ["members.element.binding.isFavorite"]),
    ("{ members: { element: { id: 0, action: { binding: { name: Blob } } } } }", ["members.element.binding.name"]),
    ("destination.presented.addMember.saveButtonTapped", ["destination.presented.addMember.saveButtonTapped"]),
    ("{ destination: dismiss }", ["destination.dismiss"]),
    ("path[id=1]: closeButtonTapped", ["path.element.closeButtonTapped"]),
    ("{ path: { popFrom: { id: 0 } } }", ["path.popFrom"]),
  ])
  func pathsAndNestedActionsOfNavigation(_ yaml: String, _ expected: [String]) throws {
    #expect(ActionCase.covered(by: try Self.node(yaml), in: Self.roster) == expected)
  }

  @Test func aReceivedCasePathCoversEveryCaseUnderIt() {
    #expect(ActionCase.covered(byCasePath: ["readResponse"], in: Self.gauge) == [
      "readResponse.success", "readResponse.failure",
    ])
    #expect(ActionCase.covered(byCasePath: ["readResponse", "success"], in: Self.gauge) == ["readResponse.success"])
    #expect(ActionCase.covered(byCasePath: ["raise", "more"], in: Self.gauge) == [])
    #expect(ActionCase.covered(byCasePath: ["nope"], in: Self.gauge) == [])
  }

  @Test func fieldsAndTheFieldsOfTheStructsTheyHold() {
    #expect(BehaviourCoverage.fieldNames(of: ShapeProbe().shape(of: Gauge.State.self)) == [
      "level", "label", "settings", "settings.unit", "settings.step",
    ])
  }

  @Test func fieldsInsideListsEnumsAndPresentedChildren() {
    // An identified collection's elements (`members[]`), a presented enum's cases with
    // their fields (an alert is counted whole), a stack's elements.
    #expect(BehaviourCoverage.fieldNames(of: ShapeProbe().shape(of: Roster.State.self)) == [
      "members", "members[].id", "members[].name", "members[].isFavorite",
      "destination", "destination.addMember", "destination.addMember.member", "destination.addMember.member.id",
      "destination.addMember.member.name", "destination.addMember.member.isFavorite", "destination.alert",
      "path", "path[].member", "path[].member.id", "path[].member.name", "path[].member.isFavorite",
    ])
    #expect(BehaviourCoverage.components(of: "path[].member.id") == ["path", "[]", "member", "id"])
  }

  @Test func anAssignmentChecksTheFieldsOfItsPath() throws {
    let node = try YAMLParser.parse(
      "{ level: 1, settings.step: 2, 'members[id=0].name': x, 'path[1].member': x, 'tally[\"a\"].b': 1, self: null, '[': 0 }")
    // An element by id or index is any element (`[]`); a dictionary's value is its field.
    #expect(BehaviourCoverage.assertedPaths(in: node) == [
      ["level"], ["settings", "step"], ["members", "[]", "name"], ["path", "[]", "member"], ["tally"], [],
    ])
  }
}
