import CasefileArchive
import CasefileCore
import Foundation
import GRDB

/// Writes one report's rows: the report, its timeline events with typed network columns and their blob (the whole
/// events, ``EventDetailCodec``), its warnings.
enum ReportWriter {
    /// Stores `report`, read from input `input` in run `run`, with what was prepared for it ahead (each `nil` when it
    /// was not); `several` tells whether its rows may go several to a statement
    /// (``MultiRowInsert/severalPerStatement(reportsStoredBefore:)``).
    static func insert(
        _ report: Report, input: Int64, run: Int64, summaryPath: String?, crashDetails: [CrashDetail]?,
        eventDetails: [UInt8]?, eventSummaries: [String]?, symbolCoverage: String?, indexedAt: DatabaseValue,
        several: Bool, _ db: Database
    ) throws {
        try db.cachedStatement(
            sql: """
                INSERT INTO reports (id, input_id, run_id, format, root, clue_uuid, device_model, system_name,
                system_version, vendor_id, app_name, app_bundle_id, app_version, app_build, duration, video_bytes,
                video_duration, view_snapshots, event_count, failure_count, warning_count, exception_name,
                exception_reason, summary_path, indexed_at, completeness, symbol_coverage)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                """
        ).insert { row in
            row.bind(report.id)
            row.bind(input)
            row.bind(run)
            row.bind(report.format.rawValue)
            row.bind(report.source.root)
            row.bind(report.source.clueUUID)
            row.bind(report.device?.model)
            row.bind(report.device?.systemName)
            row.bind(report.device?.systemVersion)
            row.bind(report.device?.identifierForVendor)
            row.bind(report.app?.name)
            row.bind(report.app?.bundleID)
            row.bind(report.app?.version)
            row.bind(report.app?.build)
            row.bind(report.duration)
            row.bind(report.video?.size)
            row.bind(report.video?.duration)
            row.bind(report.viewSnapshotCount)
            row.bind(report.timeline.events.count)
            row.bind(report.failedExchanges.count)
            row.bind(report.warnings.count)
            row.bind(report.exception?.name)
            row.bind(report.exception?.reason)
            row.bind(summaryPath)
            row.bind(indexedAt)
            row.bind(report.completeness)
            // Only a report with a crash has symbols to count.
            row.bind(
                report.crashes.isEmpty ? nil : symbolCoverage ?? IndexJSON.text(SymbolCoverage(report)))
        }
        if !report.timeline.events.isEmpty {
            // Several events to a statement (``MultiRowInsert``): a long recording has 10,000 events.
            let events = report.timeline.events
            try insertEvent.run(count: events.count, several: several, in: db) { seq, row in
                let summary = Prepared.value(eventSummaries, at: seq) ?? events[seq].summary
                bind(events[seq], seq: seq, summary: summary, report: report.id, &row)
            }
            // The whole events, once for the report: each row holds what is queried.
            let blob = try Prepared.value(eventDetails) ?? EventDetailCodec.encode(report.timeline.events)
            try db.cachedStatement(sql: "INSERT INTO event_details (report_id, version, detail) VALUES (?, ?, ?)")
                .insert { row in
                    row.bind(report.id)
                    row.bind(EventDetailCodec.version)
                    row.bind(blob: blob)
                }
        }
        try CrashWriter.insert(report.crashes, report: report.id, details: crashDetails, several: several, db)
        for (ordinal, chain) in report.correlation.chains.enumerated() {
            try insert(chain, ordinal: ordinal, report: report.id, db)
        }
        for warning in report.warnings {
            try db.cachedStatement(
                sql: "INSERT INTO report_warnings (report_id, file, line, message) VALUES (?, ?, ?, ?)"
            ).insert { row in
                row.bind(report.id)
                row.bind(warning.file)
                row.bind(warning.line)
                row.bind(warning.message)
            }
        }
    }

    private static func insert(_ chain: CausalChain, ordinal: Int, report: String, _ db: Database) throws {
        let followUps = try IndexJSON.text(chain.followUps)
        let evidence = try IndexJSON.text(chain.evidence)
        try db.cachedStatement(
            sql: """
                INSERT INTO chains (report_id, ordinal, trigger_seq, trigger_at, trigger, exchange_seq, failure_at,
                endpoint, status, failure, outcome_kind, outcome_seq, outcome, follow_ups_json, confidence,
                evidence_json)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                """
        ).insert { row in
            row.bind(report)
            row.bind(ordinal)
            row.bind(chain.trigger?.event)
            row.bind(chain.trigger?.time)
            row.bind(chain.trigger?.description)
            row.bind(chain.exchange.event)
            row.bind(chain.exchange.time)
            row.bind(chain.exchange.template)
            row.bind(chain.exchange.status)
            row.bind(chain.exchange.failure)
            row.bind(chain.outcome.kind.rawValue)
            row.bind(chain.outcome.event)
            row.bind(chain.outcome.description)
            row.bind(followUps)
            row.bind(chain.confidence)
            row.bind(evidence)
        }
    }

    private static let insertEvent = MultiRowInsert(
        """
        INSERT INTO timeline_events (report_id, seq, timestamp, time_recorded, kind, summary, source_file,
        source_line, method, url, status, error_domain, error_code, error, failed, start_ts, end_ts,
        expected_bytes, received_bytes) VALUES
        """,
        row: "(?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)")

    /// Binds one event's row of ``insertEvent``.
    private static func bind(
        _ event: TimelineEvent, seq: Int, summary: String, report: String, _ row: inout RowBinder
    ) {
        row.bind(report)
        row.bind(seq)
        row.bind(event.timestamp)
        row.bind(event.timeIsRecorded)
        row.bind(event.kindName)
        row.bind(summary)
        row.bind(event.file)
        row.bind(event.line)
        if case .network(let exchange) = event.kind {
            row.bind(exchange.method)
            row.bind(exchange.url)
            row.bind(exchange.statusCode)
            row.bind(exchange.error?.domain)
            row.bind(exchange.error?.code)
            row.bind(exchange.error?.description)
            row.bind(exchange.failure != nil)
            row.bind(exchange.responseAt ?? event.timestamp)
            row.bind(exchange.endAt)
            row.bind(exchange.expectedContentLength)
            row.bind(exchange.receivedBytes)
        } else {
            for _ in 0..<6 { row.bind(nil as String?) }
            row.bind(false)
            for _ in 0..<4 { row.bind(nil as String?) }
        }
    }
}
