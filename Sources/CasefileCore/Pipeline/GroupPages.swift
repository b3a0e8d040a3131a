import CasefileArchive
import Foundation

/// Writes one touched group's page (`groups/<fingerprint>.md`), a pointer page for each fingerprint merged into it,
/// and its tracker payload (`outbox/`).
struct GroupPages: Sendable {
    /// The `groups` folder of the output.
    var groups: URL
    /// The `outbox` folder of the output.
    var outbox: URL
    /// The run writing the pages.
    var run: Int64
    /// Where the tracker links a report's summary, if anywhere.
    var reportsURL: String?

    /// Writes the group's page, its pointer pages and its tracker payload.
    func write(_ detail: BugGroupDetail, occurrencesThisRun: Int?) throws {
        let markdown = GroupSummary().render(detail, occurrencesThisRun: occurrencesThisRun)
        // The tracker feed: one payload per touched group (new, regressed, or more occurrences).
        let payload = TrackerPayload(
            group: detail, markdown: markdown, run: run, occurrencesThisRun: occurrencesThisRun ?? 0,
            reportsURL: reportsURL)
        let bytes = try payload.encoded()
        try bytes.withUnsafeBytes {
            try FileBlocks.replace(outbox.appendingPathComponent(payload.fileName).path, with: $0)
        }
        let fingerprint = detail.group.fingerprint
        try FileBlocks.replace(groups.appendingPathComponent("\(fingerprint).md").path, with: markdown)
        for alias in detail.aliases {
            let pointer = "# Merged group `\(alias)`\n\nMerged into [`\(fingerprint)`](\(fingerprint).md).\n"
            try FileBlocks.replace(groups.appendingPathComponent("\(alias).md").path, with: pointer)
        }
    }
}
