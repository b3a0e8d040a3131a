import CasefileCore
import Foundation
import Testing

@Suite struct CrashDetectionTests {
    func kind(_ text: String) -> CrashReportParser.Kind? {
        if case .crashes(let kind, _, _) = CrashReportParser().parse(Array(text.utf8), file: "x") { return kind }
        return nil
    }

    func sample(_ name: String) throws -> String {
        try String(contentsOfFile: Samples.sample("Crashes/\(name)"), encoding: .utf8)
    }

    @Test(arguments: [
        ("cart-total-iphone14-ios16.ips", CrashReportParser.Kind.ips),
        ("jetsam-iphone11-ios16.ips", .ips),
        ("cart-total-iphone15pro-ios18-xcode16-export.txt", .translatedAndFull),
        ("cart-total-iphone11-ios15.crash", .appleText),
        ("legacy-nsexception-ipad-ios9.crash", .appleText),
        ("image-cache-iphonexr-ios14-plcrashreporter.crash", .appleText),
        ("cart-total-iphone12-ios15-kscrash.json", .ksCrash),
        ("recrash-only-kscrash.json", .ksCrash),
        ("cart-total-ios15-metrickit-payload.json", .metricKit),
        ("watchdog-ios17-metrickit-diagnostic.json", .metricKit),
        ("image-cache-metrickit-callstacktree.json", .metricKit),
        ("inapp-nsexception-coupon.txt", .inAppText),
        ("inapp-signal-sigsegv.txt", .inAppText),
    ])
    func recognizesEachFormatByContent(_ name: String, _ expected: CrashReportParser.Kind) throws {
        #expect(kind(try sample(name)) == expected)
    }

    /// An in-app report with a single stack line is told by a header line (`Exception:`, `Signal:`, `Reason:`,
    /// `Name:`, or one of them followed by ` name:`), in any case, however long the line. Without such a line, one
    /// stack line is not enough.
    @Test(arguments: [
        ("EXCEPTION NAME: NSRangeException", true),
        (
            "Reason: *** -[__NSArrayM objectAtIndex:]: index 5 beyond bounds" + String(repeating: " …", count: 5000),
            true
        ),
        ("signal: SIGSEGV (11)", true),
        ("Name: NSInternalInconsistencyException", true),
        ("Signalled SIGSEGV", false),
        ("The app stopped", false),
    ])
    func oneStackLineNeedsAHeader(_ header: String, _ isReport: Bool) {
        let text = "\(header)\n0   ShopApp                             0x0000000104c1f0f4 ShopApp + 45300\n"
        #expect(kind(text) == (isReport ? .inAppText : nil))
    }

    /// A text of up to ``CrashReportParser/maxTextLines`` lines is read; one line more, and a text whose first lines
    /// read as a crash report is refused with the reason, one that reads as none is still none. The lines here: the
    /// four of an Apple report's head (incident, exception type, crashed thread, its frame), then empty lines.
    @Test func aTextOfMoreLinesThanAReportHoldsIsNotRead() {
        func outcome(_ text: String) -> CrashReportParser.Outcome {
            CrashReportParser().parse(Array(text.utf8), file: "long.crash")
        }
        let limit = CrashReportParser.maxTextLines
        let head =
            "Incident Identifier: 1\nException Type: EXC_CRASH\nThread 0 Crashed:\n0 App 0x0000000100001000 main + 4\n"
        let atTheLimit = head + String(repeating: "\n", count: limit - 4)
        guard case .crashes(.appleText, let crashes, _) = outcome(atTheLimit) else {
            Issue.record("a report of \(limit) lines was not read")
            return
        }
        #expect(crashes.first?.crashingThread?.frames.count == 1)
        guard case .unreadable(let reason) = outcome(atTheLimit + "x") else {
            Issue.record("a report of \(limit + 1) lines was read")
            return
        }
        #expect(reason == "its first lines read as a crash report, but it holds more than 1000000 lines")
        guard case .notACrashReport = outcome(String(repeating: "x\n", count: limit + 1)) else {
            Issue.record("lines of x read as a crash report")
            return
        }
    }

    @Test func ignoresTheFileName() throws {
        // An .ips saved as notes.txt is still an .ips.
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("casefile-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let renamed = folder.appendingPathComponent("notes.txt")
        try FileManager.default.copyItem(
            atPath: Samples.sample("Crashes/cart-total-iphone14-ios16.ips"), toPath: renamed.path)
        let report = try #require(try Triage().reports(at: renamed.path).reports.first)
        #expect(report.format == .ips)
    }

    @Test func unwrapsMarkdownFencesAndLeadingBlankLines() throws {
        let fenced = "\n\n```\n" + (try sample("watchdog-8badf00d-ipad-ios11.crash")) + "```\n"
        guard case .crashes(_, let crashes, _) = CrashReportParser().parse(Array(fenced.utf8), file: "mail.md") else {
            Issue.record("not recognized")
            return
        }
        #expect(crashes.first?.exception.terminationCode == 0x8bad_f00d)
        #expect(crashes.first?.crashingThread?.frames.count == 5)
    }

    @Test func unwrapsMailQuotingAndAFenceInsideIt() throws {
        let text = try sample("watchdog-8badf00d-ipad-ios11.crash")
        let lines = ["```"] + text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init) + ["```"]
        let quoted = lines.map { $0.isEmpty ? ">" : "> " + $0 }.joined(separator: "\n")
        guard case .crashes(_, let plain, _) = CrashReportParser().parse(Array(text.utf8), file: "plain.crash"),
            case .crashes(_, let mail, _) = CrashReportParser().parse(Array(quoted.utf8), file: "reply.eml")
        else {
            Issue.record("not recognized")
            return
        }
        // watchdog-8badf00d-ipad-ios11.crash: 0x8badf00d, five frames in the crashed thread.
        #expect(mail.first?.exception.terminationCode == 0x8bad_f00d)
        #expect(mail.first?.crashingThread?.frames.count == 5)
        #expect(mail.first?.threads == plain.first?.threads)
        #expect(mail.first?.images == plain.first?.images)
    }

    @Test func readsCarriageReturnLineEndsAsPlainOnes() throws {
        let text = try sample("watchdog-8badf00d-ipad-ios11.crash")
        let crlf = text.replacingOccurrences(of: "\n", with: "\r\n")
        guard case .crashes(_, let plain, _) = CrashReportParser().parse(Array(text.utf8), file: "plain.crash"),
            case .crashes(_, let windows, _) = CrashReportParser().parse(Array(crlf.utf8), file: "crlf.crash")
        else {
            Issue.record("not recognized")
            return
        }
        // watchdog-8badf00d-ipad-ios11.crash: 0x8badf00d, five frames in the crashed thread.
        #expect(windows.first?.exception.terminationCode == 0x8bad_f00d)
        #expect(windows.first?.crashingThread?.frames.count == 5)
        #expect(windows.first?.crashingThread?.frames == plain.first?.crashingThread?.frames)
        #expect(windows.first?.images == plain.first?.images)
    }

    @Test func saysPlainTextIsNotACrashReport() {
        let result = CrashReportParser().parse(Array("Dear team,\nthe app crashed when I paid.\n".utf8), file: "x")
        guard case .notACrashReport = result else {
            Issue.record("plain text was taken for a crash report")
            return
        }
    }

    @Test func splitsVersionsWhicheverOrderTheyAreIn() {
        #expect(AppleVersion.split("2.3.1 (412)") == ("2.3.1", "412"))
        #expect(AppleVersion.split("412 (2.3.1)") == ("2.3.1", "412"))
    }
}
