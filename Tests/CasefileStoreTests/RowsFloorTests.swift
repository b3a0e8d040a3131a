import CasefileCore
import CasefileStore
import Foundation
import GRDB
import Testing

/// The rows floor writes again, by SQLite alone, exactly the rows a run stored for its reports.
extension IndexStoreTests {
    @Test func rowsFloorCopiesEveryRowOfEveryReport() async throws {
        let source = definition.database.path
        _ = try await run(try IndexStore(path: source))
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
        #expect(measurement.duration > .zero)
    }
}
