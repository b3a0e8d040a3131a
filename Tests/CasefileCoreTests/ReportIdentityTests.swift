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
}
