import CasefileArchive

extension Triage {
    /// What triage reads of one input: its reports, or the parts of a large input of many crash files.
    public enum Reading: Sendable {
        /// Every report, read and enriched.
        case whole(ReportReader.Output)
        /// An input of more crash files than one part and no recording, unpacking to more than the bound given: read
        /// and enriched a part at a time, so that what triage holds is one part's reports, not all of them.
        case parts(TriageParts)
    }

    /// The input at `path`, as ``reports(at:symbolicator:)`` reads it, or in parts of `reportsPerPart` reports when it
    /// is an input of that many crash files or more and unpacks to more than `unpackedPast` bytes (the nightly run's
    /// bounds: ``PipelineDefinition/reportsPerPart``, 64 MiB). Either way gives the same reports in the same order.
    public func read(
        at path: String, symbolicator: Symbolicator? = nil,
        reportsPerPart: Int = PipelineDefinition.defaultReportsPerPart, unpackedPast: Int = 64 << 20
    ) throws(InputError) -> Reading {
        var unpacked = try unpack(path)
        // Every copy of a report, in its file's place, as the input read whole prints them.
        if let parts = ReportReader(redactor: redactor).parts(
            of: &unpacked, reportsPerPart: reportsPerPart, unpackedPast: unpackedPast, keepingCopies: true)
        {
            return .parts(TriageParts(parts, symbolicator: symbolicator, fingerprinter: fingerprinter))
        }
        return .whole(try whole(&unpacked, symbolicator: symbolicator))
    }
}

/// The parts of one large input as triage reads them (``Triage/read(at:symbolicator:reportsPerPart:unpackedPast:)``):
/// its notes and quarantined entries known at once, its reports a part at a time, each part read, redacted and
/// enriched as the input read whole would be.
public struct TriageParts: Sendable {
    private let parts: ReportReader.Parts
    /// The parts read and enriched a part ahead: the next part while the caller prints the one before.
    private let reading: ReportReader.Parts.ReadAhead

    init(_ parts: ReportReader.Parts, symbolicator: Symbolicator?, fingerprinter: Fingerprinter) {
        self.parts = parts
        reading = parts.readingAhead { part in
            var reports = part
            Triage.enrich(
                &reports, symbolicator: symbolicator, fingerprinter: fingerprinter,
                twoThreads: reports.count >= SideBySide.reports)
            return reports
        }
    }

    /// Entries passed over, one line each, as ``ReportReader/Output/notes`` gives them.
    public var notes: [String] { parts.notes }
    /// Entries that are reports but could not be read.
    public var failures: [InputError] { parts.failures }
    /// The reports the parts hold, all parts together, every copy of one report counted.
    public var reportCount: Int { parts.reportIDs.count }

    /// The next part's reports, enriched; `nil` after the last. Throws when an entry cannot be read back
    /// (``ReportReader/Parts/next()``).
    public func next() throws(InputError) -> [Report]? {
        try reading.next()
    }
}
