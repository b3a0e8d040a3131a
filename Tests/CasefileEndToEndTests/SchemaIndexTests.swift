import Foundation
import GRDB
import Testing

/// The indexes of the index a run creates: each one serves look-ups no other index of its table serves (an index
/// whose columns begin another's is one more b-tree to update on every insert, for nothing), and a report's rows are
/// still found by search, not by a scan of the table.
@Suite final class SchemaIndexTests {
    let work: URL

    init() throws {
        work = FileManager.default.temporaryDirectory.appendingPathComponent("casefile-schema-\(UUID().uuidString)")
        try FileManager.default.createDirectory(
            at: work.appendingPathComponent("inbox"), withIntermediateDirectories: true)
        try "version = 1\n[inbox]\npath = \"inbox\"\n[output]\npath = \"out\"\n".write(
            to: work.appendingPathComponent("pipeline.toml"), atomically: true, encoding: .utf8)
    }

    deinit {
        try? FileManager.default.removeItem(at: work)
    }

    private func database() throws -> DatabaseQueue {
        let result = try Casefile.run(["run", work.appendingPathComponent("pipeline.toml").path], in: work)
        #expect(result.status == 0)
        var configuration = Configuration()
        configuration.readonly = true
        return try DatabaseQueue(
            path: work.appendingPathComponent("out/casefile.sqlite").path, configuration: configuration)
    }

    @Test func noIndexRepeatsTheLeadingColumnsOfAnother() throws {
        let redundant = try database().read { db in
            var found: [String] = []
            let tables = try String.fetchAll(
                db, sql: "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'")
            for table in tables {
                // Every b-tree that orders the table's rows by columns: its indexes, unique keys included.
                var indexes: [(name: String, columns: [String])] = []
                for name in try String.fetchAll(db, sql: "SELECT name FROM pragma_index_list(?)", arguments: [table]) {
                    let columns = try String.fetchAll(
                        db, sql: "SELECT name FROM pragma_index_info(?) ORDER BY seqno", arguments: [name])
                    indexes.append((name, columns))
                }
                for index in indexes {
                    let covered = indexes.contains { other in
                        other.name != index.name && other.columns.count >= index.columns.count
                            && Array(other.columns.prefix(index.columns.count)) == index.columns
                            && (other.columns.count > index.columns.count || other.name < index.name)
                    }
                    if covered { found.append("\(table).\(index.name) \(index.columns)") }
                }
            }
            return found
        }
        #expect(redundant == [])
    }

    @Test(arguments: [
        "SELECT * FROM timeline_events WHERE report_id = 'r' ORDER BY seq",
        "SELECT * FROM crashes WHERE report_id = 'r'",
        "SELECT * FROM report_inputs WHERE report_id = 'r'",
        "SELECT * FROM occurrences WHERE report_id = 'r'",
        "SELECT * FROM chains WHERE report_id = 'r'",
        "SELECT * FROM report_warnings WHERE report_id = 'r'",
    ])
    func aReportsRowsAreFoundBySearch(_ query: String) throws {
        let plan = try database().read { db in
            try Row.fetchAll(db, sql: "EXPLAIN QUERY PLAN \(query)").map { $0["detail"] as String }
        }
        // One step, a search: no scan of the table and no sort of what it found.
        #expect(plan.count == 1)
        #expect(plan.first?.hasPrefix("SEARCH ") == true, "\(plan)")
    }

    @Test func aGroupsLatestOccurrencesAreReadInOrderWithoutASort() throws {
        // A group page's query: its 50 latest occurrences are the index's last 50 entries for the group, however many
        // the group's latest run gave it.
        let plan = try database().read { db in
            try Row.fetchAll(
                db,
                sql: """
                    EXPLAIN QUERY PLAN SELECT o.report_id, o.app_version, o.os_version, o.device_model, o.run_id,
                    r.summary_path, r.format FROM occurrences o JOIN reports r ON r.id = o.report_id WHERE o.group_id = 1
                    ORDER BY o.run_id DESC, o.report_id DESC, o.source DESC, o.seq DESC LIMIT 50
                    """
            ).map { $0["detail"] as String }
        }
        #expect(plan.first == "SEARCH o USING INDEX occurrences_by_group_run (group_id=?)", "\(plan)")
        #expect(!plan.contains { $0.contains("TEMP B-TREE") }, "\(plan)")
    }
}
