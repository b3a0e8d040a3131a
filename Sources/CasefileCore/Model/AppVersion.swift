/// An app version and build as crash reports write them (`2.3.1`, `412`), ordered the way releases are:
/// numerically by component, then by build.
public struct AppVersion: Sendable, Hashable, Comparable, CustomStringConvertible {
    /// The marketing version, e.g. `2.3.1`.
    public var version: String
    /// The build, e.g. `412`.
    public var build: String?

    /// Creates a version.
    public init(version: String, build: String? = nil) {
        self.version = version
        self.build = build
    }

    /// Parses `2.3.1 (412)` or `2.3.1`.
    public init?(text: String) {
        let trimmed = text.trimmingSpaces
        guard !trimmed.isEmpty else { return nil }
        if let open = trimmed.firstIndex(of: "("), trimmed.hasSuffix(")") {
            version = String(trimmed[..<open]).trimmingSpaces
            build = String(trimmed[trimmed.index(after: open)..<trimmed.index(before: trimmed.endIndex)])
        } else {
            version = trimmed
            build = nil
        }
    }

    /// `2.3.1 (412)`.
    public var description: String {
        build.map { "\(version) (\($0))" } ?? version
    }

    /// Whether `lhs` is an older release than `rhs`.
    public static func < (lhs: AppVersion, rhs: AppVersion) -> Bool {
        let order = compare(lhs.version, rhs.version)
        if order != 0 { return order < 0 }
        return compare(lhs.build ?? "", rhs.build ?? "") < 0
    }

    /// Dotted components compared as numbers where both are numbers, as text otherwise.
    private static func compare(_ lhs: String, _ rhs: String) -> Int {
        let left = lhs.split(separator: ".")
        let right = rhs.split(separator: ".")
        for index in 0..<max(left.count, right.count) {
            let a = index < left.count ? String(left[index]) : "0"
            let b = index < right.count ? String(right[index]) : "0"
            if let x = Int(a), let y = Int(b) {
                if x != y { return x < y ? -1 : 1 }
            } else if a != b {
                return a < b ? -1 : 1
            }
        }
        return 0
    }
}
