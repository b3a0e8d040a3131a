import Foundation

/// Renders a group's page (`out/groups/<fingerprint>.md`): what the bug is, how often and where it happens, which
/// frames made its fingerprint and which rule skipped each other frame, and the reports that hold it.
public struct GroupSummary: Sendable {
    /// Creates a renderer.
    public init() {}

    /// The Markdown for a group; `occurrencesThisRun` adds the run's count when known. Report links are relative
    /// to the `groups/` folder.
    public func render(_ detail: BugGroupDetail, occurrencesThisRun: Int? = nil) -> String {
        let group = detail.group
        var lines = [
            "# \(Self.kindName(group.kind)) group `\(group.fingerprint)`", "", "**\(Markdown.text(group.title))**", "",
        ]
        var rows: [(String, String)] = [("Status", Self.status(group))]
        var count = "\(group.occurrences)"
        if let occurrencesThisRun, occurrencesThisRun > 0 { count += " (\(occurrencesThisRun) in this run)" }
        rows.append(("Occurrences", count))
        rows.append(("First seen", "\(group.firstSeen.formatted(.iso8601)) (run \(group.firstRun))"))
        rows.append(("Last seen", "\(group.lastSeen.formatted(.iso8601)) (run \(group.lastRun))"))
        if !detail.appVersionCounts.isEmpty { rows.append(("App versions", Self.counts(detail.appVersionCounts))) }
        if !detail.osVersions.isEmpty { rows.append(("OS versions", Self.counts(detail.osVersions))) }
        if !detail.devices.isEmpty { rows.append(("Devices", Self.counts(detail.devices))) }
        if let explanation = group.explanation {
            rows.append(
                (
                    "Fingerprint",
                    "`\(explanation.key)` at resolution `\(explanation.resolution.rawValue)`, rules `\(explanation.rulesVersion)`"
                ))
        }
        if !detail.aliases.isEmpty {
            rows.append(("Merged in", detail.aliases.map { "`\($0)`" }.joined(separator: ", ")))
        }
        lines += ["| | |", "|---|---|"] + rows.map { "| \($0.0) | \(Markdown.cell($0.1)) |" }
        if let explanation = group.explanation {
            lines += [""] + Self.why(explanation)
        }
        lines += ["", "## Reports", ""]
        if detail.reports.isEmpty {
            lines.append("None.")
        } else {
            lines += ["| Report | Format | App | OS | Device | Run |", "|---|---|---|---|---|---:|"]
            for report in detail.reports {
                let short = String(report.reportID.prefix(12))
                let link = report.summaryPath.map { "[`\(short)`](../\($0))" } ?? "`\(short)`"
                let cells = [report.format, report.appVersion ?? "", report.osVersion ?? "", report.device ?? ""]
                    .map { Markdown.cell(Markdown.text($0)) }
                lines.append("| \(link) | \(cells.joined(separator: " | ")) | \(report.run) |")
            }
            if group.occurrences > detail.reports.count {
                lines.append("")
                lines.append("The latest \(detail.reports.count) of \(group.occurrences) occurrences.")
            }
        }
        return lines.joined(separator: "\n") + "\n"
    }

    /// "Why grouped": the key's parts, every frame with what the rules did to it, and the other resolutions' keys.
    static func why(_ explanation: Fingerprint) -> [String] {
        var lines = ["## Why these are one group", ""]
        let source = explanation.source.map { " of the \($0)" } ?? ""
        switch explanation.resolution {
        case .top1: lines.append("Keyed by the first in-app frame\(source).")
        case .top3: lines.append("Keyed by the top 3 in-app frames\(source).")
        case .topN: lines.append("No in-app frame: keyed by the top frames\(source), system frames included.")
        case .exception:
            lines.append(
                "No usable frame: keyed by " + explanation.components.map { "`\($0)`" }.joined(separator: " + ") + ".")
        case .screen, .endpoint:
            lines.append(
                "Keyed by the screen, the URL template and the outcome: "
                    + explanation.components.map { Markdown.code($0) }.joined(separator: " · ") + ".")
        }
        if [.top1, .top3, .topN].contains(explanation.resolution), !explanation.components.isEmpty {
            lines.append("With " + explanation.components.map { "`\($0)`" }.joined(separator: ", ") + ".")
        }
        if !explanation.frames.isEmpty {
            lines += ["", "| # | Function | Image | In-app | In key | Skipped because |", "|---:|---|---|---|---|---|"]
            for (index, frame) in explanation.frames.prefix(60).enumerated() {
                let cells = [
                    Markdown.cell(Markdown.code(frame.function)), Markdown.cell(Markdown.text(frame.image ?? "???")),
                    frame.inApp ? "yes" : "", frame.inKey ? "**yes**" : "",
                    Markdown.cell(Markdown.text(frame.skipped ?? "")),
                ]
                lines.append("| \(index) | \(cells.joined(separator: " | ")) |")
            }
            if explanation.frames.count > 60 { lines += ["", "… and \(explanation.frames.count - 60) more frames."] }
        }
        let others = explanation.keys.filter { $0.key != explanation.resolution.rawValue }.sorted { $0.key < $1.key }
        if !others.isEmpty {
            lines += [
                "", "Keys at other resolutions: " + others.map { "\($0.key) `\($0.value)`" }.joined(separator: ", "),
            ]
        }
        return lines
    }

    static func kindName(_ kind: Fingerprint.Kind) -> String {
        switch kind {
        case .crash: "Crash"
        case .termination: "Termination"
        case .jetsam: "Jetsam"
        case .failure: "Failure"
        }
    }

    static func status(_ group: BugGroup) -> String {
        switch group.status {
        case .resolved: "resolved" + (group.resolvedInVersion.map { " in \(Markdown.text($0))" } ?? "")
        case .regressed: "**regressed**" + (group.regressedInVersion.map { " in \(Markdown.text($0))" } ?? "")
        case .merged: "merged" + (group.mergedInto.map { " into group \($0)" } ?? "")
        default: group.status.rawValue
        }
    }

    private static func counts(_ counts: [BugGroupDetail.Count]) -> String {
        let shown = counts.prefix(8).map { "\(Markdown.text($0.value)) × \($0.count)" }.joined(separator: ", ")
        return counts.count > 8 ? shown + ", … (\(counts.count) in all)" : shown
    }
}
