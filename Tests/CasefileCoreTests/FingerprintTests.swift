import CasefileCore
import Foundation
import Testing

/// Grouping, through the real parsers and symbolication against the committed fixture build. Expected frames come
/// from `SampleReports/Symbols/src/checkout.c` (which function calls which, what is inlined) and from the samples.
@Suite struct FingerprintTests {
    static let symbolicator = Symbolicator(
        index: DebugFileIndex(scanning: [Samples.repository.appendingPathComponent("SampleReports/Symbols")]))

    func crash(_ path: String, symbolicate: Bool = true) throws -> Crash {
        let triage = Triage()
        let report = try #require(
            try triage.reports(at: path, symbolicator: symbolicate ? Self.symbolicator : nil).reports.first)
        return try #require(report.crashes.first)
    }

    /// A crash whose crashed thread is `symbols` in the app's image, as the report names them.
    static func appCrash(_ symbols: [String]) -> Crash {
        var crash = Crash(format: .ips)
        crash.images = [
            BinaryImage(name: "ShopApp", loadAddress: 0x1_0000_0000, endAddress: 0x1_000f_ffff, isApp: true)
        ]
        crash.crashedThread = 0
        crash.threads = [
            CrashThread(index: 0, crashed: true, frames: symbols.map { Frame(image: "ShopApp", symbol: $0) })
        ]
        return crash
    }

    func grouping(_ name: String) throws -> Crash {
        try crash(Samples.repository.appendingPathComponent("Tests/Fixtures/Grouping/\(name)").path)
    }

    static let cartTotalSamples = [
        "cart-total-iphone14-ios16.ips", "cart-total-iphone11-ios15.crash", "cart-total-iphone12-ios15-kscrash.json",
        "cart-total-ios15-metrickit-payload.json", "cart-total-ios14-bugtype109.ips",
        "fatal-error-iphone13-ios15-sentrycrash.json", "cart-total-iphone15pro-ios18-xcode16-export.txt",
    ]

    @Test func groupsTheSameCrashAcrossFormatsDevicesOSVersionsAndTwoBuilds() throws {
        // .ips, .crash, KSCrash, MetricKit, bug type 109, SentryCrash and an Xcode 16 export; iPhone14,2 to iPhone15,3;
        // iOS 14.7 to 18.1; build 412 (apply_discount inlined into total) and build 420 (not inlined).
        let crashes = try Self.cartTotalSamples.map { try crash(Samples.sample("Crashes/\($0)")) }
        #expect(Set(crashes.map(\.app.build)) == ["412", "420"])
        #expect(Set(crashes.compactMap(\.fingerprint)).count == 1)
        for crash in crashes {
            #expect(
                crash.grouping?.keyFrames.map(\.function) == [
                    "apply_discount", "CartViewModel.total()", "CheckoutViewController.viewDidLoad()",
                ])
            #expect(crash.grouping?.resolution == .top3)
        }
    }

    @Test func countsAnInlinedHelperAsALogicalFrame() throws {
        let inlined = try crash(Samples.sample("Crashes/cart-total-iphone14-ios16.ips"))
        let separate = try crash(Samples.sample("Crashes/cart-total-iphone15pro-ios18-xcode16-export.txt"))
        // Build 412: one physical frame holds apply_discount and total; build 420: two frames.
        #expect(inlined.crashingThread?.frames.first?.symbolication?.locations.count == 2)
        #expect(separate.crashingThread?.frames.first?.symbolication?.locations.count == 1)
        #expect(inlined.fingerprint == separate.fingerprint)
    }

    @Test func separatesACrashInTheNeighbouringFunction() throws {
        let total = try crash(Samples.sample("Crashes/cart-total-iphone14-ios16.ips"))
        let subtotal = try grouping("cart-subtotal-neighbour.crash")
        #expect(subtotal.grouping?.keyFrames.first?.function == "CartViewModel.subtotal()")
        #expect(subtotal.fingerprint != total.fingerprint)
    }

    @Test func separatesTwoClosuresOfOneFunctionByTheirDeclarationLine() throws {
        let first = try grouping("coupon-closure-1.crash")
        let second = try grouping("coupon-closure-2.crash")
        let again = try grouping("coupon-closure-1-again.crash")
        // checkout.c declares coupon_first (closure #1) on line 65 and coupon_second (closure #2) on line 69.
        #expect(
            first.grouping?.keyFrames.map(\.function) == ["closure in CouponView.apply() @65", "CouponView.apply()"])
        #expect(second.grouping?.keyFrames.first?.function == "closure in CouponView.apply() @69")
        #expect(first.fingerprint != second.fingerprint)
        #expect(first.fingerprint == again.fingerprint)
    }

    @Test func doesNotSplitOnClosureNumbersWithoutDebugInformation() throws {
        // The report's own names only: the same closure numbered #1 in one build and #2 in the next is one frame.
        let one = Self.appCrash(["closure #1 in CouponView.apply()", "CouponView.apply()"])
        let two = Self.appCrash(["$s7ShopApp10CouponViewC5applyyyFyycfU0_", "CouponView.apply()"])
        let fingerprinter = Fingerprinter()
        #expect(fingerprinter.fingerprint(one).key == fingerprinter.fingerprint(two).key)
    }

    @Test func doesNotLetALoneObjcMsgSendSwallowUnrelatedCrashes() throws {
        let table = try grouping("objc-msgsend-table.crash")
        let notification = try grouping("objc-msgsend-notification.crash")
        #expect(table.fingerprint != notification.fingerprint)
        // No app frame: the system frames key it, objc_msgSend only together with the frame below it.
        #expect(table.grouping?.resolution == .topN)
        #expect(
            table.grouping?.keyFrames.map(\.function).prefix(2) == [
                "objc_msgSend", "-[UITableView _updateVisibleCellsNow:]",
            ])
    }

    @Test func groupsAnUncaughtExceptionByItsExceptionBacktrace() throws {
        let total = try grouping("exception-total.crash")
        let imageCache = try grouping("exception-image-cache.crash")
        let again = try grouping("exception-total-again.crash")
        // The three share one abort stack on the crashed thread; their exception backtraces differ.
        #expect(total.grouping?.source == "exception backtrace")
        #expect(total.fingerprint != imageCache.fingerprint)
        #expect(total.fingerprint == again.fingerprint)
        #expect(imageCache.grouping?.keyFrames.first?.function == "ImageCache.store()")
        let skipped = total.grouping?.frames.prefix(2).map(\.skipped)
        #expect(skipped == ["above the sentinel frame `objc_exception_throw`", "sentinel `objc_exception_throw`"])
        // The exception key parameterizes the numbers of the reason: "index 7 … [0 .. 3]" and "index 12 … [0 .. 9]".
        #expect(total.fingerprints?["exception"] == again.fingerprints?["exception"])
        // A trap in the same function is another bug than an uncaught NSRangeException thrown from it.
        let trap = try crash(Samples.sample("Crashes/cart-total-iphone14-ios16.ips"))
        #expect(trap.fingerprint != total.fingerprint)
    }

    @Test func keysWatchdogTerminationsByCodeAndMainThread() throws {
        let text = try crash(Samples.sample("Crashes/watchdog-8badf00d-ipad-ios11.crash"))
        let metricKit = try crash(Samples.sample("Crashes/watchdog-ios17-metrickit-diagnostic.json"))
        #expect(text.grouping?.kind == .termination)
        #expect(text.grouping?.components == ["termination 0x8badf00d"])
        #expect(text.fingerprint == metricKit.fingerprint)
        #expect(text.grouping?.source == "main thread (thread 0)")
    }

    @Test func keysAJetsamEventByItsReason() throws {
        let jetsam = try crash(Samples.sample("Crashes/jetsam-iphone11-ios16.ips"))
        #expect(jetsam.grouping?.kind == .jetsam)
        #expect(jetsam.grouping?.components == ["jetsam", "per-process-limit"])
    }

    @Test func storesEveryResolutionAndTheRuleSetVersion() throws {
        let crash = try crash(Samples.sample("Crashes/cart-total-iphone14-ios16.ips"))
        let keys = try #require(crash.fingerprints)
        #expect(Set(keys.keys) == ["top1", "top3", "topN", "exception"])
        #expect(keys["top3"] == crash.fingerprint)
        #expect(Set(keys.values).count == 4)
        #expect(crash.grouping?.rulesVersion.hasPrefix("casefile-grouping-1/") == true)
        #expect(crash.fingerprint?.count == 16)
    }

    @Test func fallsBackToTheImageAndTheExceptionWithoutSymbols() throws {
        // Unsymbolicated, the .crash knows its app frames only as `ShopApp + offset`: never an address in the key.
        // Frames 0 and 1 (total, viewDidLoad) fold into one `ShopApp`; frame 4 (main) is the second, after UIKit.
        let crash = try crash(Samples.sample("Crashes/cart-total-iphone11-ios15.crash"), symbolicate: false)
        #expect(crash.grouping?.keyFrames.map(\.function) == ["ShopApp", "ShopApp"])
        #expect(crash.grouping?.components == ["EXC_BREAKPOINT", ""])
    }

    @Test func appliesOverridesFromThePipelineDefinition() throws {
        var rules = GroupingRules.default
        let plain = try crash(Samples.sample("Crashes/cart-total-iphone14-ios16.ips"))
        rules.overrides = [try #require(GroupingRules.Override("function:apply_discount -group"))]
        let withoutHelper = Fingerprinter(rules: rules).fingerprint(plain)
        #expect(
            withoutHelper.keyFrames.map(\.function) == [
                "CartViewModel.total()", "CheckoutViewController.viewDidLoad()", "main",
            ])
        #expect(withoutHelper.frames.first?.skipped == "rule `function:apply_discount -group`")
        #expect(withoutHelper.rulesVersion != plain.grouping?.rulesVersion)
        rules.overrides = [try #require(GroupingRules.Override("image:ShopApp -app"))]
        let notApp = Fingerprinter(rules: rules).fingerprint(plain)
        #expect(notApp.resolution == .topN)
        rules.overrides = [try #require(GroupingRules.Override("image:UIKitCore +app"))]
        let uiKit = Fingerprinter(rules: rules).fingerprint(plain)
        #expect(uiKit.frames.first { $0.image == "UIKitCore" }?.inApp == true)
        #expect(GroupingRules.Override("function:main +app") == nil)
    }
}

extension FingerprintTests {
    @Test func foldsAnObjcThunkIntoTheFunctionItCalls() throws {
        // `@objc ViewController.viewDidLoad()` calling the native `ViewController.viewDidLoad()`: one logical frame.
        let crash = Self.appCrash([
            "$s7ShopApp14ViewControllerC11viewDidLoadyyF", "$s7ShopApp14ViewControllerC11viewDidLoadyyFTo", "main",
        ])
        let fingerprint = Fingerprinter().fingerprint(crash)
        #expect(fingerprint.keyFrames.map(\.function) == ["ViewController.viewDidLoad()", "main"])
        #expect(fingerprint.frames[1].skipped == "same function as the frame above (thunk or recursion)")
    }
}

extension FingerprintTests {
    @Test func keysAClosureTheSameFromTheSymbolCacheAsFromTheDebugFile() throws {
        // The index keeps the symbol cache between runs: a closure's declaration line must come back from it.
        let path = Samples.repository.appendingPathComponent("Tests/Fixtures/Grouping/coupon-closure-1.crash").path
        let crash = try #require(try Triage().reports(at: path).reports.first?.crashes.first)
        let index = DebugFileIndex(scanning: [Samples.repository.appendingPathComponent("SampleReports/Symbols")])
        let cache = SymbolCache()
        let fresh = Symbolicator(index: index, cache: cache).symbolicate(crash).crash
        let broken = LLVMSymbolizer(executable: URL(fileURLWithPath: "/nonexistent/llvm-symbolizer"))
        let cached = Symbolicator(index: index, llvmSymbolizer: broken, cache: cache).symbolicate(crash)
        #expect(cached.warnings.isEmpty)
        let fingerprinter = Fingerprinter()
        #expect(
            fingerprinter.fingerprint(cached.crash).keyFrames.first?.function == "closure in CouponView.apply() @65")
        #expect(fingerprinter.fingerprint(cached.crash).key == fingerprinter.fingerprint(fresh).key)
    }
}

extension FingerprintTests {
    @Test func looksNoDeeperThanTwoHundredFramesIntoARunawayRecursion() {
        let crash = Self.appCrash(Array(repeating: "Parser.descend()", count: 100_000) + ["main"])
        let fingerprint = Fingerprinter().fingerprint(crash)
        #expect(fingerprint.frames.count == 200)
        #expect(fingerprint.keyFrames.map(\.function) == ["Parser.descend()"])
        #expect(fingerprint.frames[1].skipped == "same function as the frame above (thunk or recursion)")
    }
}

extension FingerprintTests {
    @Test func keysACrashWithoutFramesByItsExceptionAlone() {
        var crash = Crash(format: .inAppException)
        crash.exception.name = "NSInternalInconsistencyException"
        crash.exception.reason = "Invalid update: invalid number of rows in section 0 (7 then 9)"
        let fingerprint = Fingerprinter().fingerprint(crash)
        #expect(fingerprint.resolution == .exception)
        #expect(
            fingerprint.components == [
                "NSInternalInconsistencyException",
                "Invalid update: invalid number of rows in section {n} ({n} then {n})",
            ])
        #expect(fingerprint.key == fingerprint.keys["exception"])
    }
}
