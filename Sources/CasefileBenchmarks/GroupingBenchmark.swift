import CasefileCore
import CasefileStore
import Foundation

/// Fingerprints per second on one core, and the time to assign 100,000 reports to groups in the index.
enum GroupingBenchmark {
    /// The cart-total `.ips`, symbolicated against the fixture (so its top frame holds an inlined function), with a
    /// crashed thread 40 frames deep like a real main thread under UIKit's run loop.
    static func realisticCrash(root: String) -> Crash? {
        let path = "\(root)/Crashes/cart-total-iphone14-ios16.ips"
        let symbolicator = Symbolicator(index: DebugFileIndex(scanning: [URL(fileURLWithPath: "\(root)/Symbols")]))
        guard var crash = try? Triage().reports(at: path, symbolicator: symbolicator).reports.first?.crashes.first,
            let thread = crash.threads.firstIndex(where: \.crashed)
        else { return nil }
        let system = [
            ("UIKitCore", "-[UIViewController loadViewIfRequired]"), ("UIKitCore", "-[UIViewController view]"),
            ("UIKitCore", "-[UINavigationController _startCustomTransition:]"),
            ("UIKitCore", "-[UINavigationController _startDeferredTransitionIfNeeded:]"),
            ("UIKitCore", "-[UILayoutContainerView layoutSubviews]"),
            ("QuartzCore", "CA::Layer::layout_if_needed(CA::Transaction*)"),
            ("QuartzCore", "CA::Context::commit_transaction(CA::Transaction*, double, double*)"),
            ("QuartzCore", "CA::Transaction::commit()"),
            ("CoreFoundation", "__CFRUNLOOP_IS_CALLING_OUT_TO_AN_OBSERVER_CALLBACK_FUNCTION__"),
            ("CoreFoundation", "__CFRunLoopDoObservers"), ("CoreFoundation", "__CFRunLoopRun"),
            ("CoreFoundation", "CFRunLoopRunSpecific"), ("GraphicsServices", "GSEventRunModal"),
            ("UIKitCore", "-[UIApplication _run]"), ("UIKitCore", "UIApplicationMain"),
        ]
        var frames = crash.threads[thread].frames
        let tail = frames.suffix(2)
        frames.removeLast(2)
        for index in 0..<(40 - frames.count - tail.count) {
            let (image, symbol) = system[index % system.count]
            frames.append(Frame(image: image, address: 0x1_a2c0_0000 + UInt64(index * 64), symbol: symbol))
        }
        crash.threads[thread].frames = frames + tail
        // And 320 binary images, as a real iOS crash lists: system libraries after the app.
        for index in 0..<320 {
            let base = 0x1_9000_0000 + UInt64(index) * 0x40_0000
            crash.images.append(
                BinaryImage(
                    name: "libsystem_\(index).dylib", path: "/usr/lib/system/libsystem_\(index).dylib", arch: "arm64e",
                    uuid: String(format: "%08x-0000-4000-8000-%012x", index, index), loadAddress: base,
                    endAddress: base + 0x3f_ffff))
        }
        return crash
    }

    static func fingerprintsPerSecond(_ crash: Crash) {
        let fingerprinter = Fingerprinter()
        var keys = 0
        let rate = runsPerSecond(for: 2, batch: 1_000) { keys &+= fingerprinter.fingerprint(crash).key.utf8.count }
        let frames = crash.crashingThread?.frames.count ?? 0
        print(
            String(
                format: "fingerprints: %.0f crashes/s (crashed thread of %d frames, %d images, symbolicated, one core)",
                rate, frames, crash.images.count))
        precondition(keys > 0)
    }

    /// 100,000 reports whose crashes spread Zipf-like over 5,000 bugs, fingerprinted, then indexed in 100 inputs of
    /// 1,000 — once with group assignment and once without, so the difference is what grouping costs.
    static func assignment(_ crash: Crash) async throws {
        let bugs = 5_000
        let total = 100_000
        // Zipf (s = 1.1) over the bugs: a few crash often, most rarely, as in a real inbox.
        let weights = (1...bugs).map { 1 / pow(Double($0), 1.1) }
        let sum = weights.reduce(0, +)
        var cumulative: [Double] = []
        var running = 0.0
        for weight in weights {
            running += weight / sum
            cumulative.append(running)
        }
        var generator = SplitMix(seed: 42)
        let fingerprinter = Fingerprinter()
        var reports: [Report] = []
        reports.reserveCapacity(total)
        var variant = crash
        guard let thread = variant.threads.firstIndex(where: \.crashed) else { return }
        // Every bug is the same stack with another app function on top.
        var templates: [Crash] = []
        for bug in 0..<bugs {
            variant.threads[thread].frames[0].symbolication = nil
            variant.threads[thread].frames[0].symbol = "Feature\(bug)ViewModel.load()"
            templates.append(variant)
        }
        let fingerprintStart = Date()
        for index in 0..<total {
            let draw = Double(generator.next() >> 11) / Double(1 << 53)
            var low = 0
            var high = bugs - 1
            while low < high {
                let middle = (low + high) / 2
                if cumulative[middle] < draw { low = middle + 1 } else { high = middle }
            }
            var report = Report(
                id: String(format: "%064x", index), format: .ips, source: ReportSource(input: "bench", root: ""),
                crashes: [templates[low]])
            report = fingerprinter.fingerprint(report)
            // Only the grouping is indexed: the frames and images would measure the crash tables, not grouping.
            report.crashes[0].threads = []
            report.crashes[0].images = []
            reports.append(report)
        }
        let fingerprintSeconds = Date().timeIntervalSince(fingerprintStart)
        let distinct = Set(reports.compactMap { $0.crashes.first?.fingerprint }).count

        func index(grouped: Bool) async throws -> Double {
            let folder = FileManager.default.temporaryDirectory.appendingPathComponent("casefile-groups-\(UUID())")
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            defer { try? FileManager.default.removeItem(at: folder) }
            let store = try IndexStore(path: folder.appendingPathComponent("index.sqlite").path)
            let run = try await store.beginRun(pipeline: "bench", inbox: "bench", startedAt: Date())
            let start = Date()
            for batch in 0..<(total / 1_000) {
                var slice = Array(reports[(batch * 1_000)..<((batch + 1) * 1_000)])
                if !grouped {
                    for position in slice.indices { slice[position].crashes[0].grouping = nil }
                }
                let input = IndexedInput(
                    record: InputRecord(path: "bench-\(batch)", sha256: String(format: "%064x", batch), kind: "file"),
                    reports: slice, notes: [], summaryPaths: [:])
                _ = try await store.record(input, run: run)
            }
            return Date().timeIntervalSince(start)
        }
        // Each figure is the better of two runs, alternating, so neither pays for a cold start.
        var without = Double.infinity
        var with = Double.infinity
        for _ in 0..<2 {
            with = min(with, try await index(grouped: true))
            without = min(without, try await index(grouped: false))
        }
        print(
            String(
                format:
                    "assign 100,000 reports to groups: %.2f s (indexing with grouping %.2f s, without %.2f s; %d groups, Zipf over %d bugs; fingerprinting them %.2f s)",
                with - without, with, without, distinct, bugs, fingerprintSeconds))
    }
}

/// A small seeded generator, so every run draws the same inbox.
struct SplitMix: RandomNumberGenerator {
    private var state: UInt64

    init(seed: UInt64) {
        state = seed
    }

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
