import CasefileCore
import CasefileStore
import Foundation
import GRDB
import Logging
import Testing

/// Each report's whole timeline events are one compressed blob (`event_details`); the rows of `timeline_events` keep
/// what is queried. An index written before held each event's JSON in its row: opening it moves them into blobs.
@Suite final class EventDetailsTests {
    private let temporary: TemporaryFolder
    var database: URL { temporary.url.appendingPathComponent("index.sqlite") }

    init() throws {
        temporary = try TemporaryFolder("casefile-event-details")
    }

    /// The sample recordings indexed.
    func indexedSamples() async throws -> IndexStore {
        try await Samples.indexed(
            into: database, output: temporary.url, ignore: ["*.md", "Symbols", "Hostile", "Malformed", "Crashes"])
    }

    @Test func storesOneBlobPerReportWithEventsAndEachRowsEventInIt() async throws {
        let store = try await indexedSamples()
        let recordings = try store.reports().filter { $0.eventCount > 0 }
        #expect(recordings.count >= 5)
        #expect(try store.count(.eventDetails) == recordings.count)
        for report in recordings {
            let events = try store.events(reportID: report.id)
            #expect(events.count == report.eventCount)
            // Each row's detail is its own event, not its neighbour's: the same kind at the same time.
            for event in events {
                #expect(event.detail?.kindName == event.kind && event.detail?.timestamp == event.timestamp)
            }
        }
        let columns = try await DatabaseQueue(path: database.path).read { db in
            try String.fetchAll(db, sql: "SELECT name FROM pragma_table_info('timeline_events')")
        }
        #expect(columns.contains("summary"))
        #expect(!columns.contains("detail_json"))
    }

    @Test func theMigrationMovesAnOlderIndexsEventJSONIntoBlobs() async throws {
        let store = try await indexedSamples()
        let ids = try store.reports().filter { $0.eventCount > 0 }.map(\.id)
        let before = try ids.map { try store.events(reportID: $0) }
        // The index as Casefile left it before v20: each event's JSON in its row, no blobs, the migration not recorded.
        // One event of the first report holds the form written before Casefile 0.9.
        let queue = try DatabaseQueue(path: database.path)
        try await queue.write { db in
            try db.execute(sql: "ALTER TABLE timeline_events ADD COLUMN detail_json TEXT NOT NULL DEFAULT ''")
            for (id, events) in zip(ids, before) {
                for event in events {
                    let json = try IndexJSON.text(try #require(event.detail))
                    try db.execute(
                        sql: "UPDATE timeline_events SET detail_json = ? WHERE report_id = ? AND seq = ?",
                        arguments: [json, id, event.seq])
                }
            }
            try db.execute(
                sql: "UPDATE timeline_events SET detail_json = ? WHERE report_id = ? AND seq = 1",
                arguments: [#"{"touch":{"_0":{"phase":"ended"}}}"#, ids[0]])
            try db.execute(sql: "DROP TABLE event_details")
            try db.execute(sql: "DELETE FROM grdb_migrations WHERE identifier LIKE 'v20-%'")
        }
        let reopened = try IndexStore(path: database.path)
        #expect(try reopened.appliedMigrations().contains("v20-event-details"))
        #expect(try reopened.count(.eventDetails) == ids.count)
        var expected = before
        expected[0][1].detail = nil
        // The same rows, and the same JSON for each event (an object's members come back in the order of their keys).
        func comparable(_ events: [IndexedEvent]) throws -> [String] {
            try events.map { event in
                var row = event
                row.detail = nil
                return try "\(row) \(event.detail.map(IndexJSON.text) ?? "no event")"
            }
        }
        #expect(try ids.map { try comparable(reopened.events(reportID: $0)) } == expected.map(comparable))
        let columns = try await queue.read { db in
            try String.fetchAll(db, sql: "SELECT name FROM pragma_table_info('timeline_events')")
        }
        #expect(!columns.contains("detail_json"))
    }
}
