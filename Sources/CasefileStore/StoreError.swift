import GRDB

/// The index could not be opened, migrated, read or written: the database file and SQLite's own message.
public struct StoreError: Error, Sendable, CustomStringConvertible {
    /// The database file.
    public var path: String
    /// What failed, with SQLite's message.
    public var reason: String

    /// Creates an error.
    public init(path: String, reason: String) {
        self.path = path
        self.reason = reason
    }

    /// `path: reason`.
    public var description: String {
        "\(path): \(reason)"
    }
}

extension StoreError {
    /// Whether `error` is SQLite's own, thrown by a query of the index: a damaged page, a full disk, a file another
    /// process holds. The commands that query the index report it as an index that cannot be read.
    public static func isDatabaseFailure(_ error: any Error) -> Bool {
        error is DatabaseError
    }
}
