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

    @Test func aReportSentAgainOnALaterNightKeepsWhatTheIndexHasAndANewOneBesideItIsWritten() throws {
        let inbox = work.appendingPathComponent("inbox")
        let sample = URL(fileURLWithPath: Casefile.sample("Crashes/cart-total-iphone14-ios16.ips"))
        try FileManager.default.copyItem(at: sample, to: inbox.appendingPathComponent("first.ips"))
        try Casefile.writeBarePipeline(in: work)
        let first = try Casefile.run(["run", "pipeline.toml"], in: work)
        #expect(first.stdout.contains("1 processed, 0 skipped (already seen), 0 quarantined; 1 new report"))
        let database = try DatabaseQueue(path: work.appendingPathComponent("out/casefile.sqlite").path)
        let (summaryPath, detail) = try database.read { db in
            (
                try #require(try String.fetchOne(db, sql: "SELECT summary_path FROM reports")),
                try #require(try Data.fetchOne(db, sql: "SELECT detail FROM crashes"))
            )
        }
        // A mark in place of the summary shows whether the next night writes it again.
        let summary = work.appendingPathComponent("out").appendingPathComponent(summaryPath)
        try "mark\n".write(to: summary, atomically: true, encoding: .utf8)

        // The same report saved anew (a line break more: another input), and a report the index does not hold.
        let copy = try String(contentsOf: sample, encoding: .utf8) + "\n"
        try copy.write(to: inbox.appendingPathComponent("second.ips"), atomically: true, encoding: .utf8)
        try FileManager.default.copyItem(
            at: URL(fileURLWithPath: Casefile.sample("Crashes/cart-total-iphone11-ios15.crash")),
            to: inbox.appendingPathComponent("other.crash"))
        let second = try Casefile.run(["run", "pipeline.toml"], in: work)
        #expect(second.status == 0, "\(second.stderr)")
        #expect(
            second.stdout.contains("2 processed, 1 skipped (already seen), 0 quarantined; 1 new report, 1 duplicate"),
            "\(second.stdout)")

        #expect(try String(contentsOf: summary, encoding: .utf8) == "mark\n")
        let (stored, others) = try database.read { db in
            (
                try Data.fetchOne(
                    db,
                    sql: "SELECT detail FROM crashes WHERE report_id = (SELECT id FROM reports WHERE summary_path = ?)",
                    arguments: [summaryPath]),
                try Row.fetchAll(
                    db,
                    sql: """
                        SELECT i.path, r.summary_path, c.detail FROM reports r JOIN inputs i ON i.id = r.input_id
                        JOIN crashes c ON c.report_id = r.id WHERE r.summary_path != ?
                        """,
                    arguments: [summaryPath])
            )
        }
        // The index keeps the first night's crash; the new report has its crash, its blob and its summary.
        #expect(stored == detail)
        try #require(others.count == 1)
        let other = others[0]
        #expect((other[0] as String).hasSuffix("inbox/other.crash"))
        #expect(((other[2] as Data?)?.count ?? 0) > 0)
        let written = try String(
            contentsOf: work.appendingPathComponent("out").appendingPathComponent(other[1] as String), encoding: .utf8)
        #expect(written.contains("| Source | `\(other[0] as String)` |"))
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
