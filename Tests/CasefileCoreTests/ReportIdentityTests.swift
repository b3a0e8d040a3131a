import CasefileCore
import Foundation
import Testing

/// The same incident, however it is mailed, is one report: keyed by what the crash says, not by the file's bytes.
@Suite struct ReportIdentityTests {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("casefile-identity-\(UUID().uuidString)")

    func report(_ text: String, named name: String) throws -> Report {
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let path = folder.appendingPathComponent(name).path
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        return try #require(try Triage().reports(at: path).reports.first)
    }

    @Test func keysAReportByItsIncidentNotItsBytes() throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        let original = try String(
            contentsOfFile: Samples.sample("Crashes/cart-total-iphone14-ios16.ips"), encoding: .utf8)
        let first = try report(original, named: "a.ips")
        // Re-encoded: CRLF line ends and trailing whitespace, as a mail client may leave them.
        let mailed = original.replacingOccurrences(of: "\n", with: "  \r\n")
        #expect(mailed != original)
        #expect(try report(mailed, named: "b.ips").id == first.id)
        // Translated to Apple's text layout, as Xcode's "Translated Report" is: the same incident identifier.
        let translated = AppleCrashWriter().write(try #require(first.crashes.first))
        #expect(translated.hasPrefix("Incident Identifier: 3C1F0A52-6B7E-4D2A-9E51-7A0B2C4D6E81"))
        let text = try report(translated, named: "c.crash")
        #expect(text.format == .appleCrash)
        #expect(text.id == first.id)
        // Another incident of the same bug is another report.
        let other = try #require(
            try Triage().reports(at: Samples.sample("Crashes/cart-total-iphone11-ios15.crash")).reports.first)
        #expect(other.id != first.id)
    }

    @Test func keysAReportWithoutAnIncidentByItsContent() throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        let original = try String(contentsOfFile: Samples.sample("Crashes/inapp-signal-sigsegv.txt"), encoding: .utf8)
        let first = try report(original, named: "a.txt")
        #expect(first.crashes.first?.incidentID == nil)
        #expect(try report(original + "\n\n", named: "b.txt").id == first.id)
        let edited = original.replacingOccurrences(of: "0x0000000104c1f0f4", with: "0x0000000104c1f0f8")
        #expect(edited != original)
        #expect(try report(edited, named: "c.txt").id != first.id)
    }

    /// The content a report without an incident is keyed by, field by field as the sample says. A report's id is the
    /// hash of this text: any change to it gives every such report in an index a new id, and the next run stores
    /// each of them again.
    @Test func spellsTheContentItKeysByAsEarlierRunsDid() throws {
        let crash = try #require(
            try Triage().reports(at: Samples.sample("Crashes/inapp-signal-sigsegv.txt")).reports.first?.crashes.first)
        let fields = [
            "content", "in-app-exception",
            "",  // no date
            "ShopApp", "2.3.0", "405",  // App: ShopApp, Version: 2.3.0 (405)
            "15.6.1", "19G82", "iPhone12,8",  // OS: iPhone OS 15.6.1 (19G82), Device: iPhone12,8
            "",  // no exception type: a signal without an exception name
            "SIGSEGV", "", "",  // Signal: SIGSEGV (11); no name, no reason
            "",  // no exception codes
            // `ShopApp + 45300` is an image offset (0xb0f4), the system frames name symbols.
            "ShopApp+b0f4@104c1f0f4", "ShopApp+a2c0@104c1e2c0",
            "libdispatch.dylib+_dispatch_call_block_and_release@1809a2c8c",
            "libdispatch.dylib+_dispatch_client_callout@1809a445c",
        ]
        #expect(crash.identity == fields.joined(separator: "|"))
        // Every field given, two exception codes (hex, comma-separated), and an exception backtrace's frame with
        // neither image, offset nor symbol.
        var full = Crash(format: .appleText)
        full.timestamp = "2026-11-19 08:12:40"
        full.app = AppInfo(name: "Shop", bundleID: "com.example.shop", version: "2.3", build: "7")
        full.os = OperatingSystem(name: "iOS", version: "17.0", build: "21A329")
        full.deviceModel = "iPhone15,2"
        full.exception.type = "EXC_BAD_ACCESS"
        full.exception.signal = "SIGSEGV"
        full.exception.name = "NSRangeException"
        full.exception.reason = "index 3"
        full.exception.codes = [1, 0x10]
        full.exceptionBacktrace = [Frame(address: 0x20)]
        #expect(
            full.identity
                == "content|apple-text|2026-11-19 08:12:40|com.example.shop|2.3|7|17.0|21A329|iPhone15,2|EXC_BAD_ACCESS"
                + "|SIGSEGV|NSRangeException|index 3|1,10|?+@20")
    }
}
