import CasefileArchive
import Foundation
import Testing

/// A package folder read by one pass (to hash it) and unpacked from what the pass kept: the same entries as reading
/// the folder from its path, made of the bytes the pass saw.
@Suite struct DirectoryInputTests {
    /// The checkout sample's files, sorted by path, as `ls -R` lists them.
    static let files = [
        "Info/info_device.json", "Modules/module_interaction.json", "Modules/module_network.json",
        "Modules/module_video.mp4", "Modules/module_view.json",
    ]

    @Test func showsEveryFileOnceInOrderAndUnpacksAsFromThePath() throws {
        let package = try Self.copyOfTheCheckoutPackage()
        defer { try? FileManager.default.removeItem(atPath: package) }
        try FileManager.default.createSymbolicLink(
            atPath: package + "/Modules/link.json", withDestinationPath: "module_view.json")
        var directory = try Self.listing(package)
        var order: [String] = []
        var seen: [String: [UInt8]] = [:]
        var sizes: [String: Int] = [:]
        try directory.readFiles(keepingWithin: .default) { step in
            switch step {
            case .file(let path): order.append(path)
            case .block(let block): seen[order.last!, default: []] += block
            case .end(let size): sizes[order.last!] = size
            }
        }
        // Links are not read; every regular file is, once, whole.
        #expect(order == Self.files)
        for path in Self.files {
            let onDisk = try [UInt8](Data(contentsOf: URL(fileURLWithPath: package + "/" + path)))
            #expect(seen[path] ?? [] == onDisk, "\(path)")
            #expect(sizes[path] == onDisk.count, "\(path)")
        }
        // make-samples.py writes the view module at 22,593 bytes, the video as ftyp (20 B) + mdat (72 B) + moov (116 B).
        #expect(sizes["Modules/module_view.json"] == 22_593)
        #expect(sizes["Modules/module_video.mp4"] == 20 + 72 + 116)

        let kept = try ArchiveReader().read(directory: directory)
        let read = try ArchiveReader().read(path: package)
        #expect(kept.kind == .directory)
        #expect(kept.entries.map(\.path) == Self.files)
        #expect(kept.entries.map(\.path) == read.entries.map(\.path))
        #expect(kept.entries.map(\.size) == read.entries.map(\.size))
        #expect(kept.entries.map(\.bytes) == read.entries.map(\.bytes))
        #expect(kept.notes == ["skipped 'Modules/link.json': symbolic links are not followed"])
        #expect(kept.notes == read.notes)
        let video = try #require(kept.entries.first { $0.name == "module_video.mp4" })
        guard case .media(let media) = video.contents else {
            Issue.record("the video was loaded")
            return
        }
        // 16,500 units at 1000/s in the sample's mvhd.
        #expect(media.duration == 16.5)
        #expect(media.brand == "qt  ")
    }

    @Test func unpacksTheBytesThePassSawNotWhatTheFileHoldsLater() throws {
        let package = try Self.copyOfTheCheckoutPackage()
        defer { try? FileManager.default.removeItem(atPath: package) }
        var directory = try Self.listing(package)
        try directory.readFiles(keepingWithin: .default) { _ in }
        try Data("{}".utf8).write(to: URL(fileURLWithPath: package + "/Info/info_device.json"))

        let kept = try ArchiveReader().read(directory: directory)
        let device = try #require(kept.entries.first { $0.path == "Info/info_device.json" }?.bytes)
        #expect(String(decoding: device, as: UTF8.self).hasPrefix(#"{"batteryState":0,"systemName":"iOS""#))
        // Read from the path, the file is what it holds now.
        let read = try ArchiveReader().read(path: package)
        #expect(read.entries.first { $0.path == "Info/info_device.json" }?.bytes == Array("{}".utf8))
    }

    @Test func keepsNothingPastTheLimitsAndTheReaderStillRefusesIt() throws {
        let package = try Self.copyOfTheCheckoutPackage()
        defer { try? FileManager.default.removeItem(atPath: package) }
        // The view module (22,593 bytes) is over this entry bound; every other file is under it.
        let limits = ArchiveLimits(
            maxEntries: 100, maxEntryBytes: 10_000, maxTotalBytes: 1 << 20, maxCompressionRatio: 200, maxNestingDepth: 3
        )
        var directory = try Self.listing(package)
        var seen = 0
        try directory.readFiles(keepingWithin: limits) { step in
            if case .block(let block) = step { seen += block.count }
        }
        // The pass still shows every byte, for the hash.
        #expect(seen == directory.entries.filter { $0.status.kind == .regular }.map(\.status.size).reduce(0, +))
        let refusal = #expect(throws: ArchiveError.self) {
            try ArchiveReader(limits: limits).read(directory: directory)
        }
        #expect(refusal?.code == .limitExceeded)
        #expect(refusal?.entry == "Modules/module_view.json")
        let fromThePath = #expect(throws: ArchiveError.self) { try ArchiveReader(limits: limits).read(path: package) }
        #expect(fromThePath == refusal)
    }

    @Test func keepsNothingWithoutLimits() throws {
        let package = try Self.copyOfTheCheckoutPackage()
        defer { try? FileManager.default.removeItem(atPath: package) }
        var directory = try Self.listing(package)
        try directory.readFiles(keepingWithin: nil) { _ in }
        try Data("{}".utf8).write(to: URL(fileURLWithPath: package + "/Info/info_device.json"))
        // Nothing was kept, so the reader opens the file and finds what it holds now.
        let input = try ArchiveReader().read(directory: directory)
        #expect(input.entries.first { $0.path == "Info/info_device.json" }?.bytes == Array("{}".utf8))
    }

    @Test func saysWhichFileCannotBeRead() throws {
        let package = try Self.copyOfTheCheckoutPackage()
        defer { try? FileManager.default.removeItem(atPath: package) }
        var directory = try Self.listing(package)
        try FileManager.default.removeItem(atPath: package + "/Modules/module_network.json")
        let failure = #expect(throws: DirectoryInput.ReadFailure.self) {
            try directory.readFiles(keepingWithin: .default) { _ in }
        }
        #expect(failure?.relativePath == "Modules/module_network.json")
    }

    private static func listing(_ path: String) throws -> DirectoryInput {
        let status = try #require(FileStatus.of(path))
        return try #require(DirectoryInput(path: path, status: status))
    }

    private static func copyOfTheCheckoutPackage() throws -> String {
        let package = FileManager.default.temporaryDirectory.appendingPathComponent(
            "casefile-\(UUID().uuidString).clue")
        try FileManager.default.copyItem(atPath: Samples.checkoutFolder, toPath: package.path)
        return package.path
    }
}
