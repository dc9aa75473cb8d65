import Foundation
import Testing
@testable import SpecRunner

@Suite struct DurationTextTests {
  @Test func parsesEveryForm() {
    #expect(DurationText.parse("300ms") == .milliseconds(300))
    #expect(DurationText.parse("1.5s") == .milliseconds(1500))
    #expect(DurationText.parse("2m") == .seconds(120))
    #expect(DurationText.parse("10") == .seconds(10))
    #expect(DurationText.parse("0.3") == .milliseconds(300))
    #expect(DurationText.parse(".5s") == .milliseconds(500))
    #expect(DurationText.parse("0.0000000019s") == .nanoseconds(1))
    #expect(DurationText.parse("1.25m") == .seconds(75))
    #expect(DurationText.parse("0") == .zero)
    #expect(DurationText.parse("1h") == .seconds(3600))
  }

  @Test func rejectsEverythingElse() {
    for text in ["", "s", "ms", "1.", "-1s", "+1s", "1e3", "1 s", "1.5.2s", "10sec", "one", "9999999999999999999m"] {
      #expect(DurationText.parse(text) == nil, "\(text)")
    }
  }

  @Test func formatsTheShortestForm() {
    #expect(DurationText.format(.milliseconds(300)) == "300ms")
    #expect(DurationText.format(.seconds(1)) == "1s")
    #expect(DurationText.format(.milliseconds(1500)) == "1.5s")
    #expect(DurationText.format(.seconds(120)) == "2m")
    #expect(DurationText.format(.seconds(90)) == "90s")
    #expect(DurationText.format(.microseconds(1500)) == "0.002s")
    #expect(DurationText.seconds(0.0004) == "0s")
    #expect(DurationText.seconds(12.3456) == "12.346s")
  }
}
