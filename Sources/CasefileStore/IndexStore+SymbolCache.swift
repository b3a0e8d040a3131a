public import CasefileCore
import Foundation
import GRDB

extension IndexStore {
    /// The symbolication answers stored by earlier runs, read for one image UUID the first time a crash asks about
    /// it.
    ///
    /// Not read whole: an index kept for months holds answers for every build it ever symbolicated (a million rows
    /// took 9 s and 1.2 GB to read at the start of every run, even one with nothing to do).
    public func loadSymbolCache() async throws -> SymbolCache {
        let queue = queue
        return SymbolCache { uuid in Self.storedAnswers(uuid: uuid, queue) }
    }

    /// The stored answers for one image UUID. A row that cannot be read is left out: the cache is only a cache, and
    /// the address is asked again and stored anew. Blocking, through the database queue: the symbolicator asks once
    /// per image and run, from the parallel stages, and the writer never waits for them. Reentrant: an input stored in
    /// parts is symbolicated on the writer's thread, inside its write (``record(inParts:run:next:written:)``).
    private static func storedAnswers(uuid: String, _ queue: DatabaseQueue) -> [UInt64: SymbolCache.Result] {
        let rows =
            (try? queue.unsafeReentrantRead { db in
                try Row.fetchAll(
                    db.cachedStatement(
                        sql: "SELECT address, backend, locations_json FROM symbol_cache WHERE uuid = ?"),
                    arguments: [uuid])
            }) ?? []
        let decoder = JSONDecoder()
        var answers: [UInt64: SymbolCache.Result] = [:]
        answers.reserveCapacity(rows.count)
        for row in rows {
            guard let address = row["address"] as Int64?, let backend = row["backend"] as String?,
                let json = row["locations_json"] as String?,
                let locations = IndexJSON.locations(fromJSON: json)
                    ?? (try? decoder.decode([SourceLocation].self, from: Data(json.utf8)))
            else { continue }
            answers[UInt64(bitPattern: address)] = SymbolCache.Result(backend: backend, locations: locations)
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
