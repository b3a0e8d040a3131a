import CasefileArchive
import Foundation
import Testing

/// An input's entries past its first ``ArchiveReader/bytesKeptAsRead`` bytes are kept compressed, but a recording's
/// files: each reads back as it was.
@Suite final class CompressedEntriesTests {
    let folder: URL

    init() throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent(
            "casefile-compressed-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    }

    deinit {
        try? FileManager.default.removeItem(at: folder)
    }

    /// Writes `bytes` at `path` inside the folder.
    private func write(_ bytes: [UInt8], at path: String) throws {
        let url = folder.appendingPathComponent(path)
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Data(bytes).write(to: url)
    }

    /// `count` bytes of crash-report-like text.
    private func text(_ count: Int, _ line: String) -> [UInt8] {
        Array(String(repeating: line, count: count / line.utf8.count + 1).utf8.prefix(count))
    }

    @Test func entriesPastTheFirstBytesAreKeptCompressedAndReadBackWhole() throws {
        // Read in path order: 10 MiB and 7 MiB as read (16 MiB were not passed before the second), then the rest past
        // the bound.
        let first = text(10 << 20, "0   ShopApp  0x0000000104d9002c CartViewModel.total() + 44\n")
        let second = text(7 << 20, "1   UIKitCore  0x00000001a3f2c1d8 -[UIViewController loadViewIfRequired] + 1036\n")
        let third = text(300_000, "Thread 3:\n0   libsystem_kernel.dylib  0x00000001e8c2a1b4 __workq_kernreturn + 8\n")
        let device = Array(#"{"systemName":"iOS","systemVersion":"17.1"}"#.utf8)
        let module = Array(#"{"events":[]}"#.utf8)
        try write(first, at: "1-first.crash")
        try write(second, at: "2-second.crash")
        try write(third, at: "3-third.crash")
        try write(device, at: "4.clue/Info/info_device.json")
        try write(module, at: "4.clue/Modules/module_network.json")

        let input = try ArchiveReader().read(path: folder.path)
        let entries = Dictionary(uniqueKeysWithValues: input.entries.map { ($0.path, $0) })
        func isCompressed(_ path: String) -> Bool {
            if case .compressed = entries[path]?.contents { return true }
            return false
        }
        #expect(!isCompressed("1-first.crash") && !isCompressed("2-second.crash"))
        #expect(isCompressed("3-third.crash"))
        // A recording's files are read several times: kept as read, past the bound too.
        #expect(!isCompressed("4.clue/Info/info_device.json") && !isCompressed("4.clue/Modules/module_network.json"))

        #expect(entries["1-first.crash"]?.bytes == first)
        #expect(entries["2-second.crash"]?.bytes == second)
        #expect(entries["3-third.crash"]?.bytes == third)
        #expect(entries["3-third.crash"]?.size == third.count)
        #expect(entries["4.clue/Info/info_device.json"]?.bytes == device)
        // What the input holds counts the compressed entry as compressed: less than its 300,000 bytes.
        let held = input.bytesHeld - first.count - second.count - device.count - module.count
        #expect(held > 0 && held < third.count / 4)
    }
}
