import CasefileCore
import CasefileStore
import Foundation
import GRDB
import Testing

/// Inputs are committed in batches; each input stays all or nothing inside its batch.
@Suite final class BatchTests {
    private let temporary: TemporaryFolder
    var folder: URL { temporary.url }

    init() throws {
        temporary = try TemporaryFolder("casefile-batch")
    }

    private func input(_ number: Int, sha256: String?) -> IndexedInput {
        IndexedInput(
            record: InputRecord(path: "/inbox/input-\(number).zip", sha256: sha256, kind: "archive"), reports: [],
            notes: [], summaryPaths: [:], failedEntries: [])
    }

    @Test func anotherConnectionSeesABatchOnlyOnceItIsCommitted() async throws {
        let path = folder.appendingPathComponent("index.sqlite").path
        let writer = try IndexStore(path: path, batchLimits: BatchLimits(inputs: 64, seconds: .seconds(3600)))
        let run = try await writer.beginRun(pipeline: "test.toml", inbox: "/inbox", startedAt: Date())
        for number in 1...3 {
            _ = try await writer.record(input(number, sha256: String(repeating: "\(number)", count: 64)), run: run)
        }
        let reader = try IndexStore(path: path)
        #expect(try reader.count(.inputs) == 0)
        // The writer's own connection sees its open batch.
        #expect(try writer.count(.inputs) == 3)
        try await writer.commitBatch()
        #expect(try reader.count(.inputs) == 3)
    }

    @Test func aFailingInputLeavesTheRestOfItsBatch() async throws {
        let path = folder.appendingPathComponent("index.sqlite").path
        let writer = try IndexStore(path: path)
        let run = try await writer.beginRun(pipeline: "test.toml", inbox: "/inbox", startedAt: Date())
        _ = try await writer.record(input(1, sha256: String(repeating: "a", count: 64)), run: run)
        // No content hash: the store refuses the input inside its savepoint.
        await #expect(throws: StoreError.self) { try await writer.record(self.input(2, sha256: nil), run: run) }
        _ = try await writer.record(input(3, sha256: String(repeating: "c", count: 64)), run: run)
        try await writer.finishRun(run, summary: RunSummary(runID: run), finishedAt: Date())
        let reader = try IndexStore(path: path)
        #expect(try reader.count(.inputs) == 2)
    }

    /// An input that fails part-way leaves none of its rows: here a trigger the test adds refuses the `.ips` crash
    /// row of the second input, after its input and report rows were written. The inputs around it in the batch stay.
    @Test func anInputThatFailsPartWayLeavesNoRows() async throws {
        let path = folder.appendingPathComponent("index.sqlite").path
        let writer = try IndexStore(path: path, batchLimits: BatchLimits(inputs: 64, seconds: .seconds(3600)))
        let run = try await writer.beginRun(pipeline: "test.toml", inbox: "/inbox", startedAt: Date())
        let first = try ReportCopiesTests.input("Crashes/cart-total-iphone11-ios15.crash", at: "/inbox/a.crash")
        let second = try ReportCopiesTests.input("Crashes/image-cache-iphone15-ios17.ips", at: "/inbox/b.ips")
        let third = input(3, sha256: String(repeating: "c", count: 64))
        // Added before the batch opens (the open batch holds the index's write lock): only the `.ips` crash is refused.
        try await DatabaseQueue(path: path).write { db in
            try db.execute(
                sql: """
                    CREATE TRIGGER refuse_ips BEFORE INSERT ON crashes WHEN NEW.format = 'ips'
                    BEGIN SELECT RAISE(ABORT, 'refused by the test'); END
                    """)
        }
        _ = try await writer.record(first, run: run)
        await #expect(throws: (any Error).self) { try await writer.record(second, run: run) }
        _ = try await writer.record(third, run: run)
        try await writer.finishRun(run, summary: RunSummary(runID: run), finishedAt: Date())
        let reader = try IndexStore(path: path)
        // The first input and its report and crash, and the third input (no reports): nothing of the second.
        #expect(try reader.count(.inputs) == 2)
        #expect(try reader.count(.reports) == 1)
        #expect(try reader.count(.crashes) == 1)
        #expect(try await reader.knownReports([second.reports[0].id]) == [])
    }

    @Test func aFullBatchIsCommittedWithoutWaitingForTheRunToEnd() async throws {
        let path = folder.appendingPathComponent("index.sqlite").path
        // No time bound: however slow the machine, only the count commits.
        let writer = try IndexStore(path: path, batchLimits: BatchLimits(inputs: 64, seconds: .seconds(3600)))
        let run = try await writer.beginRun(pipeline: "test.toml", inbox: "/inbox", startedAt: Date())
        // 64 inputs fill a batch; the 65th opens the next one.
        for number in 1...65 {
            let sha256 = String(repeating: "0", count: 60) + String(format: "%04x", number)
            _ = try await writer.record(input(number, sha256: sha256), run: run)
        }
        let reader = try IndexStore(path: path)
        #expect(try reader.count(.inputs) == 64)
    }
}
