import Foundation

// Codable types shaped like the example features, for the decoding and state tests.

public enum Counter {
  public struct State: Codable, Equatable, Sendable {
    public var count = 0
    public var secret = 0

    public init(count: Int = 0, secret: Int = 0) {
      self.count = count
      self.secret = secret
    }
  }

  public enum Action: Codable, Equatable, Sendable, CaseIterable {
    case increment
    case decrement
    case setCount(String)
    case playNext

    public static let allCases: [Action] = [.increment, .decrement, .setCount(""), .playNext]
  }
}

public struct Repository: Codable, Equatable, Sendable {
  public var id: Int
  public var fullName: String
  public var description: String?
  public var stars: Int

  public init(id: Int, fullName: String, description: String? = nil, stars: Int) {
    self.id = id
    self.fullName = fullName
    self.description = description
    self.stars = stars
  }
}

public struct AlertState: Codable, Equatable, Sendable {
  public struct Button: Codable, Equatable, Sendable {
    public var title: String
    public var action: Search.Action.Alert?

    public init(title: String, action: Search.Action.Alert? = nil) {
      self.title = title
      self.action = action
    }
  }
  public var title: String
  public var message: String?
  public var buttons: [Button]

  public init(title: String, message: String? = nil, buttons: [Button] = []) {
    self.title = title
    self.message = message
    self.buttons = buttons
  }
}

public enum Search {
  public struct State: Codable, Equatable, Sendable {
    public var searchText = ""
    public var isLoading = false
    public var repositories: [Repository] = []
    public var alert: AlertState?
    public var scores: [String: Int] = [:]

    public init(searchText: String = "", isLoading: Bool = false, repositories: [Repository] = [], alert: AlertState? = nil, scores: [String: Int] = [:]) {
      self.searchText = searchText
      self.isLoading = isLoading
      self.repositories = repositories
      self.alert = alert
      self.scores = scores
    }
  }

  public enum Action: Codable, Equatable, Sendable {
    public enum Alert: String, Codable, Equatable, Sendable, CaseIterable {
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

public enum Login {
  public struct State: Codable, Equatable, Sendable {
    public var email = ""
    public var password = ""

    public init(email: String = "", password: String = "") {
      self.email = email
      self.password = password
    }
  }
  public enum Action: Codable, Equatable, Sendable {
    case emailChanged(String)
    case loginButtonTapped
  }
}

public enum NewGame {
  public struct State: Codable, Equatable, Sendable {
    public var oPlayerName = ""
    public var xPlayerName = ""

    public init(oPlayerName: String = "", xPlayerName: String = "") {
      self.oPlayerName = oPlayerName
      self.xPlayerName = xPlayerName
    }
  }
}

public enum TicTacToe {
  public enum State: Codable, Equatable, Sendable {
    case login(Login.State)
    case newGame(NewGame.State)
  }
  public enum Action: Codable, Equatable, Sendable {
    case login(Login.Action)
    case logout
  }
}
