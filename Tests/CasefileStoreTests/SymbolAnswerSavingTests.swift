import CasefileCore
import CasefileStore
import Foundation
import GRDB
import Synchronization
import Testing

/// The answers `llvm-symbolizer` gave are stored while the run goes on, not all after its last input: a long night's
/// serial end does not grow with them, and a run killed halfway keeps what it learned.
@Suite final class SymbolAnswerSavingTests {
    private let temporary: TemporaryFolder
    var output: URL { temporary.url }

    init() throws {
        temporary = try TemporaryFolder("casefile-answers")
    }

    @Test func storesTheSymbolicatorsAnswersBeforeTheLastInput() async throws {
        let repository = Samples.repository
        let crash = try Data(
            contentsOf: repository.appendingPathComponent("SampleReports/Crashes/image-cache-iphone15-ios17.ips"))
        let inbox = output.appendingPathComponent("inbox")
        try FileManager.default.createDirectory(at: inbox, withIntermediateDirectories: true)
        // One crash mailed again and again: each copy a new input (it ends in one more newline), the same report.
        let copies = PipelineRunner.symbolAnswersEvery + 44
        for copy in 0..<copies {
            try (crash + Data(repeating: 0x0A, count: copy + 1)).write(
                to: inbox.appendingPathComponent(String(format: "crash-%04d.ips", copy)))
        }
        let database = output.appendingPathComponent("index.sqlite")
        var definition = PipelineDefinition(inbox: inbox, output: output, database: database)
        definition.symbolFolders = [repository.appendingPathComponent("SampleReports/Symbols")]
        let index = SaveTimingIndex(store: try IndexStore(path: database.path), database: database)
        let summary = try await PipelineRunner(definition: definition, logger: CapturedLog().logger)
            .run(index: index, pipelineName: "test.toml")
        #expect(summary.processed == copies)
        let saves = index.saves.withLock { $0 }
        // A write after the 256th input stored the answers the first crashes brought; the one at the end had none
        // left to add.
        let early = try #require(saves.first { $0.recorded < copies && $0.rows > 0 })
        #expect(early.recorded >= PipelineRunner.symbolAnswersEvery - 1)
        #expect(saves.last?.rows == early.rows)
    }
}

/// An index that notes, at each write of symbol answers, how many inputs it had stored and how many answers it then
/// held.
final class SaveTimingIndex: ForwardingIndex, @unchecked Sendable {
    let database: URL
    let recorded = Mutex(0)
    let saves = Mutex<[(recorded: Int, rows: Int)]>([])

    init(store: IndexStore, database: URL) {
        self.database = database
        super.init(store: store)
    }

    override func saveSymbolCache(_ cache: SymbolCache) async throws {
        try await super.saveSymbolCache(cache)
        let rows = try await DatabaseQueue(path: database.path).read { db in
            try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM symbol_cache") ?? 0
        }
        let recorded = recorded.withLock { $0 }
        saves.withLock { $0.append((recorded, rows)) }
    }

    override func record(_ input: IndexedInput, run: Int64) async throws -> IndexOutcome {
        let outcome = try await super.record(input, run: run)
        recorded.withLock { $0 += 1 }
        return outcome
    }
}
