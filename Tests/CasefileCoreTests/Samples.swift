import CasefileArchive
import Foundation

/// Paths of the committed samples and fixtures, found from this file.
enum Samples {
    static let repository = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    static func sample(_ name: String) -> String {
        repository.appendingPathComponent("SampleReports").appendingPathComponent(name).path
    }

    static func fixture(_ name: String) -> String {
        repository.appendingPathComponent("Tests/Fixtures/Archives").appendingPathComponent(name).path
    }

    static let checkoutFolder = sample("5B0F1C2E-9D4A-4C61-8E07-3A1F6B2C9D10.clue")
    static let cleanUUID = "3F2504E0-4F89-41D3-9A0C-0305E82C3301"

    /// Every crash sample of `SampleReports/Crashes` but the zips, as the entries of one input, in name order.
    static func crashSampleEntries() throws -> [ArchiveEntry] {
        let folder = sample("Crashes")
        let files = try FileManager.default.contentsOfDirectory(atPath: folder).sorted().filter {
            !$0.hasSuffix(".zip")
        }
        return try files.map { name in
            let bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: folder + "/" + name)))
            return ArchiveEntry(path: name, size: bytes.count, contents: .bytes(bytes))
        }
    }
}
