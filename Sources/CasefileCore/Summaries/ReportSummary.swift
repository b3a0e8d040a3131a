import CasefileArchive
import Foundation

/// Renders one report as a GitHub-flavoured Markdown triage summary: header, what went wrong, timeline, warnings.
public struct ReportSummary: Sendable {
    /// The most timeline rows rendered; the rest are counted.
    public var timelineLimit: Int
    /// Where group pages are, relative to the summary (`../groups` in a run's output); `nil` prints fingerprints
    /// without links, as `casefile triage` does.
    public var groupPages: String?

    /// Creates a renderer.
    public init(timelineLimit: Int = 400, groupPages: String? = nil) {
        self.timelineLimit = timelineLimit
        self.groupPages = groupPages
    }

    /// The Markdown for `report`.
    public func render(_ report: Report) -> String {
        var lines: [String] = []
        lines.append("# \(report.format == .clue ? "Bug" : "Crash") report \(report.shortID)")
        lines.append("")
        lines += header(report)
        lines.append("")
        lines.append("## What went wrong")
        lines.append("")
        lines += failures(report)
        let groups = groupLines(report)
        if !groups.isEmpty {
            lines += ["", "## Groups", ""] + groups
        }
        if let exception = report.exception {
            lines.append("")
            lines += self.exception(exception)
        }
        for (index, crash) in report.crashes.enumerated() where report.format != .clue {
            lines.append("")
            lines += CrashSummary.render(crash, number: report.crashes.count > 1 ? index + 1 : nil)
        }
        if report.format == .clue || !report.timeline.events.isEmpty {
            lines.append("")
            lines.append("## Timeline")
            lines.append("")
            lines += timeline(report)
        }
        if !report.warnings.isEmpty {
            lines.append("")
            lines.append("## Warnings")
            lines.append("")
            lines += report.warnings.map { "- \(Markdown.code($0.description))" }
        }
        return lines.joined(separator: "\n") + "\n"
    }

    private func header(_ report: Report) -> [String] {
        var rows: [(String, String)] = []
        rows.append(("Report", Markdown.code(report.id) + (report.source.clueUUID.map { " (Clue \($0))" } ?? "")))
        rows.append(("Source", Markdown.code(report.source.description)))
        if let app = report.app, let name = app.name ?? app.bundleID {
            let version = [app.version, app.build.map { "(\($0))" }].compactMap { $0 }.joined(separator: " ")
            rows.append(("App", "\(name) \(version)"))
        } else if report.format == .clue {
            rows.append(("App", "not recorded (a Clue recording carries no app name or version)"))
        }
        let device = [report.device?.model, report.device?.operatingSystem].compactMap { $0 }
        rows.append(("Device", device.isEmpty ? "unknown" : device.joined(separator: " · ")))
        guard report.format == .clue else {
            return ["| | |", "|---|---|"] + rows.map { "| \($0.0) | \(Markdown.cell($0.1)) |" }
        }
        var recording: [String] = []
        if let duration = report.duration { recording.append(Markdown.seconds(duration)) }
        recording.append("\(report.viewSnapshotCount) view snapshot\(report.viewSnapshotCount == 1 ? "" : "s")")
        if let video = report.video {
            let length = video.duration.map { Markdown.seconds($0) } ?? "length unknown"
            recording.append("video \(length), \(Markdown.bytes(video.size))")
        } else {
            recording.append("no video")
        }
        rows.append(("Recording", recording.joined(separator: " · ")))
        var counts: [String: Int] = [:]
        for event in report.timeline.events { counts[event.kindName, default: 0] += 1 }
        let order = ["touch", "network", "screen", "view", "exception", "custom"]
        let names = [
            "touch": "touch phase", "network": "request", "screen": "screen", "view": "view update",
            "exception": "exception", "custom": "custom record",
        ]
        let tally = order.compactMap { key in
            counts[key].map { "\($0) \(names[key] ?? key)\($0 == 1 ? "" : "s")" }
        }
        rows.append(("Events", tally.isEmpty ? "none" : tally.joined(separator: " · ")))
        return ["| | |", "|---|---|"] + rows.map { "| \($0.0) | \(Markdown.cell($0.1)) |" }
    }

    private func failures(_ report: Report) -> [String] {
        let events = report.timeline.events
        var lines: [String] = []
        for (index, event) in events.enumerated() {
            guard case .network(let exchange) = event.kind, let failure = exchange.failure else { continue }
            let url = exchange.url.map { Markdown.code($0) } ?? "an unknown URL"
            var headline = "- **\(failure.summary)"
            if case .http = failure, let text = exchange.statusText { headline += " \(text)" }
            headline += "** — \(exchange.method.map { "\($0) " } ?? "")\(url) at \(Markdown.seconds(event.timestamp))"
            if exchange.method == nil { headline += " (method not recorded)" }
            lines.append(headline)
            if let error = exchange.error, let description = error.description {
                lines.append("  - error: \(description)")
            }
            let context = FailureContext(of: index, in: report.timeline)
            if let trigger = context.trigger {
                lines.append(
                    "  - after: \(EventDescription.details(trigger)) at \(Markdown.seconds(trigger.timestamp))")
            }
            if let consequence = context.consequence {
                let what = EventDescription.details(consequence)
                let kind = if case .screen = consequence.kind { "screen changed to" } else { "view changed:" }
                lines.append("  - then: \(kind) \(what) at \(Markdown.seconds(consequence.timestamp))")
            }
            if let body = exchange.bodyPreview {
                lines.append("  - response body: \(Markdown.code(Markdown.truncate(body, 200)))")
            }
        }
        for crash in report.crashes where report.format != .clue {
            lines.append("- " + CrashSummary.headline(crash))
        }
        if lines.isEmpty, report.exception != nil {
            lines.append("No recorded request failed; the recording ends with an uncaught exception (below).")
        } else if lines.isEmpty {
            lines.append("Nothing failed: no recorded request returned HTTP ≥ 400 or failed in transport.")
        } else if report.format == .clue {
            lines.append("")
            lines.append("_Trigger and consequence are the nearest touch before and view change after; a heuristic._")
        }
        return lines
    }

    /// One line per crash and failed request: its group's fingerprint (linked to the group page) and title.
    private func groupLines(_ report: Report) -> [String] {
        func link(_ fingerprint: String) -> String {
            groupPages.map { "[`\(fingerprint)`](\($0)/\(fingerprint).md)" } ?? "`\(fingerprint)`"
        }
        var lines: [String] = []
        for (index, crash) in report.crashes.enumerated() {
            guard let grouping = crash.grouping else { continue }
            let name = report.crashes.count > 1 ? "Crash \(index + 1)" : "Crash"
            lines.append(
                "- \(name): group \(link(grouping.key)) — \(Markdown.cell(grouping.title)) (by \(grouping.resolution.rawValue))"
            )
        }
        for failure in report.failures {
            let time = Markdown.seconds(report.timeline.events[failure.event].timestamp)
            lines.append(
                "- Failure at \(time): group \(link(failure.fingerprint)) — \(Markdown.cell(failure.grouping.title))")
        }
        return lines
    }

    private func exception(_ exception: AppException) -> [String] {
        var lines = ["## Exception", ""]
        lines.append("**\(exception.name ?? "Exception")**: \(exception.reason ?? "no reason recorded")")
        if !exception.callStackSymbols.isEmpty {
            lines.append("")
            lines.append("```")
            lines += exception.callStackSymbols
            lines.append("```")
        }
        return lines
    }

    private func timeline(_ report: Report) -> [String] {
        let events = report.timeline.events
        guard !events.isEmpty else { return ["No events were recorded."] }
        var lines = ["| Time | Event | Details |", "|---:|---|---|"]
        for event in events.prefix(timelineLimit) {
            let time = event.timeIsRecorded ? Markdown.seconds(event.timestamp) : "end"
            lines.append(
                "| \(time) | \(EventDescription.label(event)) | \(Markdown.cell(EventDescription.details(event))) |")
        }
        if events.count > timelineLimit {
            lines.append("")
            lines.append("… and \(events.count - timelineLimit) more events.")
        }
        return lines
    }
}
