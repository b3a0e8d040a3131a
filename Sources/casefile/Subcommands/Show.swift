import ArgumentParser
import CasefileCore
import CasefileStore
import Foundation

extension Casefile {
    /// `casefile show GROUP|REPORT`: one group's page, or one report's summary, from the index.
    struct Show: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "show",
            abstract:
                "Print one group's page (why it is one group, its versions, devices and reports) or one report's summary."
        )

        @OptionGroup var index: IndexOptions

        @Argument(
            help:
                "A group id, at least 6 digits of a group's fingerprint (or of one merged into it), or of a report id.")
        var reference: String

        @Flag(
            help:
                "For a report: every thread of its crashes, every frame, and the binary images, from the index (its summary shows the crashed thread)."
        )
        var threads = false

        @Option(
            help:
                "Output format: markdown, or json (versioned; a group: Schemas/group-v1.schema.json, a report: Schemas/report-v1.schema.json, every thread and event included)."
        )
        var format: Triage.Format = .markdown

        func run() throws {
            let store = try index.open()
            if format == .json {
                if !threads, let found = try store.group(named: reference),
                    let detail = try store.groupDetail(id: found.id)
                {
                    try printJSON(GroupDocument(detail))
                    return
                }
                if let report = try store.report(named: reference) {
                    try printJSON(try store.reportDocument(report))
                    return
                }
                _ = try index.group(reference, in: store, orReport: true)
                throw ExitStatus.usage.exitCode
            }
            if threads {
                guard let report = try store.report(named: reference) else {
                    printError(
                        "casefile: no single report matches '\(reference)'; --threads needs at least 6 digits of a report id"
                    )
                    throw ExitStatus.usage.exitCode
                }
                let crashes = try store.crashes(reportID: report.id).map { crash in
                    let detail = try store.crashDetail(crashID: crash.id)
                    return AllThreadsSummary.CrashDetail(threads: detail.threads, images: detail.images)
                }
                print(AllThreadsSummary.render(report: report.id, crashes: crashes), terminator: "")
                return
            }
            if let found = try store.group(named: reference), let detail = try store.groupDetail(id: found.id) {
                print(GroupSummary().render(detail), terminator: "")
                return
            }
            if let report = try store.report(named: reference), let path = report.summaryPath {
                let output =
                    try index.definition()?.output ?? URL(fileURLWithPath: store.path).deletingLastPathComponent()
                let file = output.appendingPathComponent(path).path
                guard let text = try? String(contentsOfFile: file, encoding: .utf8) else {
                    printError("casefile: report \(report.id) is indexed, but its summary \(file) cannot be read")
                    throw ExitStatus.cannotStart.exitCode
                }
                print(text, terminator: "")
                return
            }
            _ = try index.group(reference, in: store, orReport: true)
        }
    }

    /// `casefile resolve GROUP [--in-version V]`.
    struct Resolve: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "resolve",
            abstract: "Mark a group resolved; seeing it again in a newer app version makes it regress.")

        @OptionGroup var index: IndexOptions

        @Argument(help: "A group id or fingerprint.")
        var group: String

        @Option(name: .customLong("in-version"), help: "The app version with the fix, e.g. 2.4.0 or '2.4.0 (420)'.")
        var inVersion: String?

        func run() throws {
            let store = try index.open()
            let found = try index.group(group, in: store)
            try store.resolve(groupID: found.id, inVersion: inVersion)
            let suffix = inVersion.map { " in \($0)" } ?? ""
            print("resolved group \(found.id) (\(found.fingerprint))\(suffix): \(found.title)")
        }
    }

    /// `casefile merge-groups A B`.
    struct MergeGroups: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "merge-groups",
            abstract: "Merge group B into group A; later reports with B's fingerprint land in A too.")

        @OptionGroup var index: IndexOptions

        @Argument(help: "The group to keep.")
        var target: String

        @Argument(help: "The group merged into it.")
        var source: String

        func run() throws {
            let store = try index.open()
            let kept = try index.group(target, in: store)
            let merged = try index.group(source, in: store)
            guard kept.id != merged.id else {
                printError("casefile: '\(target)' and '\(source)' are the same group")
                throw ExitStatus.usage.exitCode
            }
            try store.merge(merged.id, into: kept.id)
            print("merged group \(merged.id) (\(merged.fingerprint)) into group \(kept.id) (\(kept.fingerprint))")
        }
    }
}
