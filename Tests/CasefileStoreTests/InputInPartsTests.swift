import CasefileCore
import CasefileStore
import Foundation
import GRDB
import Synchronization
import Testing

/// An input of many crash files read and stored a part at a time (`[limits] reports_per_part`): the same rows,
/// summaries and counts as the input read whole, in one savepoint all the same.
///
/// The fixture is `Tests/Fixtures/Archives/many-crashes.zip` (`Scripts/make-parts-fixture.py`): 26 files that are
/// crash reports of 19 incidents (the 20 loose samples of `SampleReports/Crashes/`, the two `mailed-crashes.zip` nests,
/// a first copy of cart-total-iphone11-ios15.crash cut before its binary images, that file again under `mail/`,
/// a byte copy of cart-total-iphone14-ios16.ips, and `broken/truncated-body.ips`, a copy of image-cache-iphone15-ios17's
/// incident), one damaged KSCrash file, an app log and a text file.
@Suite final class InputInPartsTests {
    let folder: URL
    let inbox: URL

    init() throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("casefile-parts-\(UUID().uuidString)")
        inbox = folder.appendingPathComponent("inbox")
        try FileManager.default.createDirectory(at: inbox, withIntermediateDirectories: true)
        try FileManager.default.copyItem(
            at: Samples.repository.appendingPathComponent("Tests/Fixtures/Archives/many-crashes.zip"),
            to: inbox.appendingPathComponent("many-crashes.zip"))
    }

    deinit {
        try? FileManager.default.removeItem(at: folder)
    }

    /// Runs the pipeline over the inbox into `name/`, with the sample symbols and parts of `reportsPerPart`; with
    /// `inMemory`, into an index in memory.
    private func run(
        _ name: String, reportsPerPart: Int? = nil, partsPastBytes: Int = 0, inMemory: Bool = false
    ) async throws -> (RunSummary, IndexStore, [String]) {
        try await Self.run(
            name, in: folder, inbox: inbox, reportsPerPart: reportsPerPart, partsPastBytes: partsPastBytes,
            inMemory: inMemory)
    }

    private static func run(
        _ name: String, in folder: URL, inbox: URL, reportsPerPart: Int?, partsPastBytes: Int, inMemory: Bool
    ) async throws -> (RunSummary, IndexStore, [String]) {
        let output = folder.appendingPathComponent(name)
        var definition = PipelineDefinition(
            inbox: inbox, output: output, database: output.appendingPathComponent("casefile.sqlite"),
            symbolFolders: [Samples.folder.appendingPathComponent("Symbols")])
        definition.frames = false
        try FileManager.default.createDirectory(at: output, withIntermediateDirectories: true)
        if let reportsPerPart {
            definition.reportsPerPart = reportsPerPart
            // The fixture's files expand to about 60 KB.
            definition.partsPastBytes = partsPastBytes
        }
        let store = try inMemory ? IndexStore.inMemory() : IndexStore(path: definition.database.path)
        let log = CapturedLog()
        let summary = try await PipelineRunner(definition: definition, logger: log.logger)
            .run(index: store, pipelineName: "test.toml")
        return (summary, store, log.logged)
    }

    /// Every row of every table but the times and the run's own figures, table by table, in the order written. What
    /// the run learned of the symbol folders is not the input's, and is stored in no order: its answers are sorted, its
    /// files left out.
    private func rows(of database: URL) throws -> [String: [String]] {
        let queue = try DatabaseQueue(path: database.path)
        return try queue.read { db in
            var tables: [String: [String]] = [:]
            let names = try String.fetchAll(
                db, sql: "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'")
            for table in names where !["runs", "debug_files"].contains(table) {
                let columns = try Row.fetchAll(db, sql: "PRAGMA table_info(\(table))").map { $0["name"] as String }
                    .filter { !$0.hasSuffix("_at") && !["first_seen", "last_seen"].contains($0) }
                // A table without row ids (the occurrence counts) in the order of its columns.
                let withoutRowID = try Bool.fetchOne(
                    db, sql: "SELECT sql LIKE '%WITHOUT ROWID%' FROM sqlite_master WHERE name = ?", arguments: [table])
                let order =
                    withoutRowID == true ? (1...columns.count).map(String.init).joined(separator: ", ") : "rowid"
                tables[table] = try Row.fetchAll(
                    db, sql: "SELECT \(columns.joined(separator: ", ")) FROM \(table) ORDER BY \(order)"
                ).map(\.description)
                if table == "symbol_cache" { tables[table]?.sort() }
            }
            return tables
        }
    }

    /// The files under `folder`, by path inside it.
    private func files(in folder: URL) throws -> [String: Data] {
        var files: [String: Data] = [:]
        let paths = try FileManager.default.subpathsOfDirectory(atPath: folder.path)
        for path in paths where !path.hasPrefix(".") {
            var isFolder: ObjCBool = false
            let url = folder.appendingPathComponent(path)
            if FileManager.default.fileExists(atPath: url.path, isDirectory: &isFolder), !isFolder.boolValue {
                files[path] = try Data(contentsOf: url)
            }
        }
        return files
    }

    @Test func readInPartsGivesTheRowsSummariesAndCountsOfTheInputReadWhole() async throws {
        let (whole, _, wholeLog) = try await run("whole")
        let (parts, _, partsLog) = try await run("parts", reportsPerPart: 2)

        // The 26 files of crash reports are 19 incidents: 19 new reports and 7 further copies. One entry failed.
        for summary in [whole, parts] {
            #expect(summary.processed == 1 && summary.newReports == 19 && summary.duplicateReports == 7)
            #expect(summary.quarantined.map(\.entry) == ["broken/damaged.json"])
        }
        // 19 reports are more than one part of 2, and fewer than one of 64 (the default).
        #expect(partsLog.contains { $0.contains("19 crash reports (and 7 more copies), read and stored 2 at a time") })
        #expect(!wholeLog.contains { $0.contains("read and stored") })
        // Nor is an input whose files expand to less than the bound for parts (64 MiB unless set).
        let (_, _, smallLog) = try await run("small", reportsPerPart: 2, partsPastBytes: 64 << 20)
        #expect(!smallLog.contains { $0.contains("read and stored") })

        let wholeRows = try rows(of: folder.appendingPathComponent("whole/casefile.sqlite"))
        let partsRows = try rows(of: folder.appendingPathComponent("parts/casefile.sqlite"))
        #expect(wholeRows["crashes"]?.count == 19)
        #expect(wholeRows.keys.sorted() == partsRows.keys.sorted())
        for (table, expected) in wholeRows {
            #expect(partsRows[table] == expected, "\(table)")
        }
        // The summaries byte for byte; the group pages and payloads, which show when each group was seen, by name.
        let expected = try files(in: folder.appendingPathComponent("whole/reports"))
        #expect(expected.count == 19)
        #expect(try files(in: folder.appendingPathComponent("parts/reports")) == expected)
        for pages in ["groups", "outbox"] {
            let names = try files(in: folder.appendingPathComponent("whole/\(pages)")).keys.sorted()
            #expect(!names.isEmpty)
            #expect(try files(in: folder.appendingPathComponent("parts/\(pages)")).keys.sorted() == names, "\(pages)")
        }
    }

    /// An index in memory has no readers: were its symbol cache to read stored answers through the writer, a part
    /// enriched ahead of the writer would wait for it forever. Its cache holds every stored answer once loaded.
    @Test func anIndexInMemoryStoresItsPartsEnrichedAsTheWholeInput() async throws {
        let (whole, _, _) = try await run("whole")
        // Waited for a minute at most: a run that waits for itself fails here, not the whole test run.
        let inMemory = await withCheckedContinuation { continuation in
            let answered = Mutex(false)
            let answer = { @Sendable (ran: (RunSummary, [String])?) in
                let first = answered.withLock { done in
                    defer { done = true }
                    return !done
                }
                if first { continuation.resume(returning: ran) }
            }
            Task { [folder, inbox] in
                let ran = try? await Self.run(
                    "parts", in: folder, inbox: inbox, reportsPerPart: 2, partsPastBytes: 0, inMemory: true)
                answer(ran.map { ($0.0, $0.2) })
            }
            Task {
                try? await Task.sleep(for: .seconds(60))
                answer(nil)
            }
        }
        let (parts, partsLog) = try #require(inMemory)
        #expect(partsLog.contains { $0.contains("read and stored 2 at a time") })
        #expect(parts.newReports == whole.newReports && parts.duplicateReports == whole.duplicateReports)
        // The summaries, symbolicated frames and fingerprints included, byte for byte.
        let expected = try files(in: folder.appendingPathComponent("whole/reports"))
        #expect(expected.count == 19)
        #expect(try files(in: folder.appendingPathComponent("parts/reports")) == expected)
    }

    @Test func theMostCompleteCopyIsStoredInPlaceOfTheFirstAndEveryCopyIsLinked() async throws {
        _ = try await run("parts", reportsPerPart: 2)
        let queue = try DatabaseQueue(path: folder.appendingPathComponent("parts/casefile.sqlite").path)
        try await queue.read { db in
            // The incident of cart-total-iphone11-ios15.crash, as its header names it. Its first copy in the zip was
            // cut before its binary images; the one stored is whole: its frames' images are rows.
            let report = try #require(
                try String.fetchOne(
                    db, sql: "SELECT report_id FROM crashes WHERE incident_id = '7E2D9B40-1C3A-4F5E-8D6B-0A9C8E7F6D51'")
            )
            let images = try Int.fetchOne(
                db,
                sql: """
                    SELECT COUNT(*) FROM crash_images JOIN crashes ON crashes.id = crash_images.crash_id
                    WHERE crashes.report_id = ?
                    """, arguments: [report])
            #expect((images ?? 0) > 0)
            // Four files hold that incident; truncated-header-only.crash names the same incident identifier.
            let roots = try String.fetchAll(
                db, sql: "SELECT root FROM report_inputs WHERE report_id = ? ORDER BY root", arguments: [report])
            #expect(
                roots == [
                    "a-first-copy-truncated.crash", "cart-total-iphone11-ios15.crash",
                    "mail/cart-total-iphone11-ios15.crash", "truncated-header-only.crash",
                ])
            // The first copy's place: the report is the input's first, its row the first written.
            let first = try String.fetchOne(db, sql: "SELECT id FROM reports ORDER BY rowid LIMIT 1")
            #expect(first == report)
            let notes = try String.fetchOne(db, sql: "SELECT notes FROM inputs")
            #expect(
                notes == """
                    entry 'notes.txt': not a recognized report format; ignored
                    entry 'logs/app.log': attachment with no report to attach to; ignored
                    """)
        }
    }

    @Test func anInputWhosePartFailsLeavesNoRowAndTheNextInputIsStored() async throws {
        let store = try IndexStore(path: folder.appendingPathComponent("index.sqlite").path)
        let run = try await store.beginRun(pipeline: "test.toml", inbox: inbox.path, startedAt: Date())
        let sample = Samples.folder.appendingPathComponent("Crashes/cart-total-iphone14-ios16.ips").path
        let reports = try Triage().reports(at: sample).reports
        let record = InputRecord(path: "many.zip", sha256: String(repeating: "a", count: 64), kind: "archive")
        let input = InputInParts(
            record: record, notes: [], failedEntries: [], reportIDs: reports.map(\.id), duplicateCopies: [])
        struct Refused: Error {}
        let asked = Mutex(0)
        await #expect(throws: Refused.self) {
            _ = try await store.record(
                inParts: input, run: run,
                next: {
                    // The first part is stored; the second cannot be read.
                    let count = asked.withLock {
                        $0 += 1
                        return $0
                    }
                    guard count == 1 else { throw Refused() }
                    return IndexedInput(record: record, reports: reports, notes: [], summaryPaths: [:])
                },
                written: { _, _ in })
        }
        #expect(asked.withLock { $0 } == 2)
        let other = InputRecord(path: "one.ips", sha256: String(repeating: "b", count: 64), kind: "file")
        let stored = try await store.record(
            IndexedInput(record: other, reports: reports, notes: [], summaryPaths: [:]), run: run)
        #expect(stored.newReportIDs == reports.map(\.id))
        try await store.commitBatch()
        let queue = try DatabaseQueue(path: folder.appendingPathComponent("index.sqlite").path)
        try await queue.read { db in
            let paths = try String.fetchAll(db, sql: "SELECT path FROM inputs")
            #expect(paths == ["one.ips"])
            let reports = try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM reports")
            #expect(reports == 1)
        }
    }
}
