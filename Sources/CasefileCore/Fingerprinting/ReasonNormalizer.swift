import Foundation

/// Parameterizes the variable parts of an exception reason so the same failure with other values groups together:
/// `index 7 beyond bounds [0 .. 3]` → `index {n} beyond bounds [{n} .. {n}]`, addresses → `{addr}`, UUIDs →
/// `{uuid}`, long hex strings → `{hash}`.
enum ReasonNormalizer {
    /// The reason with numbers, addresses, UUIDs and hashes replaced; whitespace folded; at most 200 characters.
    static func normalize(_ reason: String) -> String {
        var result = ""
        var word = ""
        func flush() {
            guard !word.isEmpty else { return }
            result += classify(word)
            word = ""
        }
        for character in reason {
            if character.isLetter || character.isNumber || character == "-" || character == "_" {
                word.append(character)
            } else {
                flush()
                if character.isWhitespace {
                    if !result.hasSuffix(" ") { result.append(" ") }
                } else {
                    result.append(character)
                }
            }
            if result.count > 200 { break }
        }
        flush()
        return String(result.trimmingCharacters(in: .whitespaces).prefix(200))
    }

    private static func classify(_ word: String) -> String {
        let lower = word.lowercased()
        if lower.hasPrefix("0x"), lower.count > 2, lower.dropFirst(2).allSatisfy(\.isHexDigit) { return "{addr}" }
        if UUIDText.normalize(word) != nil, word.count >= 32 { return "{uuid}" }
        if word.allSatisfy(\.isNumber)
            || (word.hasPrefix("-") && word.count > 1 && word.dropFirst().allSatisfy(\.isNumber))
        {
            return "{n}"
        }
        if word.count >= 16, word.allSatisfy(\.isHexDigit), word.contains(where: \.isNumber) { return "{hash}" }
        return word
    }
}
