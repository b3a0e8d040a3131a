import CasefileArchive
import Foundation

/// The inputs of an inbox one at a time, in the order of ``InboxScanner/paths(in:)``, holding only the listings of
/// the folders the walk is in.
///
/// A nightly run used to hold the path of every input for as long as it ran, and the signature the index had for each:
/// about 360 bytes an input, so that over an inbox that keeps its files (a thousand a night is 365,000 after a year) a
/// run over the unchanged inbox needed more memory than the run that read it (200,000 inputs: a peak RSS of 134 MB,
/// against 92 MB for the first run; 62 MB for both with a walk, `Scripts/bench-kept-inbox.sh`). A walk holds one
/// folder's names at each depth it has reached, packed (``InboxListing``): a million files in one folder peaked at 90 MB
/// in a first run and 83 MB in a second, against 145 and 141 MB with a `String` for each name.
///
/// Each folder is listed once, with one `readdir`, when the walk reaches it, and its entries are sorted by name with a
/// slash after each folder to search: the order in which their paths sort, since every path under a folder `d` begins
/// with `d/`, and those are the paths that sort together between `d/` and the first path past that prefix.
public struct InboxWalk: Sequence, IteratorProtocol, Sendable {
    /// A folder the walk is in: its sorted entries and the next one to take.
    private struct Level: Sendable {
        var folder: String
        var relative: String
        var entries: InboxListing
        var next = 0
    }

    private let scanner: InboxScanner
    private var levels: [Level] = []

    init(scanner: InboxScanner, root: String) {
        self.scanner = scanner
        levels = [Level(folder: root, relative: "", entries: scanner.sortedListing(of: root, relative: ""))]
    }

    /// The next input's path: the inbox's path, a slash and the input's path inside it.
    public mutating func next() -> String? {
        while let last = levels.indices.last {
            guard levels[last].next < levels[last].entries.count else {
                levels.removeLast()
                continue
            }
            let (name, isSearched) = levels[last].entries.entry(at: levels[last].next)
            levels[last].next += 1
            let path = levels[last].folder + "/" + name
            guard isSearched else { return path }
            let relative = levels[last].relative.isEmpty ? name : levels[last].relative + "/" + name
            levels.append(
                Level(folder: path, relative: relative, entries: scanner.sortedListing(of: path, relative: relative)))
        }
        return nil
    }
}

extension InboxScanner {
    /// How many inputs ``InboxWalk`` gives for the inbox at `root`: the same folders read, nothing kept of them.
    func count(_ folder: String, relative: String) -> Int {
        var count = 0
        // Searched once this folder is closed: a walk keeps one folder open at a time.
        var folders: [String] = []
        forEachEntry(of: folder, relative: relative) { name, searched in
            if searched { folders.append(name) } else { count += 1 }
        }
        for name in folders {
            count += self.count(folder + "/" + name, relative: relative.isEmpty ? name : relative + "/" + name)
        }
        return count
    }

    /// The entries of `folder` (inbox-relative path `relative`) that are inputs or folders to search, sorted; none when
    /// it cannot be read.
    func sortedListing(of folder: String, relative: String) -> InboxListing {
        var listing = InboxListing()
        forEachEntry(of: folder, relative: relative) { name, searched in listing.append(name, searched: searched) }
        listing.sort()
        return listing
    }

    /// Calls `body` with the name of each entry of `folder` (inbox-relative path `relative`) that is an input or a
    /// folder to search (`true`), in the order the folder lists them; with none when it cannot be read. One `readdir`:
    /// the entry types come with the names, so no file is examined on its own.
    private func forEachEntry(of folder: String, relative: String, _ body: (String, Bool) -> Void) {
        guard let directory = opendir(folder.isEmpty ? "/" : folder) else { return }
        defer { closedir(directory) }
        // The names of this folder's entries to skip: a path is made for each entry only when a pattern asks for it.
        let skipped = skipping.compactMap { path in
            path.hasPrefix(folder + "/") ? path.dropFirst(folder.count + 1) : nil
        }
        while let record = readdir(directory) {
            let name = FileTree.entryName(record)
            guard !name.hasPrefix(".") else { continue }
            // The inbox-relative path only for patterns to match: an inbox of 200,000 files has as many names.
            if !ignore.isEmpty, isIgnored(name: name, path: relative.isEmpty ? name : "\(relative)/\(name)") {
                continue
            }
            if !skipped.isEmpty, skipped.contains(where: { $0 == name }) { continue }
            var type = Int32(record.pointee.d_type)
            if type == Int32(DT_UNKNOWN) {
                // Some file systems do not say; ask this one entry.
                var info = stat()
                guard lstat(folder + "/" + name, &info) == 0 else { continue }
                switch info.st_mode & S_IFMT {
                case S_IFDIR: type = Int32(DT_DIR)
                case S_IFREG: type = Int32(DT_REG)
                default: continue
                }
            }
            if type == Int32(DT_DIR) {
                body(name, !Self.isReportPackage(folder + "/" + name, name: name))
            } else if type == Int32(DT_REG) {
                body(name, false)
            }
        }
    }
}
