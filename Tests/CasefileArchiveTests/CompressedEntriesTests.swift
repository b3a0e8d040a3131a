import CasefileArchive
import Foundation
import Testing

/// An input's entries past its first ``ArchiveReader/bytesKeptAsRead`` bytes are kept compressed, but a recording's
/// files, and past ``ArchiveReader/compressedBytesKeptInMemory`` compressed bytes in a spill file when the reader has a
/// folder for one: each reads back as it was. They are compressed on a thread of their own while the reader reads on
/// (`EntryCompressor`).
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

    /// `count` bytes (a multiple of 8) that do not compress.
    private func noise(_ count: Int) -> [UInt8] {
        var generator = SystemRandomNumberGenerator()
        var bytes = [UInt8](repeating: 0, count: count)
        bytes.withUnsafeMutableBytes { buffer in
            for offset in stride(from: 0, to: count, by: 8) {
                buffer.storeBytes(of: generator.next() as UInt64, toByteOffset: offset, as: UInt64.self)
            }
        }
        return bytes
    }

    /// What the input at the folder gives, read with a spill folder `spill`, by entry path; entries past its first
    /// 2,000 bytes are kept compressed, and past 3,000 compressed bytes spilled.
    private func entries(spillingTo spill: String?) throws -> [String: ArchiveEntry] {
        var reader = ArchiveReader(spillFolder: spill)
        reader.bytesKeptAsRead = 2_000
        reader.compressedBytesKeptInMemory = 3_000
        let input = try reader.read(path: folder.path)
        return Dictionary(uniqueKeysWithValues: input.entries.map { ($0.path, $0) })
    }

    /// Where an entry's bytes are kept.
    private enum Kept: Equatable {
        case asRead, inMemory, spilled, media
    }

    private func kept(_ entry: ArchiveEntry?) -> Kept? {
        switch entry?.contents {
        case .bytes: .asRead
        case .compressed(let compressed):
            if case .spilled = compressed.stream { .spilled } else { .inMemory }
        case .media: .media
        case nil: nil
        }
    }

    @Test func compressedEntriesPastTheBoundAreSpilledAndReadBackWhole() throws {
        // In path order: 2,500 bytes of text, as read (past the 2,000-byte bound only after it); 4,000 bytes that do
        // not compress, kept compressed in memory (4,000 bytes or more, past the 3,000-byte bound only after them); then
        // two files kept in the spill file, one after the other.
        let first = text(2_500, "0   ShopApp  0x0000000104d9002c CartViewModel.total() + 44\n")
        let second = noise(4_000)
        let third = text(300_000, "Thread 3:\n0   libsystem_kernel.dylib  0x00000001e8c2a1b4 __workq_kernreturn + 8\n")
        let fourth = text(200_000, "1   UIKitCore  0x00000001a3f2c1d8 -[UIViewController loadViewIfRequired] + 1036\n")
        try write(first, at: "1-first.crash")
        try write(second, at: "2-second.bin")
        try write(third, at: "3-third.crash")
        try write(fourth, at: "4-fourth.crash")
        let spill = folder.appendingPathComponent("spill")
        try FileManager.default.createDirectory(at: spill, withIntermediateDirectories: true)

        let entries = try entries(spillingTo: spill.path)
        #expect(kept(entries["1-first.crash"]) == .asRead)
        #expect(kept(entries["2-second.bin"]) == .inMemory)
        #expect(kept(entries["3-third.crash"]) == .spilled)
        #expect(kept(entries["4-fourth.crash"]) == .spilled)
        #expect(entries["1-first.crash"]?.bytes == first)
        #expect(entries["2-second.bin"]?.bytes == second)
        #expect(entries["3-third.crash"]?.bytes == third)
        #expect(entries["4-fourth.crash"]?.bytes == fourth)
        #expect(entries["4-fourth.crash"]?.size == fourth.count)
        // A spilled entry holds nothing in memory, and its file has no name in the folder, even while it is open.
        #expect(entries["3-third.crash"]?.bytesHeld == 0 && entries["4-fourth.crash"]?.bytesHeld == 0)
        #expect(try FileManager.default.contentsOfDirectory(atPath: spill.path).isEmpty)

        // Without a folder, or with one where no file can be made, every compressed entry stays in memory.
        for folder in [nil, spill.appendingPathComponent("missing").path] {
            let inMemory = try self.entries(spillingTo: folder)
            #expect(kept(inMemory["3-third.crash"]) == .inMemory)
            #expect(kept(inMemory["4-fourth.crash"]) == .inMemory)
            #expect(inMemory["4-fourth.crash"]?.bytes == fourth)
        }
    }

    // MARK: - The compressing thread: each entry in its own place, whole, however many wait; a reader stopped by a
    // limit lets its thread end.

    /// 300 files of 40,000 bytes each (12 MB, three times what may wait to be compressed), each of its own text: the
    /// file's number on every line.
    private func writeFiles() throws -> [(name: String, bytes: [UInt8])] {
        try (0..<300).map { number in
            let name = String(format: "crash-%03d.crash", number)
            let line = "\(number)   ShopApp  0x0000000104d9002c CartViewModel.total() + \(number)\n"
            let bytes = Array(String(repeating: line, count: 40_000 / line.utf8.count + 1).utf8.prefix(40_000))
            try Data(bytes).write(to: folder.appendingPathComponent(name))
            return (name, bytes)
        }
    }

    @Test func everyEntryKeptCompressedReadsBackInItsPlace() throws {
        let files = try writeFiles()
        let spill = folder.appendingPathComponent("spill")
        try FileManager.default.createDirectory(at: spill, withIntermediateDirectories: true)
        var reader = ArchiveReader(spillFolder: spill.path)
        reader.bytesKeptAsRead = 100_000
        reader.compressedBytesKeptInMemory = 5_000
        let input = try reader.read(path: folder.path)

        // In path order, as the folder lists them (the spill folder holds no file with a name).
        #expect(input.entries.map(\.path) == files.map(\.name))
        var asRead = 0
        var inMemory = 0
        var spilled = 0
        for (entry, file) in zip(input.entries, files) {
            #expect(entry.bytes == file.bytes, "\(file.name)")
            #expect(entry.size == file.bytes.count)
            switch entry.contents {
            case .bytes: asRead += 1
            case .compressed(let compressed):
                if case .spilled = compressed.stream { spilled += 1 } else { inMemory += 1 }
            case .media: break
            }
        }
        // 100,000 bytes are passed after the third file; the compressed ones (each file's text repeats one line: some tens of bytes each) pass 5,000
        // bytes after some of the rest.
        #expect(asRead == 3)
        #expect(inMemory > 0 && spilled > 0 && asRead + inMemory + spilled == 300)
        // Compressed, the entries in memory hold little.
        #expect(input.bytesHeld < 3 * 40_000 + 100_000)
    }

    #if os(Linux)
        /// The threads of this process named as the compressing thread is (`/proc/self/task/*/comm`).
        private func compressingThreads() -> Int {
            let tasks = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/task")) ?? []
            return tasks.filter { task in
                let name = try? String(contentsOfFile: "/proc/self/task/\(task)/comm", encoding: .utf8)
                return name == "casefile.zstd\n"
            }.count
        }

        @Test func aReaderStoppedByALimitLetsItsCompressingThreadEnd() async throws {
            _ = try writeFiles()
            var limits = ArchiveLimits.default
            limits.maxTotalBytes = 6_000_000
            var reader = ArchiveReader(limits: limits)
            reader.bytesKeptAsRead = 0
            let error = #expect(throws: ArchiveError.self) { try reader.read(path: self.folder.path) }
            #expect(error?.code == .limitExceeded)
            // 150 files of 40,000 bytes are the 6,000,000 allowed; the 151st passes them.
            #expect(error?.entry == "crash-150.crash")
            // Other tests' readers may compress at the same time; each thread ends once its reader is done (10 s).
            let deadline = ContinuousClock.now + .seconds(10)
            while compressingThreads() > 0, ContinuousClock.now < deadline {
                try await Task.sleep(for: .milliseconds(10))
            }
            #expect(compressingThreads() == 0)
        }
    #endif
}
