import Foundation
import TestSupport
import Testing
@testable import SpecAuthoring
@testable import SpecRunner

/// The pieces of `reducer-spec doc`: Markdown escaping and tables, and reading a run's
/// JUnit file.
@Suite struct DocMarkdownTests {
  // MARK: - Markdown

  @Test func codeSpans() {
    #expect(Markdown.code("increment") == "`increment`")
    #expect(Markdown.code("{ setCount: \"42\" }") == "`{ setCount: \"42\" }`")
    // A fence longer than any run of backticks inside; padded when the text starts or ends with one.
    #expect(Markdown.code("a`b") == "``a`b``")
    #expect(Markdown.code("a``b`") == "``` a``b` ```")
    #expect(Markdown.code("`x`") == "`` `x` ``")
    // One line.
    #expect(Markdown.code("one\ntwo\r\nthree") == "`one two three`")
    // Pipes are the table's business.
    #expect(Markdown.code("a|b") == "`a|b`")
  }

  @Test func plainText() {
    #expect(Markdown.text("Setting the count to <text>") == #"Setting the count to \<text\>"#)
    #expect(Markdown.text("a *b* _c_ [d](e) `f` x|y ~z~ & #1") == ##"a \*b\* \_c\_ \[d\](e) \`f\` x\|y \~z\~ \& \#1"##)
    #expect(Markdown.text(#"back\slash"#) == #"back\\slash"#)
    #expect(Markdown.text("- not a list") == #"\- not a list"#)
    #expect(Markdown.text("two\nlines") == "two lines")
  }

  @Test func tableCells() {
    #expect(Markdown.cell("  a | b\nc\r\nd  \n") == #"a \| b<br>c<br>d"#)
    #expect(Markdown.cell("`x|y`") == #"`x\|y`"#)
  }

  @Test func tables() {
    let table = Markdown.table(
      header: ["#", "Step", "Note"],
      rows: [["1", "send `a|b`", "line one\nline two"], ["2", "finish", ""]])
    #expect(
      table == #"""
        | # | Step | Note |
        | --- | --- | --- |
        | 1 | send `a\|b` | line one<br>line two |
        | 2 | finish |  |

        """#)
  }

  @Test func fileNames() {
    #expect(Markdown.fileName("RepositorySearch") == "RepositorySearch")
    #expect(Markdown.fileName("Tic Tac/Toe") == "Tic-Tac-Toe")
    #expect(Markdown.fileName("..hidden") == "hidden")
    #expect(Markdown.fileName("Zähler") == "Z-hler")
  }

  // MARK: - JUnit results

  private static let run = #"""
    <?xml version="1.0" encoding="UTF-8"?>
    <!-- a comment with <testcase name="ignored"/> -->
    <testsuites name="reducer-spec">
      <testsuite name="specs/counter.yaml" file="specs/counter.yaml">
        <testcase name="Counting &amp; &lt;more&gt;" classname="Counter" file="specs/counter.yaml" line="5" time="0.012"/>
        <testcase name="Failing" classname="Counter" file="./specs/counter.yaml" time="0.020">
          <failure message="A state change does not match expectation." type="StepFailure"><![CDATA[<diff>]]></failure>
        </testcase>
        <testcase name="Crashing" classname="Counter" time="1.500"><error message="crashed"/></testcase>
        <testcase name='Later' classname="Counter" file="specs/counter.yaml" time="0.000">
          <skipped message="not yet"/>
        </testcase>
      </testsuite>
      <testsuite name="/abs/specs/other.yaml">
        <testcase name="Other &#x2713;&#10003;" time="0.001"/>
      </testsuite>
    </testsuites>
    """#

  @Test func outcomesByFileAndName() throws {
    let results = try JUnitResults(xml: Self.run, currentDirectory: "/abs")
    #expect(results.count == 5)
    #expect(results.result(file: "specs/counter.yaml", name: "Counting & <more>") == .init(outcome: .passed, time: "0.012"))
    // Paths compare once made absolute and normalized.
    #expect(results.result(file: "/abs/specs/counter.yaml", name: "Failing") == .init(outcome: .failed, time: "0.020"))
    // Without a `file`, the suite's.
    #expect(results.result(file: "specs//counter.yaml", name: "Crashing") == .init(outcome: .error, time: "1.500"))
    #expect(results.result(file: "x/../specs/counter.yaml", name: "Later") == .init(outcome: .skipped("not yet"), time: "0.000"))
    #expect(results.result(file: "specs/other.yaml", name: "Other ✓✓") == .init(outcome: .passed, time: "0.001"))
    #expect(results.result(file: "specs/other.yaml", name: "Missing") == nil)
    #expect(results.result(file: "specs/counter.yaml", name: "ignored") == nil)
  }

  @Test func aSingleSuiteIsJUnitToo() throws {
    let results = try JUnitResults(
      xml: #"<testsuite name="a.yaml"><testcase name="x" time="1"/></testsuite>"#, currentDirectory: "/")
    #expect(results.result(file: "/a.yaml", name: "x") == .init(outcome: .passed, time: "1"))
  }

  @Test func filesThatAreNotJUnit() {
    func error(_ xml: String) -> String? {
      do {
        _ = try JUnitResults(xml: xml, currentDirectory: "/")
        return nil
      } catch {
        return error.description
      }
    }
    #expect(error("") == "it is empty")
    #expect(error("feature: Counter\n") == "it is not XML (it does not start with `<`)")
    #expect(error("<html><body/></html>") == "its root element is <html>, not <testsuites> or <testsuite>")
    #expect(error("<?xml version=\"1.0\"?>\n<!-- only a comment -->") == "it has no root element")
    #expect(error("<testsuites>\n  <testsuite>\n</testsuites>") == "the end tag </testsuites> at line 3 closes no element")
    #expect(error("<testsuites>\n<testsuite name=\"a\">") == "it ends before the element <testsuite> is closed")
    #expect(error("<testsuites name=a/>") == "the attribute `name` of <testsuites> has no quoted value at line 1")
    #expect(error("<testsuites name=\"&bogus;\"/>") == "an unknown entity `&bogus;` at line 1")
    #expect(error("<testsuites/><testsuites/>") == "a second root element <testsuites> at line 1")
    #expect(error("<testsuites>\n<!-- open") == "a comment at line 2 is not closed")
  }

  @Test func readingAFile() throws {
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent("doc-results-\(UUID())")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: directory) }
    func error(_ path: String) -> String? {
      do {
        _ = try JUnitResults.read(path: path, currentDirectory: "/")
        return nil
      } catch {
        return error.description
      }
    }
    #expect(error(directory.path + "/none.xml") == "cannot read the results file '\(directory.path)/none.xml': no such file")
    #expect(error(directory.path) == "cannot read the results file '\(directory.path)': it is a directory")
    let yaml = directory.appendingPathComponent("spec.yaml")
    try Data("feature: Counter\n".utf8).write(to: yaml)
    #expect(error(yaml.path) == "'\(yaml.path)' is not a JUnit XML file: it is not XML (it does not start with `<`)")
    let xml = directory.appendingPathComponent("run.xml")
    try Data("\u{FEFF}<testsuites/>".utf8).write(to: xml)
    #expect(error(xml.path) == nil)
  }
}
