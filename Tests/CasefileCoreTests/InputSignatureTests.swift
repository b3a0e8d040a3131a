import CasefileCore
import Foundation
import Testing

@Suite struct InputSignatureTests {
    @Test func changesWhenAFileInsideAPackageChanges() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("casefile-sig-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        let package = folder.appendingPathComponent("report.clue")
        try FileManager.default.copyItem(at: URL(fileURLWithPath: Samples.checkoutFolder), to: package)
        let before = try #require(InputSignature.of(package))
        // The sample package: Info/info_device.json and four module files.
        #expect(before.hasPrefix("dir:5:"))
        #expect(InputSignature.of(package) == before)
        let log = package.appendingPathComponent("Modules/module_interaction.json")
        try (try String(contentsOf: log, encoding: .utf8) + "\n").write(to: log, atomically: false, encoding: .utf8)
        #expect(InputSignature.of(package) != before)
        let file = package.appendingPathComponent("Info/info_device.json")
        #expect(InputSignature.of(file)?.hasPrefix("file:180:") == true)
        #expect(InputSignature.of(folder.appendingPathComponent("missing")) == nil)
    }
}
