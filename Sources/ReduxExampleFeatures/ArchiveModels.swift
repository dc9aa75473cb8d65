import Redux

// MARK: - Entities

/// A dish of the archive, as ``RequestArchiveRepository`` returns it.
///
/// Decoding fills `photoUrl`, `shopName` and `introduction` with `""` when they are missing:
/// `{ id: 1, category: 洋食, dishName: オムライス }` is an entity.
public struct ArchiveSceneEntity: Codable, Equatable, Sendable {
  /// The dish's identifier.
  public var id: Int
  /// The address of its photo; empty for none.
  public var photoUrl: String
  /// Its category, as `洋食`.
  public var category: String
  /// The dish.
  public var dishName: String
  /// The shop that serves it.
  public var shopName: String
  /// A short introduction.
  public var introduction: String

  /// An entity.
  public init(
    id: Int,
    photoUrl: String = "",
    category: String,
    dishName: String,
    shopName: String = "",
    introduction: String = ""
  ) {
    self.id = id
    self.photoUrl = photoUrl
    self.category = category
    self.dishName = dishName
    self.shopName = shopName
    self.introduction = introduction
  }

  /// Decodes an entity; `id`, `category` and `dishName` must be there.
  public init(from decoder: any Decoder) throws {
    let container = try decoder.container(keyedBy: CodingKeys.self)
    self.init(
      id: try container.decode(Int.self, forKey: .id),
      photoUrl: try container.decodeIfPresent(String.self, forKey: .photoUrl) ?? "",
      category: try container.decode(String.self, forKey: .category),
      dishName: try container.decode(String.self, forKey: .dishName),
      shopName: try container.decodeIfPresent(String.self, forKey: .shopName) ?? "",
      introduction: try container.decodeIfPresent(String.self, forKey: .introduction) ?? ""
    )
  }
}

/// A cell of the archive's list: a dish, and whether the user stored it.
///
/// Decoding fills `photoUrl`, `shopName` and `introduction` with `""` and `isStored` with
/// `false` when they are missing.
public struct ArchiveCellViewObject: Codable, Equatable, Sendable {
  /// The dish's identifier.
  public var id: Int
  /// The address of its photo; empty for none.
  public var photoUrl: String
  /// Its category.
  public var category: String
  /// The dish.
  public var dishName: String
  /// The shop that serves it.
  public var shopName: String
  /// A short introduction.
  public var introduction: String
  /// Whether the user stored it (``StoredArchiveDataRepository`` holds it).
  public var isStored: Bool

  /// A cell.
  public init(
    id: Int,
    photoUrl: String = "",
    category: String,
    dishName: String,
    shopName: String = "",
    introduction: String = "",
    isStored: Bool = false
  ) {
    self.id = id
    self.photoUrl = photoUrl
    self.category = category
    self.dishName = dishName
    self.shopName = shopName
    self.introduction = introduction
    self.isStored = isStored
  }

  /// The cell of an entity.
  public init(archiveSceneEntity entity: ArchiveSceneEntity, isStored: Bool = false) {
    self.init(
      id: entity.id,
      photoUrl: entity.photoUrl,
      category: entity.category,
      dishName: entity.dishName,
      shopName: entity.shopName,
      introduction: entity.introduction,
      isStored: isStored
    )
  }

  /// Decodes a cell; `id`, `category` and `dishName` must be there.
  public init(from decoder: any Decoder) throws {
    let container = try decoder.container(keyedBy: CodingKeys.self)
    self.init(
      id: try container.decode(Int.self, forKey: .id),
      photoUrl: try container.decodeIfPresent(String.self, forKey: .photoUrl) ?? "",
      category: try container.decode(String.self, forKey: .category),
      dishName: try container.decode(String.self, forKey: .dishName),
      shopName: try container.decodeIfPresent(String.self, forKey: .shopName) ?? "",
      introduction: try container.decodeIfPresent(String.self, forKey: .introduction) ?? "",
      isStored: try container.decodeIfPresent(Bool.self, forKey: .isStored) ?? false
    )
  }
}

/// A dish that the user stored, as ``StoredArchiveDataRepository`` holds it.
///
/// Decoding fills every field but `id` with `""` when it is missing.
public struct StockArchiveRealmEntity: Codable, Equatable, Sendable {
  /// The dish's identifier.
  public var id: Int
  /// The address of its photo; empty for none.
  public var photoUrl: String
  /// Its category.
  public var category: String
  /// The dish.
  public var dishName: String
  /// The shop that serves it.
  public var shopName: String
  /// A short introduction.
  public var introduction: String

  /// A stored dish.
  public init(
    id: Int,
    photoUrl: String = "",
    category: String = "",
    dishName: String = "",
    shopName: String = "",
    introduction: String = ""
  ) {
    self.id = id
    self.photoUrl = photoUrl
    self.category = category
    self.dishName = dishName
    self.shopName = shopName
    self.introduction = introduction
  }

  /// The stored dish of a cell.
  public init(archiveCellViewObject cell: ArchiveCellViewObject) {
    self.init(
      id: cell.id,
      photoUrl: cell.photoUrl,
      category: cell.category,
      dishName: cell.dishName,
      shopName: cell.shopName,
      introduction: cell.introduction
    )
  }

  /// Decodes a stored dish; `id` must be there.
  public init(from decoder: any Decoder) throws {
    let container = try decoder.container(keyedBy: CodingKeys.self)
    self.init(
      id: try container.decode(Int.self, forKey: .id),
      photoUrl: try container.decodeIfPresent(String.self, forKey: .photoUrl) ?? "",
      category: try container.decodeIfPresent(String.self, forKey: .category) ?? "",
      dishName: try container.decodeIfPresent(String.self, forKey: .dishName) ?? "",
      shopName: try container.decodeIfPresent(String.self, forKey: .shopName) ?? "",
      introduction: try container.decodeIfPresent(String.self, forKey: .introduction) ?? ""
    )
  }
}

/// What ``RequestArchiveRepository/getArchiveResponse`` answers: the dishes found.
public struct ArchiveSceneResponse: Codable, Equatable, Sendable {
  /// The dishes, in the order to show them.
  public var result: [ArchiveSceneEntity]

  /// A response.
  public init(result: [ArchiveSceneEntity]) {
    self.result = result
  }
}

// MARK: - State

/// The archive screen's state: the search conditions, the cells and the loading status.
///
/// Decoding fills every missing field with its default: `{}` is `ArchiveState()`.
public struct ArchiveState: Codable, Equatable, Sendable {
  /// The keyword typed; empty for none.
  public var inputText: String
  /// The category selected; empty for none.
  public var selectedCategory: String
  /// The cells of the list, in the order of the last response.
  public var archiveCellViewObjects: [ArchiveCellViewObject]
  /// Whether a request is running.
  public var isLoading: Bool
  /// Whether the last request failed.
  public var isError: Bool

  /// A state; `ArchiveState()` is the screen's initial state.
  public init(
    inputText: String = "",
    selectedCategory: String = "",
    archiveCellViewObjects: [ArchiveCellViewObject] = [],
    isLoading: Bool = false,
    isError: Bool = false
  ) {
    self.inputText = inputText
    self.selectedCategory = selectedCategory
    self.archiveCellViewObjects = archiveCellViewObjects
    self.isLoading = isLoading
    self.isError = isError
  }

  /// Decodes a state, with the default of each field that is missing.
  public init(from decoder: any Decoder) throws {
    let container = try decoder.container(keyedBy: CodingKeys.self)
    self.init(
      inputText: try container.decodeIfPresent(String.self, forKey: .inputText) ?? "",
      selectedCategory: try container.decodeIfPresent(String.self, forKey: .selectedCategory) ?? "",
      archiveCellViewObjects: try container.decodeIfPresent(
        [ArchiveCellViewObject].self, forKey: .archiveCellViewObjects) ?? [],
      isLoading: try container.decodeIfPresent(Bool.self, forKey: .isLoading) ?? false,
      isError: try container.decodeIfPresent(Bool.self, forKey: .isError) ?? false
    )
  }
}

/// The app's state, which the ``Store`` holds: one sub-state per screen.
///
/// Decoding fills a missing `archiveState` with `ArchiveState()`.
public struct AppState: ReduxState, Codable, Equatable {
  /// The archive screen's state.
  public var archiveState: ArchiveState

  /// A state; `AppState()` is the app's initial state.
  public init(archiveState: ArchiveState = ArchiveState()) {
    self.archiveState = archiveState
  }

  /// Decodes a state, with `ArchiveState()` when `archiveState` is missing.
  public init(from decoder: any Decoder) throws {
    let container = try decoder.container(keyedBy: CodingKeys.self)
    self.init(
      archiveState: try container.decodeIfPresent(ArchiveState.self, forKey: .archiveState) ?? ArchiveState()
    )
  }
}
