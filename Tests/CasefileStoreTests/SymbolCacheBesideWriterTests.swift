import CasefileCore
import CasefileStore
import Foundation
import Synchronization
import Testing

/// The symbolicator's cache never waits for the index's writer: an input stored in parts has each part enriched on other
/// threads while the writer, held from the input's first part to its last, stores the part before. An index on disk
/// reads the stored answers for an image with its readers, beside the writer, the first time a crash asks; an index in
/// memory has no readers, and its cache holds every stored answer once loaded.
@Suite final class SymbolCacheBesideWriterTests {
    private let temporary: TemporaryFolder
    private let shopApp = "4c4c440a-5555-3144-a121-7090b91a2dbc"
    private let total = SourceLocation(rawName: "$s7ShopApp13CartViewModelC5totalSiyF", file: "checkout.c", line: 17)

    init() throws {
        temporary = try TemporaryFolder("casefile-symbols-beside")
    }

    /// `store` with one answer saved for the ShopApp image, at 0x1_0000_402c.
    private func saved(_ store: IndexStore) async throws {
        let cache = SymbolCache()
        cache.insert([
            SymbolCache.Entry(
                uuid: shopApp, address: 0x1_0000_402c, result: SymbolCache.Result(backend: "dwarf", locations: [total]))
        ])
        try await store.saveSymbolCache(cache)
    }

    @Test func anIndexOnDiskAnswersAnotherThreadWhileItsWriterIsHeld() async throws {
        let store = try IndexStore(path: temporary.url.appendingPathComponent("index.sqlite").path)
        try await saved(store)
        let cache = try await store.loadSymbolCache()
        // Nothing is read before a crash asks.
        #expect(cache.count == 0)
        try await expectAnswersBesideTheWriter(store, cache)
    }

    @Test func anIndexInMemoryAnswersAnotherThreadWhileItsWriterIsHeld() async throws {
        let store = try IndexStore.inMemory()
        try await saved(store)
        let cache = try await store.loadSymbolCache()
        // Read at once: the one answer stored.
        #expect(cache.count == 1)
        try await expectAnswersBesideTheWriter(store, cache)
    }

    /// While `store`'s writer is held for an input in parts, another thread asks `cache` about the ShopApp image, and
    /// is answered within 10 s with the answer saved.
    private func expectAnswersBesideTheWriter(_ store: IndexStore, _ cache: SymbolCache) async throws {
        let run = try await store.beginRun(pipeline: "test.toml", inbox: temporary.url.path, startedAt: Date())
        let record = InputRecord(path: "many.zip", sha256: String(repeating: "a", count: 64), kind: "archive")
        let input = InputInParts(record: record, notes: [], failedEntries: [], reportIDs: [], duplicateCopies: [])
        // On the writer's thread, held for the input: another thread asks about the image, and is answered within 10 s.
        let answered = Mutex<(inTime: Bool, answers: [SymbolCache.Result?])?>(nil)
        _ = try await store.record(
            inParts: input, run: run,
            next: { [shopApp] in
                let done = DispatchSemaphore(value: 0)
                let asked = Mutex<[SymbolCache.Result?]>([])
                Thread {
                    let answers = cache.results(uuid: shopApp, addresses: [0x1_0000_402c, 0x1_0000_4080])
                    asked.withLock { $0 = answers }
                    done.signal()
                }.start()
                let inTime = done.wait(timeout: .now() + 10) == .success
                answered.withLock { $0 = (inTime, asked.withLock { $0 }) }
                return nil
            },
            written: { _, _ in })
        let (inTime, answers) = try #require(answered.withLock { $0 })
        #expect(inTime)
        #expect(answers.map { $0?.locations } == [[total], nil])
    }

}
