import Foundation
import TestSupport
import Testing
@testable import SpecRunner

/// Applies the `state:` mapping written in `text` to `state`.
func assign<State: Codable>(_ text: String, to state: State) throws -> State {
  let node = try YAMLParser.parse(text, path: "spec.yaml")
  return try StateAssignment.apply(StateAssignment.parse(node), to: state)
}

func assignError<State: Codable>(_ text: String, to state: State) -> String {
  do {
    return "no error: \(try assign(text, to: state))"
  } catch let error as YAMLError {
    return error.description
  } catch {
    return "unexpected error: \(error)"
  }
}

let searchState = Search.State(
  searchText: "swift", isLoading: true,
  repositories: [
    Repository(id: 1, fullName: "apple/swift", stars: 10),
    Repository(id: 2, fullName: "apple/swift-nio", stars: 20),
  ],
  alert: nil, scores: ["blob": 1])

@Suite struct StatePathTests {
  @Test func parsesEveryForm() throws {
    #expect(try StatePath(parsing: "count").components == [.field("count")])
    #expect(try StatePath(parsing: "self").isSelf)
    #expect(
      try StatePath(parsing: "repositories[0].stars").components == [.field("repositories"), .index(0), .field("stars")])
    #expect(try StatePath(parsing: "scores[\"blob\"]").components == [.field("scores"), .key("blob")])
    #expect(try StatePath(parsing: "scores['a.b']").components == [.field("scores"), .key("a.b")])
    #expect(try StatePath(parsing: "scores[\"say \\\"hi\\\"\"]").components == [.field("scores"), .key("say \"hi\"")])
    #expect(try StatePath(parsing: "login.email").components == [.field("login"), .field("email")])
    #expect(try StatePath(parsing: "grid[1][2]").components == [.field("grid"), .index(1), .index(2)])
    #expect(try StatePath(parsing: "_private").components == [.field("_private")])
  }

  @Test func parseErrorsSayWhatIsWrongAndWhere() {
    func failure(_ text: String) -> String {
      do {
        _ = try StatePath(parsing: text)
        return "no error"
      } catch {
        return "\(error.offset): \(error.message)"
      }
    }
    #expect(failure("") == "0: invalid state path ``: the path is empty")
    #expect(failure("a.") == "2: invalid state path `a.`: expected a field name after `.`")
    #expect(failure("a..b") == "2: invalid state path `a..b`: expected a field name, found `.`")
    #expect(failure("a[x]") == "2: invalid state path `a[x]`: expected an index, `id=ID` or a quoted key after `[`")
    #expect(failure("a[") == "1: invalid state path `a[`: expected an index, `id=ID` or a quoted key after `[`")
    #expect(failure("a[1") == "3: invalid state path `a[1`: expected `]` after the index")
    #expect(failure("a[\"k") == "2: invalid state path `a[\"k`: the key's quote is not closed")
    #expect(failure("a[\"k\"") == "5: invalid state path `a[\"k\"`: expected `]` after the key")
    #expect(failure("a b") == "1: invalid state path `a b`: expected `.`, `[` or the end, found ` `")
    #expect(failure("1a") == "0: invalid state path `1a`: expected a field name, found `1`")
    #expect(failure("self.count") == "0: invalid state path `self.count`: `self` stands alone; write `self: …` or the field's path without `self.`")
    #expect(failure("a[99999999999999999999]") == "2: invalid state path `a[99999999999999999999]`: the index is too large")
  }
}

@Suite struct StateAssignmentTests {
  @Test func assignmentsApplyInOrderLikeAnAssertionClosure() throws {
    let state = try assign(
      """
      isLoading: false
      repositories[1].stars: 21
      repositories[0]: { id: 9, fullName: x/y, stars: 0 }
      scores["blob"]: 3
      scores["new one"]: 4
      alert: { title: Oops, buttons: [{ title: OK }] }
      searchText: final
      repositories[0].stars: 1
      """, to: searchState)
    var expected = searchState
    expected.isLoading = false
    expected.repositories[1].stars = 21
    expected.repositories[0] = Repository(id: 9, fullName: "x/y", stars: 0)
    expected.scores["blob"] = 3
    expected.scores["new one"] = 4
    expected.alert = AlertState(title: "Oops", buttons: [.init(title: "OK")])
    expected.searchText = "final"
    expected.repositories[0].stars = 1
    #expect(state == expected)
  }

  @Test func aValueReplacesTheWholeField() throws {
    var start = searchState
    start.alert = AlertState(title: "Old", message: "kept?", buttons: [])
    let state = try assign("alert: { title: New, buttons: [] }", to: start)
    #expect(state.alert == AlertState(title: "New", message: nil, buttons: []))
  }

  @Test func nullClearsOptionalsAndRemovesDictionaryKeys() throws {
    var start = searchState
    start.alert = AlertState(title: "Old", buttons: [])
    let state = try assign("alert: null\nscores[\"blob\"]: ~\nscores[\"absent\"]: null", to: start)
    #expect(state.alert == nil)
    #expect(state.scores == [:])
  }

  @Test func nestedFieldsOfPresentOptionals() throws {
    var start = searchState
    start.alert = AlertState(title: "Old", buttons: [])
    #expect(try assign("alert.title: New", to: start).alert?.title == "New")
  }

  @Test func enumStates() throws {
    let login = TicTacToe.State.login(.init(email: "", password: ""))
    #expect(try assign("login.email: blob@example.com", to: login) == .login(.init(email: "blob@example.com", password: "")))
    #expect(try assign("self: { newGame: { xPlayerName: Blob, oPlayerName: '' } }", to: login) == .newGame(.init(xPlayerName: "Blob")))
    #expect(try assign("login: { email: a, password: b }", to: login) == .login(.init(email: "a", password: "b")))
  }

  @Test func selfReplacesTheWholeState() throws {
    #expect(try assign("self: { count: 7, secret: 1 }", to: Counter.State()) == Counter.State(count: 7, secret: 1))
  }

  @Test func noAssignmentsLeaveTheStateAlone() throws {
    #expect(try StateAssignment.apply([], to: searchState) == searchState)
  }

  // MARK: - Errors at the key that caused them

  @Test func unknownFieldSuggestsTheClosest() {
    #expect(assignError("cont: 1", to: Counter.State()) == "spec.yaml:1:1: error: unknown key `cont` in Counter.State; did you mean `count`?")
    #expect(
      assignError("repositories[1].starz: 5", to: searchState)
        == "spec.yaml:1:17: error: unknown key `starz` in Search.State.repositories[1]; did you mean `stars`?")
    #expect(
      assignError("alrt: { title: x, buttons: [] }", to: searchState)
        == "spec.yaml:1:1: error: unknown key `alrt` in Search.State; did you mean `alert`?")
  }

  @Test func wrongValueTypesPointAtTheValue() {
    #expect(
      assignError("count: ten", to: Counter.State()) == "spec.yaml:1:8: error: expected Int for Counter.State.count, found the string \"ten\"")
    #expect(
      assignError("repositories[0].stars: [1]", to: searchState)
        == "spec.yaml:1:24: error: expected Int for Search.State.repositories[0].stars, found a sequence")
    #expect(
      assignError("repositories[0]: { id: 1 }", to: searchState)
        == "spec.yaml:1:18: error: missing key `fullName` in Search.State.repositories[0]")
  }

  @Test func indexOutOfRange() {
    #expect(
      assignError("repositories[2].stars: 5", to: searchState)
        == "spec.yaml:1:13: error: cannot set `repositories[2].stars`: index 2 is out of range; `repositories` has 2 elements")
    #expect(
      assignError("repositories[0].fullName[1]: 5", to: searchState)
        == "spec.yaml:1:25: error: cannot set `repositories[0].fullName[1]`: `repositories[0].fullName` is the string \"apple/swift\", not a sequence")
  }

  @Test func enumInAnotherCase() {
    let game = TicTacToe.State.newGame(.init())
    #expect(
      assignError("login.email: x", to: game)
        == "spec.yaml:1:1: error: cannot set `login.email`: `self` is in case `newGame`, not `login`")
    #expect(
      assignError("login: { email: a, password: b }", to: game)
        == "spec.yaml:1:1: error: cannot set `login`: `self` is in case `newGame`, not `login`")
    #expect(
      assignError("repositories[0].description.text: x", to: searchState)
        == "spec.yaml:1:17: error: cannot set `repositories[0].description.text`: `repositories[0].description` is nil or not a field; set it whole (`repositories[0].description: { … }`)")
  }

  @Test func fieldsOfNilAndOfScalars() {
    #expect(
      assignError("alert.title: x", to: searchState)
        == "spec.yaml:1:1: error: cannot set `alert.title`: `alert` is nil or not a field; set it whole (`alert: { … }`)")
    #expect(
      assignError("searchText.count: 1", to: searchState)
        == "spec.yaml:1:12: error: cannot set `searchText.count`: `searchText` is the string \"swift\", which has no field `count`")
    #expect(
      assignError("scores.blob.x: 1", to: searchState)
        == "spec.yaml:1:13: error: cannot set `scores.blob.x`: `scores.blob` is the number 1, which has no field `x`")
    #expect(
      assignError("count[\"k\"]: 1", to: Counter.State())
        == "spec.yaml:1:6: error: cannot set `count[\"k\"]`: `count` is the number 0, not a dictionary")
    #expect(
      assignError("scores[\"nobody\"].x: 1", to: searchState)
        == "spec.yaml:1:7: error: cannot set `scores[\"nobody\"].x`: `scores[\"nobody\"]` has no value")
  }

  @Test func pathSyntaxErrorsPointIntoTheKey() {
    #expect(
      assignError("repositories[x].stars: 1", to: searchState)
        == "spec.yaml:1:14: error: invalid state path `repositories[x].stars`: expected an index, `id=ID` or a quoted key after `[`")
    #expect(
      assignError("  \"a b\": 1", to: searchState)
        == "spec.yaml:1:5: error: invalid state path `a b`: expected `.`, `[` or the end, found ` `")
  }

  @Test func stateMustBeAMapping() {
    #expect(
      assignError("[count, 1]", to: Counter.State())
        == "spec.yaml:1:1: error: expected a mapping of state assignments (`field: value`), found a sequence")
  }
}
