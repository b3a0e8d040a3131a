import Foundation
import Logging

/// An input of many crash files, stored a part at a time (``InputInParts``, ``ReportReader/Parts``).
///
/// Everything the run asks the index of such an input is asked before the index's writer is held: which of its reports
/// the index holds, which from a night that is done, and the symbol folders' files (the symbolicator is made first).
/// Then each part is rendered, encoded and stored on the writer's thread, one part after another, asking the index
/// nothing through the writer: a task waiting for the writer meanwhile cannot be one this input waits for. Each part is
/// parsed and enriched ahead, on threads of its own, while the part before is stored
/// (``ReportReader/Parts/readingAhead(then:)``); the symbolicator's cache reads the index's stored answers beside the
/// writer (``ReportIndex/loadSymbolCache()``).
extension PipelineRunner {
    static func storeInParts(
        _ parts: ReportReader.Parts, of record: InputRecord, index: some ReportIndex, claims: ReportClaims, run: Int64,
        output: String, logger: Logger, symbolicator: RunSymbolicator?, fingerprinter: Fingerprinter,
        frames: (VideoFrames, URL)?
    ) async -> Outcome {
        let ids = parts.reportIDs
        logger.info(
            "\(record.path): \(ids.count) crash reports (and \(parts.duplicateCopies.count) more copies), read and stored \(parts.reportsPerPart) at a time"
        )
        // As an input read whole: one holding a report another input of the run is writing waits for its rows.
        await claims.claim(ids)
        let input = InputInParts(
            record: record, notes: parts.notes, failedEntries: parts.failures, reportIDs: ids,
            duplicateCopies: parts.duplicateCopies)
        let outcome: Outcome
        do {
            let known = try await index.knownReports(ids)
            let settled = (try? await index.settledReports(ids)) ?? []
            let reading = PartsReading(
                parts, of: record, known: known, settled: settled, symbolicator: await symbolicator?.symbolicator(),
                fingerprinter: fingerprinter, frames: frames, output: output, logger: logger)
            let stored = try await index.record(
                inParts: input, run: run, next: { try reading.next() }, written: { reading.written($0, $1) })
            outcome = .indexedInParts(input, stored, digest: reading.digest)
        } catch let error as InputError {
            // A part's entry that could not be read back: the error names the input and the entry.
            outcome = .failed(record, error)
        } catch {
            outcome = .failed(record, InputError(input: record.path, reason: "cannot be indexed: \(error)"))
        }
        await claims.release(ids)
        return outcome
    }
}

/// The parts of one input as the index's writer asks for them, on its thread, one at a time: each read again,
/// enriched and rendered as an input read whole is, then let go once stored.
final class PartsReading: @unchecked Sendable {
    /// What the run's digest counts of one report stored (``RunDigest/add(_:)-(RunDigest.Entry)``).
    enum DigestEntry: Sendable {
        /// A report stored for the first time.
        case added(RunDigest.Entry)
        /// A copy that replaced one this run stored, counted with the coverage given.
        case replaced(RunDigest.Entry, SymbolCoverage)
    }

    /// Read a part ahead: a part's reports are parsed and enriched (but those the index holds from a night that is
    /// done) while the one before is stored.
    private let parts: ReportReader.Parts.ReadAhead
    private let record: InputRecord
    /// The reports the index held before the input was stored, and those stored by the parts before: their summaries
    /// and blobs are not made again.
    private var known: Set<String>
    private let output: String
    private let logger: Logger
    /// The summaries of the part being stored.
    private var summaries: InputSummaries?
    /// What the digest counts, in the input's order.
    private(set) var digest: [DigestEntry] = []

    init(
        _ parts: ReportReader.Parts, of record: InputRecord, known: Set<String>, settled: Set<String>,
        symbolicator: Symbolicator?, fingerprinter: Fingerprinter, frames: (VideoFrames, URL)?, output: String,
        logger: Logger
    ) {
        self.parts = parts.readingAhead { part in
            PartsReading.enriched(
                part, settled: settled, symbolicator: symbolicator, fingerprinter: fingerprinter, frames: frames,
                twoThreads: part.count >= SideBySide.reports)
        }
        self.record = record
        self.known = known
        self.output = output
        self.logger = logger
    }

    /// The next part, read, enriched, and with its new reports' summaries written (before their rows, as for an input
    /// read whole); `nil` after the last. Throws when an entry of the part cannot be read back (``ReportReader/Parts``).
    func next() throws(InputError) -> IndexedInput? {
        guard let reports = try parts.next() else { return nil }
        let summaries = InputSummaries(reports)
        var part = IndexedInput(
            record: record, reports: reports, notes: [], summaryPaths: summaries.paths, failedEntries: [])
        part.encodeSymbolCoverage(summaries.coverage)
        PipelineRunner.prepare(&part, known: known, summaries: summaries, output: output, logger: logger)
        known.formUnion(reports.map(\.id))
        self.summaries = summaries
        return part
    }

    /// `reports` enriched as the run enriches an input read whole, but those the index holds from a night that is
    /// done, left as parsed; on two threads with `twoThreads`.
    private static func enriched(
        _ reports: [Report], settled: Set<String>, symbolicator: Symbolicator?, fingerprinter: Fingerprinter,
        frames: (VideoFrames, URL)?, twoThreads: Bool
    ) -> [Report] {
        var reports = reports
        let fresh = reports.indices.filter { !settled.contains(reports[$0].id) }
        if fresh.count == reports.count {
            Triage.enrich(&reports, symbolicator: symbolicator, fingerprinter: fingerprinter, twoThreads: twoThreads)
            PipelineRunner.extractFrames(&reports, frames)
        } else {
            var enriched = fresh.map { reports[$0] }
            Triage.enrich(&enriched, symbolicator: symbolicator, fingerprinter: fingerprinter, twoThreads: twoThreads)
            PipelineRunner.extractFrames(&enriched, frames)
            for (position, report) in zip(fresh, enriched) { reports[position] = report }
        }
        return reports
    }

    /// Takes what storing `part` did: writes the summaries of the copies it replaced, and keeps what the digest
    /// counts of its reports.
    func written(_ part: IndexedInput, _ outcome: IndexOutcome) {
        guard let summaries else { return }
        PipelineRunner.writeSummaries(
            outcome.replacedReportIDs, of: part, summaries: summaries, output: output, logger: logger)
        let new = Set(outcome.newReportIDs)
        for report in part.reports {
            let entry = { RunDigest.Entry(report, summaryPath: part.summaryPaths[report.id], coverage: $0) }
            if new.contains(report.id) {
                digest.append(.added(entry(summaries.coverage[report.id])))
            } else if let replaced = outcome.replacedCoverage[report.id] {
                digest.append(.replaced(entry(summaries.coverage[report.id]), replaced))
            }
        }
        self.summaries = nil
    }
}
