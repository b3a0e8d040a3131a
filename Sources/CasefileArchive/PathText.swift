/// Path text helpers that scan a path's bytes instead of splitting it into an array of components.
public enum PathText {
    /// The last non-empty `/`-separated component of `path`, or `path` itself when it has none (`""`, `"/"`):
    /// `/usr/lib/libobjc.A.dylib` → `libobjc.A.dylib`, `Sources/App/` → `App`.
    public static func lastComponent(_ path: String) -> String {
        let utf8 = path.utf8
        var end = utf8.endIndex
        while end > utf8.startIndex, utf8[utf8.index(before: end)] == UInt8(ascii: "/") {
            end = utf8.index(before: end)
        }
        guard end > utf8.startIndex else { return path }
        let body = utf8[..<end]
        let start = body.lastIndex(of: UInt8(ascii: "/")).map { utf8.index(after: $0) } ?? utf8.startIndex
        // `/` is ASCII, so both bounds fall on character boundaries.
        return String(path[start..<end])
    }
}
