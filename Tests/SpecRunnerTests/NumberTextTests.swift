import Foundation
import Testing
@testable import SpecRunner

@Suite struct NumberTextTests {
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

  @Test func integersAreWrittenAsStringWritesThem() {
    var generator = SystemRandomNumberGenerator()
    let edges = [0, 1, -1, 9, 10, -10, 99, 100, 999_999, 1_000_000, Int.max, Int.min, Int.min + 1]
    let random = (0..<2000).map { _ in Int.random(in: Int.min...Int.max, using: &generator) }
      + (0..<2000).map { _ in Int.random(in: -100_000...100_000, using: &generator) }
    for value in edges + random {
      var bytes: [UInt8] = Array("x".utf8)
      appendDecimal(value, to: &bytes)
      #expect(String(decoding: bytes, as: UTF8.self) == "x" + String(value))
    }
  }
}
