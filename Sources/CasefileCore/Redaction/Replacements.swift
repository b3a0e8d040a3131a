/// The byte ranges of a text to replace, and what replaces each; overlapping ranges keep the first one added.
struct Replacements {
    private var items: [(range: Range<Int>, text: String)] = []

    var isEmpty: Bool { items.isEmpty }

    /// Whether `range` overlaps a range already added.
    func overlaps(_ range: Range<Int>) -> Bool {
        items.contains { $0.range.overlaps(range) }
    }

    /// Adds a replacement unless it overlaps one already added.
    mutating func add(_ range: Range<Int>, _ text: String) {
        guard !range.isEmpty, !overlaps(range) else { return }
        items.append((range, text))
    }

    /// `bytes` with every range replaced.
    func apply(to bytes: [UInt8]) -> String {
        var output: [UInt8] = []
        output.reserveCapacity(bytes.count)
        var position = 0
        for item in items.sorted(by: { $0.range.lowerBound < $1.range.lowerBound }) {
            output += bytes[position..<item.range.lowerBound]
            output += Array(item.text.utf8)
            position = item.range.upperBound
        }
        output += bytes[position...]
        return String(decoding: output, as: UTF8.self)
    }
}

/// A `[redaction] patterns` regular expression.
struct Pattern: Sendable {
    private let source: String

    /// The pattern, or `nil` when `source` is not a valid regular expression.
    init?(_ source: String) {
        guard (try? Regex(source)) != nil else { return nil }
        self.source = source
    }

    /// The UTF-8 byte ranges of every match in `text`.
    func matches(in text: String) -> [Range<Int>] {
        guard let regex = try? Regex(source) else { return [] }
        return text.matches(of: regex).map { match in
            let start = text.utf8.distance(from: text.utf8.startIndex, to: match.range.lowerBound)
            return start..<(start + text.utf8.distance(from: match.range.lowerBound, to: match.range.upperBound))
        }
    }
}
