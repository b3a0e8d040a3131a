/// A list of `*`/`?` globs compiled for matching thousands of frames a second: exact names in a set, `prefix*`
/// patterns as prefixes, and only the rest matched as globs.
struct PatternSet: Sendable, Hashable {
    private var exact: Set<String> = []
    private var prefixes: [String] = []
    private var globs: [String] = []

    init(_ patterns: [String]) {
        for pattern in patterns {
            let wildcards = pattern.filter { $0 == "*" || $0 == "?" }
            if wildcards.isEmpty {
                exact.insert(pattern)
            } else if wildcards == "*", pattern.hasSuffix("*") {
                prefixes.append(String(pattern.dropLast()))
            } else {
                globs.append(pattern)
            }
        }
    }

    /// The pattern `text` matches, if any.
    func match(_ text: String) -> String? {
        if exact.contains(text) { return text }
        if let prefix = prefixes.first(where: { text.hasPrefix($0) }) { return prefix + "*" }
        return globs.first { Glob.matches($0, text) }
    }
}
