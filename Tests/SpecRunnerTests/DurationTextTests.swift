import Foundation
import Testing
@testable import SpecRunner

@Suite struct DurationTextTests {
  @Test func secondsAreShownAsPrintfShowsThemToTheMillisecond() {
    #expect(formatSeconds(0) == "0.000")
    #expect(formatSeconds(0.0004) == "0.000")
    #expect(formatSeconds(0.0126) == "0.013")
    #expect(formatSeconds(12.5) == "12.500")
    #expect(formatSeconds(-1) == "0.000")
    #expect(formatSeconds(.nan) == "0.000")
    #expect(formatSeconds(.infinity) == "0.000")
    #expect(formatSeconds(3e12) == "3000000000000.000")
    // Every value, halves of a millisecond included, as `%.3f` rounds it.
    var generator = SystemRandomNumberGenerator()
    let halves = (0..<2000).map { (Double($0) + 0.5) / 1000 }
    let random = (0..<2000).map { _ in Double.random(in: 0..<100, using: &generator) }
      + (0..<500).map { _ in Double.random(in: 0..<1e9, using: &generator) }
    for seconds in halves + random + [0.0005, 1.2345, 2.0015, 0.9995, 999.9995] {
      #expect(formatSeconds(seconds) == String(format: "%.3f", seconds), "\(seconds)")
    }
  }

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
