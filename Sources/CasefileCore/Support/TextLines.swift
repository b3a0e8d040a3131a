#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The lines of a string, one at a time: split at each line feed, a carriage return that ends a line dropped (a file
/// saved on Windows or sent through mail ends its lines with CRLF), found in the UTF-8 bytes.
///
/// `split(separator: "\n")` does not do this: it compares Characters, and CRLF is one Character, not a line feed, so a
/// CRLF file came back as one line. It also walks every Character to find the separators, where `memchr` skips many
/// bytes at a time (the app-log reader took about 0.2 s to split a 10 MB file of one line), and it makes an array of
/// every line at once: a file of 60 MB of line feeds held 60 million of them, 2 GB.
struct TextLines: Sequence {
    let text: String
    /// Whether to leave out empty lines (a line of only a carriage return is empty too), as `split`'s
    /// `omittingEmptySubsequences` does. Kept, they include the empty line after a final line feed, as `split` gives it.
    let omittingEmpty: Bool

    func makeIterator() -> Iterator {
        Iterator(text: text, omittingEmpty: omittingEmpty)
    }

    /// Finds each line as it is asked for.
    struct Iterator: IteratorProtocol {
        private let text: String
        private let omittingEmpty: Bool
        /// Where the next line starts, as a byte offset and as an index; past the end once the last line was given.
        private var offset = 0
        private var index: String.Index
        private var done = false

        init(text: String, omittingEmpty: Bool) {
            // Native UTF-8 (as every string read from a file is): its bytes are found without a copy, and an index
            // from an offset in constant time.
            var text = text
            text.makeContiguousUTF8()
            self.text = text
            self.omittingEmpty = omittingEmpty
            index = text.utf8.startIndex
        }

        mutating func next() -> Substring? {
            while !done {
                let (start, offset) = (index, offset)
                let (lineFeed, count) = text.withUTF8Bytes { bytes -> (Int?, Int) in
                    guard offset < bytes.count, let base = bytes.baseAddress,
                        let found = memchr(base + offset, 0x0A, bytes.count - offset)
                    else { return (nil, bytes.count) }
                    return (base.distance(to: found.assumingMemoryBound(to: UInt8.self)), bytes.count)
                }
                let end = lineFeed ?? count
                var lineEnd = text.utf8.index(start, offsetBy: end - offset)
                if end > offset, text.utf8[text.utf8.index(before: lineEnd)] == 0x0D {
                    lineEnd = text.utf8.index(before: lineEnd)
                }
                if let lineFeed {
                    // A line feed and a carriage return are a byte and a scalar each, so every bound is on a scalar.
                    index = text.utf8.index(start, offsetBy: lineFeed + 1 - offset)
                    self.offset = lineFeed + 1
                } else {
                    done = true
                }
                if !omittingEmpty || lineEnd > start { return text[start..<lineEnd] }
            }
            return nil
        }
    }
}

extension String {
    /// The string's lines (``TextLines``), found one at a time.
    func lineSlices(omittingEmpty: Bool = false) -> TextLines {
        TextLines(text: self, omittingEmpty: omittingEmpty)
    }

    /// The first line of the string that is not empty (``TextLines``), as a message's headline.
    var firstLine: Substring? {
        lineSlices(omittingEmpty: true).first { _ in true }
    }
}
