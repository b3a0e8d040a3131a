import CasefileArchive
import Foundation
import Testing

/// `FileBlocks.contents`: the whole file, whatever size it was expected to have — the run passes the size `lstat` gave,
/// and a file may grow or shrink between that look and the read.
@Suite final class FileContentsTests {
    let folder: String

    init() throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("casefile-contents-\(UUID())").path
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
    }

    deinit {
        try? FileManager.default.removeItem(atPath: folder)
    }

    /// A file of `count` bytes counting 0, 1, …, 250, 0, 1, … (251 is prime: no block boundary lines up with it).
    private func file(_ count: Int) throws -> (path: String, bytes: [UInt8]) {
        let bytes = (0..<count).map { UInt8($0 % 251) }
        let path = folder + "/file-\(count)"
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        return (path, bytes)
    }

    @Test(arguments: [0, 1, 1_000, 256 * 1024, 700_001])
    func wholeFileWhetherTheHintIsRightShortOrLong(size: Int) throws {
        let (path, bytes) = try file(size)
        for hint in [size, 0, size / 2, size - 1, size + 1, size * 3 + 10] where hint >= 0 {
            #expect(try FileBlocks.contents(of: path, sizeHint: hint) == bytes, "size \(size), hint \(hint)")
        }
        #expect(try FileBlocks.contents(of: path) == bytes)
    }

    @Test(arguments: [0, 1, 8, 1_000])
    func prefixIsTheFirstBytesOrTheWholeShorterFile(count: Int) throws {
        let (path, bytes) = try file(100)
        #expect(try FileBlocks.prefix(of: path, count: count) == Array(bytes.prefix(count)))
    }

    @Test func aMissingFileThrowsItsError() {
        #expect(throws: FileBlocks.Failure.self) { try FileBlocks.contents(of: self.folder + "/missing", sizeHint: 10) }
        #expect(throws: FileBlocks.Failure.self) { try FileBlocks.prefix(of: self.folder + "/missing", count: 10) }
    }

    @Test func aDirectoryIsNotReadAsAFile() {
        #expect(throws: FileBlocks.Failure.self) { try FileBlocks.contents(of: self.folder, sizeHint: 4096) }
    }
}
