import CasefileArchive
import CasefileCore
import Foundation
import Testing

/// An input as the run reads it: the hash and the signature are those of ``ContentHash`` and ``InputSignature`` on
/// the path, and the unpacked entries those of ``ArchiveReader`` on the path, though each byte is read once.
@Suite struct InputSourceTests {
    @Test func aPackageHashesAndUnpacksAsFromItsPath() throws {
        let package = FileManager.default.temporaryDirectory.appendingPathComponent(
            "casefile-\(UUID().uuidString).clue")
        try FileManager.default.createDirectory(
            at: package.appendingPathComponent("Modules"), withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: package) }
        try Data("[1]".utf8).write(to: package.appendingPathComponent("Modules/b.json"))
        try Data("{}".utf8).write(to: package.appendingPathComponent("Modules/a.json"))
        var source = InputSource(package, limits: .default)
        #expect(source.signature == InputSignature.of(package))
        #expect(source.signature?.hasPrefix("dir:2:5:") == true)
        // The folder's hash by its definition: per file sorted by path, `/path NUL bytes NUL size NUL`.
        let layout = Array("/Modules/a.json\u{0}{}\u{0}2\u{0}/Modules/b.json\u{0}[1]\u{0}3\u{0}".utf8)
        #expect(try source.hash() == ContentHash.of(package))
        #expect(try source.hash() == ContentHashTests.sha256sum(layout))
        let input = try source.unpack()
        #expect(input.kind == .directory)
        #expect(input.entries.map(\.path) == ["Modules/a.json", "Modules/b.json"])
        #expect(input.entries.map(\.bytes) == [Array("{}".utf8), Array("[1]".utf8)])
    }

    @Test func aSmallFileIsHashedAndUnpackedFromOneRead() throws {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("casefile-\(UUID().uuidString).ips")
        defer { try? FileManager.default.removeItem(at: file) }
        try Data("{\"bug_type\":\"309\"}".utf8).write(to: file)
        var source = InputSource(file, limits: .default)
        #expect(source.signature?.hasPrefix("file:18:") == true)
        let sha256 = try source.hash()
        #expect(try sha256 == ContentHashTests.sha256sum(Array("{\"bug_type\":\"309\"}\u{0}18\u{0}".utf8)))
        // Changed after the hash: the entry is what was hashed.
        try Data("{}".utf8).write(to: file)
        let input = try source.unpack()
        #expect(input.entries.map(\.bytes) == [Array("{\"bug_type\":\"309\"}".utf8)])
    }

    /// What the run's budget of bytes in flight charges a package before its hash reads it: its files, but not its
    /// video (streamed past, not kept); unpacked, it holds just that.
    @Test func aPackageCountsTheBytesItsHashKeeps() throws {
        let package = FileManager.default.temporaryDirectory.appendingPathComponent(
            "casefile-\(UUID().uuidString).clue")
        try FileManager.default.createDirectory(
            at: package.appendingPathComponent("Modules"), withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: package) }
        try Data(repeating: 0x20, count: 1_000).write(to: package.appendingPathComponent("Modules/module_view.json"))
        try Data(repeating: 0x20, count: 300).write(to: package.appendingPathComponent("Modules/module_network.json"))
        try Data(repeating: 0, count: 5_000).write(to: package.appendingPathComponent("Modules/module_video.mp4"))
        var source = InputSource(package, limits: .default)
        #expect(source.isFolder)
        #expect(source.estimatedBytes == 1_300)
        _ = try source.hash()
        #expect(try source.unpack().bytesHeld == 1_300)
    }

    @Test func aSmallFileIsEstimatedByItsSizeAndHoldsItsEntriesOnceUnpacked() throws {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("casefile-\(UUID().uuidString).ips")
        defer { try? FileManager.default.removeItem(at: file) }
        try Data("{\"bug_type\":\"309\"}".utf8).write(to: file)
        var source = InputSource(file, limits: .default)
        #expect(!source.isFolder)
        #expect(source.estimatedBytes == 18)
        _ = try source.hash()
        #expect(try source.unpack().bytesHeld == 18)
    }

    /// A file over 1 MiB (a zip with a screen video, stored) is streamed by the hash, which keeps nothing of it: it is
    /// estimated to hold nothing until unpacked, however large it is on disk.
    @Test func aLargeFileIsEstimatedByWhatItsHashKeeps() throws {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("casefile-\(UUID().uuidString).zip")
        defer { try? FileManager.default.removeItem(at: file) }
        try Data(repeating: 0, count: (1 << 20) + 1).write(to: file)
        #expect(InputSource(file, limits: .default).estimatedBytes == 0)
        try Data(repeating: 0, count: 1 << 20).write(to: file)
        #expect(InputSource(file, limits: .default).estimatedBytes == 1 << 20)
    }

    @Test func aMissingInputHasNoSignatureAndCannotBeHashed() {
        var source = InputSource(URL(fileURLWithPath: "/nonexistent/report.clue"), limits: .default)
        #expect(source.signature == nil)
        let error = #expect(throws: InputError.self) { try source.hash() }
        #expect(error?.reason == "no such file or directory")
    }
}
