import CasefileCore
import Foundation
import Testing

/// The `Binary Images:` lines of a Mac OS X report (macOS 11 and earlier, and Mac Catalyst builds on them): a bundle
/// identifier, its short version and, in parentheses, its build, and a UUID only for some images. The lines are a
/// real report's (RescueTime on Mac OS X 10.5.5, posted at maweis.com in 2009), cut to the threads and images used
/// here; the expected values are read off each line by hand.
@Suite struct MacOSXImageLineTests {
    private static let report = """
        Process:         RescueTime [80477]
        Path:            /Applications/RescueTime.app/Contents/MacOS/RescueTime
        Identifier:      com.rescuetime.RescueTime
        Version:         2.0.0 (2.0.0.322)
        Code Type:       X86 (Native)
        Parent Process:  launchd [221]

        Date/Time:       2009-03-17 15:06:03.701 +0800
        OS Version:      Mac OS X 10.5.5 (9F33)
        Report Version:  6

        Exception Type:  EXC_CRASH (SIGABRT)
        Exception Codes: 0x0000000000000000, 0x0000000000000000
        Crashed Thread:  1

        Thread 0:
        0   libSystem.B.dylib             \t0x908a04a6 mach_msg_trap + 10
        1   com.rescuetime.RescueTime     \t0x000029d6 0x1000 + 6614

        Thread 1 Crashed:
        0   libSystem.B.dylib             \t0x90973c4a usleep$NOCANCEL$UNIX2003 + 0
        1   libSystem.B.dylib             \t0x9099548b abort + 85
        2   com.rescuetime.RescueTime     \t0x000c1bb1 0x1000 + 789425
        3   com.rescuetime.RescueTime     \t0x000c03b4 boost::gregorian::bad_day_of_month::~bad_day_of_month() + 320340
        4   libSystem.B.dylib             \t0x908d16f5 _pthread_start + 321

        Binary Images:
            0x1000 -    0xfefe6 +com.rescuetime.RescueTime 2.0.0 (2.0.0.322) <38529650764e3f59bf7fd51ed3a3b788> /Applications/RescueTime.app/Contents/MacOS/RescueTime
          0x13f000 -   0x16affb  libcurl.4.dylib ??? (???) <54ada27deb3b4ff7043d8836264eca0d> /usr/lib/libcurl.4.dylib
          0x178000 -   0x18bfff +org.andymatuschak.Sparkle 1.5 Beta (bzr) (1.5) <c80905489e87b252620f67537812fa06> /Applications/RescueTime.app/Contents/Frameworks/Sparkle.framework/Versions/A/Sparkle
          0x1cd000 -   0x1cdffe  com.apple.applescript.component 2.0.1 (2.0.1) /System/Library/Components/AppleScript.component/Contents/MacOS/AppleScript
          0x373000 -   0x3e0fff +com.DivXInc.DivXDecoder 6.6.0 (6.6.0) /Library/QuickTime/DivX Decoder.component/Contents/MacOS/DivX Decoder
        0x90550000 - 0x905dcff7  com.apple.LaunchServices 290 (290) <61af37aac50984d220dd176f777e3b72> /System/Library/Frameworks/CoreServices.framework/Versions/A/Frameworks/LaunchServices.framework/Versions/A/LaunchServices
        0x9089f000 - 0x909ffff3  libSystem.B.dylib ??? (???) <3699b292cde73c2847f87c7e1510d87b> /usr/lib/libSystem.B.dylib
        """

    private func crash() throws -> Crash {
        guard
            case .crashes(_, let crashes, _) = CrashReportParser().parse(
                Array(Self.report.utf8), file: "rescuetime.crash")
        else {
            Issue.record("not read as a crash report")
            throw CancellationError()
        }
        return try #require(crashes.first)
    }

    @Test func namesImagesByTheirIdentifierWithoutVersionOrBuild() throws {
        let images = try crash().images
        #expect(
            images.map(\.name) == [
                "com.rescuetime.RescueTime", "libcurl.4.dylib", "org.andymatuschak.Sparkle",
                "com.apple.applescript.component", "com.DivXInc.DivXDecoder", "com.apple.LaunchServices",
                "libSystem.B.dylib",
            ])
        let app = try #require(images.first)
        #expect(app.isApp)
        #expect(app.loadAddress == 0x1000)
        #expect(app.endAddress == 0xfefe6)
        #expect(app.uuid == "38529650-764e-3f59-bf7f-d51ed3a3b788")
        #expect(app.path == "/Applications/RescueTime.app/Contents/MacOS/RescueTime")
        #expect(app.arch == nil)
        #expect(images[2].isApp)
        #expect(images[2].uuid == "c8090548-9e87-b252-620f-67537812fa06")
    }

    @Test func readsThePathOfAnImageWithoutUUID() throws {
        let images = try crash().images
        let script = try #require(images.first { $0.loadAddress == 0x1cd000 })
        #expect(script.uuid == nil)
        #expect(script.path == "/System/Library/Components/AppleScript.component/Contents/MacOS/AppleScript")
        let divX = try #require(images.first { $0.loadAddress == 0x373000 })
        #expect(divX.isApp)
        #expect(divX.path == "/Library/QuickTime/DivX Decoder.component/Contents/MacOS/DivX Decoder")
    }

    /// The frames name their image by the same identifier, so the app's frames are the app's: marked in the summary
    /// and found in the image table (its UUID is what symbolication asks for).
    @Test func findsTheAppsFramesInTheAppImage() throws {
        let crash = try crash()
        #expect(crash.appImage?.name == "com.rescuetime.RescueTime")
        let crashed = try #require(crash.crashingThread)
        #expect(crashed.index == 1)
        let appFrames = crashed.frames.enumerated().filter { $0.element.image == crash.appImageName }.map(\.offset)
        #expect(appFrames == [2, 3])
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("casefile-macosx-\(UUID()).crash")
        try Data(Self.report.utf8).write(to: file)
        defer { try? FileManager.default.removeItem(at: file) }
        let summary = try Triage().reports(at: file.path).reports.map(ReportSummary().render).joined()
        #expect(summary.contains("| 2 | com.rescuetime.RescueTime ★ | `0xc1bb1` |"))
        #expect(
            summary.contains(
                "| App image | com.rescuetime.RescueTime `38529650-764e-3f59-bf7f-d51ed3a3b788` at `0x1000` |"))
    }
}
