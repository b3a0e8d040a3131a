import ArgumentParser
import CasefileCore
import CasefileStore
import Foundation

extension Casefile {
    /// `casefile show GROUP`: one group's page, from the index.
    struct Show: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Print one group's page: why it is one group, its versions, devices and reports.")

        @OptionGroup var index: IndexOptions

        @Argument(help: "A group id, or at least 6 digits of its fingerprint (or of one merged into it).")
        var group: String

        func run() throws {
            let store = try index.open()
            let found = try index.group(group, in: store)
            guard let detail = try store.groupDetail(id: found.id) else { throw ExitStatus.usage.exitCode }
            print(GroupSummary().render(detail), terminator: "")
        }
    }

    /// `casefile resolve GROUP [--in-version V]`.
    struct Resolve: ParsableCommand {
        static let configuration = CommandConfiguration(
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
