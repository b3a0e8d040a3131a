/// Shell-style wildcard matching with `*` (any run of characters, none included) and `?` (one character), over the
/// whole text.
enum Glob {
    /// Whether `text` matches `pattern`.
    ///
    /// Characters are compared as `Character`s. When neither string holds a byte outside ASCII or a carriage return,
    /// every byte is one character, and the bytes are compared in place: symbol names almost always are such text, and
    /// making two arrays of `Character`s for each name cost more than the match.
    static func matches(_ pattern: String, _ text: String) -> Bool {
        let bytewise = pattern.withUTF8Bytes { pattern in
            text.withUTF8Bytes { text in
                isSingleByteText(pattern) && isSingleByteText(text)
                    ? match(pattern, text, star: UInt8(ascii: "*"), any: UInt8(ascii: "?")) : nil
            }
        }
        return bytewise ?? match(Array(pattern), Array(text), star: "*", any: "?")
    }

    /// Whether each byte is a character of its own: ASCII, and no `\r`, which with a following `\n` is one character.
    private static func isSingleByteText(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        !bytes.contains { $0 >= 0x80 || $0 == 0x0D }
    }

    /// The match itself, on characters or on bytes: `*` remembers where it stood and how much text it took, and a
    /// mismatch after it goes back there and lets it take one more.
    private static func match<Elements: RandomAccessCollection>(
        _ pattern: Elements, _ text: Elements, star: Elements.Element, any: Elements.Element
    ) -> Bool where Elements.Index == Int, Elements.Element: Equatable {
        var p = pattern.startIndex
        var t = text.startIndex
        var lastStar: Int?
        var resume = t
        while t < text.endIndex {
            // A star first: a `*` in the text is a character like any other, not the pattern's `*` matched to it.
            if p < pattern.endIndex, pattern[p] == star {
                lastStar = p
                resume = t
                p += 1
            } else if p < pattern.endIndex, pattern[p] == any || pattern[p] == text[t] {
                p += 1
                t += 1
            } else if let lastStar {
                p = lastStar + 1
                resume += 1
                t = resume
            } else {
                return false
            }
        }
        while p < pattern.endIndex, pattern[p] == star { p += 1 }
        return p == pattern.endIndex
    }
}
