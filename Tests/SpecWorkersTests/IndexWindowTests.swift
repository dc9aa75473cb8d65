import TestSupport
import Testing
@testable import SpecWorkers

/// `IndexWindow` holds what a dictionary by index would, whatever the order of what goes in
/// and out.
@Suite struct IndexWindowTests {
  @Test func holdsWhatADictionaryHolds() {
    var random = SplitMix64(seed: 0x1DE)
    for round in 0..<200 {
      var window = IndexWindow<String>()
      var dictionary: [Int: String] = [:]
      var next = Int.random(in: 0...3, using: &random) * 1000
      for step in 0..<300 {
        switch Int.random(in: 0..<10, using: &random) {
        case 0..<4:
          // Mostly the next index, now and then one ahead or behind (even before the lowest held).
          let index = max(0, next + [0, 0, 0, 1, 5, -3, -40].randomElement(using: &random)!)
          next = max(next, index + 1)
          window[index] = "\(step)"
          dictionary[index] = "\(step)"
        case 4..<8:
          // Mostly the lowest held.
          let index = Bool.random(using: &random) ? dictionary.keys.min() ?? 0 : Int.random(in: 0...next, using: &random)
          #expect(window.removeValue(forKey: index) == dictionary.removeValue(forKey: index), "round \(round)")
        case 8:
          let index = Int.random(in: 0...next + 2, using: &random)
          window[index] = nil
          dictionary[index] = nil
        default:
          let index = Int.random(in: -2...next + 2, using: &random)
          #expect(window[index] == dictionary[index], "round \(round)")
        }
        #expect(window.count == dictionary.count, "round \(round)")
      }
      #expect(window.indices == dictionary.keys.sorted(), "round \(round)")
      #expect(window.isEmpty == dictionary.isEmpty)
    }
  }

  @Test func dropsTheHolesAtItsFront() {
    var window = IndexWindow<Int>()
    for index in 0..<10_000 {
      window[index] = index
      if index >= 2 { #expect(window.removeValue(forKey: index - 2) == index - 2) }
    }
    #expect(window.indices == [9_998, 9_999])
    #expect(window.slots <= 64)
  }
}
