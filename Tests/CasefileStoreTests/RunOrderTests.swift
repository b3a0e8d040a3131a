import CasefileCore
import CasefileStore
import Foundation
import Synchronization
import Testing

/// A run over the same inbox writes the same digest, group pages and summaries whichever of its inputs the parallel
/// tasks finish first. The samples hold a truncated copy of a complete crash report (one report, two inputs), inputs
/// quarantined for several reasons, and images without debug files tied on their frame counts.
@Suite final class RunOrderTests {
    private let temporary: TemporaryFolder
    var work: URL { temporary.url }
    let samples = Samples.folder

    init() throws {
        temporary = try TemporaryFolder("casefile-run-order")
    }

    /// Every file a run over the samples writes, by path under its output folder, its input `delayed` held back
    /// until the others are done.
    func output(delaying delayed: String, into name: String) async throws -> [String: String] {
        let output = work.appendingPathComponent(name)
        try FileManager.default.createDirectory(at: output, withIntermediateDirectories: true)
        var definition = PipelineDefinition(
            inbox: samples, output: output, database: output.appendingPathComponent("index.sqlite"),
            ignore: ["*.md", "Symbols", "Hostile"])
        definition.symbolFolders = [samples.appendingPathComponent("Symbols")]
        let store = try IndexStore(path: definition.database.path)
        let inputs = try InboxScanner(ignore: definition.ignore).scan(samples)
        let index = DelayingIndex(
            store: store, delayed: try ContentHash.of(samples.appendingPathComponent(delayed)),
            others: inputs.count - 1)
        _ = try await PipelineRunner(definition: definition, logger: CapturedLog().logger)
            .run(index: index, pipelineName: "test.toml")
        // Else the order this run compares was not the one asked for.
        #expect(index.heldBack, "\(delayed) was read before the other inputs were done")
        var files: [String: String] = [:]
        let enumerator = FileManager.default.enumerator(at: output, includingPropertiesForKeys: nil)
        while let url = enumerator?.nextObject() as? URL {
            guard ["md", "json"].contains(url.pathExtension) else { continue }
            let path = String(url.path.dropFirst(output.path.count))
            // The clock's: the run's seconds, and the times the run started and saw each group.
            files[path] = try String(contentsOf: url, encoding: .utf8)
                .replacing(/\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?Z/, with: "TIME")
                .replacing(/\| \d+\.\d\d \|\n/, with: "| SECONDS |\n")
        }
        return files
    }

    @Test func writesTheSameFilesWhicheverCopyOfAReportIsIndexedFirst() async throws {
        let truncatedLast = try await output(delaying: "Crashes/truncated-header-only.crash", into: "a")
        let completeLast = try await output(delaying: "Crashes/cart-total-iphone11-ios15.crash", into: "b")
        #expect(truncatedLast.count > 40)
        #expect(truncatedLast.keys.sorted() == completeLast.keys.sorted())
        for (path, text) in truncatedLast.sorted(by: { $0.key < $1.key }) {
            #expect(text == completeLast[path], "\(path)")
        }
        // What the files compared hold: the quarantined inputs and the symbol coverage of the complete copy.
        let digest = try #require(truncatedLast["/digest.md"])
        #expect(digest.contains("## Quarantined"))
        #expect(digest.contains("App frames symbolicated:"))
    }
}

/// An index that answers whether the input of content hash `delayed` is known only once every other input of the
/// run is done with (indexed, quarantined or found known): the runner asks before it reads the input, so the input is
/// read, and indexed, after all the others, however the tasks are scheduled.
final class DelayingIndex: ForwardingIndex, @unchecked Sendable {
    let delayed: String
    /// How many inputs the run holds besides the delayed one.
    let others: Int
    /// How many of them are done.
    private let done = Mutex(0)
    private let waited = Mutex(false)

    /// Whether the delayed input waited until the others were done (a minute at most).
    var heldBack: Bool { waited.withLock { $0 } }

    init(store: IndexStore, delayed: String, others: Int) {
        self.delayed = delayed
        self.others = others
        super.init(store: store)
    }

    override func isKnown(inputSHA256: String) async throws -> Bool {
        if inputSHA256 == delayed {
            // The runner reads an input whose question fails, so a wait that gives up answers, and `heldBack` says so.
            let deadline = ContinuousClock.now + .seconds(60)
            while done.withLock({ $0 }) < others, ContinuousClock.now < deadline {
                try await Task.sleep(for: .milliseconds(5))
            }
            let othersDone = done.withLock { $0 } >= others
            waited.withLock { $0 = othersDone }
            return try await super.isKnown(inputSHA256: inputSHA256)
        }
        let known = try await super.isKnown(inputSHA256: inputSHA256)
        // An input whose bytes an earlier one had is skipped: it is done.
        if known { done.withLock { $0 += 1 } }
        return known
    }

    override func record(_ input: IndexedInput, run: Int64) async throws -> IndexOutcome {
        defer { done.withLock { $0 += 1 } }
        return try await super.record(input, run: run)
    }

    override func quarantine(_ input: InputRecord, error: InputError, run: Int64) async throws {
        defer { done.withLock { $0 += 1 } }
        try await super.quarantine(input, error: error, run: run)
    }
}
