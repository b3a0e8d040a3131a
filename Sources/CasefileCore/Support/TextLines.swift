#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

extension String {
    /// The string's lines: split at each line feed, a carriage return that ends a line dropped (a file saved on Windows
    /// or sent through mail ends its lines with CRLF), found in the UTF-8 bytes.
    ///
    /// `split(separator: "\n")` does not do this: it compares Characters, and CRLF is one Character, not a line feed,
    /// so a CRLF file came back as one line. It also walks every Character to find the separators, where `memchr`
    /// skips many bytes at a time: the app-log reader took about 0.2 s to split a 10 MB file of one line.
    ///
    /// - Parameter omittingEmpty: Whether to leave out empty lines (a line of only a carriage return is empty too), as
    ///   `split`'s `omittingEmptySubsequences` does. Kept, they include the empty line after a final line feed, as
    ///   `split` gives it.
    func lineSlices(omittingEmpty: Bool = false) -> [Substring] {
        let ranges = withUTF8Bytes { bytes in
            var ranges: [Range<Int>] = []
            var start = 0
            while start <= bytes.count {
                var end = bytes.count
                if start < bytes.count, let base = bytes.baseAddress,
                    let found = memchr(base + start, 0x0A, bytes.count - start)
                {
                    end = base.distance(to: found.assumingMemoryBound(to: UInt8.self))
                }
                let lineEnd = end > start && bytes[end - 1] == 0x0D ? end - 1 : end
                if !omittingEmpty || lineEnd > start { ranges.append(start..<lineEnd) }
                start = end + 1
            }
            return ranges
        }
        // A line feed and a carriage return are one byte and one scalar each, so every bound is on a scalar. Each
        // index is found from the one before: a string that is not native UTF-8 walks its bytes once, not per line.
        var (index, offset) = (utf8.startIndex, 0)
        return ranges.map { range in
            let start = utf8.index(index, offsetBy: range.lowerBound - offset)
            let end = utf8.index(start, offsetBy: range.count)
            (index, offset) = (end, range.upperBound)
            return self[start..<end]
        }
    }

    /// The first line of the string that is not empty (``lineSlices(omittingEmpty:)``), as a message's headline.
    var firstLine: Substring? {
        lineSlices(omittingEmpty: true).first
    }
}
