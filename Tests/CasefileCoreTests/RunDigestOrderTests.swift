import CasefileCore
import Foundation
import Testing

/// The digest lists a run's first new reports by input path, then report id, whatever order the run's parallel tasks
/// finished them in, and however many there were.
@Suite struct RunDigestOrderTests {
    /// A report without a crash from `input`.
    static func report(_ id: String, from input: String) -> Report {
        Report(id: id, format: .clue, source: ReportSource(input: input, root: ""))
    }

    /// `count` reports from inputs `inbox/input-0000`…, two reports from every tenth input, in a seeded shuffle.
    static func reports(_ count: Int, seed: UInt64) -> [Report] {
        var reports = (0..<count).map { number in
            let input = String(format: "inbox/input-%04d", number - number % 10 / 9)
            return report(String(format: "report-%04d", count - number), from: input)
        }
        var numbers = SeededNumbers(seed: seed)
        for index in reports.indices.reversed() {
            reports.swapAt(index, numbers.next(below: index + 1))
        }
        return reports
    }

    func digest(_ reports: [Report]) -> RunDigest {
        var digest = RunDigest(summary: RunSummary(runID: 1), symbolicationConfigured: false)
        for report in reports {
            digest.add(report, summaryPath: "reports/\(report.id).md")
        }
        return digest
    }

    @Test(arguments: [10, 199, 200, 201, 399, 400, 401, 1_234])
    func listsTheFirstReportsByInputThenIDInAnyOrder(count: Int) {
        let first = digest(Self.reports(count, seed: 1))
        let second = digest(Self.reports(count, seed: 2))
        let sorted = Self.reports(count, seed: 1).sorted {
            ($0.source.input, $0.id) < ($1.source.input, $1.id)
        }
        let expected = sorted.prefix(RunDigest.listedReports).map(\.id)
        #expect(first.newReports.map(\.id) == expected)
        #expect(second.newReports.map(\.id) == expected)
        #expect(first.newReportCount == count)
        // Every tenth input holds two reports, numbered so that the later report has the smaller id.
        let inputs = first.newReports.map(\.input)
        #expect(inputs == inputs.sorted())
        if count >= 10 {
            let pair = first.newReports.filter { $0.input == "inbox/input-0008" }.map(\.id)
            #expect(pair == [String(format: "report-%04d", count - 9), String(format: "report-%04d", count - 8)])
        }
        let markdown = first.render(startedAt: .now)
        let links = markdown.split(separator: "\n").filter { $0.hasPrefix("- [report-") }
        #expect(links.count == min(count, RunDigest.listedReports))
        #expect(links.first?.contains(expected.first.map { String($0.prefix(12)) } ?? "?") == true)
        if count > RunDigest.listedReports {
            #expect(markdown.contains("- … and \(count - RunDigest.listedReports) more"))
        }
    }

    @Test func aReplacedCopyIsListedFromItsNewInputAndCountedOnce() {
        let uikit = "b5ab5a73-2f3c-3a6e-9d2f-6a41c53e8b11"
        let dyld = "c1d2e3f4-a5b6-37c8-9d0e-1f2a3b4c5d6e"
        // The truncated copy: 1 app frame, unsymbolicated; 2 frames in UIKitCore, which had no debug file.
        let truncated = SymbolCoverage(
            inAppFrames: 1, inAppSymbolicated: 0,
            missing: [RunDigest.MissingImage(name: "UIKitCore", uuid: uikit, frames: 2)])
        // The complete copy: 6 app frames, 4 symbolicated; 5 in UIKitCore and 3 in dyld.
        let complete = SymbolCoverage(
            inAppFrames: 6, inAppSymbolicated: 4,
            missing: [
                RunDigest.MissingImage(name: "UIKitCore", uuid: uikit, frames: 5),
                RunDigest.MissingImage(name: "dyld", uuid: dyld, frames: 3),
            ])
        // Another report: 2 app frames, both symbolicated; 1 frame in UIKitCore.
        let other = SymbolCoverage(
            inAppFrames: 2, inAppSymbolicated: 2,
            missing: [RunDigest.MissingImage(name: "UIKitCore", uuid: uikit, frames: 1)])

        var digest = RunDigest(summary: RunSummary(runID: 1), symbolicationConfigured: true)
        digest.add(Self.report("report-b", from: "inbox/b"), summaryPath: nil, coverage: other)
        digest.add(Self.report("report-x", from: "inbox/z"), summaryPath: nil, coverage: truncated)
        digest.add(Self.report("report-c", from: "inbox/c"), summaryPath: nil, coverage: .init())
        digest.replace(
            Self.report("report-x", from: "inbox/a"), summaryPath: "reports/report-x.md", coverage: complete,
            replacing: truncated)
        #expect(digest.newReports.map(\.id) == ["report-x", "report-b", "report-c"])
        #expect(digest.newReports.map(\.input) == ["inbox/a", "inbox/b", "inbox/c"])
        #expect(digest.newReportCount == 3)
        // The other report's counts and the complete copy's: 2 + 6 app frames, 2 + 4 symbolicated.
        #expect(digest.inAppFrames == 8)
        #expect(digest.inAppSymbolicated == 6)
        #expect(digest.missingImages.map(\.name) == ["UIKitCore", "dyld"])
        #expect(digest.missingImages.map(\.frames) == [6, 3])

        // Replaced by a copy without a crash: what the truncated copy added goes, and UIKitCore keeps the other's.
        digest.replace(
            Self.report("report-x", from: "inbox/0"), summaryPath: nil, coverage: .init(), replacing: complete)
        #expect(digest.inAppFrames == 2)
        #expect(digest.missingImages.map(\.frames) == [1])
    }

    /// A listed report replaced by a copy from an input that sorts after every other still leaves the list full:
    /// the report after the last one listed takes its place.
    @Test func aCopyReplacedBeyondTheListedReportsLeavesTheListFull() {
        let count = 3 * RunDigest.listedReports
        var digest = RunDigest(summary: RunSummary(runID: 1), symbolicationConfigured: false)
        for number in 0..<count {
            digest.add(
                Self.report(String(format: "report-%04d", number), from: String(format: "inbox/input-%04d", number)),
                summaryPath: nil)
        }
        digest.replace(
            Self.report("report-0000", from: "inbox/later"), summaryPath: nil, coverage: .init(),
            replacing: .init())
        let expected = (1...RunDigest.listedReports).map { String(format: "report-%04d", $0) }
        #expect(digest.newReports.map(\.id) == expected)
        #expect(digest.newReportCount == count)
    }

    @Test func listsImagesTiedOnTheirFramesByNameThenUUID() {
        var digest = RunDigest(summary: RunSummary(runID: 1), symbolicationConfigured: true)
        let names = ["ShopApp", "CoreFoundation", "ShopApp", "CoreFoundation"]
        for (number, name) in names.enumerated().reversed() {
            digest.add(
                Self.report("report-\(number)", from: "inbox/\(number)"), summaryPath: nil,
                coverage: SymbolCoverage(
                    missing: [RunDigest.MissingImage(name: name, uuid: "uuid-\(3 - number)", frames: 1)]))
        }
        #expect(digest.missingImages.map(\.name) == ["CoreFoundation", "CoreFoundation", "ShopApp", "ShopApp"])
        #expect(digest.missingImages.map(\.uuid) == ["uuid-0", "uuid-2", "uuid-1", "uuid-3"])
    }
}
