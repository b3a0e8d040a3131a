import ArgumentParser
import CasefileCore
import CasefileStore
import Foundation

extension Casefile {
    /// `casefile groups`: the bugs in the index, most occurrences first.
    struct Groups: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "groups",
            abstract: "List the groups (bugs) in the index, or preview regrouping at another resolution.")

        @OptionGroup var index: IndexOptions

        @Flag(help: "Only groups first seen in the latest run that saw them.")
        var new = false

        @Option(
            help: "Only groups with this status: new, ongoing, regressed, resolved, or merged (left out otherwise).")
        var status: String?

        @Option(help: "Only groups seen on or after this date (YYYY-MM-DD).")
        var since: String?

        @Option(
            help: ArgumentHelp(
                "Show which groups would merge or split at this resolution: top1, top3, topN or exception.",
                valueName: "resolution"))
        var regroup: String?

        @Option(help: "List at most this many groups, most occurrences first; 0 lists them all.")
        var limit = 50

        @Option(
            help:
                "Output format: table, or json (versioned; see Schemas/groups-v1.schema.json, and regroup-v1.schema.json for --regroup)."
        )
        var format: ListFormat = .table

        enum ListFormat: String, ExpressibleByArgument, CaseIterable {
            case table
            case json
        }

        func run() throws {
            guard limit >= 0 else {
                printError("casefile: --limit takes a count of groups (0 for all), not \(limit)")
                throw ExitStatus.usage.exitCode
            }
            let store = try index.open()
            if let regroup {
                guard let resolution = Fingerprint.Resolution(rawValue: regroup) else {
                    printError(
                        "casefile: --regroup takes top1, top3, topN, exception, screen or endpoint, not '\(regroup)'")
                    throw ExitStatus.usage.exitCode
                }
                let preview = try store.regroupPreview(resolution)
                switch format {
                case .json: try printJSON(RegroupDocument(preview))
                case .table: print(RegroupReport.render(preview), terminator: "")
                }
                return
            }
            var statusFilter: BugGroup.Status? = new ? .new : nil
            if let status {
                guard let value = BugGroup.Status(rawValue: status) else {
                    printError("casefile: --status takes new, ongoing, regressed, resolved or merged, not '\(status)'")
                    throw ExitStatus.usage.exitCode
                }
                statusFilter = value
            }
            var sinceDate: Date?
            if let since {
                guard let date = try? Date("\(since)T00:00:00Z", strategy: .iso8601) else {
                    printError("casefile: --since takes a date like 2026-11-23, not '\(since)'")
                    throw ExitStatus.usage.exitCode
                }
                sinceDate = date
            }
            let limit = limit == 0 ? nil : limit
            let groups = try store.groups(status: statusFilter, seenSince: sinceDate, limit: limit)
            // Counted apart only when the limit may have cut the list.
            let cut = limit.map { groups.count == $0 } ?? false
            let total = cut ? try store.groupCount(status: statusFilter, seenSince: sinceDate) : groups.count
            switch format {
            case .json:
                try printJSON(GroupListDocument(groups: groups, total: total, limit: limit))
            case .table:
                print(GroupTable.render(groups, total: total), terminator: "")
            }
        }
    }
}

/// The text of `casefile groups`: a header and one line per group, and how many more matched when the limit cut
/// the list.
enum GroupTable {
    static func render(_ groups: [BugGroup], total: Int) -> String {
        guard !groups.isEmpty else { return "No groups.\n" }
        var lines = ["GROUP  FINGERPRINT       KIND         STATUS     COUNT  LAST SEEN             TITLE"]
        for group in groups {
            let columns = [
                String(group.id).padding(toLength: 6, withPad: " ", startingAt: 0),
                group.fingerprint.padding(toLength: 17, withPad: " ", startingAt: 0),
                group.kind.rawValue.padding(toLength: 12, withPad: " ", startingAt: 0),
                group.status.rawValue.padding(toLength: 10, withPad: " ", startingAt: 0),
                String(group.occurrences).padding(toLength: 6, withPad: " ", startingAt: 0),
                group.lastSeen.formatted(.iso8601).padding(toLength: 21, withPad: " ", startingAt: 0),
                group.title,
            ]
            lines.append(columns.joined(separator: " "))
        }
        if total > groups.count {
            let more = total - groups.count
            lines.append("… \(more) more group\(more == 1 ? "" : "s") (--limit 0 lists all \(total))")
        }
        return lines.joined(separator: "\n") + "\n"
    }
}

/// The text of `casefile groups --regroup`.
enum RegroupReport {
    static func render(_ preview: RegroupPreview) -> String {
        var lines = [
            "At resolution \(preview.resolution.rawValue): \(preview.groupsNow) groups now, \(preview.groupsAfter) after regrouping."
        ]
        if preview.unkeyedOccurrences > 0 {
            lines.append(
                "\(preview.unkeyedOccurrences) occurrences have no key at \(preview.resolution.rawValue) and would keep their group."
            )
        }
        for merge in preview.merges {
            let names = merge.groups.map { "\($0.id) (\($0.fingerprint) \($0.title))" }.joined(separator: ", ")
            lines.append("would merge into key \(merge.key) (\(merge.occurrences) occurrences): \(names)")
        }
        for split in preview.splits {
            let keys = split.keys.map { "\($0.key) × \($0.count)" }.joined(separator: ", ")
            lines.append(
                "would split group \(split.group.id) (\(split.group.fingerprint) \(split.group.title)): \(keys)")
        }
        if preview.merges.isEmpty, preview.splits.isEmpty { lines.append("No group would merge or split.") }
        return lines.joined(separator: "\n") + "\n"
    }
}
