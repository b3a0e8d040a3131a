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
        let unpacked: UnpackedInput
        do {
            unpacked = try ArchiveReader(limits: limits).read(path: path)
        } catch {
            throw InputError(error)
        }
        var output = try ReportReader(redactor: redactor).read(unpacked)
        Self.enrich(&output.reports, symbolicator: symbolicator, fingerprinter: fingerprinter)
        return output
    }

    /// Symbolicates (when a symbolicator is given), fingerprints and correlates reports in place, as `triage` and the
    /// nightly run both do: each report's crashes are changed where they lie, never copied frame by frame.
    package static func enrich(_ reports: inout [Report], symbolicator: Symbolicator?, fingerprinter: Fingerprinter) {
        for index in reports.indices {
            symbolicator?.symbolicate(&reports[index])
            let timeline = reports[index].timeline
            guard timeline.events.count >= SideBySide.events else {
                fingerprinter.fingerprint(&reports[index])
                Correlator().correlate(&reports[index])
                continue
            }
            // A long recording is correlated beside its fingerprinting, which reads no correlation.
            let report = reports[index]
            let (fingerprinted, correlation) = SideBySide.run(
                concurrently: true,
                {
                    var report = report
                    fingerprinter.fingerprint(&report)
                    return report
                },
                { Correlator().correlation(of: timeline, duration: report.duration) })
            reports[index] = fingerprinted
            reports[index].correlation = correlation
        }
    }
}
