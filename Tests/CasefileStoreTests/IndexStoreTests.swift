import CasefileCore
import CasefileStore
import Foundation
import Logging
import Testing

@Suite final class IndexStoreTests {
    let output: URL
    let definition: PipelineDefinition

    init() throws {
        let repository = URL(fileURLWithPath: #filePath)
            .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        output = FileManager.default.temporaryDirectory.appendingPathComponent("casefile-store-\(UUID().uuidString)")
        definition = PipelineDefinition(
            inbox: repository.appendingPathComponent("SampleReports"), output: output,
            database: output.appendingPathComponent("index.sqlite"), ignore: ["*.md"])
        try FileManager.default.createDirectory(at: output, withIntermediateDirectories: true)
    }

    deinit {
        try? FileManager.default.removeItem(at: output)
    }

    func run(_ store: IndexStore) async throws -> RunSummary {
        let runner = PipelineRunner(definition: definition, logger: Logger(label: "test"))
        return try await runner.run(index: store, pipelineName: "test.toml")
    }

    @Test func appliesTheNamedMigrations() throws {
        #expect(try IndexStore.inMemory().appliedMigrations() == ["v1-foundation"])
    }

    @Test func indexesGoodReportsAndQuarantinesBadInputsInOneRun() async throws {
        let store = try IndexStore(path: definition.database.path)
        let summary = try await run(store)
        // 12 inputs: 7 good ones (the checkout folder and its zip are one report), 5 in Malformed/.
        #expect(summary.inputs == 12)
        #expect(summary.processed == 7)
        #expect(summary.newReports == 7)
        #expect(summary.duplicateReports == 1)
        #expect(summary.quarantined.count == 5)
        #expect(summary.exitCode == 1)
        #expect(try store.count(.reports) == 7)
        #expect(try store.count(.reportInputs) == 8)
        let quarantined = try store.quarantined()
        let traversal = try #require(quarantined.first { $0.path.hasSuffix("path-traversal.zip") })
        #expect(traversal.entry == "../../../tmp/casefile-escaped.txt")
        #expect(traversal.reason == "path escapes the archive (absolute or '..'); the whole input is refused")
        let bomb = try #require(quarantined.first { $0.path.hasSuffix("archive-bomb.zip") })
        #expect(bomb.reason.hasPrefix("compression ratio over 200:1"))
    }

    @Test func storesNetworkExchangesInTypedColumns() async throws {
        let store = try IndexStore(path: definition.database.path)
        _ = try await run(store)
        let checkout = try #require(
            try store.reports().first { $0.summaryPath != nil && $0.failureCount == 1 && $0.eventCount == 12 })
        let events = try store.events(reportID: checkout.id)
        let payment = try #require(events.first { $0.failed })
        #expect(payment.kind == "network")
        #expect(payment.url == "https://api.shop.example/v1/orders")
        #expect(payment.status == 500)
        #expect(payment.method == nil)
        #expect(payment.timestamp == 13.150000333000002)
        #expect(events.map(\.seq) == Array(0..<events.count))
        let summary = try String(
            contentsOf: output.appendingPathComponent(try #require(checkout.summaryPath)), encoding: .utf8)
        #expect(summary.contains("**HTTP 500 internal server error**"))
    }

    @Test func aSecondRunIndexesNothing() async throws {
        let store = try IndexStore(path: definition.database.path)
        _ = try await run(store)
        let before = try IndexTable.allCases.map { try store.count($0) }
        let again = try await run(store)
        #expect(again.processed == 0)
        #expect(again.skipped == 12)
        #expect(again.quarantined.isEmpty)
        #expect(again.exitCode == 0)
        let after = try IndexTable.allCases.map { try store.count($0) }
        // Only the runs table grows.
        #expect(before[0] + 1 == after[0])
        #expect(Array(before.dropFirst()) == Array(after.dropFirst()))
    }

    @Test func refusesADatabaseItCannotOpen() {
        let error = #expect(throws: StoreError.self) { try IndexStore(path: "/nonexistent/dir/index.sqlite") }
        #expect(error?.description.hasPrefix("/nonexistent/dir/index.sqlite: cannot open the index:") == true)
    }
}
