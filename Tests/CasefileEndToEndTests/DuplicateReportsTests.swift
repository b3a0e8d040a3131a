import Foundation
import GRDB
import Testing

/// The same report delivered many times in one night: one summary, naming the input the index records for the report,
/// and no error writing it.
@Suite final class DuplicateReportsTests {
    let work: URL

    init() throws {
        work = FileManager.default.temporaryDirectory.appendingPathComponent("casefile-duplicates-\(UUID().uuidString)")
        try FileManager.default.createDirectory(
            at: work.appendingPathComponent("inbox"), withIntermediateDirectories: true)
    }

    deinit {
        try? FileManager.default.removeItem(at: work)
    }

    @Test func aReportSentManyTimesGetsOneSummaryThatAgreesWithTheIndex() throws {
        // Forty byte-identical copies: read at once by the run's parallel tasks, each finds the report new.
        let sample = URL(fileURLWithPath: Casefile.sample("Crashes/cart-total-iphone14-ios16.ips"))
        for copy in 1...40 {
            try FileManager.default.copyItem(at: sample, to: work.appendingPathComponent("inbox/copy-\(copy).ips"))
        }
        try Casefile.writeBarePipeline(in: work)
        let result = try Casefile.run(["run", "pipeline.toml"], in: work)
        #expect(result.status == 0)
        #expect(result.stdout.contains("1 processed, 39 skipped (already seen), 0 quarantined; 1 new report"))
        // Two copies renaming their summary at once made one of them fail.
        #expect(!result.stderr.contains("cannot write summary"), "\(result.stderr)")

        let reports = work.appendingPathComponent("out/reports")
        let files = try FileManager.default.contentsOfDirectory(atPath: reports.path)
        #expect(files.count == 1 && files.allSatisfy { $0.hasSuffix(".md") && !$0.hasPrefix(".") }, "\(files)")
        let database = try DatabaseQueue(path: work.appendingPathComponent("out/casefile.sqlite").path)
        let (input, summaryPath) = try database.read { db in
            let row = try #require(
                try Row.fetchOne(
                    db, sql: "SELECT i.path, r.summary_path FROM reports r JOIN inputs i ON i.id = r.input_id"))
            return (row[0] as String, row[1] as String)
        }
        let summary = try String(
            contentsOf: work.appendingPathComponent("out").appendingPathComponent(summaryPath), encoding: .utf8)
        // The summary was the last copy's to be renamed into place, mostly not the one whose rows were committed.
        #expect(summary.contains("| Source | `\(input)` |"), "index: \(input)")
    }

    @Test func aTruncatedCopyGivesWayToTheCompleteReportWhicheverIsIndexedFirst() throws {
        // The truncated copy sorts first, and with 17 lines is read long before the complete report's 56.
        try FileManager.default.copyItem(
            at: URL(fileURLWithPath: Casefile.sample("Crashes/truncated-header-only.crash")),
            to: work.appendingPathComponent("inbox/a-truncated.crash"))
        try FileManager.default.copyItem(
            at: URL(fileURLWithPath: Casefile.sample("Crashes/cart-total-iphone11-ios15.crash")),
            to: work.appendingPathComponent("inbox/b-complete.crash"))
        try Casefile.writeBarePipeline(in: work)
        let result = try Casefile.run(["run", "pipeline.toml"], in: work)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.contains("2 processed, 0 skipped (already seen), 0 quarantined; 1 new report"))

        let database = try DatabaseQueue(path: work.appendingPathComponent("out/casefile.sqlite").path)
        let (input, summaryPath, groups, frames) = try database.read { db in
            let row = try #require(
                try Row.fetchOne(
                    db, sql: "SELECT i.path, r.summary_path FROM reports r JOIN inputs i ON i.id = r.input_id"))
            return (
                row[0] as String, row[1] as String, try String.fetchAll(db, sql: "SELECT title FROM groups"),
                try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM crash_frames") ?? 0
            )
        }
        #expect(input.hasSuffix("inbox/b-complete.crash"))
        // The complete report's crash: its crashed thread's frames, in one group (none left for the truncated copy).
        #expect(frames > 0)
        #expect(groups.count == 1)
        let summary = try String(
            contentsOf: work.appendingPathComponent("out").appendingPathComponent(summaryPath), encoding: .utf8)
        #expect(summary.contains("| Source | `\(input)` |"))
        let digest = try String(contentsOf: work.appendingPathComponent("out/digest.md"), encoding: .utf8)
        #expect(digest.contains("| 2 | 2 | 0 | 0 | 1 | 1 |"), "\(digest)")
    }
}
