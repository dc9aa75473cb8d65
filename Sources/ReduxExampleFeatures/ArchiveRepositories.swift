import Dependencies
import DependenciesMacros

/// Fetches the archive's dishes: `requestArchiveRepository` in `DependencyValues`.
///
/// The live value is a demo: it filters a small built-in list in memory, with no network. In
/// tests it is unimplemented: a call reports an issue and throws.
@DependencyClient
public struct RequestArchiveRepository: Sendable {
  /// The dishes whose dish name, shop name or introduction contains the keyword (any dish
  /// when it is empty), of the category (any when it is empty).
  public var getArchiveResponse:
    @Sendable (_ keyword: String, _ category: String) async throws -> ArchiveSceneResponse
}

extension RequestArchiveRepository: DependencyKey {
  /// A demo that filters a built-in list of dishes, in memory.
  public static let liveValue = RequestArchiveRepository(getArchiveResponse: { keyword, category in
    ArchiveSceneResponse(
      result: demoArchiveSceneEntities.filter { entity in
        (category.isEmpty || entity.category == category)
          && (keyword.isEmpty
            || [entity.dishName, entity.shopName, entity.introduction].contains { $0.contains(keyword) })
      }
    )
  })
  /// Unimplemented: a call reports an issue and throws.
  public static let testValue = RequestArchiveRepository()
}

/// The dishes that the user stored: `storedArchiveDataRepository` in `DependencyValues`.
///
/// The live value keeps them in memory for the life of the process (a demo: nothing is
/// written to disk). In tests it is unimplemented: a call reports an issue.
@DependencyClient
public struct StoredArchiveDataRepository: Sendable {
  /// The stored dishes, in the order they were stored.
  public var getAllObjectsFromRealm: @Sendable () async -> [StockArchiveRealmEntity] = { [] }
  /// Stores a cell's dish; a dish of the same identifier already stored stays as it is.
  public var createToRealm: @Sendable (_ archiveCellViewObject: ArchiveCellViewObject) async -> Void = { _ in }
  /// Deletes the stored dish of a cell's identifier.
  public var deleteFromRealm: @Sendable (_ archiveCellViewObject: ArchiveCellViewObject) async -> Void = { _ in }
}

extension StoredArchiveDataRepository: DependencyKey {
  /// Stored dishes kept in memory, for the life of the process.
  public static let liveValue: StoredArchiveDataRepository = {
    let storage = StoredArchiveStorage()
    return StoredArchiveDataRepository(
      getAllObjectsFromRealm: { await storage.all },
      createToRealm: { await storage.create(StockArchiveRealmEntity(archiveCellViewObject: $0)) },
      deleteFromRealm: { await storage.delete(id: $0.id) }
    )
  }()
  /// Unimplemented: a call reports an issue (and `getAllObjectsFromRealm` returns `[]`).
  public static let testValue = StoredArchiveDataRepository()
}

extension DependencyValues {
  /// Fetches the archive's dishes (``RequestArchiveRepository``).
  public var requestArchiveRepository: RequestArchiveRepository {
    get { self[RequestArchiveRepository.self] }
    set { self[RequestArchiveRepository.self] = newValue }
  }

  /// The dishes that the user stored (``StoredArchiveDataRepository``).
  public var storedArchiveDataRepository: StoredArchiveDataRepository {
    get { self[StoredArchiveDataRepository.self] }
    set { self[StoredArchiveDataRepository.self] = newValue }
  }
}

/// The stored dishes of the live ``StoredArchiveDataRepository``.
private actor StoredArchiveStorage {
  private(set) var all: [StockArchiveRealmEntity] = []

  func create(_ entity: StockArchiveRealmEntity) {
    if !all.contains(where: { $0.id == entity.id }) { all.append(entity) }
  }

  func delete(id: Int) {
    all.removeAll { $0.id == id }
  }
}

/// The dishes that the demo live repository knows.
private let demoArchiveSceneEntities = [
  ArchiveSceneEntity(
    id: 1, category: "洋食", dishName: "オムライス", shopName: "街角の洋食屋",
    introduction: "ふんわり卵とケチャップライスの定番です。"),
  ArchiveSceneEntity(
    id: 2, category: "洋食", dishName: "チーズたっぷりのグラタン", shopName: "街角の洋食屋",
    introduction: "焼き色のついたチーズとホワイトソースのグラタンです。"),
  ArchiveSceneEntity(
    id: 3, category: "和食", dishName: "鯖の味噌煮", shopName: "港の定食屋",
    introduction: "甘めの味噌で煮込んだ鯖の定食です。"),
  ArchiveSceneEntity(
    id: 4, category: "中華料理", dishName: "麻婆豆腐", shopName: "四川飯店",
    introduction: "花椒の効いた辛い麻婆豆腐です。"),
  ArchiveSceneEntity(
    id: 5, category: "洋食", dishName: "マルゲリータ", shopName: "窯焼きピザの店",
    introduction: "トマトとモッツァレラチーズ、バジルのピザです。"),
  ArchiveSceneEntity(
    id: 6, category: "エスニック料理", dishName: "グリーンカレー", shopName: "タイ料理の店",
    introduction: "ココナッツミルクの辛いカレーです。"),
]
