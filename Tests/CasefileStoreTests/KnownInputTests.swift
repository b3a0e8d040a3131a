import CasefileCore
import CasefileStore
import Foundation
import Testing

/// What a run asks of the index before it stores an input — is its content known, which of its reports are — gets the
/// same answer whether the rows are committed or still in the open batch: the store answers from readers of what was
/// committed and from what it remembers of the batch.
@Suite final class KnownInputTests {
    private let temporary: TemporaryFolder
    var path: String { temporary.url.appendingPathComponent("index.sqlite").path }

    init() throws {
        temporary = try TemporaryFolder("casefile-known")
    }

    /// The sample at `sample`, read as a run reads it, as if found in the inbox at `path`.
    private func input(_ sample: String, at path: String) throws -> IndexedInput {
        try ReportCopiesTests.input(sample, at: path)
    }

    @Test func answersForTheOpenBatchAndForWhatWasCommitted() async throws {
        // Three inputs to a batch, and no time bound: the third commits it.
        let store = try IndexStore(path: path, batchLimits: BatchLimits(inputs: 3, seconds: .seconds(3600)))
        let run = try await store.beginRun(pipeline: "test.toml", inbox: "/inbox", startedAt: Date())
        let apple = try input("Crashes/cart-total-iphone11-ios15.crash", at: "/inbox/a.crash")
        let ips = try input("Crashes/image-cache-iphone15-ios17.ips", at: "/inbox/c.ips")
        // One report each: the Apple text report of incident 7E2D9B40-… and the .ips of the image cache crash.
        #expect(apple.reports.count == 1)
        #expect(ips.reports.count == 1)
        let appleHash = try #require(apple.record.sha256)
        let ipsHash = try #require(ips.record.sha256)
        let quarantined = String(repeating: "b", count: 64)
        let unseen = String(repeating: "d", count: 64)

        _ = try await store.record(apple, run: run)
        try await store.quarantine(
            InputRecord(path: "/inbox/b.zip", sha256: quarantined, kind: "archive"),
            error: InputError(input: "/inbox/b.zip", reason: "not a zip"), run: run)
        // Nothing is committed yet: another connection sees no input.
        #expect(try IndexStore(path: path).count(.inputs) == 0)
        #expect(try await store.isKnown(inputSHA256: appleHash))
        #expect(try await store.isKnown(inputSHA256: quarantined))
        #expect(try await store.isKnown(inputSHA256: ipsHash) == false)
        #expect(try await store.knownReports([apple.reports[0].id, ips.reports[0].id]) == [apple.reports[0].id])

        // The third input commits the batch; the store remembers nothing of it now, and answers from the readers.
        _ = try await store.record(ips, run: run)
        #expect(try IndexStore(path: path).count(.inputs) == 3)
        for hash in [appleHash, quarantined, ipsHash] {
            #expect(try await store.isKnown(inputSHA256: hash))
        }
        #expect(try await store.isKnown(inputSHA256: unseen) == false)
        let both: Set = [apple.reports[0].id, ips.reports[0].id]
        #expect(try await store.knownReports(Array(both) + ["not-a-report"]) == both)
        // Another store on the file, with no batch of its own, sees the same.
        let other = try IndexStore(path: path)
        #expect(try await other.isKnown(inputSHA256: quarantined))
        #expect(try await other.isKnown(inputSHA256: unseen) == false)
        #expect(try await other.knownReports(Array(both) + ["not-a-report"]) == both)
    }

    @Test func anInputTheIndexRefusedIsNotKnown() async throws {
        let store = try IndexStore(path: path, batchLimits: BatchLimits(inputs: 64, seconds: .seconds(3600)))
        _ = try await store.beginRun(pipeline: "test.toml", inbox: "/inbox", startedAt: Date())
        let apple = try input("Crashes/cart-total-iphone11-ios15.crash", at: "/inbox/a.crash")
        // A run the index never began: the input's row refers to it, and the input is rolled back to its savepoint.
        await #expect(throws: (any Error).self) { try await store.record(apple, run: 4242) }
        #expect(try await store.isKnown(inputSHA256: try #require(apple.record.sha256)) == false)
        #expect(try await store.knownReports([apple.reports[0].id]) == [])
    }

    @Test func answersOnTheWritersConnectionWhenNoReaderCanOpenTheIndex() async throws {
        let store = try IndexStore(path: path, batchLimits: BatchLimits(inputs: 1, seconds: .seconds(3600)))
        let run = try await store.beginRun(pipeline: "test.toml", inbox: "/inbox", startedAt: Date())
        let apple = try input("Crashes/cart-total-iphone11-ios15.crash", at: "/inbox/a.crash")
        // One input to a batch: committed, so the store remembers nothing of it, and only a connection answers.
        _ = try await store.record(apple, run: run)
        // The file's name gone: the store's own connection still reads it, a new reader cannot open it.
        try FileManager.default.removeItem(atPath: path)
        #expect(try await store.isKnown(inputSHA256: try #require(apple.record.sha256)))
        #expect(try await store.knownReports([apple.reports[0].id, "not-a-report"]) == [apple.reports[0].id])
    }

    @Test func anIndexInMemoryAnswersAsOneOnDisk() async throws {
        let store = try IndexStore.inMemory()
        let run = try await store.beginRun(pipeline: "test.toml", inbox: "/inbox", startedAt: Date())
        let apple = try input("Crashes/cart-total-iphone11-ios15.crash", at: "/inbox/a.crash")
        #expect(try await store.isKnown(inputSHA256: try #require(apple.record.sha256)) == false)
        _ = try await store.record(apple, run: run)
        #expect(try await store.isKnown(inputSHA256: try #require(apple.record.sha256)))
        #expect(try await store.knownReports([apple.reports[0].id, "not-a-report"]) == [apple.reports[0].id])
    }
}
