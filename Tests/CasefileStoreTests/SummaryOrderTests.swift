import CasefileCore
import CasefileStore
import Foundation
import Logging
import Synchronization
import Testing

/// A run killed right after a batch commits must not leave a report without its summary: the runner writes an
/// input's summaries before it hands the input to the index. This index checks that on every `record`, and that the
/// run's digest is written before the run is marked finished.
@Suite final class SummaryOrderTests {
    private let temporary: TemporaryFolder
    var output: URL { temporary.url }

    init() throws {
        temporary = try TemporaryFolder("casefile-order")
    }

    @Test func everyNewReportHasItsSummaryBeforeItsRowsAreWritten() async throws {
        let store = try IndexStore(path: output.appendingPathComponent("index.sqlite").path)
        let index = SummaryCheckingIndex(store: store, output: output)
        let repository = Samples.repository
        let definition = PipelineDefinition(
            inbox: repository.appendingPathComponent("SampleReports"), output: output,
            database: output.appendingPathComponent("index.sqlite"), ignore: ["*.md", "Symbols", "Hostile"])
        let summary = try await PipelineRunner(definition: definition, logger: CapturedLog().logger)
            .run(index: index, pipelineName: "test.toml")
        #expect(summary.newReports > 20)
        // Every new report was checked; two inputs holding the same report may both be checked before either is
        // stored, so reports are counted once.
        #expect(index.checked.withLock { $0.count } == summary.newReports)
        #expect(index.missing.withLock { $0 } == [])
        #expect(index.digestBeforeFinish.withLock { $0 })
    }
}

/// An index that, before storing an input, looks for the summary file of each report it does not hold yet.
final class SummaryCheckingIndex: ForwardingIndex, @unchecked Sendable {
    let output: URL
    let checked = Mutex<Set<String>>([])
    let missing = Mutex<[String]>([])
    let digestBeforeFinish = Mutex(false)

    init(store: IndexStore, output: URL) {
        self.output = output
        super.init(store: store)
    }

    override func record(_ input: IndexedInput, run: Int64) async throws -> IndexOutcome {
        let known = try await store.knownReports(input.reports.map(\.id))
        for report in input.reports where !known.contains(report.id) {
            guard let path = input.summaryPaths[report.id] else { continue }
            checked.withLock { _ = $0.insert(report.id) }
            if !FileManager.default.fileExists(atPath: output.appendingPathComponent(path).path) {
                missing.withLock { $0.append(path) }
            }
        }
        return try await super.record(input, run: run)
    }

    override func finishRun(_ run: Int64, summary: RunSummary, finishedAt: Date) async throws {
        // A run killed while writing its digest must still be unfinished: the digest comes first.
        let digest = output.appendingPathComponent("runs/run-\(run).md").path
        digestBeforeFinish.withLock { $0 = FileManager.default.fileExists(atPath: digest) }
        try await super.finishRun(run, summary: summary, finishedAt: finishedAt)
    }
}
