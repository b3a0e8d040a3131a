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

    /// Inputs written from many tasks at once still land whole, in full batches: light ones (no reports here) are
    /// written in place on the asking thread when the writer is idle and handed to it otherwise, heavy ones (a signal
    /// report of 150 frames) always handed over, in whatever order the tasks reach the index.
    @Test func inputsWrittenFromManyTasksAtOnceLandWholeInFullBatches() async throws {
        let path = folder.appendingPathComponent("index.sqlite").path
        let writer = try IndexStore(path: path, batchLimits: BatchLimits(inputs: 64, seconds: .seconds(3600)))
        let run = try await writer.beginRun(pipeline: "test.toml", inbox: "/inbox", startedAt: Date())
        var inputs: [IndexedInput] = []
        for number in 1...150 {
            inputs.append(input(number, sha256: String(repeating: "0", count: 60) + String(format: "%04x", number)))
        }
        for number in 1...30 { inputs.append(try heavyInput(number)) }
        // No content hash: refused inside their savepoints.
        for number in 1...20 { inputs.append(input(1_000 + number, sha256: nil)) }
        let refused = await withTaskGroup(of: Bool.self) { group in
            for input in inputs { group.addTask { (try? await writer.record(input, run: run)) == nil } }
            return await group.reduce(0) { $0 + ($1 ? 1 : 0) }
        }
        #expect(refused == 20)
        let reader = try IndexStore(path: path)
        // 180 inputs stored: two full batches of 64 committed, 52 in the open one.
        #expect(try reader.count(.inputs) == 128)
        try await writer.commitBatch()
        #expect(try reader.count(.inputs) == 180)
        // Each heavy input a report of its own (its first frame at an address of its own), with its crash.
        #expect(try reader.count(.reports) == 30)
        #expect(try reader.count(.crashes) == 30)
    }

    /// The sample in-app signal report with its backtrace replaced by one of 150 frames, the first at an address of
    /// `number`'s own.
    private func heavyInput(_ number: Int) throws -> IndexedInput {
        let sample = try String(
            contentsOf: Samples.folder.appendingPathComponent("Crashes/inapp-signal-sigsegv.txt"), encoding: .utf8)
        let header = try #require(sample.range(of: "Backtrace:\n"))
        let frames = (0..<150).map { index in
            let address = 0x1_04c1_0000 + 0x1_0000 * number + 16 * index
            return String(format: "%-3d ShopApp 0x%016lx ShopApp + %d", index, address, 45_300 + 16 * index)
        }
        let url = folder.appendingPathComponent("heavy-\(number).txt")
        let text = sample[..<header.upperBound] + frames.joined(separator: "\n") + "\n"
        try text.write(to: url, atomically: true, encoding: .utf8)
        let input = try ReportCopiesTests.input(url, at: "/inbox/heavy-\(number).txt")
        // Heavy: more frames than a light input may hold.
        #expect(input.reports.first?.crashes.first?.frameCount == 150)
        return input
    }
}
