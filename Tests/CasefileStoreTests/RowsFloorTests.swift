import CasefileCore
import CasefileStore
import Foundation
import GRDB
import Testing

/// The rows floor writes again, by SQLite alone, exactly the rows a run stored for its reports.
@Suite final class RowsFloorTests {
    let output: URL
    let repository: URL

    init() throws {
        repository = URL(fileURLWithPath: #filePath)
            .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        output = FileManager.default.temporaryDirectory.appendingPathComponent("casefile-rows-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: output, withIntermediateDirectories: true)
    }

    deinit {
        try? FileManager.default.removeItem(at: output)
    }

    @Test func copiesEveryRowOfEveryReport() async throws {
        let source = output.appendingPathComponent("index.sqlite").path
        let definition = PipelineDefinition(
            inbox: repository.appendingPathComponent("SampleReports"), output: output,
            database: URL(fileURLWithPath: source), ignore: ["*.md", "Symbols", "Hostile"])
        let store = try IndexStore(path: source)
        _ = try await PipelineRunner(definition: definition, logger: CapturedLog().logger)
            .run(index: store, pipelineName: "test.toml")
        let copy = output.appendingPathComponent("copy.sqlite").path

        let measurement = try RowsFloor.measure(source: source, destination: copy)

        let original = try DatabaseQueue(path: source)
        let copied = try DatabaseQueue(path: copy)
        // Every table the writer fills per report; the samples have crashes, recordings, chains and warnings.
        for table in [
            "reports", "report_inputs", "timeline_events", "report_warnings", "crashes", "crash_threads",
            "crash_frames", "crash_images", "chains", "occurrences",
        ] {
            // A report's later inputs are linked when they arrive in a run, and all at once in the copy.
            let order = table == "report_inputs" ? "report_id, input_id" : "rowid"
            let sql = "SELECT * FROM \(table) ORDER BY \(order)"
            let rows = try original.read { try Row.fetchAll($0, sql: sql) }
            let copies = try copied.read { try Row.fetchAll($0, sql: sql) }
            #expect(!rows.isEmpty, "\(table) is empty: the samples no longer exercise it")
            #expect(copies == rows, "\(table)")
        }
        // Inputs: those holding reports (a quarantined input has none, and is not a row of any report).
        let inputs = "SELECT * FROM inputs WHERE id IN (SELECT input_id FROM report_inputs) ORDER BY id"
        let originalInputs = try original.read { try Row.fetchAll($0, sql: inputs) }
        let copiedInputs = try copied.read { try Row.fetchAll($0, sql: inputs) }
        #expect(copiedInputs == originalInputs)
        let reports = try await original.read { try Int.fetchOne($0, sql: "SELECT COUNT(*) FROM reports") }
        #expect(measurement.reports == reports)
        #expect(measurement.seconds > 0)
    }
}
