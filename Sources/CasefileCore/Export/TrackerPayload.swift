public import Foundation

/// One entry of the tracker outbox (`out/outbox/*.json`, `Schemas/outbox-v1.schema.json`): what the tracker should
/// show for one group after one run, in the shape of GitHub's issues API. `casefile publish` opens an issue for a
/// fingerprint it has no issue for, and otherwise updates that issue and comments on it.
public struct TrackerPayload: Sendable, Codable, Equatable {
    /// The schema of the payload.
    public static let schema = "casefile-outbox/1"

    /// The issue fields, as GitHub's `POST /repos/{owner}/{repo}/issues` takes them.
    public struct Issue: Sendable, Codable, Equatable {
        /// The issue title.
        public var title: String
        /// The group's Markdown, ending with the hidden fingerprint marker.
        public var body: String
        /// Labels: `casefile`, the group's kind (`crash`, `termination`, `jetsam`, `failure`), and `new` or
        /// `regressed` when the group is.
        public var labels: [String]
    }

    /// Occurrence counts.
    public struct Occurrences: Sendable, Codable, Equatable {
        /// Occurrences in all runs.
        public var total: Int
        /// Occurrences in the run that wrote the payload.
        public var thisRun: Int
    }

    /// `casefile-outbox/1`.
    public var schema: String
    /// Unique per group and run (`<fingerprint>@run-<N>`): a payload is sent at most once.
    public var id: String
    /// The group's fingerprint; the tracker issue carries it in ``marker(for:)``.
    public var fingerprint: String
    /// The run that wrote the payload.
    public var run: Int64
    /// Why it was written: `new`, `regressed`, or `occurrences` (an existing group got more).
    public var reason: String
    /// The counts.
    public var occurrences: Occurrences
    /// The issue to open, or the new title, body and labels of the issue to update.
    public var issue: Issue
    /// The comment added to an existing issue.
    public var comment: String

    /// The hidden marker in an issue body that ties the issue to a fingerprint.
    public static func marker(for fingerprint: String) -> String {
        "<!-- casefile-fingerprint: \(fingerprint) -->"
    }

    /// The fingerprint a tracker issue body carries, if any.
    public static func fingerprint(inBody body: String) -> String? {
        guard let start = body.range(of: "<!-- casefile-fingerprint: ") else { return nil }
        let rest = body[start.upperBound...]
        guard let end = rest.range(of: " -->") else { return nil }
        return String(rest[..<end.lowerBound])
    }

    /// The payload of one group after run `run`, its body the group page's Markdown. The page's links to report
    /// summaries (`../reports/ID.md`) point under `reportsURL` when one is given (where the output folder is
    /// served); without it they become plain text, since the tracker cannot follow them.
    public init(
        group detail: BugGroupDetail, markdown: String, run: Int64, occurrencesThisRun: Int, reportsURL: String? = nil
    ) {
        let group = detail.group
        let reason: String
        switch group.status {
        case .new: reason = "new"
        case .regressed: reason = "regressed"
        default: reason = "occurrences"
        }
        var labels = ["casefile", group.kind.rawValue]
        if reason != "occurrences" { labels.append(reason) }
        schema = Self.schema
        id = "\(group.fingerprint)@run-\(run)"
        fingerprint = group.fingerprint
        self.run = run
        self.reason = reason
        occurrences = Occurrences(total: group.occurrences, thisRun: occurrencesThisRun)
        let title = group.title.count > 200 ? String(group.title.prefix(199)) + "…" : group.title
        let body = Self.relinked(markdown, reportsURL: reportsURL)
        issue = Issue(title: title, body: body + "\n" + Self.marker(for: group.fingerprint) + "\n", labels: labels)
        let more = "\(occurrencesThisRun) more occurrence\(occurrencesThisRun == 1 ? "" : "s")"
        switch reason {
        case "regressed":
            comment = "Regressed in run \(run): \(more), \(group.occurrences) in all."
        default:
            comment = "Run \(run): \(more), \(group.occurrences) in all."
        }
    }

    /// `[text](../reports/ID.md)` as `[text](REPORTS_URL/ID.md)`, or as `text` without a reports URL.
    ///
    /// On bytes: the delimiters are ASCII, which never occur inside a multi-byte UTF-8 character (Foundation's
    /// `range(of:)` bridged every page to `NSString`, in the run's serial tail).
    static func relinked(_ markdown: String, reportsURL: String?) -> String {
        let bytes = Array(markdown.utf8)
        let target = Array("](../reports/".utf8)
        let base = reportsURL.map { Array(($0.hasSuffix("/") ? $0 : $0 + "/").utf8) }
        var output: [UInt8] = []
        output.reserveCapacity(bytes.count)
        var rest = 0
        while let found = ByteScan.find(target, in: bytes, from: rest) {
            let link = found..<(found + target.count)
            guard let open = bytes[rest..<link.lowerBound].lastIndex(of: UInt8(ascii: "[")),
                let close = bytes[link.upperBound...].firstIndex(of: UInt8(ascii: ")"))
            else {
                output += bytes[rest..<link.upperBound]
                rest = link.upperBound
                continue
            }
            output += bytes[rest..<open]
            let text = bytes[(open + 1)..<link.lowerBound]
            if let base {
                output.append(UInt8(ascii: "["))
                output += text
                output += "](".utf8
                output += base
                output += bytes[link.upperBound...close]
            } else {
                output += text
            }
            rest = close + 1
        }
        output += bytes[rest...]
        return String(decoding: output, as: UTF8.self)
    }

    /// The payload as the outbox stores it: pretty, sorted keys.
    public func encoded() throws -> Data {
        try DocumentEncoding.encoder().encode(self)
    }

    /// The outbox file name: run first, so a folder listing is in the order to send.
    public var fileName: String {
        let number = String(run)
        return String(repeating: "0", count: max(0, 8 - number.count)) + number + "-" + fingerprint + ".json"
    }
}
