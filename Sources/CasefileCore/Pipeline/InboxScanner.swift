public import Foundation

/// Lists the inputs waiting in an inbox folder.
///
/// A file is one input. A folder is one input when it is a report package (named `*.clue`, or holding `Info/`
/// or `Modules/`); any other folder is searched. Hidden names and names matching an ignore pattern are skipped.
public struct InboxScanner: Sendable {
    /// Glob patterns (`*`, `?`) matched against each name and each inbox-relative path.
    public var ignore: [String]

    /// Creates a scanner.
    public init(ignore: [String] = []) {
        self.ignore = ignore
    }

    /// The inputs under `inbox`, sorted by path.
    public func scan(_ inbox: URL) throws(InputError) -> [URL] {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: inbox.path, isDirectory: &isDirectory), isDirectory.boolValue
        else {
            throw InputError(input: inbox.path, reason: "the inbox folder does not exist")
        }
        var inputs: [URL] = []
        collect(inbox, relative: "", into: &inputs)
        return inputs.sorted { $0.path < $1.path }
    }

    private func collect(_ folder: URL, relative: String, into inputs: inout [URL]) {
        let keys: [URLResourceKey] = [.isDirectoryKey, .isRegularFileKey, .isSymbolicLinkKey]
        let children =
            (try? FileManager.default.contentsOfDirectory(at: folder, includingPropertiesForKeys: keys)) ?? []
        for child in children {
            let name = child.lastPathComponent
            let path = relative.isEmpty ? name : "\(relative)/\(name)"
            guard !name.hasPrefix("."), !isIgnored(name: name, path: path) else { continue }
            let values = try? child.resourceValues(forKeys: Set(keys))
            if values?.isSymbolicLink == true { continue }
            if values?.isDirectory == true {
                if Self.isReportPackage(child) {
                    inputs.append(child)
                } else {
                    collect(child, relative: path, into: &inputs)
                }
            } else if values?.isRegularFile == true {
                inputs.append(child)
            }
        }
    }

    private func isIgnored(name: String, path: String) -> Bool {
        ignore.contains { Glob.matches($0, name) || Glob.matches($0, path) }
    }

    /// Whether a folder is one report package rather than a folder of inputs.
    static func isReportPackage(_ folder: URL) -> Bool {
        if folder.pathExtension.lowercased() == "clue" { return true }
        let manager = FileManager.default
        var isDirectory: ObjCBool = false
        return ["Info", "Modules"].contains { name in
            manager.fileExists(atPath: folder.appendingPathComponent(name).path, isDirectory: &isDirectory)
                && isDirectory.boolValue
        }
    }
}

/// Shell-style wildcard matching with `*` and `?`.
enum Glob {
    static func matches(_ pattern: String, _ text: String) -> Bool {
        let pattern = Array(pattern)
        let text = Array(text)
        var p = 0
        var t = 0
        var star: Int?
        var resume = 0
        while t < text.count {
            if p < pattern.count, pattern[p] == "?" || pattern[p] == text[t] {
                p += 1
                t += 1
            } else if p < pattern.count, pattern[p] == "*" {
                star = p
                resume = t
                p += 1
            } else if let star {
                p = star + 1
                resume += 1
                t = resume
            } else {
                return false
            }
        }
        while p < pattern.count, pattern[p] == "*" { p += 1 }
        return p == pattern.count
    }
}
