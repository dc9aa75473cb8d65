import Testing
@testable import SpecAuthoring

/// The text that `reducer-spec schema` prints: keys in order, two spaces per level, short
/// arrays of scalars on one line, strings escaped as the worker protocol's writer did.
@Suite struct JSONValueTests {
  @Test func stringsAreEscapedAsBefore() {
    let text: JSONValue = .string("a\"b\\c\n\r\t\u{08}\u{0C}\u{1F}\u{7F}/é😀")
    #expect(text.text() == #""a\"b\\c\n\r\t\u0008\u000c\u001f"# + "\u{7F}/é😀\"")
  }

  @Test func layout() {
    let value: JSONValue = [
      "type": "object", "required": ["b", "a"], "empty": [:], "none": [], "n": 1, "ok": true, "nothing": .null,
      "long": .array((0..<30).map { .integer($0 * 1000) }), "nested": ["a": [["b": 1]]],
    ]
    #expect(
      value.text() == """
        {
          "type": "object",
          "required": ["b", "a"],
          "empty": {},
          "none": [],
          "n": 1,
          "ok": true,
          "nothing": null,
          "long": [
            0,
            1000,
        \((2..<30).map { "    \($0 * 1000)," }.joined(separator: "\n").dropLast())
          ],
          "nested": {
            "a": [
              {
                "b": 1
              }
            ]
          }
        }
        """)
  }
}
