public import CasefileArchive

/// The one-report path: unpack and parse one input, no index.
public struct Triage: Sendable {
    /// Bounds for unpacking.
    public var limits: ArchiveLimits
    /// The Fingerprint stage.
    public var fingerprinter: Fingerprinter
    /// What is masked before anything is shown.
    public var redactor: Redactor

    /// Creates a triage stage.
    public init(
        limits: ArchiveLimits = .default, fingerprinter: Fingerprinter = Fingerprinter(), redactor: Redactor = .standard
    ) {
        self.limits = limits
        self.fingerprinter = fingerprinter
        self.redactor = redactor
    }

    /// The reports of the input at `path`, their crashes symbolicated when a symbolicator is given.
    public func reports(at path: String, symbolicator: Symbolicator? = nil) throws(InputError) -> ReportReader.Output {
        var unpacked = try unpack(path)
        return try whole(&unpacked, symbolicator: symbolicator)
    }

    /// The input at `path`, unpacked.
    func unpack(_ path: String) throws(InputError) -> UnpackedInput {
        do {
            return try ArchiveReader(limits: limits).read(path: path)
        } catch {
            throw InputError(error)
        }
    }

    /// The reports of `unpacked`, read and enriched; `unpacked` is handed over to the reader and keeps no entries, so
    /// each entry's bytes go once it is read (``ReportReader/read(_:)``).
    func whole(_ unpacked: inout UnpackedInput, symbolicator: Symbolicator?) throws(InputError) -> ReportReader.Output {
        let handed = unpacked
        unpacked.entries = []
        var output = try ReportReader(redactor: redactor).read(consume handed)
        Self.enrich(
            &output.reports, symbolicator: symbolicator, fingerprinter: fingerprinter,
            twoThreads: output.reports.count >= SideBySide.reports)
        return output
    }

    /// Symbolicates (when a symbolicator is given), fingerprints and correlates reports in place, as `triage` and the
    /// nightly run both do: each report's crashes are changed where they lie, never copied frame by frame. With
    /// `twoThreads`, two threads take the reports one at a time (``SideBySide/map(count:concurrently:state:_:)``), and
    /// the symbolicator may read its cache through the index from either: not for reports enriched on the index
    /// writer's thread, which holds the index the other would wait for.
    package static func enrich(
        _ reports: inout [Report], symbolicator: Symbolicator?, fingerprinter: Fingerprinter, twoThreads: Bool = false
    ) {
        let count = reports.count
        reports.withUnsafeMutableBufferPointer { reports in
            _ = SideBySide.map(count: count, concurrently: twoThreads) { index in
                enrich(&reports[index], symbolicator: symbolicator, fingerprinter: fingerprinter)
            }
        }
    }

    private static func enrich(_ report: inout Report, symbolicator: Symbolicator?, fingerprinter: Fingerprinter) {
        symbolicator?.symbolicate(&report)
        let timeline = report.timeline
        guard timeline.events.count >= SideBySide.events else {
            fingerprinter.fingerprint(&report)
            Correlator().correlate(&report)
            return
        }
        // A long recording is correlated beside its fingerprinting, which reads no correlation.
        let whole = report
        let (fingerprinted, correlation) = SideBySide.run(
            concurrently: true,
            {
                var report = whole
                fingerprinter.fingerprint(&report)
                return report
            },
            { Correlator().correlation(of: timeline, duration: whole.duration) })
        report = fingerprinted
        report.correlation = correlation
    }
}
