import CasefileCore
import CasefileStore
import Foundation
import GRDB
import Testing

/// Two inputs of a run can hold copies of one report. The index keeps the more complete copy, or of two as complete
/// the one whose input sorts first, until the run that stored a copy is done; after that a copy stays.
@Suite final class ReportCopiesTests {
    private let temporary: TemporaryFolder
    var output: URL { temporary.url }
    var database: URL { output.appendingPathComponent("index.sqlite") }

    init() throws {
        temporary = try TemporaryFolder("casefile-copies")
    }

    /// `SampleReports/Crashes/truncated-header-only.crash`: the first 17 lines of the Apple report of incident
    /// 7E2D9B40-…, header only. `cart-total-iphone11-ios15.crash` is the whole report (its threads and images).
    static let truncated = "Crashes/truncated-header-only.crash"
    static let complete = "Crashes/cart-total-iphone11-ios15.crash"

    /// The sample at `sample`, read as a run reads it, as if found in the inbox at `path`.
    static func input(_ sample: String, at path: String) throws -> IndexedInput {
        try input(Samples.folder.appendingPathComponent(sample), at: path)
    }

    /// The file at `url`, read as a run reads it, as if found in the inbox at `path`.
    static func input(_ url: URL, at path: String) throws -> IndexedInput {
        let output = try Triage().reports(at: url.path)
        var reports = output.reports
        for index in reports.indices { reports[index].source.input = path }
        return IndexedInput(
            record: InputRecord(path: path, sha256: try ContentHash.of(url), kind: "file"), reports: reports,
            notes: output.notes,
            summaryPaths: Dictionary(uniqueKeysWithValues: reports.map { ($0.id, "reports/\($0.shortID).md") }))
    }

    /// Indexes `inputs` in one run, in the order given, and returns what each gave.
    func index(_ inputs: [IndexedInput], _ store: IndexStore) async throws -> [IndexOutcome] {
        let run = try await store.beginRun(pipeline: "test", inbox: "inbox", startedAt: Date())
        var outcomes: [IndexOutcome] = []
        for input in inputs {
            outcomes.append(try await store.record(input, run: run))
        }
        try await store.finishRun(run, summary: RunSummary(runID: run), finishedAt: Date())
        return outcomes
    }

    /// Each report's input, its number of frame rows, and every group with its count, as the index holds them.
    func state() async throws -> (reports: [String], frames: Int, groups: [String], links: [String]) {
        try await DatabaseQueue(path: database.path).read { db in
            (
                try String.fetchAll(
                    db, sql: "SELECT r.id || ' ' || i.path FROM reports r JOIN inputs i ON i.id = r.input_id ORDER BY 1"
                ),
                try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM crash_frames") ?? -1,
                try String.fetchAll(db, sql: "SELECT fingerprint || ' ' || occurrences FROM groups ORDER BY 1"),
                try String.fetchAll(
                    db,
                    sql: "SELECT i.path FROM report_inputs l JOIN inputs i ON i.id = l.input_id ORDER BY 1")
            )
        }
    }

    @Test func aMoreCompleteCopyReplacesATruncatedOneAndItsGroup() async throws {
        let truncated = try Self.input(Self.truncated, at: "inbox/z-truncated.crash")
        let complete = try Self.input(Self.complete, at: "inbox/a-complete.crash")
        let id = try #require(complete.reports.first?.id)
        #expect(truncated.reports.map(\.id) == [id])
        #expect(truncated.reports[0].completeness < complete.reports[0].completeness)

        // The complete copy alone, for what the index should hold in the end.
        _ = try await index([complete], try IndexStore(path: database.path))
        let expected = try await state()
        #expect(expected.reports == ["\(id) inbox/a-complete.crash"])
        #expect(expected.frames > 0)
        #expect(expected.groups.count == 1)
        try FileManager.default.removeItem(at: database)

        // The truncated copy first, keyed into a group of its own; then the complete one, in the same run.
        let outcomes = try await index([truncated, complete], try IndexStore(path: database.path))
        #expect(outcomes[0].newReportIDs == [id])
        #expect(outcomes[1].replacedReportIDs == [id])
        #expect(outcomes[1].replacedCoverage == [id: SymbolCoverage(truncated.reports[0])])
        #expect(outcomes[1].newReportIDs.isEmpty && outcomes[1].duplicateReportIDs.isEmpty)
        let after = try await state()
        #expect(after.reports == expected.reports)
        #expect(after.frames == expected.frames)
        // The writer made the replacing copy's blob itself (a run makes blobs only for reports the index does not
        // hold): the complete report's two threads ("Thread 0 Crashed:", "Thread 1:") and four binary images.
        let store = try IndexStore(path: database.path)
        let crash = try #require(try store.crashes(reportID: id).first)
        let detail = try store.crashDetail(crashID: crash.id)
        #expect(detail.threads.map(\.index) == [0, 1])
        #expect(detail.images.map(\.name) == ["ShopApp", "UIKitCore", "dyld", "libsystem_pthread.dylib"])
        // The truncated copy's group, which it alone was in, is gone; the complete copy's counts once.
        #expect(after.groups == expected.groups)
        // Both inputs still hold the report.
        #expect(after.links == ["inbox/a-complete.crash", "inbox/z-truncated.crash"])
        let counts = try await DatabaseQueue(path: database.path).read { db in try OccurrenceCountsTests.counts(db) }
        #expect(counts.kept == counts.counted)
        #expect(!counts.kept.isEmpty)
    }

    @Test func aLessCompleteCopyIsADuplicate() async throws {
        let complete = try Self.input(Self.complete, at: "inbox/z-complete.crash")
        _ = try await index([complete], try IndexStore(path: database.path))
        let expected = try await state()
        try FileManager.default.removeItem(at: database)

        let truncated = try Self.input(Self.truncated, at: "inbox/a-truncated.crash")
        let outcomes = try await index([complete, truncated], try IndexStore(path: database.path))
        #expect(outcomes[1].duplicateReportIDs == complete.reports.map(\.id))
        #expect(outcomes[1].replacedReportIDs.isEmpty)
        let after = try await state()
        #expect(after.reports == expected.reports)
        #expect(after.frames == expected.frames)
        #expect(after.groups == expected.groups)
        #expect(after.links == ["inbox/a-truncated.crash", "inbox/z-complete.crash"])
    }

    @Test func ofTwoAsCompleteCopiesTheInputThatSortsFirstIsKept() async throws {
        // The complete report and a copy with one more line break at its end: another file, the same report.
        let sample = Samples.folder.appendingPathComponent(Self.complete)
        let copy = output.appendingPathComponent("copy.crash")
        try (String(contentsOf: sample, encoding: .utf8) + "\n").write(to: copy, atomically: true, encoding: .utf8)
        let later = try Self.input(sample, at: "inbox/b.crash")
        let earlier = try Self.input(copy, at: "inbox/a.crash")
        #expect(later.record.sha256 != earlier.record.sha256)
        #expect(later.reports.map(\.id) == earlier.reports.map(\.id))
        #expect(later.reports.map(\.completeness) == earlier.reports.map(\.completeness))

        let outcomes = try await index([later, earlier], try IndexStore(path: database.path))
        #expect(outcomes[1].replacedReportIDs == later.reports.map(\.id))
        // The replaced copy's symbol coverage, as the writer counted it (no symbolicator: app frames, none named).
        let counted = SymbolCoverage(later.reports[0])
        #expect(counted.inAppFrames > 0)
        #expect(outcomes[1].replacedCoverage == [later.reports[0].id: counted])
        let kept = try await state()
        #expect(kept.reports == later.reports.map { "\($0.id) inbox/a.crash" })
        try FileManager.default.removeItem(at: database)

        // The other way round, the stored copy stays.
        let reversed = try await index([earlier, later], try IndexStore(path: database.path))
        #expect(reversed[1].duplicateReportIDs == later.reports.map(\.id))
        #expect(try await state().reports == kept.reports)
        try FileManager.default.removeItem(at: database)

        // The coverage the run counted for a copy is what the index gives back when the copy is replaced.
        var prepared = later
        let coverage = SymbolCoverage(
            inAppFrames: 9, inAppSymbolicated: 7,
            missing: [
                RunDigest.MissingImage(name: "UIKitCore", uuid: "b5ab5a73-2f3c-3a6e-9d2f-6a41c53e8b11", frames: 3)
            ])
        prepared.encodeSymbolCoverage([later.reports[0].id: coverage])
        let replaced = try await index([prepared, earlier], try IndexStore(path: database.path))
        #expect(replaced[1].replacedCoverage == [later.reports[0].id: coverage])
    }

    @Test func aCopyStaysOnceTheRunThatStoredItIsDone() async throws {
        let store = try IndexStore(path: database.path)
        _ = try await index([try Self.input(Self.truncated, at: "inbox/truncated.crash")], store)
        let before = try await state()
        #expect(before.reports.count == 1)

        let outcomes = try await index([try Self.input(Self.complete, at: "inbox/complete.crash")], store)
        #expect(outcomes[0].duplicateReportIDs.count == 1)
        #expect(outcomes[0].replacedReportIDs.isEmpty)
        let after = try await state()
        #expect(after.reports == before.reports)
        #expect(after.frames == before.frames)
        #expect(after.groups == before.groups)
    }

    /// The copies a run only links to the input holding them again (``IndexStore/settledReports(_:)``) are those no
    /// other copy replaces: a copy of a run that is done, or one stored before copies were compared; not one of the
    /// asking run, nor of a killed run whose work no run finished.
    @Test func settledReportsAreTheCopiesNoOtherCopyReplaces() async throws {
        // A commit after each input, so the run's own copy is what the index's readers see.
        let store = try IndexStore(path: database.path, batchLimits: BatchLimits(inputs: 1, seconds: .seconds(3600)))
        let truncated = try Self.input(Self.truncated, at: "inbox/truncated.crash")
        let id = try #require(truncated.reports.first?.id)
        let run = try await store.beginRun(pipeline: "test", inbox: "inbox", startedAt: Date())
        _ = try await store.record(truncated, run: run)
        #expect(try await store.knownReports([id, "unknown"]) == [id])
        #expect(try await store.settledReports([id, "unknown"]).isEmpty)
        try await store.finishRun(run, summary: RunSummary(runID: run), finishedAt: Date())
        #expect(try await store.settledReports([id, "unknown"]) == [id])

        // As if the run was killed after its commit.
        let queue = try DatabaseQueue(path: database.path)
        try await queue.write { db in try db.execute(sql: "UPDATE runs SET finished_at = NULL") }
        #expect(try await store.settledReports([id]).isEmpty)
        // A copy stored before copies were compared stays, whatever its run.
        try await queue.write { db in try db.execute(sql: "UPDATE reports SET completeness = NULL") }
        #expect(try await store.settledReports([id]) == [id])

        // An index in memory answers on its writer's queue, alike.
        let memory = try IndexStore.inMemory()
        let first = try await memory.beginRun(pipeline: "test", inbox: "inbox", startedAt: Date())
        _ = try await memory.record(truncated, run: first)
        #expect(try await memory.settledReports([id]).isEmpty)
        try await memory.finishRun(first, summary: RunSummary(runID: first), finishedAt: Date())
        #expect(try await memory.settledReports([id]) == [id])
    }

    @Test func aCopyAKilledRunStoredIsReplacedWithoutTakingItOffThisRunsDigest() async throws {
        let store = try IndexStore(path: database.path)
        _ = try await index([try Self.input(Self.truncated, at: "inbox/z-truncated.crash")], store)
        // As if that run was killed after its commit: it never finished, and no run has finished its work yet.
        try await DatabaseQueue(path: database.path).write { db in
            try db.execute(sql: "UPDATE runs SET finished_at = NULL")
        }
        let complete = try Self.input(Self.complete, at: "inbox/a-complete.crash")
        let outcomes = try await index([complete], store)
        #expect(outcomes[0].replacedReportIDs == complete.reports.map(\.id))
        // The killed run's copy was never in this run's digest: nothing to take off.
        #expect(outcomes[0].replacedCoverage.isEmpty)
        #expect(try await state().reports == complete.reports.map { "\($0.id) inbox/a-complete.crash" })
    }

    @Test(arguments: [false, true])
    func ofTwoCopiesInOneInputTheMoreCompleteIsKeptAndTheOtherIsADuplicate(truncatedFirst: Bool) async throws {
        // A zip holding the truncated copy and the complete report: one input, the same report twice.
        let truncated = try Self.input(Self.truncated, at: "inbox/both.zip")
        let complete = try Self.input(Self.complete, at: "inbox/both.zip")
        _ = try await index([complete], try IndexStore(path: database.path))
        let expected = try await state()
        let id = try #require(complete.reports.first?.id)
        try FileManager.default.removeItem(at: database)

        var both = complete
        both.reports = truncatedFirst ? truncated.reports + complete.reports : complete.reports + truncated.reports
        // As the run prepares an input: its blobs and events are the kept copy's.
        both.encodeCrashDetails()
        both.encodeEventDetails()
        let store = try IndexStore(path: database.path)
        let outcomes = try await index([both], store)
        #expect(outcomes[0].newReportIDs == [id])
        #expect(outcomes[0].duplicateReportIDs == [id])
        #expect(outcomes[0].replacedReportIDs.isEmpty)
        let after = try await state()
        #expect(after.reports == expected.reports)
        #expect(after.frames == expected.frames)
        #expect(after.groups == expected.groups)
        let counts = try await DatabaseQueue(path: database.path).read { db in try OccurrenceCountsTests.counts(db) }
        #expect(counts.kept == counts.counted)
        // Every thread of the complete report is in its crash's blob.
        let crash = try #require(try store.crashes(reportID: id).first)
        #expect(try store.crashDetail(crashID: crash.id).threads.count == complete.reports[0].crashes[0].threads.count)
        #expect(complete.reports[0].crashes[0].threads.count > 1)
    }
}
