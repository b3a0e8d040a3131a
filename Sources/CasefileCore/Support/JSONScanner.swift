#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A pull reader over JSON bytes, for the large, regular arrays of crash reports (threads, frames, images):
/// members are visited in place and values decoded straight into the model, with no tree in between.
///
/// It accepts what ``JSONParser`` accepts in tolerant mode; anything else throws, and callers fall back to the
/// tree parser, which reports where the document broke.
struct JSONScanner {
    struct Failure: Error {
        var offset: Int
    }

    private let bytes: UnsafeBufferPointer<UInt8>
    private(set) var index: Int
    /// Whether to refuse what ``JSONParser`` reads only in tolerant mode (trailing commas, `...` elisions), check
    /// the values it skips, and refuse what a tree would read another way: for a reader whose result must equal the
    /// tree parser's, warnings included.
    let strict: Bool
    /// The objects and arrays the cursor is inside, counted from the document's top. Past
    /// ``JSONParser/maximumDepth`` the scanner throws where the parser would: a hostile report of 100,000 nested
    /// arrays overflowed the stack when values were skipped one recursion per level.
    private(set) var depth: Int

    /// A scanner at the start of `bytes`; `depth` counts the objects and arrays around them in their document.
    init(_ bytes: UnsafeBufferPointer<UInt8>, strict: Bool = false, depth: Int = 0) {
        self.bytes = bytes
        self.index = 0
        self.strict = strict
        self.depth = depth
    }

    /// The byte at the cursor; `nil` at the end.
    var next: UInt8? {
        index < bytes.count ? bytes[index] : nil
    }

    /// The byte at `position`; `nil` past the end.
    func byte(at position: Int) -> UInt8? {
        position >= 0 && position < bytes.count ? bytes[position] : nil
    }

    // MARK: - Structure

    /// Visits each member of the object at the cursor; `body` gets the key's byte range and must consume the value.
    @inline(__always)
    mutating func members(_ body: (inout JSONScanner, Range<Int>) throws -> Void) throws {
        try expect(UInt8(ascii: "{"))
        try enter()
        defer { depth -= 1 }
        try skipSeparators()
        if consume(UInt8(ascii: "}")) { return }
        while true {
            try skipSeparators()
            let key = try stringRange()
            skipWhitespace()
            try expect(UInt8(ascii: ":"))
            skipWhitespace()
            try body(&self, key)
            skipWhitespace()
            if consume(UInt8(ascii: ",")) {
                try skipSeparators()
                if consume(UInt8(ascii: "}")) {
                    if strict { throw Failure(offset: index - 1) }
                    return
                }
                continue
            }
            try skipSeparators()
            try expect(UInt8(ascii: "}"))
            return
        }
    }

    /// Visits each element of the array at the cursor; `body` must consume the element.
    @inline(__always)
    mutating func elements(_ body: (inout JSONScanner) throws -> Void) throws {
        try expect(UInt8(ascii: "["))
        try enter()
        defer { depth -= 1 }
        try skipSeparators()
        if consume(UInt8(ascii: "]")) { return }
        while true {
            try skipSeparators()
            try body(&self)
            skipWhitespace()
            if consume(UInt8(ascii: ",")) {
                try skipSeparators()
                if consume(UInt8(ascii: "]")) {
                    if strict { throw Failure(offset: index - 1) }
                    return
                }
                continue
            }
            try skipSeparators()
            try expect(UInt8(ascii: "]"))
            return
        }
    }

    /// One level deeper, past the bracket just consumed; throws past the parser's limit.
    @inline(__always)
    private mutating func enter() throws {
        depth += 1
        if depth > JSONParser.maximumDepth { throw Failure(offset: index - 1) }
    }

    /// Whether the key's bytes spell `literal`.
    @inline(__always)
    func key(_ range: Range<Int>, is literal: StaticString) -> Bool {
        guard range.count == literal.utf8CodeUnitCount, let base = bytes.baseAddress else { return false }
        return memcmp(base + range.lowerBound, literal.utf8Start, range.count) == 0
    }

    // MARK: - Exact shapes

    /// Moves the cursor back, to retry a value the slow way after a fast path gave up.
    mutating func rewind(to position: Int) {
        index = position
    }

    /// Consumes `literal` when the bytes at the cursor spell it exactly (no white space allowed).
    @inline(__always)
    mutating func literal(_ literal: StaticString) -> Bool {
        let count = literal.utf8CodeUnitCount
        guard index + count <= bytes.count, let base = bytes.baseAddress,
            memcmp(base + index, literal.utf8Start, count) == 0
        else { return false }
        index += count
        return true
    }

    /// Decimal digits at the cursor as a number; `nil` (cursor unmoved) when there are none or they come within a
    /// hundred of overflowing (the digits before the last at least `UInt64.max / 10 - 9`), as the fast paths that
    /// read frames byte for byte have always refused them.
    @inline(__always)
    mutating func digits() -> UInt64? {
        let start = index
        guard let value = exactDigits() else { return nil }
        guard value / 10 < UInt64.max / 10 - 9 else {
            index = start
            return nil
        }
        return value
    }

    /// Decimal digits at the cursor as a number, exactly up to `UInt64.max`; `nil` (cursor unmoved) when there are
    /// none or they overflow.
    @inline(__always)
    mutating func exactDigits() -> UInt64? {
        let start = index
        var value: UInt64 = 0
        while index < bytes.count, bytes[index] >= 0x30, bytes[index] <= 0x39 {
            let (times, overflow) = value.multipliedReportingOverflow(by: 10)
            let (sum, carry) = times.addingReportingOverflow(UInt64(bytes[index] &- 0x30))
            guard !overflow, !carry else {
                index = start
                return nil
            }
            value = sum
            index += 1
        }
        return index > start ? value : nil
    }

    /// The rest of a string whose opening quote was consumed, up to its closing quote; `nil` when it holds an
    /// escape (the slow path decodes those).
    @inline(__always)
    mutating func plainStringBody() -> String? {
        let start = index
        guard let base = bytes.baseAddress,
            let found = memchr(base + index, Int32(UInt8(ascii: "\"")), bytes.count - index)
        else { return nil }
        let end = base.distance(to: found.assumingMemoryBound(to: UInt8.self))
        guard memchr(base + start, Int32(UInt8(ascii: "\\")), end - start) == nil else { return nil }
        index = end + 1
        return String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<end]), as: UTF8.self)
    }

    /// The byte range of a string value's body when it holds no escape (and, in strict mode, no control character),
    /// the cursor after it; `nil` with the cursor unmoved for anything else, which ``string()`` then reads.
    mutating func plainStringRange() throws -> Range<Int>? {
        guard index < bytes.count, bytes[index] == UInt8(ascii: "\"") else { return nil }
        let start = index
        let range = try stringRange()
        guard !bytes[range].contains(where: { $0 == UInt8(ascii: "\\") || strict && $0 < 0x20 }) else {
            index = start
            return nil
        }
        return range
    }

    /// Whether two ranges of the document hold the same bytes.
    func bytes(_ range: Range<Int>, equal other: Range<Int>) -> Bool {
        guard range.count == other.count, let base = bytes.baseAddress else { return false }
        return memcmp(base + range.lowerBound, base + other.lowerBound, range.count) == 0
    }

    /// The bytes of `range` (a key, or the body of a string without escapes) as a string; the part after the last
    /// `/` when `afterLastSlash`.
    func text(_ range: Range<Int>, afterLastSlash: Bool = false) -> String {
        var start = range.lowerBound
        if afterLastSlash, let slash = bytes[range].lastIndex(of: UInt8(ascii: "/")) { start = slash + 1 }
        return String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<range.upperBound]), as: UTF8.self)
    }

    // MARK: - Values

    /// A string value; `nil` for `null` or any other kind of value (which is skipped).
    @inline(__always)
    mutating func string() throws -> String? {
        guard let body = try stringBody() else { return nil }
        return try text(of: body)
    }

    /// A string value read as a UUID, in ``UUIDText``'s normal form: one string is made, the normal one, where reading
    /// the string and then normalizing it made two (an `.ips` report lists hundreds of images, each with a UUID in
    /// uppercase). `nil` for `null`, any other kind of value (which is skipped), or text that is not a UUID.
    mutating func uuid() throws -> String? {
        guard let body = try stringBody() else { return nil }
        // Escaped, it is decoded first, as a string is.
        if body.isEscaped { return try text(of: body).flatMap(UUIDText.normalize) }
        return UUIDText.normalize(utf8: UnsafeBufferPointer(rebasing: bytes[body.text]))
    }

    /// Where a string value lies: from its opening quote to past its closing one, the text between, and whether that
    /// text has escapes.
    private struct StringBody {
        var value: Range<Int>
        var text: Range<Int>
        var isEscaped: Bool
    }

    /// Reads a string value up to its closing quote; `nil` for `null` or any other kind of value (which is skipped).
    @inline(__always)
    private mutating func stringBody() throws -> StringBody? {
        guard index < bytes.count, bytes[index] == UInt8(ascii: "\""), let base = bytes.baseAddress else {
            try skipValue()
            return nil
        }
        let start = index
        let range = try stringRange()
        // The parser refuses a raw control character in a string.
        if strict, bytes[range].contains(where: { $0 < 0x20 }) { throw Failure(offset: start) }
        let isEscaped =
            !range.isEmpty && memchr(base + range.lowerBound, Int32(UInt8(ascii: "\\")), range.count) != nil
        return StringBody(value: start..<index, text: range, isEscaped: isEscaped)
    }

    /// The text of a string value ``stringBody()`` read.
    @inline(__always)
    private func text(of body: StringBody) throws -> String? {
        if body.isEscaped {
            // Apple writes every slash of a path as `\/`: each image's path has escapes, and a parser per string
            // cost a tenth of reading a report.
            if let text = Self.unescaped(UnsafeBufferPointer(rebasing: bytes[body.text])) { return text }
            return try JSONParser.parse(UnsafeBufferPointer(rebasing: bytes[body.value])).string
        }
        return String(decoding: UnsafeBufferPointer(rebasing: bytes[body.text]), as: UTF8.self)
    }

    /// The text of a string's body whose escapes are all of one character (``JSONParser/oneCharacterEscape(_:)``),
    /// decoded as `JSONParser` decodes it; `nil` for anything else (a `\u` escape, a control character, a
    /// broken escape), which the parser reads, tolerance and errors included.
    static func unescaped(_ body: UnsafeBufferPointer<UInt8>) -> String? {
        var simple = true
        let text = String(unsafeUninitializedCapacity: body.count) { output in
            var written = 0
            var position = 0
            while position < body.count {
                var byte = body[position]
                if byte < 0x20 {
                    simple = false
                    return 0
                }
                if byte == UInt8(ascii: "\\") {
                    position += 1
                    guard position < body.count else {
                        simple = false
                        return 0
                    }
                    guard let decoded = JSONParser.oneCharacterEscape(body[position]) else {
                        simple = false
                        return 0
                    }
                    byte = decoded
                }
                output[written] = byte
                written += 1
                position += 1
            }
            return written
        }
        return simple ? text : nil
    }

    /// An unsigned integer value; `nil` for anything else (which is skipped).
    @inline(__always)
    mutating func uint64() throws -> UInt64? {
        guard index < bytes.count, bytes[index] >= UInt8(ascii: "0"), bytes[index] <= UInt8(ascii: "9") else {
            try skipValue()
            return nil
        }
        // The tree holds an integer past Int64.max as a double, which may round: a strict reader leaves it to the tree.
        if strict {
            let start = index
            guard let value = try plainUInt64(), value <= UInt64(Int64.max) else { throw Failure(offset: start) }
            return value
        }
        return try plainUInt64()
    }

    /// The digits at the cursor as an unsigned integer, or a number with a fraction or exponent as the tree reads it.
    @inline(__always)
    private mutating func plainUInt64() throws -> UInt64? {
        var value: UInt64 = 0
        let start = index
        while index < bytes.count, bytes[index] >= UInt8(ascii: "0"), bytes[index] <= UInt8(ascii: "9") {
            let (times, overflow1) = value.multipliedReportingOverflow(by: 10)
            let (sum, overflow2) = times.addingReportingOverflow(UInt64(bytes[index] - UInt8(ascii: "0")))
            guard !overflow1, !overflow2 else { throw Failure(offset: start) }
            value = sum
            index += 1
        }
        if index < bytes.count,
            bytes[index] == UInt8(ascii: ".") || bytes[index] == UInt8(ascii: "e") || bytes[index] == UInt8(ascii: "E")
        {
            index = start
            let number = try self.value()
            return number.uint64
        }
        return value
    }

    /// An integer value (negative allowed); `nil` for anything else.
    mutating func int() throws -> Int? {
        if index < bytes.count, bytes[index] == UInt8(ascii: "-") {
            return try value().int
        }
        return try uint64().flatMap { Int(exactly: $0) }
    }

    /// A number as a `Double`, integers and fractions alike (as ``JSONValue/double`` reads the tree's); `nil` for
    /// anything else.
    mutating func double() throws -> Double? {
        let start = index
        if let digits = digits(), digits <= UInt64(Int64.max), endsValue(at: index) { return Double(Int64(digits)) }
        index = start
        // A plain fraction is converted as the parser converts it, by `Double(String)`, without a parser.
        if let number = plainNumber(), number.fraction {
            index = number.end
            return Double(String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<number.end]), as: UTF8.self))
        }
        return try value().double
    }

    /// A boolean (or 0/1) value; `nil` for anything else.
    mutating func bool() throws -> Bool? {
        let start = index
        if literal("true"), endsValue(at: index) { return true }
        index = start
        if literal("false"), endsValue(at: index) { return false }
        index = start
        return try value().bool
    }

    /// Any value as a tree, for the small parts of a report.
    mutating func value() throws -> JSONValue {
        let start = index
        try skipExtent()
        do {
            return try JSONParser.parse(
                UnsafeBufferPointer(rebasing: bytes[start..<index]), mode: strict ? .strict : .tolerant, depth: depth)
        } catch {
            throw Failure(offset: start)
        }
    }

    /// Moves past one value of any kind; in strict mode, only past one the parser reads.
    mutating func skipValue() throws {
        if strict {
            try skipChecked()
        } else {
            try skipExtent()
        }
    }

    /// Moves past one value's bytes, unchecked even in strict mode: for a caller that parses them later, or not at all.
    mutating func skipExtent() throws {
        guard index < bytes.count else { throw Failure(offset: index) }
        switch bytes[index] {
        case UInt8(ascii: "\""):
            _ = try stringRange()
        case UInt8(ascii: "{"), UInt8(ascii: "["):
            var depth = 0
            while index < bytes.count {
                let byte = bytes[index]
                if byte == UInt8(ascii: "\"") {
                    _ = try stringRange()
                    continue
                }
                if byte == UInt8(ascii: "{") || byte == UInt8(ascii: "[") {
                    depth += 1
                } else if byte == UInt8(ascii: "}") || byte == UInt8(ascii: "]") {
                    depth -= 1
                    if depth == 0 {
                        index += 1
                        return
                    }
                }
                index += 1
            }
            throw Failure(offset: index)
        default:
            let start = index
            while index < bytes.count {
                let byte = bytes[index]
                if byte == UInt8(ascii: ",") || byte == UInt8(ascii: "}") || byte == UInt8(ascii: "]") || byte == 0x20
                    || byte == 0x0A || byte == 0x0D || byte == 0x09
                {
                    break
                }
                index += 1
            }
            guard index > start else { throw Failure(offset: start) }
        }
    }

    // MARK: - Strict reading

    /// The byte at the cursor, if any.
    var current: UInt8? {
        index < bytes.count ? bytes[index] : nil
    }

    /// Whether a key is written as the text it stands for: no escape, no control character.
    func keyIsPlain(_ range: Range<Int>) -> Bool {
        !bytes[range].contains { $0 < 0x20 || $0 == UInt8(ascii: "\\") }
    }

    /// Whether the key's bytes spell `literal` when ASCII letters are compared without case (as
    /// ``JSONObject``'s subscript falls back to).
    func key(_ range: Range<Int>, matchesIgnoringCase literal: StaticString) -> Bool {
        guard range.count == literal.utf8CodeUnitCount else { return false }
        for offset in 0..<range.count {
            let byte = bytes[range.lowerBound + offset]
            let other = literal.utf8Start[offset]
            guard byte == other || byte | 0x20 == other | 0x20 && (0x61...0x7A).contains(byte | 0x20) else {
                return false
            }
        }
        return true
    }

    /// Moves past the value of `key`, a key the caller does not read; throws when `key` spells one of `known` in
    /// another case, which ``JSONObject``'s subscript would take when the exact key is missing (a reader whose result
    /// must equal the tree's leaves such an object to the tree).
    mutating func skipValue(ofKey key: Range<Int>, besides known: [StaticString]) throws {
        for name in known where self.key(key, matchesIgnoringCase: name) { throw Failure(offset: key.lowerBound) }
        try skipValue()
    }

    /// Moves past one value, checked as the parser checks it: strings, plain integers and literals on their bytes,
    /// anything else by the parser itself.
    private mutating func skipChecked() throws {
        guard index < bytes.count else { throw Failure(offset: index) }
        let start = index
        switch bytes[index] {
        case UInt8(ascii: "{"):
            try members { scanner, key in
                try scanner.checkString(key, quoted: (key.lowerBound - 1)..<(key.upperBound + 1))
                try scanner.skipChecked()
            }
        case UInt8(ascii: "["):
            try elements { scanner in try scanner.skipChecked() }
        case UInt8(ascii: "\""):
            let range = try stringRange()
            try checkString(range, quoted: start..<index)
        default:
            // A plain number (a view's 0.7215 color component, a 26.25 line height) on its bytes: the parser reads
            // every such token as a number.
            if let number = plainNumber() {
                index = number.end
                return
            }
            for literal: StaticString in ["true", "false", "null"] where self.literal(literal) {
                if endsValue(at: index) { return }
                index = start
            }
            _ = try value()
        }
    }

    /// A string's body checked as the parser reads it: no raw control character, escapes it decodes.
    private func checkString(_ body: Range<Int>, quoted: Range<Int>) throws {
        if bytes[body].contains(where: { $0 < 0x20 }) { throw Failure(offset: body.lowerBound) }
        guard bytes[body].contains(UInt8(ascii: "\\")),
            Self.unescaped(UnsafeBufferPointer(rebasing: bytes[body])) == nil
        else { return }
        do {
            _ = try JSONParser.parse(UnsafeBufferPointer(rebasing: bytes[quoted]), mode: .strict)
        } catch {
            throw Failure(offset: body.lowerBound)
        }
    }

    /// The end of a plain decimal number at the cursor, `-?[0-9]+(\.[0-9]+)?` up to where a value ends, and whether
    /// it has a fraction; `nil` for any other token (an exponent, a sign alone), which the parser reads.
    private func plainNumber() -> (end: Int, fraction: Bool)? {
        func digits(from start: Int) -> Int {
            var position = start
            while position < bytes.count, bytes[position] >= UInt8(ascii: "0"), bytes[position] <= UInt8(ascii: "9") {
                position += 1
            }
            return position
        }
        let integer = index < bytes.count && bytes[index] == UInt8(ascii: "-") ? index + 1 : index
        var end = digits(from: integer)
        guard end > integer else { return nil }
        var fraction = false
        if end < bytes.count, bytes[end] == UInt8(ascii: ".") {
            let fractionEnd = digits(from: end + 1)
            guard fractionEnd > end + 1 else { return nil }
            end = fractionEnd
            fraction = true
        }
        return endsValue(at: end) ? (end, fraction) : nil
    }

    /// Whether a scalar ends at `position`: white space, a separator, a closing bracket or the end.
    private func endsValue(at position: Int) -> Bool {
        guard position < bytes.count else { return true }
        switch bytes[position] {
        case 0x20, 0x09, 0x0A, 0x0D, UInt8(ascii: ","), UInt8(ascii: "}"), UInt8(ascii: "]"): return true
        default: return false
        }
    }

    // MARK: - Bytes

    @inline(__always)
    private mutating func stringRange() throws -> Range<Int> {
        try expect(UInt8(ascii: "\""))
        let start = index
        guard let base = bytes.baseAddress else { throw Failure(offset: start) }
        // Keys and numbers-as-strings are short: a plain loop finds their end sooner than memchr's set-up.
        let shortEnd = min(bytes.count, index + 24)
        while index < shortEnd {
            let byte = bytes[index]
            if byte == UInt8(ascii: "\"") {
                index += 1
                return start..<(index - 1)
            }
            if byte == UInt8(ascii: "\\") { break }
            index += 1
        }
        while index < bytes.count {
            // memchr finds the next quote a word at a time; a quote after an odd run of backslashes is escaped.
            guard let found = memchr(base + index, Int32(UInt8(ascii: "\"")), bytes.count - index) else { break }
            let quote = base.distance(to: found.assumingMemoryBound(to: UInt8.self))
            var backslashes = 0
            while quote - backslashes - 1 >= start, bytes[quote - backslashes - 1] == UInt8(ascii: "\\") {
                backslashes += 1
            }
            index = quote + 1
            if backslashes % 2 == 0 {
                return start..<quote
            }
        }
        throw Failure(offset: start)
    }

    @inline(__always)
    private mutating func expect(_ byte: UInt8) throws {
        guard consume(byte) else { throw Failure(offset: index) }
    }

    @inline(__always)
    private mutating func consume(_ byte: UInt8) -> Bool {
        guard index < bytes.count, bytes[index] == byte else { return false }
        index += 1
        return true
    }

    @inline(__always)
    mutating func skipWhitespace() {
        index = JSONSeparators.skipWhitespace(bytes, from: index)
    }

    /// White space and `...` elisions with the comma that may follow them; an elision throws in strict mode. The
    /// usual case, white space and then a value, costs what it did before strict mode: one look at the byte after it.
    @inline(__always)
    private mutating func skipSeparators() throws {
        index = JSONSeparators.skipWhitespace(bytes, from: index)
        if index < bytes.count, bytes[index] == UInt8(ascii: ".") { try skipElisions() }
    }

    /// The `...` elisions at the cursor, out of the inlined path: reading them is rare, and tolerant mode's alone.
    @inline(never)
    private mutating func skipElisions() throws {
        if strict { throw Failure(offset: index) }
        index = JSONSeparators.skipElisions(bytes, from: index)
    }
}
