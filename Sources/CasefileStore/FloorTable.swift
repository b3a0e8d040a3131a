import GRDB

/// The least a run can write: one row per report, in one transaction, in a table of its own. The benchmark's
/// floor is timed with it, so a run's indexing is compared with SQLite's own cost on the same machine.
public final class FloorTable: Sendable {
    private let queue: DatabaseQueue

    /// Creates the table in a new database at `path`.
    public init(path: String) throws {
        // The run's SQLite settings, so the floor is timed on the same SQLite.
        _ = SQLiteSettings.applied
        var configuration = Configuration()
        configuration.prepareDatabase { db in
            try db.execute(sql: "PRAGMA journal_mode = WAL")
            try db.execute(sql: "PRAGMA synchronous = NORMAL")
        }
        queue = try DatabaseQueue(path: path, configuration: configuration)
        try queue.write { db in
            try db.execute(sql: "CREATE TABLE IF NOT EXISTS floor (sha256 TEXT NOT NULL, bytes INTEGER NOT NULL)")
        }
    }

    /// Inserts one row for each report, all in one transaction.
    public func insert(_ rows: [(sha256: String, bytes: Int)]) throws {
        try queue.write { db in
            let statement = try db.makeStatement(sql: "INSERT INTO floor (sha256, bytes) VALUES (?, ?)")
            for row in rows {
                try statement.execute(arguments: [row.sha256, row.bytes])
            }
        }
    }
}
