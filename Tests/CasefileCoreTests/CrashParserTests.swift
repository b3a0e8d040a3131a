import CasefileCore
import Foundation
import Testing

/// One row per crash sample: values read by hand from the files in SampleReports/Crashes/.
struct CrashExpectation: Sendable, CustomTestStringConvertible {
    var file: String
    var format: CrashFormat
    var crashedThread: Int?
    var type: String?
    var signal: String?
    var terminationCode: UInt64?
    var frames: [ExpectedFrame]
    var appUUID: String?
    var appLoadAddress: UInt64?
    var version: String?
    var build: String?
    var osVersion: String?

    var testDescription: String { file }
}

struct ExpectedFrame: Sendable, Equatable, CustomStringConvertible {
    var image: String?
    var address: UInt64?
    var symbol: String?

    init(_ image: String?, _ address: UInt64?, _ symbol: String? = nil) {
        self.image = image
        self.address = address
        self.symbol = symbol
    }

    init(_ frame: Frame) {
        self.init(frame.image, frame.address, frame.symbol)
    }

    var description: String { "\(image ?? "?") \(address.map { String($0, radix: 16) } ?? "?") \(symbol ?? "")" }
}

let appUUID = "4c4c442a-5555-3144-a1c2-ffa5de205d9d"
let build420UUID = "4c4c44a7-5555-3144-a1e8-3523111396bf"
let sendViewDidLoad = "-[UIViewController _sendViewDidLoadWithAppearanceProxyObjectTaggingEnabled]"

let crashSamples: [CrashExpectation] = [
    CrashExpectation(
        file: "cart-total-iphone14-ios16.ips", format: .ips, crashedThread: 0, type: "EXC_BREAKPOINT",
        signal: "SIGTRAP",
        terminationCode: 5,
        frames: [
            ExpectedFrame("ShopApp", 0x1_003a_802c, "CartViewModel.total()"),
            ExpectedFrame("ShopApp", 0x1_003a_8060, "CheckoutViewController.viewDidLoad()"),
            ExpectedFrame("UIKitCore", 0x1_a2c0_b6e4, sendViewDidLoad),
        ], appUUID: appUUID, appLoadAddress: 0x1_003a_4000, version: "2.3.1", build: "412", osVersion: "16.5"),
    CrashExpectation(
        file: "cart-total-iphone11-ios15.crash", format: .appleText, crashedThread: 0, type: "EXC_BREAKPOINT",
        signal: "SIGTRAP", terminationCode: 5,
        frames: [
            ExpectedFrame("ShopApp", 0x1_04d9_002c), ExpectedFrame("ShopApp", 0x1_04d9_0060),
            ExpectedFrame("UIKitCore", 0x1_a2c0_b6e4, sendViewDidLoad),
        ], appUUID: appUUID, appLoadAddress: 0x1_04d8_c000, version: "2.3.1", build: "412", osVersion: "15.7"),
    CrashExpectation(
        file: "cart-total-iphone12-ios15-kscrash.json", format: .ksCrash, crashedThread: 0, type: "EXC_BREAKPOINT",
        signal: "SIGTRAP",
        frames: [
            ExpectedFrame("ShopApp", 0x1_02f0_402c, "$s7ShopApp13CartViewModelC5totalSdyF"),
            ExpectedFrame("ShopApp", 0x1_02f0_4060, "$s7ShopApp22CheckoutViewControllerC11viewDidLoadyyF"),
            ExpectedFrame("UIKitCore", 0x1_a2c0_b6e4, sendViewDidLoad),
        ], appUUID: appUUID, appLoadAddress: 0x1_02f0_0000, version: "2.3.1", build: "412", osVersion: "15.4"),
    CrashExpectation(
        file: "cart-total-iphone15pro-ios18-xcode16-export.txt", format: .ips, crashedThread: 0, type: "EXC_BREAKPOINT",
        signal: "SIGTRAP", terminationCode: 5,
        frames: [
            ExpectedFrame("ShopApp", 0x1_006f_8048, "apply_discount"),
            ExpectedFrame("ShopApp", 0x1_006f_8038, "CartViewModel.total()"),
            ExpectedFrame("ShopApp", 0x1_006f_8078, "CheckoutViewController.viewDidLoad()"),
        ], appUUID: build420UUID, appLoadAddress: 0x1_006f_4000, version: "2.4.0", build: "420", osVersion: "18.1"),
    CrashExpectation(
        file: "cart-total-ios15-metrickit-payload.json", format: .metricKit, crashedThread: 0, type: "EXC_BREAKPOINT",
        signal: "SIGTRAP", terminationCode: 5,
        frames: [
            ExpectedFrame("ShopApp", 0x1_0232_402c), ExpectedFrame("ShopApp", 0x1_0232_4060),
            ExpectedFrame("UIKitCore", 0x1_a2c0_b6e4),
        ], appUUID: appUUID, appLoadAddress: 0x1_0232_0000, version: "2.3.1", build: "412", osVersion: "15.2"),
    CrashExpectation(
        file: "fatal-error-iphone13-ios15-sentrycrash.json", format: .ksCrash, crashedThread: 0, signal: "SIGTRAP",
        frames: [
            ExpectedFrame(
                "libswiftCore.dylib", 0x1_9bc4_7c98,
                "$ss17_assertionFailure__4file4line5flagss5NeverOs12StaticStringV_SSAHSus6UInt32VtF"),
            ExpectedFrame("ShopApp", 0x1_02f0_402c, "$s7ShopApp13CartViewModelC5totalSdyF"),
            ExpectedFrame("ShopApp", 0x1_02f0_4060, "$s7ShopApp22CheckoutViewControllerC11viewDidLoadyyF"),
        ], appUUID: appUUID, appLoadAddress: 0x1_02f0_0000, version: "2.3.1", build: "412", osVersion: "15.0"),
    CrashExpectation(
        file: "image-cache-iphone15-ios17.ips", format: .ips, crashedThread: 3, type: "EXC_BAD_ACCESS",
        signal: "SIGSEGV", terminationCode: 11,
        frames: [
            ExpectedFrame("ShopApp", 0x1_00d4_c0ac, "ImageCache.store(_:for:)"),
            ExpectedFrame("ShopApp", 0x1_00d4_c0d8, "ImageLoader.finish(_:)"),
            ExpectedFrame("libdispatch.dylib", 0x1_ab5e_2c8c, "_dispatch_call_block_and_release"),
        ], appUUID: appUUID, appLoadAddress: 0x1_00d4_8000, version: "2.3.1", build: "412", osVersion: "17.1"),
    CrashExpectation(
        file: "image-cache-iphonexr-ios14-plcrashreporter.crash", format: .appleText, crashedThread: 3,
        signal: "SIGSEGV",
        frames: [
            ExpectedFrame("ShopApp", 0x1_00e5_b0ac), ExpectedFrame("ShopApp", 0x1_00e5_b0d8),
            ExpectedFrame("libdispatch.dylib", 0x1_836c_3c8c),
        ], appUUID: appUUID, appLoadAddress: 0x1_00e5_7000, version: "2.3.1", build: "412", osVersion: "14.8"),
    CrashExpectation(
        file: "image-cache-metrickit-callstacktree.json", format: .metricKit, crashedThread: 1,
        frames: [
            ExpectedFrame("ShopApp", 0x1_00d4_c0ac), ExpectedFrame("ShopApp", 0x1_00d4_c0d8),
            ExpectedFrame("libdispatch.dylib", 0x1_ab5e_2c8c),
        ], appUUID: appUUID, appLoadAddress: 0x1_00d4_8000),
    CrashExpectation(
        file: "inapp-nsexception-coupon.txt", format: .inAppException, crashedThread: 0, type: "EXC_CRASH",
        signal: "SIGABRT",
        frames: [
            ExpectedFrame("CoreFoundation", 0x1_a0a5_8418, "__exceptionPreprocess"),
            ExpectedFrame("libobjc.A.dylib", 0x1_99e3_be4c, "objc_exception_throw"),
            ExpectedFrame("CoreFoundation", 0x1_a0b6_f7cc, "+[NSObject(NSObject) _copyDescription]"),
        ], appLoadAddress: 0x1_02a4_2000, version: "2.3.1", build: "412", osVersion: "16.2"),
    CrashExpectation(
        file: "inapp-signal-sigsegv.txt", format: .inAppException, crashedThread: 0, signal: "SIGSEGV",
        frames: [
            ExpectedFrame("ShopApp", 0x1_04c1_f0f4), ExpectedFrame("ShopApp", 0x1_04c1_e2c0),
            ExpectedFrame("libdispatch.dylib", 0x1_809a_2c8c, "_dispatch_call_block_and_release"),
        ], appLoadAddress: 0x1_04c1_4000, version: "2.3.0", build: "405", osVersion: "15.6.1"),
    CrashExpectation(
        file: "legacy-nsexception-ipad-ios9.crash", format: .appleText, crashedThread: 0, type: "EXC_CRASH",
        signal: "SIGABRT",
        frames: [
            ExpectedFrame("libsystem_kernel.dylib", 0x1_826f_011c, "__pthread_kill"),
            ExpectedFrame("libsystem_pthread.dylib", 0x1_827b_cef8, "pthread_kill"),
            ExpectedFrame("libsystem_c.dylib", 0x1_8266_1dac, "abort"),
        ], appUUID: "1a2b3c4d-5e6f-4071-8293-a4b5c6d7e8f9", appLoadAddress: 0x1_0002_c000, version: "2.1.0",
        build: "398", osVersion: "9.3.5"),
    CrashExpectation(
        file: "recrash-only-kscrash.json", format: .ksCrash, crashedThread: 0, type: "EXC_BAD_ACCESS",
        signal: "SIGSEGV",
        frames: [ExpectedFrame("ShopApp", 0x1_0020_0000, "kscrashreport_writeStandardReport")],
        appUUID: "7a6b5c4d-3e2f-4a1b-9c8d-7e6f5a4b3c2d", appLoadAddress: 0x1_001f_8000, version: "2.3.0",
        build: "405", osVersion: "16.1"),
    CrashExpectation(
        file: "watchdog-8badf00d-ipad-ios11.crash", format: .appleText, crashedThread: 0, type: "EXC_CRASH",
        signal: "SIGKILL", terminationCode: 0x8bad_f00d,
        frames: [
            ExpectedFrame("libsystem_kernel.dylib", 0x1_81a1_bbc4, "semaphore_wait_trap"),
            ExpectedFrame("libdispatch.dylib", 0x1_818b_ca9c, "_dispatch_semaphore_wait_slow"),
            ExpectedFrame("ShopApp", 0x1_02b9_80d8),
        ], appUUID: appUUID, appLoadAddress: 0x1_02b9_4000, version: "2.3.1", build: "412", osVersion: "11.4.1"),
    CrashExpectation(
        file: "watchdog-ios17-metrickit-diagnostic.json", format: .metricKit, crashedThread: 0, type: "EXC_CRASH",
        signal: "SIGKILL", terminationCode: 2_343_432_205,
        frames: [
            ExpectedFrame("libsystem_kernel.dylib", 0x1_e36e_2e08), ExpectedFrame("ShopApp", 0x1_003a_80d8),
            ExpectedFrame("ShopApp", 0x1_003a_8080),
        ], appUUID: appUUID, appLoadAddress: 0x1_003a_4000, version: "2.3.1", build: "412", osVersion: "17.4"),
    CrashExpectation(
        file: "cart-total-ios14-bugtype109.ips", format: .ips, crashedThread: 0, type: "EXC_BREAKPOINT",
        signal: "SIGTRAP", terminationCode: 5,
        frames: [
            ExpectedFrame("ShopApp", 0x1_00b9_802c), ExpectedFrame("ShopApp", 0x1_00b9_8060),
            ExpectedFrame("UIKitCore", 0x1_a2c0_b6e4, sendViewDidLoad),
        ], appUUID: appUUID, appLoadAddress: 0x1_00b9_4000, version: "2.3.1", build: "412", osVersion: "14.7.1"),
    CrashExpectation(
        file: "coupon-nsexception-iphone13-bugsnag.json", format: .ksCrash, crashedThread: 0, type: "EXC_CRASH",
        signal: "SIGABRT",
        frames: [
            ExpectedFrame("CoreFoundation", 0x1_a095_9418, "__exceptionPreprocess"),
            ExpectedFrame("ShopApp", 0x1_02a4_c6f0, "$s7ShopApp15CouponFormatterC6formatySSypF"),
        ], appUUID: "8f3c2a1b-4d5e-4f60-9a7b-1c2d3e4f5a6b", appLoadAddress: 0x1_02a4_2000, version: "2.3.1",
        build: "412", osVersion: "16.2"),
    CrashExpectation(
        file: "add-to-bag-iphone8-ios12-kscrash-applefmt.crash", format: .appleText, crashedThread: 0,
        type: "EXC_CRASH", signal: "SIGABRT",
        frames: [
            ExpectedFrame("CoreFoundation", 0x1_b7f5_d98c, "__exceptionPreprocess"),
            ExpectedFrame("libobjc.A.dylib", 0x1_b713_69f8, "objc_exception_throw"),
            ExpectedFrame("CoreFoundation", 0x1_b7ed_5ef4, "_CFArgv"),
        ], appUUID: "9a8b7c6d-5e4f-4031-2a3b-4c5d6e7f8091", appLoadAddress: 0x1_041d_8000, version: "2.2.0",
        build: "377", osVersion: "12.4.1"),
]

func crashes(_ file: String) throws -> [Crash] {
    try Triage().reports(at: Samples.sample("Crashes/\(file)")).reports.flatMap(\.crashes)
}

@Suite struct CrashParserTests {
    @Test(arguments: crashSamples)
    func readsEachFormatIntoTheSameModel(_ expected: CrashExpectation) throws {
        let crash = try #require(try crashes(expected.file).first)
        #expect(crash.format == expected.format)
        #expect(crash.crashedThread == expected.crashedThread)
        #expect(crash.exception.type == expected.type)
        #expect(crash.exception.signal == expected.signal)
        #expect(crash.exception.terminationCode == expected.terminationCode)
        let frames = crash.crashingThread?.frames.prefix(3).map(ExpectedFrame.init) ?? []
        #expect(frames == expected.frames)
        #expect(crash.appImage?.uuid == expected.appUUID)
        #expect(crash.appImage?.loadAddress == expected.appLoadAddress)
        #expect(crash.app.version == expected.version)
        #expect(crash.app.build == expected.build)
        #expect(crash.os.version == expected.osVersion)
    }

    @Test func computesImageOffsetsFromTheImageTable() throws {
        // .crash frame 0: 0x104d9002c in ShopApp loaded at 0x104d8c000 → 16428, as the line itself says.
        let frame = try #require(try crashes("cart-total-iphone11-ios15.crash").first?.crashingThread?.frames.first)
        #expect(frame.imageLoadAddress == 0x1_04d8_c000)
        #expect(frame.imageOffset == 16_428)
    }

    @Test func normalizesTerminationCodesWrittenInHexOrDecimal() throws {
        let text = try #require(try crashes("watchdog-8badf00d-ipad-ios11.crash").first)
        let metricKit = try #require(try crashes("watchdog-ios17-metrickit-diagnostic.json").first)
        #expect(text.exception.terminationCode == metricKit.exception.terminationCode)
        #expect(text.exception.terminationCodeHex == "0x8badf00d")
        #expect(text.exception.terminationNamespace == "SPRINGBOARD")
        #expect(text.exception.terminationMeaning == "watchdog timeout (ate bad food)")
    }

    @Test func readsTheUncaughtExceptionAndItsRawBacktrace() throws {
        let crash = try #require(try crashes("legacy-nsexception-ipad-ios9.crash").first)
        #expect(crash.exception.name == "NSInvalidArgumentException")
        #expect(
            crash.exception.reason
                == "-[__NSCFNumber length]: unrecognized selector sent to instance 0xb000000000000022")
        // `(0x182a5ee38 0x1820c3f80 0x182a65ccc 0x100034a10 0x1000331f4 0x187b3a3b0)`, matched to images by address.
        #expect(
            crash.exceptionBacktrace.map(ExpectedFrame.init) == [
                ExpectedFrame("CoreFoundation", 0x1_82a5_ee38), ExpectedFrame("libobjc.A.dylib", 0x1_820c_3f80),
                ExpectedFrame("CoreFoundation", 0x1_82a6_5ccc), ExpectedFrame("Shop App Widget", 0x1_0003_4a10),
                ExpectedFrame("Shop App Widget", 0x1_0003_31f4), ExpectedFrame("UIKit", 0x1_87b3_a3b0),
            ])
        #expect(crash.exceptionBacktrace[4].imageOffset == 29_172)
        #expect(crash.app.name == "Shop App Widget")
    }

    @Test func readsKSCrashAppleStyleSideBySideFrames() throws {
        let frame = try #require(
            try crashes("add-to-bag-iphone8-ios12-kscrash-applefmt.crash").first?.crashingThread?.frames[3])
        #expect(frame.symbol == "BagViewController.addItem(_:)")
        #expect(frame.symbolOffset == 172)
        #expect(frame.imageOffset == 35_856)
    }

    @Test func takesSwiftsFatalErrorMessageFromTheImageCrashInfo() throws {
        let crash = try #require(try crashes("fatal-error-iphone13-ios15-sentrycrash.json").first)
        #expect(
            crash.exception.reason
                == "ShopApp/CartViewModel.swift:41: Fatal error: Unexpectedly found nil while unwrapping an Optional value"
        )
    }

    @Test func readsTheLoadAddressFromTheOffsetFieldOnIOS15() throws {
        // iOS 14/15 MetricKit writes the load address 4331798528 (0x102320000) as offsetIntoBinaryTextSegment.
        let frame = try #require(
            try crashes("cart-total-ios15-metrickit-payload.json").first?.crashingThread?.frames.first)
        #expect(frame.imageLoadAddress == 0x1_0232_0000)
        #expect(frame.imageOffset == 16_428)
        // From iOS 16 on it is a real offset: 16600 into ShopApp.
        let later = try #require(
            try crashes("watchdog-ios17-metrickit-diagnostic.json").first?.crashingThread?.frames[1])
        #expect(later.imageOffset == 16_600)
        #expect(later.imageLoadAddress == 0x1_003a_4000)
    }

    /// An iOS 15 payload whose frame lies below its "load address" (8333357056): no reading of the two numbers
    /// holds, so the frame keeps its address and no image offset. The quirk's subtraction trapped on it, killing the
    /// run (a libFuzzer finding).
    @Test func keepsAFrameBelowItsLoadAddressWithoutAnOffset() throws {
        let sample = try String(
            contentsOfFile: Samples.sample("Crashes/cart-total-ios15-metrickit-payload.json"), encoding: .utf8)
        let edited = sample.replacingOccurrences(of: #""address" : 8333362176"#, with: #""address" : 333362176"#)
        #expect(edited != sample)
        guard case .crashes(.metricKit, let crashes, _) = CrashReportParser().parse(Array(edited.utf8), file: "m")
        else {
            Issue.record("the edited payload was not read")
            return
        }
        let frame = try #require(crashes.first?.threads.last?.frames.first)
        #expect(frame.image == "libsystem_pthread.dylib")
        #expect(frame.address == 333_362_176)
        #expect(frame.imageOffset == nil)
        #expect(frame.imageLoadAddress == nil)
        // The crashed thread, untouched, still reads its load address from the offset field.
        #expect(crashes.first?.crashingThread?.frames.first?.imageLoadAddress == 0x1_0232_0000)
    }

    @Test func keepsTheFullReportOfAnXcodeExportOnce() throws {
        let report = try #require(
            try Triage().reports(at: Samples.sample("Crashes/cart-total-iphone15pro-ios18-xcode16-export.txt")).reports
                .first)
        #expect(report.crashes.count == 1)
        #expect(report.crashes[0].incidentID == "9A8B7C6D-5E4F-4321-B0A9-8C7D6E5F4A3B")
        #expect(
            report.warnings.map(\.message) == [
                "translated report and full report are incident 9A8B7C6D-5E4F-4321-B0A9-8C7D6E5F4A3B twice; kept the full report"
            ])
    }

    @Test func readsAJetsamEventAsItsOwnKind() throws {
        let crash = try #require(try crashes("jetsam-iphone11-ios16.ips").first)
        #expect(crash.kind == .jetsam)
        #expect(crash.deviceModel == "iPhone12,1")
        #expect(
            crash.jetsam?.killed == [KilledProcess(name: "ShopApp", reason: "per-process-limit", residentPages: 89_129)]
        )
        #expect(crash.jetsam?.largestProcess == "ShopApp")
        #expect(crash.jetsam?.pageSize == 16_384)
    }

    @Test func prefersTheExactKeyWhenTwoDifferOnlyInCase() throws {
        // image-cache-iphone15-ios17.ips has both "vmRegionInfo" and "vmregioninfo", as real files do.
        let crash = try #require(try crashes("image-cache-iphone15-ios17.ips").first)
        #expect(crash.rawFields["VM Region Info"]?.hasPrefix("0x10 is not in any region.  Bytes before") == true)
    }

    @Test(arguments: [
        ("Highlighted Thread:  2", 2),
        ("Crashed Thread:        1  Dispatch queue: com.apple.main-thread", 1),
        ("Triggered by Thread:  0", 0),
    ])
    func readsEverySpellingOfTheCrashedThread(_ line: String, _ expected: Int) {
        let text = """
            Incident Identifier: 1
            Exception Type:  EXC_BAD_ACCESS (SIGSEGV)
            \(line)

            Thread 0:
            0   A  0x0000000100001000 0x100000000 + 4096

            """
        guard case .crashes(_, let crashes, _) = CrashReportParser().parse(Array(text.utf8), file: "t") else {
            Issue.record("not recognized")
            return
        }
        #expect(crashes.first?.crashedThread == expected)
    }

    @Test func readsMacOSDoubleColonThreadHeaders() {
        let text = """
            Process: A [1]
            Exception Type:  EXC_CRASH (SIGABRT)

            Thread 0 Crashed::  Dispatch queue: com.apple.main-thread
            0   A  0x0000000100001000 main + 12

            """
        guard case .crashes(_, let crashes, _) = CrashReportParser().parse(Array(text.utf8), file: "t") else {
            Issue.record("not recognized")
            return
        }
        #expect(crashes.first?.crashedThread == 0)
        #expect(crashes.first?.threads.first?.queue == "com.apple.main-thread")
        #expect(crashes.first?.threads.first?.frames.first?.symbol == "main")
    }

    @Test func flagsTheRecrashReport() throws {
        let output = try Triage().reports(at: Samples.sample("Crashes/recrash-only-kscrash.json"))
        #expect(output.reports[0].crashes[0].rawFields["recrash"] == "true")
        #expect(
            output.reports[0].warnings.map(\.message) == [
                "only a recrash report: the crash handler itself crashed; kept that"
            ])
    }

    @Test func readsInvalidJSONWithTrailingCommasAndSaysSo() throws {
        let report = try Triage().reports(at: Samples.sample("Crashes/fatal-error-iphone13-ios15-sentrycrash.json"))
            .reports[0]
        #expect(
            report.warnings.map(\.description) == [
                "fatal-error-iphone13-ios15-sentrycrash.json: invalid JSON (trailing commas or '...' elisions) read tolerantly"
            ])
    }

    @Test func turnsCallStackSymbolsImageOffsetsIntoAnImageTable() throws {
        let crash = try #require(try crashes("inapp-nsexception-coupon.txt").first)
        #expect(crash.exception.name == "NSInvalidArgumentException")
        let frames = try #require(crash.crashingThread?.frames)
        // `3   ShopApp   0x0000000102a4c6f0 ShopApp + 42736`: an image offset, not a symbol.
        #expect(frames[3].symbol == nil)
        #expect(frames[3].imageOffset == 42_736)
        // `5   UIKitCore   0x… 8C2B1E0F-3D4A-3B5C-9E6F-7A8B9C0D1E2F + 1236592`: the <redacted> form names the UUID.
        #expect(frames[5].imageUUID == "8c2b1e0f-3d4a-3b5c-9e6f-7a8b9c0d1e2f")
        #expect(frames[5].imageOffset == 1_236_592)
        #expect(crash.exceptionBacktrace.count == 7)
        // `Subject:` is a field no key names; `Call stack:` heads the frames.
        #expect(crash.rawFields == ["Subject": "[ShopApp crash] NSInvalidArgumentException"])
    }

    /// The in-app text's fields that name nothing Casefile reads are kept as they are; the line heading the frames
    /// (`Backtrace:`) is not a field.
    @Test func keepsTheInAppTextsOtherFieldsButNotTheBacktraceHeading() throws {
        let crash = try #require(try crashes("inapp-signal-sigsegv.txt").first)
        #expect(crash.rawFields == ["thread": "0 (com.apple.main-thread)"])
    }

    @Test(arguments: [
        (
            "truncated-header-only.crash", "Crashes",
            ["no threads found: the report is truncated or not a crash report", "no Exception Type line"]
        ),
        (
            "truncated-body.ips", "Malformed",
            [
                "body is not valid JSON (unterminated string, column 343): the report is truncated; read what was complete before it"
            ]
        ),
        (
            "truncated-kscrash.json", "Malformed",
            [
                "invalid JSON (unexpected end of input in an object, column 2): the report is truncated; read what was complete before it",
                // The file ends inside thread 0's "backtrace", before its "contents".
                "the crashed thread has no frames: the report is truncated",
            ]
        ),
    ])
    func keepsWhatATruncatedReportHoldsWithWarnings(_ file: String, _ folder: String, _ messages: [String]) throws {
        let report = try #require(try Triage().reports(at: Samples.sample("\(folder)/\(file)")).reports.first)
        #expect(report.warnings.map(\.message) == messages)
        #expect(report.crashes.count == 1)
    }

    @Test func keepsTheExceptionOfATruncatedIPSBody() throws {
        let crash = try #require(
            try Triage().reports(at: Samples.sample("Malformed/truncated-body.ips")).reports.first?.crashes.first)
        #expect(crash.exception.type == "EXC_BAD_ACCESS")
        #expect(crash.crashedThread == 3)
        #expect(crash.crashingThread?.frames.first?.symbol == "ImageCache.store(_:for:)")
    }

    @Test func readsCrashesInsideArchivesAsTheSameReports() throws {
        let zipped = try Triage().reports(at: Samples.sample("Crashes/mailed-crashes.zip")).reports
        let loose = try Triage().reports(at: Samples.sample("Crashes/watchdog-8badf00d-ipad-ios11.crash")).reports[0]
        #expect(
            zipped.map(\.source.root) == [
                "Mail attachments/inapp-signal-sigsegv.txt", "Mail attachments/watchdog-8badf00d-ipad-ios11.crash",
            ])
        #expect(zipped[1].id == loose.id)
        #expect(zipped[1].format == .appleCrash)
    }

    @Test func aClueExceptionBecomesACrashOfTheReport() throws {
        let report = try Triage().reports(at: Samples.sample("checkout-exception.clue.zip")).reports[0]
        let crash = try #require(report.crashes.first)
        #expect(crash.format == .inAppException)
        #expect(crash.exception.name == "NSInvalidArgumentException")
        #expect(crash.crashingThread?.frames.map(\.symbol) == ["<redacted>", "objc_exception_throw", "<redacted>"])
    }
}

@Suite struct IPSFastPathTests {
    func crash(_ text: String) throws -> Crash {
        guard case .crashes(_, let crashes, _) = CrashReportParser().parse(Array(text.utf8), file: "t.ips"),
            let crash = crashes.first
        else {
            throw CocoaError(.fileReadCorruptFile)
        }
        return crash
    }

    /// Compact frames take a fast path; spaced-out ones, extra keys and escapes take the key-by-key path. Both must
    /// read the same report the same way.
    @Test func readsCompactAndSpacedFramesAlike() throws {
        let original = try String(
            contentsOfFile: Samples.sample("Crashes/cart-total-iphone14-ios16.ips"), encoding: .utf8)
        let spaced = original.replacingOccurrences(of: #"{"imageOffset":"#, with: #"{ "imageOffset" : "#)
            .replacingOccurrences(of: #","symbol":"#, with: #", "symbol": "#)
        #expect(spaced != original)
        let fast = try crash(original)
        let slow = try crash(spaced)
        #expect(fast.threads == slow.threads)
        #expect(fast.threads[0].frames[0].symbol == "CartViewModel.total()")
    }

    /// The absolute placeholder Apple lists among `usedImages` (`"source":"A"`, base 0, no name) is no image, but the
    /// frames' `imageIndex` still counts it. Read on the fast path, and by the tree parser when the decoder refuses
    /// the body (here for a thread that is a number: the tree reads it as a thread without frames).
    @Test func countsThePlaceholderImageInFramesImageIndices() throws {
        let original = try String(
            contentsOfFile: Samples.sample("Crashes/cart-total-iphone14-ios16.ips"), encoding: .utf8)
        let placeholder = #"{"size":0,"source":"A","base":0,"uuid":"00000000-0000-0000-0000-000000000000"}"#
        let listed = original.replacingOccurrences(
            of: #""usedImages" : ["#, with: #""usedImages" : ["# + placeholder + ",")
        let shifted = listed.replacing(/"imageIndex":(\d+)/) { match in #""imageIndex":\#(Int(match.1)! + 1)"# }
        #expect(shifted.contains(placeholder))
        let odd = shifted.replacingOccurrences(of: #""threads" : ["#, with: #""threads" : [42, "#)
        #expect(odd != shifted)
        let expected = try crash(original)
        #expect(expected.threads[0].frames[0].image == "ShopApp")
        let fast = try crash(shifted)
        #expect(fast.images == expected.images)
        #expect(fast.threads == expected.threads)
        let tree = try crash(odd)
        #expect(tree.images == expected.images)
        #expect(tree.threads.map(\.frames) == [[]] + expected.threads.map(\.frames))
    }

    /// Without a `slice_uuid` in the header, the app image is the one at `procPath` (both `/private/var/…` in the
    /// sample), on the fast path and on the tree parser's (a thread that is a number makes the decoder refuse).
    @Test func marksTheAppImageByItsPathWithoutASliceUUID() throws {
        let original = try String(
            contentsOfFile: Samples.sample("Crashes/cart-total-iphone14-ios16.ips"), encoding: .utf8)
        let unsliced = original.replacingOccurrences(
            of: #""slice_uuid":"4c4c442a-5555-3144-a1c2-ffa5de205d9d","#, with: "")
        #expect(unsliced != original)
        let odd = unsliced.replacingOccurrences(of: #""threads" : ["#, with: #""threads" : [42, "#)
        #expect(odd != unsliced)
        for text in [unsliced, odd] {
            let crash = try crash(text)
            #expect(crash.images.filter(\.isApp).map(\.name) == ["ShopApp"])
            #expect(crash.appImage?.uuid == "4c4c442a-5555-3144-a1c2-ffa5de205d9d")
        }
    }

    @Test func readsFramesWithExtraKeysAndEscapes() throws {
        let original = try String(
            contentsOfFile: Samples.sample("Crashes/cart-total-iphone14-ios16.ips"), encoding: .utf8)
        let edited = original.replacingOccurrences(
            of: #"{"imageOffset":16428,"symbol":"CartViewModel.total()","symbolLocation":44,"imageIndex":0}"#,
            with:
                #"{"imageOffset":16428,"symbol":"CartViewModel.\"total\"()","symbolLocation":44,"imageIndex":0,"sourceFile":"Cart.swift","sourceLine":41,"inline":true}"#
        )
        #expect(edited != original)
        let frame = try #require(try crash(edited).threads.first?.frames.first)
        #expect(frame.symbol == #"CartViewModel."total"()"#)
        #expect(frame.symbolOffset == 44)
        #expect(frame.imageOffset == 16_428)
        #expect(frame.file == "Cart.swift")
        #expect(frame.line == 41)
        #expect(frame.inlined)
        #expect(frame.address == 0x1_003a_802c)
    }
}
