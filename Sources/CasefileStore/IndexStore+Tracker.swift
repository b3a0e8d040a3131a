public import Foundation
import GRDB

/// What `casefile publish` remembers of the tracker: the issue of each fingerprint and the payloads sent.
extension IndexStore {
    /// The tracker issue number of each fingerprint that has one.
    public func trackerIssues() throws -> [String: Int] {
        try queue.read { db in
            var issues: [String: Int] = [:]
            for row in try Row.fetchAll(db, sql: "SELECT fingerprint, number FROM tracker_issues") {
                issues[row["fingerprint"]] = row["number"]
            }
            return issues
        }
    }

    /// Whether the payload with this id was sent.
    public func isDelivered(payloadID: String) throws -> Bool {
        try queue.read { db in
            try Bool.fetchOne(
                db, sql: "SELECT EXISTS(SELECT 1 FROM tracker_deliveries WHERE payload_id = ?)", arguments: [payloadID])
                ?? false
        }
    }

    /// Records that the fingerprint's issue is `number` (found by its marker or just opened).
    public func recordTrackerIssue(fingerprint: String, number: Int, url: String?, at date: Date = Date()) throws {
        try writeNow { db in
            try db.execute(
                sql: """
                    INSERT INTO tracker_issues (fingerprint, number, url, opened_at, updated_at) VALUES (?, ?, ?, ?, ?)
                    ON CONFLICT(fingerprint) DO UPDATE SET number = excluded.number,
                    url = COALESCE(excluded.url, url), updated_at = excluded.updated_at
                    """, arguments: [fingerprint, number, url, date, date])
        }
    }

    /// Records that a payload was sent, as `opened` or `updated` issue `number`.
    public func recordDelivery(
        payloadID: String, fingerprint: String, number: Int, action: String, at date: Date = Date()
    ) throws {
        try writeNow { db in
            try db.execute(
                sql: """
                    INSERT OR REPLACE INTO tracker_deliveries (payload_id, fingerprint, number, action, sent_at)
                    VALUES (?, ?, ?, ?, ?)
                    """, arguments: [payloadID, fingerprint, number, action, date])
            try db.execute(
                sql: "UPDATE tracker_issues SET updated_at = ? WHERE fingerprint = ?", arguments: [date, fingerprint])
        }
    }
}
