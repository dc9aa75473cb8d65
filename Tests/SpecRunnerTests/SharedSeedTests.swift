import Foundation
import Testing

@testable import SpecRunner

/// `shared:` as the format reads it: a mapping of storages to mappings of keys to values, at
/// the file and in a scenario, and what a store that keeps no shared state says of it.
@MainActor @Suite struct SharedSeedTests {
  func errors(_ loaded: LoadedFile) -> [String] {
    loaded.errors.map { $0.description.replacingOccurrences(of: loaded.file, with: "spec.yaml") }
  }

  @Test func anUnknownStorageIsNamedWithTheClosestOne() async throws {
    let run = try await runSpec(
      """
      feature: Pedometer
      shared: { appStorge: { isOn: true } }
      scenarios:
        - name: a step
          shared: 3
          steps:
            - send: step
              state: { steps: 1 }
      """, features: [pedometerFeature])
    #expect(
      errors(run.loaded) == [
        "spec.yaml:2:11: error: unknown storage `appStorge` in `shared`; did you mean `appStorage`?; `shared` seeds `inMemory`, `appStorage`, `fileStorage`",
        "spec.yaml:5:13: error: expected a mapping of storages (`inMemory`, `appStorage`, `fileStorage`) to the values they hold for `shared`, found the number 3",
      ])
  }

  @Test func aStorageHoldsAMappingOfKeysToValues() async throws {
    let run = try await runSpec(
      """
      feature: Pedometer
      shared: { inMemory: [1, 2] }
      scenarios:
        - name: a step
          steps:
            - send: step
              state: { steps: 1 }
      """, features: [pedometerFeature])
    #expect(
      errors(run.loaded) == [
        "spec.yaml:2:21: error: expected a mapping of keys to values for `shared.inMemory` (`inMemory: { count: 3 }`), found a sequence"
      ])
  }

  @Test func aStoreWithoutSharedStateSaysSoAtTheFirstKey() async throws {
    let run = try await runSpec(
      """
      feature: Pedometer
      scenarios:
        - name: a step
          shared:
            appStorage: { isOn: true }
          steps:
            - send: step
              state: { steps: 1 }
      """, features: [pedometerFeature])
    #expect(
      errors(run.loaded) == [
        "spec.yaml:5:21: error: this feature keeps no shared state (`@Shared`), so `shared:` has nothing to seed"
      ])
  }
}
