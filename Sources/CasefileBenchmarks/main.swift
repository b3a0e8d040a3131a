// Prints crash reports parsed per second per format, on one core, for a release build:
//   swift build -c release --product casefile-benchmarks && .build/release/casefile-benchmarks SampleReports
// The `.ips`, `.crash` and KSCrash inputs are the samples grown to about 100 KB with more threads, the size of a
// typical real report; MetricKit and in-app reports are measured at their sample size.
import CasefileCore
import Foundation

let root = CommandLine.arguments.dropFirst().first ?? "SampleReports"

func load(_ name: String) -> String {
    guard let text = try? String(contentsOfFile: "\(root)/Crashes/\(name)", encoding: .utf8) else {
        FileHandle.standardError.write(Data("cannot read \(root)/Crashes/\(name)\n".utf8))
        exit(2)
    }
    return text
}

/// Repeats `block` after the first occurrence of `marker` until the text is about `size` bytes.
func grow(_ text: String, after marker: String, block: (Int) -> String, to size: Int) -> String {
    guard let range = text.range(of: marker) else { return text }
    var insert = ""
    var index = 100
    while text.utf8.count + insert.utf8.count < size {
        insert += block(index)
        index += 1
    }
    return String(text[..<range.upperBound]) + insert + String(text[range.upperBound...])
}

// Every added frame has a symbol of its own, as real threads mostly do.
func ipsFrame(_ thread: Int, _ frame: Int) -> String {
    #"{"imageOffset":\#(79_588 + frame * 4),"symbol":"-[UIViewController _sendViewDidLoad\#(thread)WithAppearanceProxy\#(frame)]","symbolLocation":108,"imageIndex":1}"#
}
let ips = grow(
    load("cart-total-iphone14-ios16.ips"), after: "\"threads\" : [",
    block: { thread in
        "{\"id\":\(thread),\"frames\":[" + (0..<20).map { ipsFrame(thread, $0) }.joined(separator: ",") + "]},"
    },
    to: 100_000)
let textFrame = "0   UIKitCore                     \t       0x1a2c1f0a8 -[UIViewController loadViewIfRequired] + 1036\n"
let crash = grow(
    load("cart-total-iphone11-ios15.crash"), after: "start_wqthread + 0\n",
    block: { "\nThread \($0):\n" + String(repeating: textFrame, count: 20) }, to: 100_000)
let ksFrame =
    #"{"instruction_addr": 7025586344, "object_addr": 7025426432, "object_name": "UIKitCore", "symbol_addr": 7025585308, "symbol_name": "-[UIViewController loadViewIfRequired]"}"#
let kscrash = grow(
    load("cart-total-iphone12-ios15-kscrash.json"), after: "\"threads\": [",
    block: {
        "{\"index\": \($0), \"crashed\": false, \"backtrace\": {\"contents\": ["
            + Array(repeating: ksFrame, count: 20).joined(separator: ", ") + "]}},"
    }, to: 100_000)

let inputs: [(String, String)] = [
    (".ips (bug type 309)", ips),
    (".crash (Apple text)", crash),
    ("KSCrash JSON", kscrash),
    ("MetricKit payload", load("cart-total-ios15-metrickit-payload.json")),
    ("in-app exception text", load("inapp-nsexception-coupon.txt")),
]

let only = CommandLine.arguments.dropFirst(2).first
let parser = CrashReportParser()
for (name, text) in inputs where only.map({ name.contains($0) }) ?? true {
    let bytes = Array(text.utf8)
    guard case .crashes(_, let crashes, _) = parser.parse(bytes, file: name), !crashes.isEmpty else {
        print("\(name): not parsed")
        continue
    }
    let rate = runsPerSecond(for: 2, batch: 50) { _ = parser.parse(bytes, file: name) }
    let threads = crashes[0].threads.count
    print(
        String(
            format: "%@: %.0f reports/s (%.1f KB, %d threads, one core)", name, rate, Double(bytes.count) / 1000,
            threads))
}

// The crash-detail blob of the grown .ips: crashes encoded per second on one core.
if only.map({ "blob".contains($0) }) ?? true {
    guard case .crashes(_, let crashes, _) = parser.parse(Array(ips.utf8), file: "blob.ips"), let crash = crashes.first
    else {
        print("crash detail blob: the .ips was not parsed")
        exit(2)
    }
    try BlobBenchmark.run(crash)
}

// Symbolication: look-ups per second from a cold dSYM (llvm-symbolizer started for the crash) and from the warm
// cache, over a crash of 20,000 frames inside the fixture's __text; then the time to index 100 dSYMs.
if only.map({ "symbols".contains($0) }) ?? true {
    let symbols = URL(fileURLWithPath: "\(root)/Symbols")
    guard let slice = try? MachOFile.slices(atPath: symbols.appendingPathComponent("ShopApp").path).first,
        let uuid = slice.uuid
    else {
        print("symbols: cannot read \(root)/Symbols/ShopApp")
        exit(2)
    }
    let index = DebugFileIndex(scanning: [symbols])
    let load: UInt64 = 0x1_04a2_8000
    var crash = Crash(format: .appleText)
    crash.images = [
        BinaryImage(name: "ShopApp", arch: "arm64", uuid: uuid, loadAddress: load, endAddress: load + 0xffff)
    ]
    let frames = (0..<20_000).map { Frame(image: "ShopApp", address: load + 0x4004 + UInt64($0 % 0x8c)) }
    crash.threads = [CrashThread(index: 0, crashed: true, frames: frames)]
    crash.crashedThread = 0

    func measure(_ label: String, runs: Int, _ body: () -> Void) {
        let start = Date()
        for _ in 0..<runs { body() }
        let seconds = Date().timeIntervalSince(start)
        print(String(format: "%@: %.0f look-ups/s", label, Double(frames.count * runs) / seconds))
    }
    measure("symbol look-ups, cold dSYM (llvm-symbolizer; 20,000 frames, 140 distinct addresses)", runs: 3) {
        _ = Symbolicator(index: index, cache: SymbolCache()).symbolicate(crash)
    }
    let warm = Symbolicator(index: index, cache: SymbolCache())
    _ = warm.symbolicate(crash)
    measure("symbol look-ups, warm cache", runs: 50) { _ = warm.symbolicate(crash) }
    let breakpad = Symbolicator(
        index: DebugFileIndex(scanning: [symbols.appendingPathComponent("Breakpad")]), llvmSymbolizer: nil)
    measure("symbol look-ups, cold Breakpad file (same frames)", runs: 5) {
        _ = Symbolicator(index: breakpad.index, llvmSymbolizer: nil, cache: SymbolCache()).symbolicate(crash)
    }

    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("casefile-dsyms-\(UUID().uuidString)")
    try? FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    for copy in 0..<100 {
        try? FileManager.default.copyItem(
            at: symbols.appendingPathComponent("ShopApp.dSYM"), to: folder.appendingPathComponent("ShopApp\(copy).dSYM")
        )
    }
    let start = Date()
    let big = DebugFileIndex(scanning: [folder])
    print(String(format: "index 100 dSYMs: %.1f ms (%d slices)", Date().timeIntervalSince(start) * 1000, big.count))
    try? FileManager.default.removeItem(at: folder)
}

// Grouping: fingerprints per second on one core, and assigning 100,000 reports to groups in the index.
if only.map({ "grouping".contains($0) || $0 == "fingerprints" }) ?? true {
    guard let crash = GroupingBenchmark.realisticCrash(root: root) else {
        print("grouping: cannot read the cart-total sample")
        exit(2)
    }
    GroupingBenchmark.fingerprintsPerSecond(crash)
    if only != "fingerprints" {
        try await GroupingBenchmark.assignment(crash)
    }
}

// Symbolication against a real-sized debug file that Scripts/make-large-symbols.sh built in the folder given.
if only == "large-symbols" {
    guard let folder = CommandLine.arguments.dropFirst(3).first else {
        print("usage: casefile-benchmarks SampleReports large-symbols FOLDER")
        exit(2)
    }
    try await LargeSymbolsBenchmark.run(folder: URL(fileURLWithPath: folder))
}

// Correlation: events correlated per second; with a folder, also write a recording of 10,000 events there.
if only == "correlation" {
    CorrelationBenchmark.eventsPerSecond()
    if let folder = CommandLine.arguments.dropFirst(3).first {
        try CorrelationBenchmark.writeRecording(to: URL(fileURLWithPath: folder))
    }
}

// Crash reports given as files (an inbox's, or real ones): parse and blob rates, one file at a time.
if only == "files" {
    let files = Array(CommandLine.arguments.dropFirst(3))
    guard !files.isEmpty else {
        print("usage: casefile-benchmarks SampleReports files FILE...")
        exit(2)
    }
    try FileBenchmark.run(files: files)
}

// The floor for an inbox (Scripts/make-inbox.py wrote it): hash, decompress, read, one row per report.
if only == "floor" {
    guard let inbox = CommandLine.arguments.dropFirst(3).first, let database = CommandLine.arguments.dropFirst(4).first
    else {
        print("usage: casefile-benchmarks SampleReports floor INBOX DATABASE")
        exit(2)
    }
    try FloorBenchmark.run(inbox: URL(fileURLWithPath: inbox), database: database)
}

// What each stage of the run costs beside the floor's reading, for the same inbox, on one core; symbolicated against
// the samples' symbols and any folders named after the inbox (the app's dSYM, in make bench).
if only == "budget" {
    guard let inbox = CommandLine.arguments.dropFirst(3).first else {
        print("usage: casefile-benchmarks SampleReports budget INBOX [SYMBOLS...]")
        exit(2)
    }
    let symbols = ["\(root)/Symbols"] + CommandLine.arguments.dropFirst(4)
    try await BudgetBenchmark.run(
        inbox: URL(fileURLWithPath: inbox), symbols: symbols.map { URL(fileURLWithPath: $0) })
}
