import Foundation
import ReduxExampleFeatures
import Testing

private func decode<Value: Decodable>(_ type: Value.Type, _ json: String) throws -> Value {
  try JSONDecoder().decode(type, from: Data(json.utf8))
}

/// The key that a decoding error says is missing.
private func missingKey(_ body: () throws -> Void) -> String? {
  do {
    try body()
    return nil
  } catch DecodingError.keyNotFound(let key, _) {
    return key.stringValue
  } catch {
    return "\(error)"
  }
}

@Suite struct ReduxArchiveCodingTests {
  @Test func anEntityDefaultsItsOptionalFields() throws {
    #expect(
      try decode(ArchiveSceneEntity.self, #"{"id": 1, "category": "洋食", "dishName": "オムライス"}"#)
        == ArchiveSceneEntity(id: 1, photoUrl: "", category: "洋食", dishName: "オムライス", shopName: "", introduction: ""))
    #expect(
      try decode(
        ArchiveSceneEntity.self,
        #"{"id": 1, "photoUrl": "p", "category": "c", "dishName": "d", "shopName": "s", "introduction": "i"}"#)
        == ArchiveSceneEntity(id: 1, photoUrl: "p", category: "c", dishName: "d", shopName: "s", introduction: "i"))
    #expect(missingKey { _ = try decode(ArchiveSceneEntity.self, #"{"id": 1, "category": "洋食"}"#) } == "dishName")
  }

  @Test func aCellDefaultsItsOptionalFieldsAndIsStored() throws {
    #expect(
      try decode(ArchiveCellViewObject.self, #"{"id": 2, "category": "和食", "dishName": "鯖の味噌煮"}"#)
        == ArchiveCellViewObject(id: 2, category: "和食", dishName: "鯖の味噌煮", isStored: false))
    #expect(
      try decode(ArchiveCellViewObject.self, #"{"id": 2, "category": "和食", "dishName": "鯖", "isStored": true}"#)
        .isStored)
    #expect(missingKey { _ = try decode(ArchiveCellViewObject.self, #"{"category": "和食", "dishName": "鯖"}"#) } == "id")
  }

  @Test func aStoredEntityNeedsOnlyItsIdentifier() throws {
    #expect(try decode(StockArchiveRealmEntity.self, #"{"id": 3}"#) == StockArchiveRealmEntity(id: 3))
    #expect(missingKey { _ = try decode(StockArchiveRealmEntity.self, "{}") } == "id")
  }

  @Test func theStatesDefaultEveryField() throws {
    #expect(try decode(AppState.self, "{}") == AppState())
    #expect(
      try decode(AppState.self, #"{"archiveState": {"inputText": "チーズ", "isLoading": true}}"#)
        == AppState(archiveState: ArchiveState(inputText: "チーズ", isLoading: true)))
  }

  @Test func theActionsNeedEveryField() throws {
    #expect(
      try decode(SuccessArchiveAction.self, #"{"archiveSceneEntities": [{"id": 1, "category": "c", "dishName": "d"}], "storedIds": [1]}"#)
        == SuccessArchiveAction(archiveSceneEntities: [ArchiveSceneEntity(id: 1, category: "c", dishName: "d")], storedIds: [1]))
    #expect(missingKey { _ = try decode(SuccessArchiveAction.self, #"{"archiveSceneEntities": []}"#) } == "storedIds")
    #expect(missingKey { _ = try decode(RequestArchiveWithInputTextAction.self, "{}") } == "inputText")
    #expect(try decode(RequestArchiveWithNoConditionsAction.self, "{}") == RequestArchiveWithNoConditionsAction())
    #expect(try decode(FailureArchiveAction.self, "{}") == FailureArchiveAction())
  }

  @Test func encodingWritesEveryField() throws {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.sortedKeys]
    let json = String(decoding: try encoder.encode(ArchiveCellViewObject(id: 1, category: "c", dishName: "d")), as: UTF8.self)
    #expect(
      json == #"{"category":"c","dishName":"d","id":1,"introduction":"","isStored":false,"photoUrl":"","shopName":""}"#)
  }
}
