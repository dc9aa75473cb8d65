import Foundation

// Types shaped like the example features, for decoding tests.

enum Counter {
  struct State: Codable, Equatable {
    var count = 0
    var secret = 0
  }

  enum Action: Codable, Equatable, CaseIterable {
    case increment
    case decrement
    case setCount(String)
    case playNext

    static let allCases: [Action] = [.increment, .decrement, .setCount(""), .playNext]
  }
}

struct Repository: Codable, Equatable {
  var id: Int
  var fullName: String
  var description: String?
  var stars: Int
}

struct AlertState: Codable, Equatable {
  struct Button: Codable, Equatable {
    var title: String
    var action: Search.Action.Alert?
  }
  var title: String
  var message: String?
  var buttons: [Button]
}

enum Search {
  struct State: Codable, Equatable {
    var searchText = ""
    var isLoading = false
    var repositories: [Repository] = []
    var alert: AlertState?
    var scores: [String: Int] = [:]
  }

  enum Action: Codable, Equatable {
    enum Alert: String, Codable, Equatable, CaseIterable {
      case retry, dismiss
    }
    case onTextChanged(String)
    case onSearchButtonTapped
    case alert(Alert)
    case move(row: Int, column: Int)
    case select(Repository)
    case pair(Int, Int)
  }
}

enum Login {
  struct State: Codable, Equatable {
    var email = ""
    var password = ""
  }
  enum Action: Codable, Equatable {
    case emailChanged(String)
    case loginButtonTapped
  }
}

enum NewGame {
  struct State: Codable, Equatable {
    var oPlayerName = ""
    var xPlayerName = ""
  }
}

enum TicTacToe {
  enum State: Codable, Equatable {
    case login(Login.State)
    case newGame(NewGame.State)
  }
  enum Action: Codable, Equatable {
    case login(Login.Action)
    case logout
  }
}
