import CasefileArchive

/// Finds the reports inside an unpacked input, by where their files sit: a `.clue` report is any folder whose
/// `Info/` or `Modules/` holds its files (clue-format.md §2.4 — at the root, under one folder, or nested).
enum ReportLocator {
    /// What an input holds.
    struct Located {
        var packages: [CluePackage] = []
        var unrecognized: [ArchiveEntry] = []
        var ignoredCount = 0
    }

    static func locate(_ input: UnpackedInput) -> Located {
        var located = Located()
        var roots: [String: [String: ArchiveEntry]] = [:]
        var order: [String] = []
        for entry in input.entries {
            let components = entry.path.split(separator: "/").map(String.init)
            guard let name = components.last, !isPlaceholder(components) else {
                located.ignoredCount += 1
                continue
            }
            let count = components.count
            if RecordingPath.isRecordingFile(components) {
                let root = components[0..<(count - 2)].joined(separator: "/")
                if roots[root] == nil { order.append(root) }
                roots[root, default: [:]]["\(components[count - 2])/\(name)"] = entry
            } else {
                located.unrecognized.append(entry)
            }
        }
        located.packages = order.map { CluePackage(input: input.path, root: $0, files: roots[$0] ?? [:]) }
        return located
    }

    /// Finder and Clue litter: `__MACOSX/`, `._*` resource forks, `.DS_Store` (Clue's empty-folder placeholder).
    private static func isPlaceholder(_ components: [String]) -> Bool {
        guard let name = components.last else { return true }
        return components.contains("__MACOSX") || name.hasPrefix("._") || name == ".DS_Store"
    }
}
