/// Path text helpers that scan a path's bytes instead of splitting it into an array of components.
public enum PathText {
    /// The last non-empty `/`-separated component of `path`, or `path` itself when it has none (`""`, `"/"`):
    /// `/usr/lib/libobjc.A.dylib` → `libobjc.A.dylib`, `Sources/App/` → `App`.
    ///
    /// Over the path's bytes in place: through the UTF-8 view's indices, and a substring copied out, it cost about
    /// 1,500 instructions a path, for every file of every package and every frame's image read.
    public static func lastComponent(_ path: String) -> String {
        var path = path
        let component = path.withUTF8 { bytes -> String? in
            let slash = UInt8(ascii: "/")
            var end = bytes.count
            while end > 0, bytes[end - 1] == slash { end -= 1 }
            var start = end
            while start > 0, bytes[start - 1] != slash { start -= 1 }
            // No component, or the whole path: the path as it is, not a copy. (`/` is ASCII, so both bounds fall on
            // character boundaries.)
            guard end > 0, start > 0 || end < bytes.count else { return nil }
            return String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<end]), as: UTF8.self)
        }
        return component ?? path
    }
}
