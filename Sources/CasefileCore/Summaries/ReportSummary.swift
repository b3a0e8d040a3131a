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
        // A recording with many failures has them written beside the rest of its summary.
        let (failures, rest) = SideBySide.run(
            concurrently: report.correlation.chains.count >= SideBySide.chains, { self.failures(report) },
            { self.sections(afterFailures: report) })
        var lines: [String] = []
        lines.append("# \(report.format == .clue ? "Bug" : "Crash") report \(report.shortID)")
        lines.append("")
        lines += header(report)
        lines.append("")
        lines.append("## What went wrong")
        lines.append("")
        lines += failures
        lines += rest
        return lines.joined(separator: "\n") + "\n"
    }

    /// The sections after "What went wrong": groups, the exception, crashes, repro steps, what came before the crash,
    /// attachments, the timeline and the warnings.
    private func sections(afterFailures report: Report) -> [String] {
        var lines: [String] = []
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
        let steps = ChainSummary.steps(report)
        if !steps.isEmpty {
            lines += ["", "## Repro steps", ""] + steps
        }
        let crashFrame = report.frames.first { $0.moment == "crash" }
        if !report.correlation.beforeCrash.isEmpty || crashFrame != nil {
            lines += ["", "## Before the crash", ""]
            if let crashFrame {
                lines += [ChainSummary.image(crashFrame), ""]
            }
            lines += report.correlation.beforeCrash.map { index in
                let event = report.timeline.events[index]
                return "- \(Markdown.seconds(event.timestamp)) \(EventDescription.label(event)): "
                    + Markdown.cell(EventDescription.details(event))
            }
        }
        let attachments = AttachmentSummary.render(report.attachments)
        if !attachments.isEmpty {
            lines += ["", "## Attachments", ""] + attachments
        }
        if report.format == .clue || !report.timeline.events.isEmpty {
            lines.append("")
            lines.append("## Timeline")
            lines.append("")
            let diagram = ChainSummary.mermaid(report)
            if !diagram.isEmpty {
                lines += diagram + [""]
            }
            let count = report.timeline.events.count
            lines.append("<details><summary>All \(count) event\(count == 1 ? "" : "s")</summary>")
            lines.append("")
            lines += timeline(report)
            lines.append("")
            lines.append("</details>")
        }
        if !report.warnings.isEmpty {
            lines.append("")
            lines.append("## Warnings")
            lines.append("")
            lines += report.warnings.map { "- \(Markdown.code($0.description))" }
        }
        return lines
    }

    private func header(_ report: Report) -> [String] {
        var rows: [(String, String)] = []
        rows.append(("Report", Markdown.code(report.id) + (report.source.clueUUID.map { " (Clue \($0))" } ?? "")))
        rows.append(("Source", Markdown.code(report.source.description)))
        if let app = report.app, let name = app.name ?? app.bundleID {
            let version = [app.version, app.build.map { "(\($0))" }].compactMap { $0 }.joined(separator: " ")
            rows.append(("App", Markdown.text("\(name) \(version)")))
        } else if report.format == .clue {
            rows.append(("App", "not recorded (a Clue recording carries no app name or version)"))
        }
        let device = [report.device?.model, report.device?.operatingSystem].compactMap { $0 }
        rows.append(("Device", device.isEmpty ? "unknown" : Markdown.text(device.joined(separator: " · "))))
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
        let order = [
            "touch", "network", "screen", "view", "log", "analytics", "push", "snapshot", "exception", "custom",
        ]
        let names = [
            "touch": "touch phase", "network": "request", "screen": "screen", "view": "view update",
            "log": "log line", "analytics": "analytics event", "push": "push notification",
            "snapshot": "data snapshot", "exception": "exception", "custom": "custom record",
        ]
        let tally = order.compactMap { key in
            counts[key].map { "\($0) \(names[key] ?? key)\($0 == 1 ? "" : "s")" }
        }
        rows.append(("Events", tally.isEmpty ? "none" : tally.joined(separator: " · ")))
        return ["| | |", "|---|---|"] + rows.map { "| \($0.0) | \(Markdown.cell($0.1)) |" }
    }

    private func failures(_ report: Report) -> [String] {
        var lines = ChainSummary.chains(report)
        for crash in report.crashes where report.format != .clue {
            lines.append("- " + CrashSummary.headline(crash))
        }
        if lines.isEmpty, report.exception != nil {
            lines.append("No recorded request failed; the recording ends with an uncaught exception (below).")
        } else if lines.isEmpty {
            lines.append("Nothing failed: no recorded request returned HTTP ≥ 400 or failed in transport.")
        } else if !report.correlation.chains.isEmpty {
            lines.append("")
            lines.append(
                "_Each chain links a failed request to the tap that most plausibly triggered it and what the screen did"
                    + " next; a heuristic, with its evidence._")
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
                "- \(name): group \(link(grouping.key)) — \(Markdown.text(grouping.title)) (by \(grouping.resolution.rawValue))"
            )
        }
        for failure in report.failures {
            let time = Markdown.seconds(report.timeline.events[failure.event].timestamp)
            lines.append(
                "- Failure at \(time): group \(link(failure.fingerprint)) — \(Markdown.text(failure.grouping.title))")
        }
        return lines
    }

    private func exception(_ exception: AppException) -> [String] {
        var lines = ["## Exception", ""]
        lines.append(
            "**\(Markdown.text(exception.name ?? "Exception"))**: \(Markdown.text(XcodeName.demangled(in: exception.reason ?? "no reason recorded")))"
        )
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
