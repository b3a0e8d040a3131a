import CasefileCore
import Foundation
import Testing

/// The tracker payload's body: the group page's links to report summaries point where the output is served, or
/// become plain text. The page below is written by hand; the expected bodies are the same text with each link
/// rewritten by hand.
@Suite struct TrackerPayloadTests {
    private static let page = """
        # Crash in `CartViewModel.total()` — [docs](https://example.com/a)

        | report | app |
        |---|---|
        | [1a2b3c — Zoë's iPhone](../reports/1a2b3c.md) | 2.3.1 |
        | [4d5e6f](../reports/4d5e6f.md) | 2.3.2 |

        A stray ](../reports/ with no link, then [last](../reports/9f.md).
        """

    private static func body(reportsURL: String?) -> String {
        let group = BugGroup(
            id: 1, fingerprint: "0123456789abcdef", kind: .crash, title: "Crash in CartViewModel.total()",
            status: .new, occurrences: 3, firstSeen: Date(timeIntervalSince1970: 0),
            lastSeen: Date(timeIntervalSince1970: 0), firstRun: 1, lastRun: 1)
        let detail = BugGroupDetail(
            group: group, appVersionCounts: [], osVersions: [], devices: [], reports: [], aliases: [])
        let payload = TrackerPayload(
            group: detail, markdown: page, run: 1, occurrencesThisRun: 3, reportsURL: reportsURL)
        let marker = "\n" + TrackerPayload.marker(for: "0123456789abcdef") + "\n"
        #expect(payload.issue.body.hasSuffix(marker))
        return String(payload.issue.body.dropLast(marker.count))
    }

    @Test func pointsReportLinksUnderTheReportsURL() {
        // With or without the trailing slash, the same links.
        for url in ["https://casefile.example/out/reports", "https://casefile.example/out/reports/"] {
            #expect(
                Self.body(reportsURL: url) == """
                    # Crash in `CartViewModel.total()` — [docs](https://example.com/a)

                    | report | app |
                    |---|---|
                    | [1a2b3c — Zoë's iPhone](https://casefile.example/out/reports/1a2b3c.md) | 2.3.1 |
                    | [4d5e6f](https://casefile.example/out/reports/4d5e6f.md) | 2.3.2 |

                    A stray ](../reports/ with no link, then [last](https://casefile.example/out/reports/9f.md).
                    """)
        }
    }

    @Test func makesReportLinksPlainTextWithoutAReportsURL() {
        #expect(
            Self.body(reportsURL: nil) == """
                # Crash in `CartViewModel.total()` — [docs](https://example.com/a)

                | report | app |
                |---|---|
                | 1a2b3c — Zoë's iPhone | 2.3.1 |
                | 4d5e6f | 2.3.2 |

                A stray ](../reports/ with no link, then last.
                """)
    }
}
