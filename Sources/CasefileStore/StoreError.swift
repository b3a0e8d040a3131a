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
