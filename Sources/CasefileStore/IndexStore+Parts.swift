public import CasefileCore
import Foundation
import GRDB

/// An input's rows, written whole (``IndexStore/record(_:run:)``) or a part at a time
/// (``IndexStore/record(inParts:run:next:written:)``): the same rows either way.
extension IndexStore {
    /// Stores an input a part at a time in one savepoint of the open batch: the input is indexed with its last part's
    /// rows or not at all. The writer is held from the first part to the last; `next` and `written` run on its thread,
    /// and no other input is written meanwhile.
    public func record(
        inParts input: InputInParts, run: Int64, next: @escaping @Sendable () throws -> IndexedInput?,
        written: @escaping @Sendable (IndexedInput, IndexOutcome) throws -> Void
    ) async throws -> IndexOutcome {
        try await batched(light: false) { db in
            guard let (sha256, inputID, now) = try self.insertInput(input.record, notes: input.notes, run: run, db)
            else {
                return (IndexOutcome(inputWasKnown: true, newReportIDs: [], duplicateReportIDs: []), BatchEntries())
            }
            var outcome = IndexOutcome(inputWasKnown: false, newReportIDs: [], duplicateReportIDs: [])
            var tally = OccurrenceTally()
            var reportsStored = 0
            while let part = try next() {
                var stored = IndexOutcome(inputWasKnown: false, newReportIDs: [], duplicateReportIDs: [])
                try Self.write(
                    part.reports, of: part, inputID: inputID, run: run, at: now, &stored, &tally,
                    reportsStored: &reportsStored, db)
                try written(part, stored)
                outcome.append(stored)
            }
            // As a whole input links its further copies of a report: after every report is stored.
            for copy in input.duplicateCopies {
                outcome.duplicateReportIDs.append(copy.id)
                try Self.link(copy.id, input: inputID, root: copy.root, db)
            }
            try tally.write(db)
            try Self.quarantine(input.failedEntries, of: input.record.path, inputID: inputID, run: run, db)
            return (outcome, BatchEntries(inputHashes: [sha256], reportIDs: input.reportIDs))
        }
    }

    /// Inserts the input's row, marked indexed (its savepoint holds it until its reports are stored too), and returns
    /// its content hash, its id and the time its rows are stored with; `nil` when the index holds the input already.
    /// Throws for an input without a content hash.
    func insertInput(
        _ record: InputRecord, notes: [String], run: Int64, _ db: Database
    ) throws -> (sha256: String, id: Int64, now: DatabaseValue)? {
        guard let sha256 = record.sha256 else {
            throw StoreError(path: path, reason: "input \(record.path) has no content hash")
        }
        // Statements run for every input are cached: compiled once per run, not once per input.
        if try Self.holdsInput(sha256, db) { return nil }
        // One time for the input's rows, formatted once and without a DateFormatter.
        let now = StoredDate.databaseValue(Date())
        try db.cachedStatement(
            sql: """
                INSERT INTO inputs (sha256, path, kind, status, run_id, notes, indexed_at, signature)
                VALUES (?, ?, ?, 'indexed', ?, ?, ?, ?)
                """
        ).insert { row in
            row.bind(sha256)
            row.bind(record.path)
            row.bind(record.kind)
            row.bind(run)
            row.bind(notes.isEmpty ? nil : notes.joined(separator: "\n"))
            row.bind(now)
            row.bind(record.signature)
        }
        return (sha256, db.lastInsertedRowID, now)
    }

    /// Stores `kept`, reports of `input` with no two of one id, and links each to the input; a report already present
    /// is linked, not copied, unless its copy gives way to this input's (``ReportCopies``). `reportsStored` counts the
    /// reports the input's savepoint stored: before these, then with them.
    static func write(
        _ kept: [Report], of input: IndexedInput, inputID: Int64, run: Int64, at now: DatabaseValue,
        _ outcome: inout IndexOutcome, _ tally: inout OccurrenceTally, reportsStored: inout Int, _ db: Database
    ) throws {
        for report in kept {
            var links: [(input: Int64, root: String)] = []
            if let stored = try ReportCopies.stored(report.id, run: run, db) {
                guard stored.givesWay(toCompleteness: report.completeness, from: input.record.path) else {
                    outcome.duplicateReportIDs.append(report.id)
                    try link(report.id, input: inputID, root: report.source.root, db)
                    continue
                }
                // Another input's copy: its counts are written, and its occurrences' trigger takes them off.
                let removed = try ReportCopies.remove(report.id, db)
                links = removed.links
                outcome.replacedReportIDs.append(report.id)
                // This run's digest counted a copy it stored itself, not one a killed run stored.
                if stored.run == run {
                    outcome.replacedCoverage[report.id] = removed.coverage ?? SymbolCoverage()
                }
            } else {
                outcome.newReportIDs.append(report.id)
            }
            try ReportWriter.insert(
                report, input: inputID, run: run, summaryPath: input.summaryPaths[report.id],
                crashDetails: input.crashDetails[report.id], eventDetails: input.eventDetails[report.id],
                eventSummaries: input.eventSummaries[report.id],
                symbolCoverage: input.symbolCoverage[report.id], indexedAt: now,
                several: MultiRowInsert.severalPerStatement(reportsStoredBefore: reportsStored), db)
            reportsStored += 1
            try GroupWriter.assign(report, input: input.record.path, run: run, at: now, tally: &tally, db)
            for link in links {
                try Self.link(report.id, input: link.input, root: link.root, db)
            }
            try link(report.id, input: inputID, root: report.source.root, db)
        }
    }

    /// The entries of an input that could not be read, quarantined with the input's other reports indexed.
    static func quarantine(
        _ failures: [InputError], of path: String, inputID: Int64, run: Int64, _ db: Database
    ) throws {
        for failure in failures {
            try db.execute(
                sql: """
                    INSERT INTO quarantine (input_id, run_id, path, entry, reason, created_at)
                    VALUES (?, ?, ?, ?, ?, ?)
                    """,
                arguments: [inputID, run, path, failure.entry, failure.reason, Date()])
        }
    }
}
