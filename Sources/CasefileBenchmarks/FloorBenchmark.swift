import CasefileArchive
import CasefileCore
import CasefileStore
import Foundation

/// The floor of a run over an inbox, on one core: hash every input, decompress every entry and read every byte,
/// insert one row per report into SQLite. Casefile's run over the same inbox is compared with it.
enum FloorBenchmark {
    /// A loose crash report's name (module and info files of a package are not reports of their own).
    static func looksLikeReport(_ name: String) -> Bool {
        if name.hasSuffix(".ips") || name.hasSuffix(".crash") || name.hasSuffix(".txt") { return true }
        return name.hasSuffix(".json") && !name.contains("module_") && !name.contains("info_")
    }

    /// The inputs of an inbox, in the order the run takes them.
    static func inputs(of inbox: URL) throws -> [URL] {
        try FileManager.default.contentsOfDirectory(at: inbox, includingPropertiesForKeys: nil)
            .filter { !$0.lastPathComponent.hasPrefix(".") }
            .map { (path: $0.path, url: $0) }.sorted { $0.path < $1.path }.map(\.url)
    }

    /// An input read as the run reads it: each byte once, hashed, then unpacked from what the hash read, and every
    /// byte of every entry folded into `checksum` (a running xor the compiler cannot drop). `nil` when the input cannot
    /// be hashed; `unpacked` is `nil` when it cannot be unpacked.
    static func read(_ input: URL, checksum: inout UInt8) -> (sha256: String, unpacked: UnpackedInput?)? {
        var source = InputSource(input, limits: .default)
        guard let sha256 = try? source.hash() else { return nil }
        guard let unpacked = try? source.unpack() else { return (sha256, nil) }
        for entry in unpacked.entries {
            for byte in entry.bytes ?? [] { checksum ^= byte }
        }
        return (sha256, unpacked)
    }

    static func run(inbox: URL, database: String) throws {
        let start = Date()
        var rows: [(sha256: String, bytes: Int)] = []
        var bytes = 0
        var checksum: UInt8 = 0
        let inputs = try Self.inputs(of: inbox)
        for input in inputs {
            guard let (sha256, unpacked) = read(input, checksum: &checksum) else { continue }
            guard let unpacked else {
                rows.append((sha256, 0))
                continue
            }
            var reports = 0
            for entry in unpacked.entries {
                guard let content = entry.bytes else { continue }
                bytes += content.count
                if looksLikeReport(entry.path.lowercased()) { reports += 1 }
            }
            // A package counts as one report; loose crash files and archives of them, one per file.
            let isPackage = unpacked.entries.contains { $0.path.contains("Modules/") }
            for _ in 0..<max(1, isPackage ? 1 : reports) {
                rows.append((sha256, bytes))
            }
        }
        try FloorTable(path: database).insert(rows)
        let seconds = Date().timeIntervalSince(start)
        print(
            String(
                format:
                    "floor: %.2f s on one core for %d inputs, %d reports, %.0f MB read (hash, decompress, read every byte, one row per report; xor %d)",
                seconds, inputs.count, rows.count, Double(bytes) / 1_000_000, checksum))
    }
}
