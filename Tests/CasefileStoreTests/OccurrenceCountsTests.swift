import CasefileCore
import CasefileStore
import Foundation
import GRDB
import Logging
import Testing

/// A group page's counts by app version, OS version and device come from `occurrence_counts`, which triggers keep.
/// Each must equal counting `occurrences` itself, however the occurrences were written, moved or deleted.
@Suite final class OccurrenceCountsTests {
    private let temporary: TemporaryFolder
    var output: URL { temporary.url }
    var database: URL { output.appendingPathComponent("index.sqlite") }

    init() throws {
        temporary = try TemporaryFolder("casefile-counts")
    }

    /// The samples indexed: 30 groups of crashes and failures from a dozen app versions, OS versions and devices.
    func indexedSamples() async throws -> IndexStore {
        try await Samples.indexed(into: database, output: output, ignore: ["*.md", "Symbols", "Hostile"])
    }

    /// Every count as `occurrence_counts` holds it and as counting `occurrences` gives it, one line per group,
    /// dimension and value.
    static func counts(_ db: Database) throws -> (kept: [String], counted: [String]) {
        let kept = try String.fetchAll(
            db,
            sql: """
                SELECT group_id || ' ' || dimension || ' ' || value || ' ' || n FROM occurrence_counts
                ORDER BY group_id, dimension, value
                """)
        let counted = try String.fetchAll(
            db,
            sql: ["app_version", "os_version", "device_model"].map { column in
                """
                SELECT group_id AS g, '\(column)' AS d, \(column) AS v, COUNT(*) AS n FROM occurrences
                WHERE \(column) IS NOT NULL GROUP BY group_id, \(column)
                """
            }.joined(separator: " UNION ALL ").wrappedForOrdering)
        return (kept, counted)
    }

    @Test func equalCountingTheOccurrencesAfterARunAMergeAndDeletions() async throws {
        let store = try await indexedSamples()
        let queue = try DatabaseQueue(path: database.path)
        let afterRun = try await queue.read { db in try Self.counts(db) }
        #expect(afterRun.kept.count > 20)
        #expect(afterRun.kept == afterRun.counted)

        // The two largest groups merged: the target's counts add up, the source has none left.
        let largest = try store.groups().sorted { $0.occurrences > $1.occurrences }.prefix(2).map(\.id)
        try store.merge(largest[1], into: largest[0])
        let afterMerge = try await queue.read { db in try Self.counts(db) }
        #expect(afterMerge.kept == afterMerge.counted)
        #expect(!afterMerge.kept.contains { $0.hasPrefix("\(largest[1]) ") })

        // Occurrences deleted one by one (as deleting their report cascades): counts go down, and a value no
        // occurrence has any more goes away.
        try await queue.write { db in
            try db.execute(sql: "DELETE FROM occurrences WHERE id IN (SELECT id FROM occurrences ORDER BY id LIMIT 7)")
        }
        let afterDelete = try await queue.read { db in try Self.counts(db) }
        #expect(afterDelete.kept == afterDelete.counted)
        #expect(afterDelete.kept != afterMerge.kept)
    }

    @Test func countsInputsOfManyReportsOfOneGroup() async throws {
        // Two inputs of five copies each of one crash (ShopApp 2.3.1 (412), iOS 16.5, iPhone14,2, as the report
        // says): the second input's five add to the counts the first made.
        let repository = Samples.repository
        let path = repository.appendingPathComponent("SampleReports/Crashes/cart-total-iphone14-ios16.ips").path
        let crash = try #require(try Triage().reports(at: path).reports.first?.crashes.first)
        let store = try IndexStore(path: database.path)
        let run = try await store.beginRun(pipeline: "test.toml", inbox: "inbox", startedAt: Date())
        for input in 0..<2 {
            let reports = (0..<5).map { copy in
                Fingerprinter().fingerprint(
                    Report(
                        id: String(format: "%064x", input * 100 + copy), format: .ips,
                        source: ReportSource(input: "input-\(input)", root: ""), crashes: [crash]))
            }
            let record = InputRecord(path: "input-\(input)", sha256: String(format: "%064x", input), kind: "file")
            _ = try await store.record(
                IndexedInput(record: record, reports: reports, notes: [], summaryPaths: [:]), run: run)
        }
        let queue = try DatabaseQueue(path: database.path)
        let counts = try await queue.read { db in try Self.counts(db) }
        #expect(counts.kept == counts.counted)
        let group = try #require(try store.groups().first)
        #expect(group.occurrences == 10)
        let detail = try #require(try store.groupDetail(id: group.id))
        #expect(detail.appVersionCounts == [BugGroupDetail.Count(value: "2.3.1 (412)", count: 10)])
        #expect(detail.osVersions == [BugGroupDetail.Count(value: "16.5", count: 10)])
        #expect(detail.devices == [BugGroupDetail.Count(value: "iPhone14,2", count: 10)])
    }

    /// One report holding one crash three times, and then, after the group is resolved in 2.4.0, a report holding it
    /// twice in 2.3.1 (older: no regression) and twice in 2.4.0 (412) (the fixed version: a regression). Each occurrence
    /// counts, and the status moves at the first that regresses it.
    @Test func countsEveryOccurrenceOfAReportInItsGroup() async throws {
        let repository = Samples.repository
        let path = repository.appendingPathComponent("SampleReports/Crashes/cart-total-iphone14-ios16.ips").path
        let crash = try #require(try Triage().reports(at: path).reports.first?.crashes.first)
        var fixed = crash
        fixed.app.version = "2.4.0"
        let store = try IndexStore(path: database.path)
        let run = try await store.beginRun(pipeline: "test.toml", inbox: "inbox", startedAt: Date())
        func record(_ number: Int, crashes: [Crash]) async throws {
            let report = Fingerprinter().fingerprint(
                Report(
                    id: String(format: "%064x", number), format: .ips,
                    source: ReportSource(input: "input-\(number)", root: ""), crashes: crashes))
            let record = InputRecord(path: "input-\(number)", sha256: String(format: "%064x", number), kind: "file")
            _ = try await store.record(
                IndexedInput(record: record, reports: [report], notes: [], summaryPaths: [:]), run: run)
        }
        try await record(1, crashes: [crash, crash, crash])
        let group = try #require(try store.groups().first)
        #expect(try store.groups().count == 1)
        #expect(group.occurrences == 3)
        #expect(group.status == .new)
        try store.resolve(groupID: group.id, inVersion: "2.4.0")
        try await record(2, crashes: [crash, fixed, crash, fixed])
        let after = try #require(try store.groups().first)
        #expect(after.occurrences == 7)
        #expect(after.status == .regressed)
        #expect(after.regressedInVersion == "2.4.0 (412)")
        // Committed, for another connection to read.
        try await store.finishRun(run, summary: RunSummary(runID: run), finishedAt: Date())
        let queue = try DatabaseQueue(path: database.path)
        let rows = try await queue.read { db in
            try String.fetchAll(
                db, sql: "SELECT report_id || ' ' || seq || ' ' || app_version FROM occurrences ORDER BY id")
        }
        let (first, second) = (String(format: "%064x", 1), String(format: "%064x", 2))
        #expect(
            rows == [
                "\(first) 0 2.3.1 (412)", "\(first) 1 2.3.1 (412)", "\(first) 2 2.3.1 (412)",
                "\(second) 0 2.3.1 (412)", "\(second) 1 2.4.0 (412)", "\(second) 2 2.3.1 (412)",
                "\(second) 3 2.4.0 (412)",
            ])
        let counts = try await queue.read { db in try Self.counts(db) }
        #expect(counts.kept == counts.counted)
    }

    /// A group resolved "in 2.4.0" stays resolved when 2.3.5 reports it — newer than any version seen before the
    /// resolve, but older than the fix — and regresses when 2.4.0 does.
    @Test func aGroupResolvedInAVersionRegressesFromThatVersionOn() async throws {
        let repository = Samples.repository
        let path = repository.appendingPathComponent("SampleReports/Crashes/cart-total-iphone14-ios16.ips").path
        let crash = try #require(try Triage().reports(at: path).reports.first?.crashes.first)
        #expect(crash.app.version == "2.3.1")
        let store = try IndexStore(path: database.path)
        let run = try await store.beginRun(pipeline: "test.toml", inbox: "inbox", startedAt: Date())
        func record(_ number: Int, version: String) async throws -> BugGroup {
            var copy = crash
            copy.app.version = version
            let report = Fingerprinter().fingerprint(
                Report(
                    id: String(format: "%064x", number), format: .ips,
                    source: ReportSource(input: "input-\(number)", root: ""), crashes: [copy]))
            let record = InputRecord(path: "input-\(number)", sha256: String(format: "%064x", number), kind: "file")
            _ = try await store.record(
                IndexedInput(record: record, reports: [report], notes: [], summaryPaths: [:]), run: run)
            return try #require(try store.groups().first)
        }
        let group = try await record(1, version: "2.3.1")
        try store.resolve(groupID: group.id, inVersion: "2.4.0")
        #expect(try await record(2, version: "2.3.5").status == .resolved)
        let fixed = try await record(3, version: "2.4.0")
        #expect(fixed.status == .regressed)
        #expect(fixed.regressedInVersion == "2.4.0 (412)")
    }

    @Test func aGroupPageReadsTheKeptCounts() async throws {
        let store = try await indexedSamples()
        let group = try #require(try store.groups().max { $0.occurrences < $1.occurrences })
        let detail = try #require(try store.groupDetail(id: group.id))
        let queue = try DatabaseQueue(path: database.path)
        let versions = try await queue.read { db in
            try Row.fetchAll(
                db,
                sql: """
                    SELECT app_version, COUNT(*) AS n FROM occurrences WHERE group_id = ? AND app_version IS NOT NULL
                    GROUP BY app_version ORDER BY n DESC, app_version
                    """, arguments: [group.id]
            ).map { BugGroupDetail.Count(value: $0["app_version"], count: $0["n"]) }
        }
        #expect(!versions.isEmpty)
        #expect(detail.appVersionCounts == versions)
    }

    @Test func theMigrationCountsAnOlderIndexsOccurrences() async throws {
        _ = try await indexedSamples()
        // The index as Casefile left it before v13: no counts table, no triggers, the migrations not recorded.
        let queue = try DatabaseQueue(path: database.path)
        try await queue.write { db in
            try db.execute(sql: "DROP TABLE occurrence_counts")
            for trigger in ["delete", "update"] {
                try db.execute(sql: "DROP TRIGGER occurrence_counts_after_\(trigger)")
            }
            try db.execute(sql: "DELETE FROM grdb_migrations WHERE identifier LIKE 'v13-%' OR identifier LIKE 'v14-%'")
        }
        let reopened = try IndexStore(path: database.path)
        #expect(
            try reopened.appliedMigrations().suffix(9) == [
                "v13-occurrence-counts", "v14-occurrence-counts-by-input", "v15-group-title-input",
                "v16-occurrences-by-run", "v17-report-completeness", "v18-image-sets", "v19-group-order",
                "v20-event-details", "v21-row-ids-without-autoincrement",
            ])
        let migrated = try await queue.read { db in try Self.counts(db) }
        #expect(migrated.kept.count > 20)
        #expect(migrated.kept == migrated.counted)
        // The writer counts what it inserts; only moving and deleting are left to triggers.
        let triggers = try await queue.read { db in
            try String.fetchAll(db, sql: "SELECT name FROM sqlite_master WHERE type = 'trigger' ORDER BY name")
        }
        #expect(triggers == ["occurrence_counts_after_delete", "occurrence_counts_after_update"])
    }
}

extension String {
    /// A compound query of `(g, d, v, n)` rows as lines ordered like `occurrence_counts`' primary key.
    fileprivate var wrappedForOrdering: String {
        "SELECT g || ' ' || d || ' ' || v || ' ' || n FROM (\(self)) ORDER BY g, d, v"
    }
}
