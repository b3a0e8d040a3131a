public import CasefileCore
import Foundation
import GRDB

extension IndexStore {
    /// The symbolication answers stored by earlier runs.
    public func loadSymbolCache() async throws -> SymbolCache {
        let decoder = JSONDecoder()
        let entries = try await queue.read { db in
            try Row.fetchAll(db, sql: "SELECT uuid, address, backend, locations_json FROM symbol_cache").map { row in
                let address: Int64 = row["address"]
                let json: String = row["locations_json"]
                let locations = try decoder.decode([SourceLocation].self, from: Data(json.utf8))
                return SymbolCache.Entry(
                    uuid: row["uuid"], address: UInt64(bitPattern: address),
                    result: SymbolCache.Result(backend: row["backend"], locations: locations))
            }
        }
        let cache = SymbolCache()
        cache.insert(entries, persist: false)
        return cache
    }

    /// Stores the answers the cache gained since it was loaded, in one transaction.
    public func saveSymbolCache(_ cache: SymbolCache) async throws {
        let entries = cache.takeNewEntries()
        guard !entries.isEmpty else { return }
        try await write { db in
            for entry in entries {
                let json = try IndexJSON.text(entry.result.locations)
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
            var files: [String: DebugFileIndex.KnownFile] = [:]
            for row in try Row.fetchAll(db, sql: "SELECT path, size, modified, entries_json FROM debug_files") {
                let json: String = row["entries_json"]
                let entries = try decoder.decode([DebugFileIndex.Entry].self, from: Data(json.utf8))
                files[row["path"]] = DebugFileIndex.KnownFile(
                    size: row["size"], modified: row["modified"], entries: entries)
            }
            return files
        }
    }

    /// Replaces what is known of the symbol folders' files with this scan's, in one transaction.
    public func saveDebugFiles(_ files: [String: DebugFileIndex.KnownFile]) async throws {
        try await write { db in
            try db.execute(sql: "DELETE FROM debug_files")
            for (path, file) in files {
                let json = try IndexJSON.text(file.entries)
                try db.cachedStatement(
                    sql: "INSERT INTO debug_files (path, size, modified, entries_json) VALUES (?, ?, ?, ?)"
                ).execute(arguments: [path, file.size, file.modified, json])
            }
        }
    }
}
