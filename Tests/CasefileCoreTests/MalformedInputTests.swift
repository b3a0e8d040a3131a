import CasefileArchive
import CasefileCore
import Foundation
import Testing

/// Cuts and corrupts every crash sample in many ways; each variant must parse to something or be refused —
/// a trap or a crash of the process fails the whole run.
@Suite struct MalformedInputTests {
    static let files: [String] = {
        let folder = Samples.repository.appendingPathComponent("SampleReports/Crashes").path
        let names = (try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []
        return names.filter { !$0.hasSuffix(".zip") }.sorted()
    }()

    @Test func findsTheSamples() {
        #expect(Self.files.count == 20)
    }

    @Test(arguments: files)
    func survivesEveryTruncation(_ name: String) throws {
        let bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: Samples.sample("Crashes/\(name)"))))
        let parser = CrashReportParser()
        for cut in stride(from: 0, to: bytes.count, by: max(1, bytes.count / 97)) {
            _ = parser.parse(Array(bytes[..<cut]), file: name)
        }
    }

    @Test(arguments: files)
    func survivesCorruptedBytes(_ name: String) throws {
        let bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: Samples.sample("Crashes/\(name)"))))
        let parser = CrashReportParser()
        var state: UInt64 = 0x9E37_79B9_7F4A_7C15
        func next() -> Int {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return Int(truncatingIfNeeded: state >> 33)
        }
        let noise: [UInt8] = Array("{}[]\",:0x-+\n\t ...9zé".utf8) + [0x00, 0xFF]
        for _ in 0..<60 {
            var mutated = bytes
            for _ in 0..<8 {
                mutated[next() % mutated.count] = noise[next() % noise.count]
            }
            _ = parser.parse(mutated, file: name)
        }
    }

    @Test func survivesHostileClueLines() {
        let lines = [
            #"{"timestamp":1e308,"view":{"class":"UIView","properties":{"frame":{"x":1e308,"y":-1e308}}}}"#,
            #"{"timestamp":"x","touches":[{"locationInWindow":{"x":"a"}}]}"#,
            #"{"timestamp":1,"label":"DidReceiveData","properties":[{"HTTPBody":5}]}"#,
            #"{"timestamp":-1,"label":"DidComplete","properties":"nope"}"#,
            String(repeating: "[", count: 10_000),
        ].joined(separator: "\n")
        let files = ["Modules/module_view.json", "Modules/module_interaction.json", "Modules/module_network.json"]
        var entries: [String: ArchiveEntry] = [:]
        for file in files {
            entries[file] = ArchiveEntry(path: file, size: lines.utf8.count, contents: .bytes(Array(lines.utf8)))
        }
        let report = ClueReportParser().parse(CluePackage(input: "memory", root: "", files: entries))
        #expect(!report.warnings.isEmpty)
    }
}
