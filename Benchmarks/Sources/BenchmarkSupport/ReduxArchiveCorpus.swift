import Foundation

/// The Redux corpus of `runner-benchmark`: spec files of the example `ReduxArchive`, in the
/// shape of ``CounterCorpus``'s.
public enum ReduxArchiveCorpus {
  /// Writes `files` spec files of the example `ReduxArchive`, each with `scenarios` scenarios
  /// of `steps` steps: sends of `SuccessArchiveAction`, with up to two dishes and the ids of
  /// those stored, and of `FailureArchiveAction`, each with the state it leaves. The
  /// reducer alone answers both (no middleware starts a task for them), so a step is a send
  /// through the Redux store and an assertion, as a step of ``CounterCorpus`` is one through
  /// the `TestStore`. Each scenario starts from its own `initialState` (keyword, category,
  /// cells and flags) and every dish has its own id, drawn from a seeded generator, so that
  /// no cache of states or actions can make the run look faster than a real suite would.
  /// Deterministic: the first N files of a larger corpus are byte for byte those of a corpus
  /// of N files, and every scenario passes. Returns the number of scenarios.
  public static func generate(in directory: String, files: Int, scenarios: Int, steps: Int) throws -> Int {
    try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
    var random = SeededGenerator(seed: 0x5EED_4ED0)
    var total = 0
    for file in 0..<files {
      var text = """
        feature: ReduxArchive
        description: |
          Generated spec \(file + 1) for the runner benchmark: fetches that answer a few
          dishes, some of them stored, and fetches that fail, reduced by the Redux store.
        tags: [generated]
        scenarios:

        """
      for scenario in 0..<scenarios {
        var cells: [Cell] = []
        for _ in 0..<random.next(in: 0...2) {
          let isStored = random.next(in: 0...1) == 1
          cells.append(Cell(random: &random, isStored: isStored))
        }
        var isLoading = random.next(in: 0...1) == 1
        var isError = random.next(in: 0...1) == 1
        let keyword = "keyword \(random.next(in: 1...99_999))"
        let category = dishes[random.next(in: 0...(dishes.count - 1))].category
        text += "  - name: Scenario \(scenario + 1) of file \(file + 1) shows what each fetch answers\n"
        text += "    initialState:\n"
        text += "      archiveState: { inputText: \(keyword), selectedCategory: \(category), "
          + "isLoading: \(isLoading), isError: \(isError), archiveCellViewObjects: \(list(cells, stored: true)) }\n"
        text += "    steps:\n"
        for _ in 0..<steps {
          // A failure after a failure would change nothing, and the step would fail
          // ("Expected state to change"): a success is sent instead.
          if random.next(in: 0...4) >= 3, isLoading || !isError {
            text += "      - send: FailureArchiveAction\n"
            let changed = changes(isLoading: isLoading ? false : nil, isError: isError ? nil : true)
            text += "        state: { \(changed) }\n"
            isLoading = false
            isError = true
            continue
          }
          // Up to two dishes of distinct ids, each stored one time in three; one time in
          // four, a stored id that is not among them too, as a stored dish the fetch did not
          // find.
          var new: [Cell] = []
          repeat {
            new = []
            for _ in 0..<random.next(in: 0...2) {
              let isStored = random.next(in: 0...2) == 0
              var cell = Cell(random: &random, isStored: isStored)
              while new.contains(where: { $0.id == cell.id }) { cell.id = random.next(in: 1...999_999) }
              new.append(cell)
            }
          } while new == cells && !isLoading && !isError
          var storedIds = new.filter(\.isStored).map(\.id)
          if random.next(in: 0...3) == 0 {
            var other = random.next(in: 1...999_999)
            while new.contains(where: { $0.id == other }) { other = random.next(in: 1...999_999) }
            storedIds.insert(other, at: random.next(in: 0...storedIds.count))
          }
          text += "      - send: { SuccessArchiveAction: { archiveSceneEntities: \(list(new, stored: false)), "
            + "storedIds: [\(storedIds.map(String.init).joined(separator: ", "))] } }\n"
          var changed: [String] = []
          if new != cells { changed.append("archiveState.archiveCellViewObjects: \(list(new, stored: true))") }
          changed.append(changes(isLoading: isLoading ? false : nil, isError: isError ? false : nil))
          text += "        state: { " + changed.filter { !$0.isEmpty }.joined(separator: ", ") + " }\n"
          cells = new
          isLoading = false
          isError = false
        }
        total += 1
      }
      let path = (directory as NSString).appendingPathComponent(String(format: "spec-%04d.yaml", file))
      try text.write(toFile: path, atomically: false, encoding: .utf8)
    }
    return total
  }

  /// A dish of the corpus: an entity of `archiveSceneEntities`, or a cell of the state.
  struct Cell: Equatable {
    var id: Int
    var category: String
    var dishName: String
    var isStored: Bool

    init(random: inout SeededGenerator, isStored: Bool) {
      let dish = dishes[random.next(in: 0...(dishes.count - 1))]
      id = random.next(in: 1...999_999)
      category = dish.category
      dishName = dish.dishName
      self.isStored = isStored
    }
  }

  /// The dishes the corpus draws from: a category and a dish name each.
  static let dishes = [
    (category: "洋食", dishName: "オムライス"), (category: "洋食", dishName: "マカロニグラタン"),
    (category: "和食", dishName: "鯖の味噌煮"), (category: "中華料理", dishName: "麻婆豆腐"),
    (category: "エスニック料理", dishName: "グリーンカレー"),
  ]

  /// A flow sequence of dishes: entities, or cells with `isStored` when `stored`.
  static func list(_ cells: [Cell], stored: Bool) -> String {
    let items = cells.map { cell in
      "{ id: \(cell.id), category: \(cell.category), dishName: \(cell.dishName)"
        + (stored ? ", isStored: \(cell.isStored) }" : " }")
    }
    return "[" + items.joined(separator: ", ") + "]"
  }

  /// The assertions of the flags that change (`nil`: unchanged), joined by commas.
  static func changes(isLoading: Bool?, isError: Bool?) -> String {
    [isLoading.map { "archiveState.isLoading: \($0)" }, isError.map { "archiveState.isError: \($0)" }]
      .compactMap { $0 }.joined(separator: ", ")
  }
}
