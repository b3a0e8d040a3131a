public import CasefileCore
import Foundation
import GRDB

extension IndexStore {
    /// The symbolication answers stored by earlier runs, read for one image UUID the first time a crash asks about
    /// it.
    ///
    /// Not read whole: an index kept for months holds answers for every build it ever symbolicated (a million rows
    /// took 9 s and 1.2 GB to read at the start of every run, even one with nothing to do). An index on disk reads them
    /// with its readers (``IndexReaders``), beside the writer: an input stored in parts has each part enriched on other
    /// threads while the writer, held for the whole input, stores the part before.
    ///
    /// An index in memory has no readers, and lives for one process: its few answers are read here, at once, so that
    /// no thread asks the writer for them.
    public func loadSymbolCache() async throws -> SymbolCache {
        guard let readers else {
            let rows = try await queue.read { db in
                try Row.fetchAll(db, sql: "SELECT uuid, address, backend, locations_json FROM symbol_cache")
                    .compactMap { row -> (uuid: String, row: StoredAnswer)? in
                        guard let uuid = row["uuid"] as String?, let answer = Self.storedAnswer(row) else { return nil }
                        return (uuid, answer)
                    }
            }
            let cache = SymbolCache()
            for (uuid, stored) in Dictionary(grouping: rows, by: \.uuid) {
                cache.insert(
                    Self.answers(stored.map(\.row)).map {
                        SymbolCache.Entry(uuid: uuid, address: $0.key, result: $0.value)
                    },
                    persist: false)
            }
            return cache
        }
        // Answers that cannot be read are asked again and stored anew: the cache is only a cache.
        return SymbolCache { uuid in Self.answers((try? readers.symbolAnswers(uuid: uuid)) ?? []) }
    }

    /// The statement that reads the stored answers for one image UUID.
    static let symbolAnswersSQL = "SELECT address, backend, locations_json FROM symbol_cache WHERE uuid = ?"

    /// One stored answer as its row holds it: the address, the back end, and the locations as JSON.
    typealias StoredAnswer = (address: Int64, backend: String, json: String)

    /// The answer of a row of `symbol_cache`; `nil` when a column cannot be read.
    private static func storedAnswer(_ row: Row) -> StoredAnswer? {
        guard let address = row["address"] as Int64?, let backend = row["backend"] as String?,
            let json = row["locations_json"] as String?
        else { return nil }
        return (address, backend, json)
    }

    /// The answers of stored rows, by address. A row whose locations cannot be read is left out: the address is asked
    /// again and stored anew.
    private static func answers(_ rows: [StoredAnswer]) -> [UInt64: SymbolCache.Result] {
        let decoder = JSONDecoder()
        var answers: [UInt64: SymbolCache.Result] = [:]
        answers.reserveCapacity(rows.count)
        for row in rows {
            guard
                let locations = IndexJSON.locations(fromJSON: row.json)
                    ?? (try? decoder.decode([SourceLocation].self, from: Data(row.json.utf8)))
            else { continue }
            answers[UInt64(bitPattern: row.address)] = SymbolCache.Result(backend: row.backend, locations: locations)
        }
        return answers
    }

    /// Stores the answers the cache gained since it was loaded, in one transaction.
    public func saveSymbolCache(_ cache: SymbolCache) async throws {
        let entries = cache.takeNewEntries()
        guard !entries.isEmpty else { return }
        try await write { db in
            for entry in entries {
                let json = IndexJSON.text(entry.result.locations)
                try db.cachedStatement(
                    sql: """
                        INSERT OR REPLACE INTO symbol_cache (uuid, address, backend, locations_json)
                        VALUES (?, ?, ?, ?)
                        """
                ).execute(arguments: [entry.uuid, Int64(bitPattern: entry.address), entry.result.backend, json])
            }
        }
    }
}

extension IndexStore {
    /// What earlier scans learned of the files in the symbol folders.
    public func loadDebugFiles() async throws -> [String: DebugFileIndex.KnownFile] {
        let decoder = JSONDecoder()
        return try await queue.read { db in
            // Row by row, columns by position, the table sized once: a symbol folder kept for a year has thousands of
            // files, and the run's first crashes wait for them (5,000 dSYMs: 23 ms through `fetchAll` and names).
            var files: [String: DebugFileIndex.KnownFile] = [:]
            files.reserveCapacity(try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM debug_files") ?? 0)
            let rows = try Row.fetchCursor(db, sql: "SELECT path, size, modified, entries_json FROM debug_files")
            while let row = try rows.next() {
                let json: String = row[3]
                let entries =
                    try DebugFileIndex.Entry.entries(fromJSON: json)
                    ?? decoder.decode([DebugFileIndex.Entry].self, from: Data(json.utf8))
                files[row[0]] = DebugFileIndex.KnownFile(size: row[1], modified: row[2], entries: entries)
            }
            return files
        }
    }

    /// Makes what is known of the symbol folders' files this scan's, `known` being what the index held: only the
    /// files that appeared, changed or went away are written. A folder kept for a year holds thousands of debug
    /// files, and rewriting every row each run cost more than walking the folder.
    public func saveDebugFiles(
        _ files: [String: DebugFileIndex.KnownFile], replacing known: [String: DebugFileIndex.KnownFile]
    ) async throws {
        let gone = known.keys.filter { files[$0] == nil }
        let changed = files.filter { known[$0.key] != $0.value }
        guard !gone.isEmpty || !changed.isEmpty else { return }
        try await write { db in
            for path in gone {
                try db.cachedStatement(sql: "DELETE FROM debug_files WHERE path = ?").execute(arguments: [path])
            }
            for (path, file) in changed {
                let json = try IndexJSON.text(file.entries)
                try db.cachedStatement(
                    sql: "INSERT OR REPLACE INTO debug_files (path, size, modified, entries_json) VALUES (?, ?, ?, ?)"
                ).execute(arguments: [path, file.size, file.modified, json])
            }
        }
    }
}
