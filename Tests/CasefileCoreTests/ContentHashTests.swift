import CasefileCore
import Foundation
import Testing

/// The input hash is stored in the index, so its definition is an interface: a file is hashed as its bytes followed
/// by `NUL size NUL`; a folder as, for each regular file sorted by path, `/relative/path NUL bytes NUL size NUL`.
/// Expected values come from `sha256sum` over bytes the test lays out by that definition.
@Suite struct ContentHashTests {
    @Test func hashesAFileAsItsBytesAndSize() throws {
        let folder = try Self.scratch()
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("crash.ips")
        try Data("{\"bug_type\":\"309\"}".utf8).write(to: file)
        let expected = try Self.sha256sum(Array("{\"bug_type\":\"309\"}".utf8) + Array("\u{0}18\u{0}".utf8))
        #expect(try ContentHash.of(file) == expected)
        // The same hash from bytes already read, as the nightly run hashes small files.
        #expect(ContentHash.of(contents: Array("{\"bug_type\":\"309\"}".utf8)) == expected)
    }

    @Test func hashesAFolderFileByFileSortedAndSkipsLinks() throws {
        let folder = try Self.scratch()
        defer { try? FileManager.default.removeItem(at: folder) }
        let package = folder.appendingPathComponent("report.clue")
        try FileManager.default.createDirectory(
            at: package.appendingPathComponent("Modules"), withIntermediateDirectories: true)
        try FileManager.default.createDirectory(
            at: package.appendingPathComponent("Info"), withIntermediateDirectories: true)
        try Data("[1]".utf8).write(to: package.appendingPathComponent("Modules/b.json"))
        try Data("{}".utf8).write(to: package.appendingPathComponent("Info/device.json"))
        try Data("x".utf8).write(to: package.appendingPathComponent(".hidden"))
        try FileManager.default.createSymbolicLink(
            atPath: package.appendingPathComponent("Modules/link.json").path, withDestinationPath: "b.json")
        var stream: [UInt8] = []
        for (path, content) in [("/.hidden", "x"), ("/Info/device.json", "{}"), ("/Modules/b.json", "[1]")] {
            stream += Array(path.utf8) + [0] + Array(content.utf8) + Array("\u{0}\(content.utf8.count)\u{0}".utf8)
        }
        #expect(try ContentHash.of(package) == Self.sha256sum(stream))
    }

    @Test func saysWhenTheInputIsMissing() {
        #expect(throws: InputError.self) { try ContentHash.of(URL(fileURLWithPath: "/nonexistent/input.zip")) }
    }

    private static func scratch() throws -> URL {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("casefile-hash-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        return folder
    }

    /// `sha256sum` of `bytes`, in lowercase hex.
    static func sha256sum(_ bytes: [UInt8]) throws -> String {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/sha256sum")
        let input = Pipe()
        let output = Pipe()
        process.standardInput = input
        process.standardOutput = output
        try process.run()
        input.fileHandleForWriting.write(Data(bytes))
        try input.fileHandleForWriting.close()
        let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        return String(text.prefix(64))
    }
}
