import CasefileArchive
import Foundation
import Testing

/// A directory walked with `readdir` and `fstatat`: one thread, or the directories at its top split among several (as
/// a symbol folder of thousands of dSYMs is walked), gives the same entries in the same order.
@Suite final class FileTreeTests {
    let root: URL

    init() throws {
        root = FileManager.default.temporaryDirectory.appendingPathComponent("casefile-tree-\(UUID().uuidString)")
        let files = [
            "a.txt", "z.txt", "b/e.txt", "b/c/d.txt", "Shop.dSYM/Contents/Info.plist",
            "Shop.dSYM/Contents/Resources/DWARF/Shop", "Old.dSYM/Contents/Resources/DWARF/Shop",
        ]
        for file in files {
            let url = root.appendingPathComponent(file)
            try FileManager.default.createDirectory(
                at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try Data(file.utf8).write(to: url)
        }
        try FileManager.default.createDirectory(
            at: root.appendingPathComponent("empty"), withIntermediateDirectories: true)
        // A link to a directory is listed, not walked into.
        try FileManager.default.createSymbolicLink(
            at: root.appendingPathComponent("link"), withDestinationURL: root.appendingPathComponent("b"))
    }

    deinit {
        try? FileManager.default.removeItem(at: root)
    }

    /// Every path below the root, as created above, sorted.
    static let expected = [
        "Old.dSYM", "Old.dSYM/Contents", "Old.dSYM/Contents/Resources", "Old.dSYM/Contents/Resources/DWARF",
        "Old.dSYM/Contents/Resources/DWARF/Shop", "Shop.dSYM", "Shop.dSYM/Contents", "Shop.dSYM/Contents/Info.plist",
        "Shop.dSYM/Contents/Resources", "Shop.dSYM/Contents/Resources/DWARF", "Shop.dSYM/Contents/Resources/DWARF/Shop",
        "a.txt", "b", "b/c", "b/c/d.txt", "b/e.txt", "empty", "link", "z.txt",
    ]

    @Test func listsEveryPathBelowTheRootSorted() throws {
        let entries = try #require(FileTree.entries(under: root.path))
        #expect(entries.map(\.relativePath) == Self.expected)
        #expect(entries.first { $0.relativePath == "link" }?.status.kind == .symbolicLink)
        #expect(entries.first { $0.relativePath == "b/c" }?.status.kind == .directory)
        #expect(entries.first { $0.relativePath == "b/c/d.txt" }?.status.size == "b/c/d.txt".utf8.count)
    }

    /// Each status is taken in the directory listing it, and is what `lstat` says of the whole path: the kind (a link
    /// as a link, not its target), the size and the modification time.
    @Test func givesEachPathTheStatusLstatGivesIt() throws {
        let entries = try #require(FileTree.entries(under: root.path))
        for entry in entries {
            #expect(entry.status == FileStatus.of(root.path + "/" + entry.relativePath), "\(entry.relativePath)")
        }
        #expect(entries.first { $0.relativePath == "link" }?.status.kind == .symbolicLink)
        #expect(entries.first { $0.relativePath == "empty" }?.status.kind == .directory)
    }

    @Test(arguments: [1, 2, 3, 8])
    func givesTheSameEntriesWithTheTopDirectoriesSplitAmongWorkers(_ workers: Int) throws {
        let one = try #require(FileTree.entries(under: root.path, skippingUnreadable: true))
        let split = try #require(FileTree.entries(under: root.path, skippingUnreadable: true, workers: workers))
        #expect(split.map(\.relativePath) == one.map(\.relativePath))
        #expect(split.map(\.status) == one.map(\.status))
    }

    @Test func refusesARootItCannotList() {
        let missing = root.appendingPathComponent("missing").path
        #expect(FileTree.entries(under: missing) == nil)
        #expect(FileTree.entries(under: missing, skippingUnreadable: true, workers: 2) == nil)
    }
}
