import CasefileCore
import Foundation
import GRDB
import Logging
import Testing

@testable import CasefileStore

/// The tables a run inserts tens of rows per report into — timeline events, warnings, a crash's images, threads and
/// frames — give their rows ids without `AUTOINCREMENT` (migration `v21`), which made every insert read and rewrite
/// the table's row of `sqlite_sequence`. An index written before keeps its rows, their ids and its indexes.
@Suite final class RowIDMigrationTests {
    private let temporary: TemporaryFolder

    init() throws {
        temporary = try TemporaryFolder("casefile-row-ids")
    }

    static let tables = ["timeline_events", "report_warnings", "crash_images", "crash_threads", "crash_frames"]

    /// The sample reports (recordings and crash reports) indexed into a new index at `path`.
    func indexSamples(at path: String) async throws {
        _ = try await Samples.indexed(
            into: URL(fileURLWithPath: path), output: temporary.url,
            ignore: ["*.md", "Symbols", "Hostile", "Malformed"])
    }

    /// What an index holds of a table: its definition, its indexes' names and definitions, and every row in id order.
    struct Contents: Sendable, Equatable {
        var sql: String
        var indexes: [String]
        var rows: [[DatabaseValue]]
        /// The largest id.
        var lastID: Int64? { rows.last.flatMap { Int64.fromDatabaseValue($0[0]) } }
    }

    static func contents(of table: String, _ db: Database) throws -> Contents {
        let sql = try String.fetchOne(
            db, sql: "SELECT sql FROM sqlite_master WHERE type = 'table' AND name = ?", arguments: [table])
        let indexes = try String.fetchAll(
            db,
            sql: """
                SELECT name || ': ' || coalesce(sql, 'a unique key') FROM sqlite_master
                WHERE type = 'index' AND tbl_name = ? ORDER BY name
                """,
            arguments: [table])
        // `id` first, then every column as the table orders them.
        let rows = try Row.fetchAll(db, sql: "SELECT id, * FROM \(table) ORDER BY id").map { Array($0.databaseValues) }
        return Contents(sql: try #require(sql), indexes: indexes, rows: rows)
    }

    static func sequence(_ db: Database) throws -> [String: Int64] {
        Dictionary(
            uniqueKeysWithValues: try Row.fetchAll(db, sql: "SELECT name, seq FROM sqlite_sequence").map {
                ($0["name"] as String, $0["seq"] as Int64)
            })
    }

    @Test func aNewIndexGivesThoseRowsIDsWithoutAutoincrement() async throws {
        let path = temporary.url.appendingPathComponent("new.sqlite").path
        try await indexSamples(at: path)
        try await DatabaseQueue(path: path).read { db in
            let sequence = try Self.sequence(db)
            for table in Self.tables {
                let contents = try Self.contents(of: table, db)
                #expect(contents.sql.hasPrefix(#"CREATE TABLE "\#(table)" ("id" INTEGER PRIMARY KEY, "#))
                #expect(!contents.sql.contains("AUTOINCREMENT"))
                #expect(!contents.rows.isEmpty, "the samples write rows to \(table)")
                #expect(sequence[table] == nil)
            }
            // The tables whose ids other rows refer to keep AUTOINCREMENT: a deleted crash's id is never given again.
            #expect(sequence["crashes"] != nil && sequence["inputs"] != nil)
        }
    }

    @Test func theMigrationKeepsAnOlderIndexsRowsIDsAndIndexes() async throws {
        let current = temporary.url.appendingPathComponent("current.sqlite").path
        try await indexSamples(at: current)
        // An index as Casefile left it before v21: made by the released migrations up to v20, holding the samples'
        // rows, with each table's last row deleted, so that its sqlite_sequence is past its largest id.
        let older = temporary.url.appendingPathComponent("older.sqlite").path
        let queue = try DatabaseQueue(path: older)
        try Schema.migrator.migrate(queue, upTo: "v20-event-details")
        try await queue.writeWithoutTransaction { db in
            try db.execute(sql: "PRAGMA foreign_keys = OFF")
            try db.execute(sql: "ATTACH DATABASE ? AS current", arguments: [current])
            let tables = try String.fetchAll(
                db,
                sql: """
                    SELECT name FROM current.sqlite_master WHERE type = 'table'
                    AND name NOT IN ('sqlite_sequence', 'grdb_migrations')
                    """)
            try db.inTransaction {
                for table in tables { try db.execute(sql: "INSERT INTO main.\(table) SELECT * FROM current.\(table)") }
                for table in Self.tables {
                    try db.execute(sql: "DELETE FROM \(table) WHERE id = (SELECT max(id) FROM \(table))")
                }
                return .commit
            }
            try db.execute(sql: "DETACH DATABASE current")
        }
        let before = try await queue.read { db in
            (try Self.tables.map { try Self.contents(of: $0, db) }, try Self.sequence(db))
        }
        for (table, contents) in zip(Self.tables, before.0) {
            #expect(contents.sql.contains(#""id" INTEGER PRIMARY KEY AUTOINCREMENT"#))
            #expect(try #require(before.1[table]) > contents.lastID ?? 0)
        }

        let reopened = try IndexStore(path: older)
        #expect(try reopened.appliedMigrations().last == "v21-row-ids-without-autoincrement")
        let expected = try await DatabaseQueue(path: current).read { db in
            try Self.tables.map { try Self.contents(of: $0, db) }
        }
        try await queue.read { db in
            let sequence = try Self.sequence(db)
            for (index, table) in Self.tables.enumerated() {
                let after = try Self.contents(of: table, db)
                // The definition and indexes a new index has; the same rows with the same ids.
                #expect(after.sql == expected[index].sql)
                #expect(after.indexes == expected[index].indexes)
                #expect(after.indexes == before.0[index].indexes)
                #expect(after.rows == before.0[index].rows)
                #expect(sequence[table] == nil)
            }
            #expect(try String.fetchAll(db, sql: "PRAGMA integrity_check") == ["ok"])
            #expect(try Row.fetchAll(db, sql: "PRAGMA foreign_key_check").isEmpty)
            #expect(try Int.fetchOne(db, sql: "SELECT count(*) FROM sqlite_master WHERE name LIKE '%_rebuilt'") == 0)
        }
        // The index reads as the current one does: the first crash's thread rows and frames (the rows deleted above
        // were the last crash's).
        let original = try IndexStore(path: current)
        let crash = try #require(try original.crashes().first).id
        let threads = try original.threadRows(crashID: crash)
        #expect(!threads.isEmpty)
        #expect(try reopened.threadRows(crashID: crash) == threads)
        for thread in threads {
            let frames = try original.frames(crashID: crash, thread: thread)
            #expect(try reopened.frames(crashID: crash, thread: thread) == frames)
        }
    }
}
