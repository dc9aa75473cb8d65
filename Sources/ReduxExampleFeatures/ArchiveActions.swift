import Redux

/// The keyword changed: sets it and starts loading; ``archiveMiddleware`` fetches with it and
/// the selected category.
public struct RequestArchiveWithInputTextAction: Action, Codable, Equatable {
  /// The keyword typed.
  public let inputText: String

  /// The action.
  public init(inputText: String) {
    self.inputText = inputText
  }
}

/// A category was selected: sets it and starts loading; ``archiveMiddleware`` fetches with
/// the keyword and it.
public struct RequestArchiveWithSelectedCategoryAction: Action, Codable, Equatable {
  /// The category selected; empty for none.
  public let selectedCategory: String

  /// The action.
  public init(selectedCategory: String) {
    self.selectedCategory = selectedCategory
  }
}

/// The screen appeared: starts loading; ``archiveMiddleware`` fetches with no keyword and no
/// category.
public struct RequestArchiveWithNoConditionsAction: Action, Codable, Equatable {
  /// The action.
  public init() {}
}

/// A fetch succeeded: the dishes found, and the identifiers of the stored dishes.
public struct SuccessArchiveAction: Action, Codable, Equatable {
  /// The dishes found, in order.
  public let archiveSceneEntities: [ArchiveSceneEntity]
  /// The identifiers of the dishes that ``StoredArchiveDataRepository`` holds.
  public let storedIds: [Int]

  /// The action.
  public init(archiveSceneEntities: [ArchiveSceneEntity], storedIds: [Int]) {
    self.archiveSceneEntities = archiveSceneEntities
    self.storedIds = storedIds
  }
}

/// A fetch failed.
public struct FailureArchiveAction: Action, Codable, Equatable {
  /// The action.
  public init() {}
}

/// The user stored a cell: marks it stored; ``storedArchiveMiddleware`` adds it to
/// ``StoredArchiveDataRepository``.
public struct AddArchiveObjectAction: Action, Codable, Equatable {
  /// The cell stored.
  public let archiveCellViewObject: ArchiveCellViewObject

  /// The action.
  public init(archiveCellViewObject: ArchiveCellViewObject) {
    self.archiveCellViewObject = archiveCellViewObject
  }
}

/// The user un-stored a cell: marks it not stored; ``storedArchiveMiddleware`` deletes it
/// from ``StoredArchiveDataRepository``.
public struct DeleteArchiveObjectAction: Action, Codable, Equatable {
  /// The cell un-stored.
  public let archiveCellViewObject: ArchiveCellViewObject

  /// The action.
  public init(archiveCellViewObject: ArchiveCellViewObject) {
    self.archiveCellViewObject = archiveCellViewObject
  }
}
