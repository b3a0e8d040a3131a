import Foundation
import Testing

@testable import CasefileCore

/// A touched group's files: its page, its tracker payload, and for each fingerprint merged into it a pointer page
/// whose text is written by hand below. Each is renamed into place, so no temporary file is left beside them.
@Suite struct GroupPagesTests {
    @Test func writesThePagePayloadAndAPointerPerMergedFingerprint() throws {
        let output = FileManager.default.temporaryDirectory.appendingPathComponent("casefile-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: output) }
        let groups = output.appendingPathComponent("groups")
        let outbox = output.appendingPathComponent("outbox")
        for folder in [groups, outbox] {
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        }
        let group = BugGroup(
            id: 7, fingerprint: "0123456789abcdef", kind: .crash, title: "Crash in CartViewModel.total()",
            status: .ongoing, occurrences: 5, firstSeen: Date(timeIntervalSince1970: 0),
            lastSeen: Date(timeIntervalSince1970: 0), firstRun: 1, lastRun: 2)
        let detail = BugGroupDetail(
            group: group, appVersionCounts: [], osVersions: [], devices: [], reports: [],
            aliases: ["fedcba9876543210", "00000000000000aa"])
        try GroupPages(groups: groups, outbox: outbox, run: 2, reportsURL: nil).write(detail, occurrencesThisRun: 2)

        #expect(
            try FileManager.default.contentsOfDirectory(atPath: groups.path).sorted() == [
                "00000000000000aa.md", "0123456789abcdef.md", "fedcba9876543210.md",
            ])
        #expect(try FileManager.default.contentsOfDirectory(atPath: outbox.path).count == 1)
        let pointer = try String(contentsOf: groups.appendingPathComponent("fedcba9876543210.md"), encoding: .utf8)
        #expect(
            pointer == """
                # Merged group `fedcba9876543210`

                Merged into [`0123456789abcdef`](0123456789abcdef.md).

                """)
        let page = try String(contentsOf: groups.appendingPathComponent("0123456789abcdef.md"), encoding: .utf8)
        #expect(page.contains("Crash in CartViewModel.total()"))
        #expect(page.contains("| Merged in | `fedcba9876543210`, `00000000000000aa` |"))
    }
}
