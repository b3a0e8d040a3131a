import CasefileCore
import Foundation
import Testing

/// A text crash report whose long lines were wrapped, as a mail client, a ticket or a page wraps them: frame lines
/// broken after the address or inside the symbol, and the uncaught-exception line broken over three. The lines are a
/// real report's (SecurityAgent on Mac OS X 10.13.4, printed in the iOS crash dump analysis book by Faisal Memon),
/// wrapped as printed there and cut to some of its frames; the expected values are read off the lines by hand.
@Suite struct WrappedReportTests {
    private static let report = """
        Process:               SecurityAgent [99429]
        Identifier:            com.apple.SecurityAgent
        Version:               9.0 (55360.50.13)
        Code Type:             X86-64 (Native)

        Date/Time:             2018-06-18 21:39:08.261 +0100
        OS Version:            Mac OS X 10.13.4 (17E202)
        Report Version:        12

        Crashed Thread:        0  Dispatch queue: com.apple.main-thread

        Exception Type:        EXC_CRASH (SIGABRT)
        Exception Codes:       0x0000000000000000, 0x0000000000000000

        Application Specific Information:
        *** Terminating app due to uncaught exception
        'CALayerInvalidGeometry', reason:
         'CALayer bounds contains NaN: [nan nan; 1424 160]'
        terminating with uncaught exception of type NSException
        abort() called

        Application Specific Backtrace 1:
        0   CoreFoundation                      0x00007fff4590132b
         __exceptionPreprocess + 171
        1   libobjc.A.dylib                     0x00007fff6cf7bc76
        objc_exception_throw + 48
        2   CoreFoundation                      0x00007fff45992dcd
        +[NSException raise:format:] + 205
        14  AppKit                              0x00007fff434d5750
         -[_NSScrollingConcurrentMainThreadSynchronizer
        _scrollToCanonicalOrigin] + 935
        28  AppKit                              0x00007fff435ace34
         -[NSApplication(NSEvent) _nextEventMatchingEventMask:untilDate:
         inMode:dequeue:] + 3044
        31  SecurityAgent                       0x00000001007bb8b8 main + 475
        32  libdyld.dylib                       0x00007fff6db95015 start + 1

        Thread 0 Crashed:: Dispatch queue: com.apple.main-thread
        0   libsystem_kernel.dylib        \t0x00007fff6dce5b6e __pthread_kill + 10
        3   libc++abi.dylib               \t0x00007fff6bb45f8f abort_message + 245
        4   libc++abi.dylib               \t0x00007fff6bb4612b
        default_terminate_handler() + 265
        5   libobjc.A.dylib               \t0x00007fff6cf7dea3 _objc_terminate() + 97
        6   libc++abi.dylib               \t0x00007fff6bb617c9
         std::__terminate(void (*)()) + 8
        7   libc++abi.dylib               \t0x00007fff6bb61843 std::terminate() + 51
        19  com.apple.AppKit              \t0x00007fff435ace34 -[NSApplication(NSEvent)
         _nextEventMatchingEventMask:untilDate:inMode:dequeue:] + 3044
        22  com.apple.SecurityAgent       \t0x00000001007bb8b8 main + 475
        23  libdyld.dylib                 \t0x00007fff6db95015 start + 1
        """

    private func crash(_ text: String = report) throws -> Crash {
        guard case .crashes(_, let crashes, _) = CrashReportParser().parse(Array(text.utf8), file: "wrapped.crash")
        else {
            Issue.record("not read as a crash report")
            throw CancellationError()
        }
        return try #require(crashes.first)
    }

    /// A short report of `process` that crashed on thread `crashed`: its identifying lines, then `body`.
    private static func report(
        incident: String, process: String, signal: String, crashed: Int, _ body: String
    ) -> String {
        """
        Incident Identifier: \(incident)
        Process:             \(process)
        Exception Type:  \(signal)
        Triggered by Thread:  \(crashed)

        \(body)
        """
    }

    private static func located(_ frames: [Frame]) -> [String] {
        frames.map { "\($0.image ?? "-") \($0.symbol ?? "-") + \($0.symbolOffset.map(String.init) ?? "-")" }
    }

    /// A frame broken after its address, or inside its symbol's parentheses, is read whole, and the frames after it
    /// stay in the thread (a broken line holding `::` used to end the thread there).
    @Test func readsEveryFrameOfTheCrashedThread() throws {
        let thread = try #require(try crash().crashingThread)
        #expect(thread.index == 0)
        #expect(
            Self.located(thread.frames) == [
                "libsystem_kernel.dylib __pthread_kill + 10",
                "libc++abi.dylib abort_message + 245",
                "libc++abi.dylib default_terminate_handler() + 265",
                "libobjc.A.dylib _objc_terminate() + 97",
                "libc++abi.dylib std::__terminate(void (*)()) + 8",
                "libc++abi.dylib std::terminate() + 51",
                "com.apple.AppKit -[NSApplication(NSEvent) _nextEventMatchingEventMask:untilDate:inMode:dequeue:] + 3044",
                "com.apple.SecurityAgent main + 475",
                "libdyld.dylib start + 1",
            ])
        #expect(thread.frames[2].address == 0x7fff_6bb4_612b)
        #expect(thread.frames[4].address == 0x7fff_6bb6_17c9)
    }

    /// The exception backtrace's frames, broken once or twice, a method name broken between its class and its
    /// selector and one broken inside its selector.
    @Test func readsEveryFrameOfTheExceptionBacktrace() throws {
        #expect(
            Self.located(try crash().exceptionBacktrace) == [
                "CoreFoundation __exceptionPreprocess + 171",
                "libobjc.A.dylib objc_exception_throw + 48",
                "CoreFoundation +[NSException raise:format:] + 205",
                "AppKit -[_NSScrollingConcurrentMainThreadSynchronizer _scrollToCanonicalOrigin] + 935",
                "AppKit -[NSApplication(NSEvent) _nextEventMatchingEventMask:untilDate:inMode:dequeue:] + 3044",
                "SecurityAgent main + 475",
                "libdyld.dylib start + 1",
            ])
    }

    @Test func readsTheUncaughtExceptionOverItsBrokenLines() throws {
        let exception = try crash().exception
        #expect(exception.name == "CALayerInvalidGeometry")
        #expect(exception.reason == "CALayer bounds contains NaN: [nan nan; 1424 160]")
        #expect(exception.type == "EXC_CRASH")
        #expect(exception.signal == "SIGABRT")
    }

    /// A frame that is whole is not joined to the line after it, and a stray line among the frames is skipped
    /// without ending the thread.
    @Test func leavesWholeFramesAlone() throws {
        let text = Self.report(
            incident: "6251125F-0919-4879-B36B-F5F2D1E6902E", process: "ShopApp [1730]", signal: "EXC_CRASH (SIGABRT)",
            crashed: 0,
            """
            Thread 0 Crashed:
            0   ShopApp                       \t0x0000000102a04c18 -[CartView reload]
            std::stray(line) + 1
            1   ShopApp                       \t0x0000000102a04d20 0x102a00000 + 19744
            Swift::stray::line
            2   UIKitCore                     \t0x00000001a2c1f0a8 -[UIViewController loadViewIfRequired] + 1036
            """)
        let thread = try #require(try crash(text).crashingThread)
        #expect(
            Self.located(thread.frames) == [
                "ShopApp -[CartView reload] + -", "ShopApp - + -",
                "UIKitCore -[UIViewController loadViewIfRequired] + 1036",
            ])
        #expect(thread.frames[1].imageOffset == 19744)
    }

    /// The raw list of addresses older iOS versions write as the exception backtrace, on one long line, wrapped
    /// over three. The list is a real report's (iOS 13.5, 2020), as it was written; wrapped here as a mail client
    /// wraps it.
    @Test func readsAWrappedListOfExceptionAddresses() throws {
        let text = Self.report(
            incident: "6251125F-0919-4879-B36B-F5F2D1E6902E", process: "ShopApp [2094]", signal: "EXC_CRASH (SIGABRT)",
            crashed: 1,
            """
            Last Exception Backtrace:
            (0x19624d794 0x195f6fbcc 0x1967251fc 0x1965284a0 0x19a6d7040 0x19a6d6df4 0x19a7937b0
            0x19a7936c4 0x19a7a1e00 0x1027af060 0x1027aeb7c 0x1027ab724 0x10279e5c8 0x1027670b0
            0x102766704 0x10277661c 0x1027766f4 0x1a4e2952c 0x195f129a8 0x195f13524 0x195eecf38
            0x195ef9534 0x195ef9cd0 0x195f64b38 0x195f67740)
            Thread 1 Crashed:
            0   libsystem_kernel.dylib        \t0x00000001960a1efc __pthread_kill + 8
            """)
        let crash = try crash(text)
        let addresses = crash.exceptionBacktrace.compactMap(\.address)
        #expect(addresses.count == 25)
        #expect(addresses.first == 0x1_9624_d794)
        #expect(addresses[7] == 0x1_9a79_36c4)
        #expect(addresses[14] == 0x1_0276_6704)
        #expect(addresses.last == 0x1_95f6_7740)
        #expect(crash.crashingThread?.frames.map(\.symbol) == ["__pthread_kill"])
    }

    /// An image line broken before its path. The lines are a real report's (an iOS 26.3.1 crash of a React Native
    /// app, 2026), the first wrapped as a mail client wraps it.
    @Test func readsThePathOfAnImageLineBrokenBeforeIt() throws {
        let text = Self.report(
            incident: "3080438B-D8BC-417C-8D89-05BF95D28C18", process: "SoloQuest [2415]",
            signal: "EXC_BAD_ACCESS (SIGSEGV)", crashed: 0,
            """
            Thread 0 Crashed:
            0   SoloQuest                     \t       0x102919620 0x102914000 + 22048

            Binary Images:
                   0x102914000 -        0x102e03fff SoloQuest arm64  <11ce3f5762643e8d8a8986894d83b974>
            /var/containers/Bundle/Application/9F4D42D9-D414-4DAA-A7DA-5F733BB3719D/SoloQuest.app/SoloQuest
                   0x103e28000 -        0x104263fff React arm64  <76fbcee9351730b39dc662c4e914e908> /private/var/containers/Bundle/Application/9F4D42D9-D414-4DAA-A7DA-5F733BB3719D/SoloQuest.app/Frameworks/React.framework/React
            """)
        let images = try crash(text).images
        #expect(images.map(\.name) == ["SoloQuest", "React"])
        #expect(
            images.first?.path
                == "/var/containers/Bundle/Application/9F4D42D9-D414-4DAA-A7DA-5F733BB3719D/SoloQuest.app/SoloQuest")
        #expect(images.first?.uuid == "11ce3f57-6264-3e8d-8a89-86894d83b974")
        #expect(images.last?.loadAddress == 0x1_03e2_8000)
    }

    /// What a triager reads: the exception by its name, and the group titled by it.
    @Test func triageNamesTheExceptionAndItsGroup() throws {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("casefile-wrapped-\(UUID()).crash")
        try Data(Self.report.utf8).write(to: file)
        defer { try? FileManager.default.removeItem(at: file) }
        let reports = try Triage().reports(at: file.path).reports
        let crash = try #require(reports.first?.crashes.first)
        #expect(crash.grouping?.title == "CALayerInvalidGeometry in main")
        let summary = reports.map(ReportSummary().render).joined()
        #expect(summary.contains("CALayer bounds contains NaN: [nan nan; 1424 160]"))
    }
}
