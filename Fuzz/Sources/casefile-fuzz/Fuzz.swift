import CasefileArchive
import CasefileCore
import Foundation

/// The parser one run fuzzes, from `CASEFILE_FUZZ` (see `make fuzz`). Each feeds the fuzzer's bytes to the real
/// entry point: `ReportReader` over one entry whose name routes it to the parser under test, or `ArchiveReader` over a
/// file holding the bytes.
enum Target: String, CaseIterable {
    /// Crash reports of every format, recognized by content (`.ips`, `.crash`, KSCrash, MetricKit, in-app).
    case crash
    /// A `.clue` recording's network module.
    case clueNetwork = "clue-network"
    /// A `.clue` recording's interaction (touches) module.
    case clueInteraction = "clue-interaction"
    /// A `.clue` recording's view-hierarchy module.
    case clueView = "clue-view"
    /// A `.clue` recording's device info.
    case clueInfo = "clue-info"
    /// A debug menu's combined dump.
    case debugMenu = "debug-menu"
    /// A debug menu's network log.
    case networkLog = "network-log"
    /// An app log.
    case appLog = "app-log"
    /// Any archive libarchive reads, then everything in it.
    case archive
    /// A Breakpad symbol file (`.sym`), then look-ups in it.
    case breakpad
    /// A Mach-O file, thin or fat, as a symbol folder holds: its slices, then each slice's symbol table and look-ups
    /// in it.
    case macho

    static let current = Target(rawValue: ProcessInfo.processInfo.environment["CASEFILE_FUZZ"] ?? "crash") ?? .crash

    /// The entry path that routes bytes to this parser.
    var entryPath: String? {
        switch self {
        case .crash: "crash.ips"
        case .clueNetwork: "r.clue/Modules/module_network.json"
        case .clueInteraction: "r.clue/Modules/module_interaction.json"
        case .clueView: "r.clue/Modules/module_view.json"
        case .clueInfo: "r.clue/Info/info_device.json"
        case .debugMenu: "DebugMenu/debug-menu.json"
        case .networkLog: "DebugMenu/network-log.json"
        case .appLog: "app.log"
        case .archive, .breakpad, .macho: nil
        }
    }
}

/// A minimal recording beside a module under test, so the package is recognized.
private let device = Array(#"{"systemName":"iOS","systemVersion":"17.2","model":"iPhone15,2"}"#.utf8)
private let scratch = FileManager.default.temporaryDirectory
    .appendingPathComponent("casefile-fuzz-\(ProcessInfo.processInfo.processIdentifier)").path

/// libFuzzer's callback: one input, fed to the parser `CASEFILE_FUZZ` names. Any crash, leak or sanitizer report is a
/// finding; parse errors are expected and ignored.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ start: UnsafeRawPointer, _ count: Int) -> CInt {
    let bytes = [UInt8](UnsafeRawBufferPointer(start: start, count: count))
    let target = Target.current
    if target == .breakpad {
        // Look-ups at the ends of the address space and at addresses the input's own bytes spell.
        guard let symbols = try? BreakpadSymbols(text: String(decoding: bytes, as: UTF8.self), file: "fuzz.sym")
        else { return 0 }
        var addresses: [UInt64] = [0, 0x4000, .max]
        for word in stride(from: 0, to: min(bytes.count, 128) - 7, by: 8) {
            addresses.append(bytes[word..<word + 8].reduce(0) { $0 << 8 | UInt64($1) })
        }
        for address in addresses { _ = symbols.lookup(address) }
        return 0
    }
    if target == .macho {
        _ = FileManager.default.createFile(atPath: scratch, contents: Data(bytes))
        for slice in (try? MachOFile.slices(atPath: scratch)) ?? [] {
            guard let table = try? MachOSymbolTable(path: scratch, slice: slice) else { continue }
            for address in [0, slice.textVMAddress ?? 0, slice.textSection?.lowerBound ?? 0, .max] {
                _ = table.lookup(address)
            }
        }
        return 0
    }
    let reader = ReportReader()
    if let path = target.entryPath {
        var entries = [ArchiveEntry(path: path, size: bytes.count, contents: .bytes(bytes))]
        // A module is read inside its package, and an attachment beside a report.
        if path.hasPrefix("r.clue/Modules/") || path.hasPrefix("DebugMenu/") || path == "app.log" {
            entries.append(
                ArchiveEntry(path: "r.clue/Info/info_device.json", size: device.count, contents: .bytes(device)))
        }
        let input = UnpackedInput(path: "fuzz", kind: .archive, entries: entries)
        if let output = try? reader.read(input) {
            // Render too: the summaries read every field the parsers fill.
            for report in output.reports { _ = ReportSummary().render(Correlator().correlate(report)) }
        }
        return 0
    }
    _ = FileManager.default.createFile(atPath: scratch, contents: Data(bytes))
    if let unpacked = try? ArchiveReader().read(path: scratch), let output = try? reader.read(unpacked) {
        for report in output.reports { _ = ReportSummary().render(report) }
    }
    return 0
}

/// libFuzzer's driver, for an entry point of our own: SwiftPM links an executable's `main` to `casefile_fuzz_main`.
@_silgen_name("LLVMFuzzerRunDriver")
private func runDriver(
    _ argc: UnsafeMutablePointer<CInt>,
    _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?>,
    _ callback: @convention(c) (UnsafeRawPointer, Int) -> CInt
) -> CInt

/// The process entry point: hands the arguments to libFuzzer.
@_cdecl("casefile_fuzz_main")
public func fuzzMain(
    _ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?
) -> CInt {
    var count = argc
    var arguments = argv
    return runDriver(&count, &arguments) { fuzz($0, $1) }
}
