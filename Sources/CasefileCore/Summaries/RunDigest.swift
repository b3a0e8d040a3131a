public import Foundation

/// What one run did, for the digest a triager reads in the morning: figures, new reports, quarantined inputs and
/// symbol coverage.
public struct RunDigest: Sendable {
    /// A report indexed for the first time in this run.
    public struct NewReport: Sendable, Hashable {
        /// The report id.
        public var id: String
        /// The input the report was indexed from.
        public var input: String
        /// One line: the crash headline, the first failed request, or the device.
        public var headline: String
        /// The summary file, relative to the output folder.
        public var summaryPath: String?
    }

    /// An image whose UUID no debug file had.
    public struct MissingImage: Sendable, Hashable, Codable {
        /// The image name.
        public var name: String
        /// The image UUID.
        public var uuid: String
        /// How many frames fell in it: of this run's crashes in the digest, of one report's in a ``SymbolCoverage``.
        public var frames: Int

        /// Creates a missing image.
        public init(name: String, uuid: String, frames: Int) {
            self.name = name
            self.uuid = uuid
            self.frames = frames
        }
    }

    /// The run's figures.
    public var summary: RunSummary
    /// The first ``listedReports`` reports indexed for the first time, by input path, then report id: the same for
    /// the same inbox, whatever order the run's parallel tasks finished in.
    public var newReports: [NewReport] {
        firstListed(Self.listedReports)
    }

    /// The first `count` candidates by input path, then report id.
    private func firstListed(_ count: Int) -> [NewReport] {
        Array(listed.sorted { ($0.input, $0.id) < ($1.input, $1.id) }.prefix(count))
    }

    /// How many new reports the run found; only the first ``listedReports`` are kept for ``newReports``, so a run of
    /// 50,000 inputs does not hold 50,000 headlines.
    public var newReportCount = 0
    /// Candidates for ``newReports``: fewer than three times ``listedReports``, unordered. When full, the first twice
    /// ``listedReports`` are kept and the last of them is ``listedBound``; a report sorting after it is not listed.
    /// The candidates beyond the ones listed are a margin for ``replace(_:summaryPath:coverage:replacing:)``: a copy
    /// replaced by one from an input sorting after the bound leaves the candidates, and without the margin the list
    /// showed one report fewer than it should. It would now take more than ``listedReports`` such replacements in
    /// one run.
    private var listed: [NewReport] = []
    private var listedBound: (input: String, id: String)?
    /// The most new reports the digest lists.
    public static let listedReports = 200
    /// App frames of this run's crashes, and how many of them were symbolicated.
    public var inAppFrames = 0
    /// App frames symbolicated.
    public var inAppSymbolicated = 0
    /// Whether symbol folders were configured.
    public var symbolicationConfigured = false
    /// The groups after the run: new, regressed, top.
    public var groups: GroupDigest?
    private var missing: [String: MissingImage] = [:]
    /// The most images without a debug file counted: a run over thousands of devices and OS builds meets tens of
    /// thousands of system image UUIDs, and the digest lists 50.
    static let trackedImages = 2_000
    /// Whether images past ``trackedImages`` were met and not counted.
    private var untrackedImages = false

    /// Starts a digest.
    public init(summary: RunSummary, symbolicationConfigured: Bool) {
        self.summary = summary
        self.symbolicationConfigured = symbolicationConfigured
    }

    /// Counts a new report: its headline and its symbol coverage (counted here when not given).
    public mutating func add(_ report: Report, summaryPath: String?, coverage: SymbolCoverage? = nil) {
        take(
            id: report.id, input: report.source.input, headline: Self.headline(report), summaryPath: summaryPath,
            coverage: coverage ?? SymbolCoverage(report), replacing: nil)
    }

    /// What the digest keeps of one report: made where the report is, so that an input read in parts need not keep
    /// its reports until the digest counts them.
    package struct Entry: Sendable {
        fileprivate var listing: NewReport
        fileprivate var coverage: SymbolCoverage

        /// The entry of `report`, with its coverage (counted here when not given).
        package init(_ report: Report, summaryPath: String?, coverage: SymbolCoverage? = nil) {
            listing = NewReport(
                id: report.id, input: report.source.input, headline: RunDigest.headline(report),
                summaryPath: summaryPath)
            self.coverage = coverage ?? SymbolCoverage(report)
        }
    }

    /// Counts a new report from its ``Entry``.
    package mutating func add(_ entry: Entry) {
        take(entry, replacing: nil)
    }

    /// Lists and counts `report` in place of another input's copy of it, which this run added and the index replaced
    /// with this one (``IndexOutcome/replacedCoverage``): `replaced` is the symbol coverage that copy was counted
    /// with, taken off before this copy's (counted here when not given) is added.
    public mutating func replace(
        _ report: Report, summaryPath: String?, coverage: SymbolCoverage? = nil, replacing replaced: SymbolCoverage
    ) {
        take(
            id: report.id, input: report.source.input, headline: Self.headline(report), summaryPath: summaryPath,
            coverage: coverage ?? SymbolCoverage(report), replacing: replaced)
    }

    /// ``replace(_:summaryPath:coverage:replacing:)`` from the report's ``Entry``.
    package mutating func replace(_ entry: Entry, replacing replaced: SymbolCoverage) {
        take(entry, replacing: replaced)
    }

    private mutating func take(_ entry: Entry, replacing replaced: SymbolCoverage?) {
        take(
            id: entry.listing.id, input: entry.listing.input, headline: entry.listing.headline,
            summaryPath: entry.listing.summaryPath, coverage: entry.coverage, replacing: replaced)
    }

    /// Lists and counts one report: a new one (`replaced` nil), or one in place of a copy counted with `replaced`,
    /// whose listing goes and whose coverage is taken off. Its headline is made only if it is listed.
    private mutating func take(
        id: String, input: String, headline: @autoclosure () -> String, summaryPath: String?, coverage: SymbolCoverage,
        replacing replaced: SymbolCoverage?
    ) {
        if replaced == nil {
            newReportCount += 1
        } else {
            listed.removeAll { $0.id == id }
        }
        list(id: id, input: input, headline: headline(), summaryPath: summaryPath)
        if let replaced { count(replaced, times: -1) }
        count(coverage, times: 1)
    }

    /// Adds (`times` 1) or takes off (-1) one report's coverage.
    private mutating func count(_ coverage: SymbolCoverage, times: Int) {
        inAppFrames += times * coverage.inAppFrames
        inAppSymbolicated += times * coverage.inAppSymbolicated
        for image in coverage.missing {
            if let known = missing[image.uuid] {
                let frames = known.frames + times * image.frames
                missing[image.uuid]?.frames = frames
                if frames <= 0 { missing[image.uuid] = nil }
            } else if times < 0 {
                // An image past ``trackedImages`` when its frames were added: they were never counted.
                continue
            } else if missing.count < Self.trackedImages {
                missing[image.uuid] = image
            } else {
                untrackedImages = true
            }
        }
    }

    /// Keeps a report among the candidates for ``newReports`` when it may be one of them; its headline is made only
    /// then.
    private mutating func list(
        id: String, input: String, headline: @autoclosure () -> String, summaryPath: String?
    ) {
        guard listedBound.map({ (input, id) < $0 }) ?? true else { return }
        listed.append(NewReport(id: id, input: input, headline: headline(), summaryPath: summaryPath))
        if listed.count == 3 * Self.listedReports {
            listed = firstListed(2 * Self.listedReports)
            listedBound = listed.last.map { ($0.input, $0.id) }
        }
    }

    /// Images without a debug file, most frames first, then by name and UUID.
    public var missingImages: [MissingImage] {
        missing.values.sorted { ($0.frames, $1.name, $1.uuid) > ($1.frames, $0.name, $0.uuid) }
    }

    /// The digest as Markdown.
    public func render(startedAt: Date) -> String {
        var lines = ["# Casefile run \(summary.runID) — \(startedAt.formatted(.iso8601))", ""]
        lines += [
            "| Inputs | Processed | Skipped | Quarantined | New reports | Duplicates | Seconds |",
            "|---:|---:|---:|---:|---:|---:|---:|",
            "| \(summary.inputs) | \(summary.processed) | \(summary.skipped) | \(summary.quarantined.count) | "
                + "\(summary.newReports) | \(summary.duplicateReports) | \(String(format: "%.2f", summary.seconds)) |",
            "",
        ]
        lines += groupSections()
        lines += ["## New reports", ""]
        // Sorted once: `newReports` sorts its candidates each time it is read.
        let reports = newReports
        if reports.isEmpty {
            lines.append("None.")
        }
        for report in reports {
            let link =
                report.summaryPath.map { "[\(String(report.id.prefix(12)))](\($0))" } ?? String(report.id.prefix(12))
            lines.append("- \(link) — \(report.headline)")
        }
        if newReportCount > reports.count { lines.append("- … and \(newReportCount - reports.count) more") }
        lines += ["", "## Quarantined", ""]
        if summary.quarantined.isEmpty { lines.append("None.") }
        lines += summary.quarantined.map { "- \(Markdown.code($0.description))" }
        lines += ["", "## Symbol coverage", ""]
        if !symbolicationConfigured {
            lines.append("No symbol folders are configured (`[symbols] paths` in the pipeline definition).")
        } else if inAppFrames == 0 {
            lines.append("No app frames in this run's new crashes.")
        } else {
            let share = Double(inAppSymbolicated) / Double(inAppFrames) * 100
            lines.append(
                "App frames symbolicated: \(inAppSymbolicated) of \(inAppFrames) (\(String(format: "%.0f", share)) %).")
        }
        if !missingImages.isEmpty {
            lines += [
                "", "Images with no debug file for their UUID:", "", "| Image | UUID | Frames |", "|---|---|---:|",
            ]
            lines += missingImages.prefix(50).map {
                "| \(Markdown.cell(Markdown.text($0.name))) | \(Markdown.cell(Markdown.code($0.uuid))) | \($0.frames) |"
            }
            if untrackedImages {
                lines += [
                    "", "_More images had no debug file; only the first \(Self.trackedImages) met were counted._",
                ]
            }
        }
        return lines.joined(separator: "\n") + "\n"
    }

    /// New groups, regressed groups and the top groups, before anything else: a triager's morning starts there.
    private func groupSections() -> [String] {
        guard let groups else { return [] }
        func row(_ id: Int64) -> String? {
            guard let detail = groups.groups[id] else { return nil }
            let group = detail.group
            let link = "[`\(group.fingerprint)`](groups/\(group.fingerprint).md)"
            let versions = detail.appVersionCounts.prefix(3).map(\.value).joined(separator: ", ")
            return "| \(link) | \(Markdown.cell(Markdown.text(group.title))) | \(GroupSummary.kindName(group.kind)) | "
                + "\(groups.occurrencesThisRun[id] ?? 0) | \(group.occurrences) | \(Markdown.cell(Markdown.text(versions))) | "
                + "\(GroupSummary.status(group)) |"
        }
        let header = [
            "| Group | Title | Kind | This run | All | App versions | Status |", "|---|---|---|---:|---:|---|---|",
        ]
        var lines: [String] = []
        for (title, ids) in [
            ("New groups", groups.newGroups), ("Regressed", groups.regressed), ("Top groups", groups.top),
        ] {
            lines += ["## \(title)", ""]
            let rows = ids.prefix(GroupDigest.listed).compactMap(row)
            lines += rows.isEmpty ? ["None."] : header + rows
            if ids.count > GroupDigest.listed { lines += ["", "… and \(ids.count - GroupDigest.listed) more."] }
            lines.append("")
        }
        return lines
    }

    fileprivate static func headline(_ report: Report) -> String {
        if let crash = report.crashes.first {
            return CrashSummary.headline(crash)
        }
        if let failure = report.failedExchanges.first, let reason = failure.exchange.failure {
            return "**\(reason.summary)** — \(failure.exchange.url.map { Markdown.code($0) } ?? "unknown URL")"
        }
        let device = [report.device?.model, report.device?.operatingSystem].compactMap { $0 }.joined(separator: " · ")
        return "no failure recorded" + (device.isEmpty ? "" : " (\(Markdown.text(device)))")
    }
}
