/// A byte-level JSON reader that keeps integers exact, keeps member order, and reports where a document broke.
///
/// In ``Mode/tolerant`` it also reads what crash reporters and people produce when they edit reports by hand:
/// trailing commas and literal `...` elisions. Nesting is bounded so hostile input cannot exhaust the stack.
public struct JSONParser {
    /// How strict the reader is.
    public enum Mode: Sendable {
        /// RFC 8259 only.
        case strict
        /// Also accepts trailing commas and `...` elisions, which are skipped.
        case tolerant
    }

    /// Where and why a document could not be read.
    public struct Failure: Error, Sendable, Hashable, CustomStringConvertible {
        /// The byte offset of the problem.
        public var offset: Int
        /// The 1-based line of the problem.
        public var line: Int
        /// The 1-based column (in bytes) of the problem.
        public var column: Int
        /// What was wrong.
        public var reason: String

        /// `reason at line L, column C`.
        public var description: String {
            "\(reason) at line \(line), column \(column)"
        }
    }

    /// The deepest nesting of objects and arrays read; deeper documents are refused, so no reader recurses without
    /// bound (``JSONScanner`` refuses them too).
    static let maximumDepth = 256

    private let bytes: UnsafeBufferPointer<UInt8>
    private let mode: Mode
    private var index = 0
    private var depth = 0
    /// Whether tolerant mode skipped a trailing comma or an elision: the document is not RFC 8259 JSON.
    private var tolerated = false
    /// Shares repeated strings, in documents large enough to repeat them (a crash report, not a line of events).
    private var pool: StringPool

    private init(bytes: UnsafeBufferPointer<UInt8>, mode: Mode, depth: Int = 0) {
        self.bytes = bytes
        self.mode = mode
        self.depth = depth
        pool = StringPool(documentSize: bytes.count)
    }

    /// Parses one complete JSON document; anything but white space after it is an error.
    public static func parse(_ input: some Collection<UInt8>, mode: Mode = .strict) throws(Failure) -> JSONValue {
        let result: Result<JSONValue, Failure> =
            input.withContiguousStorageIfAvailable { buffer in
                parseBuffer(buffer, mode: mode)
            } ?? Array(input).withUnsafeBufferPointer { parseBuffer($0, mode: mode) }
        return try result.get()
    }

    /// Parses one document in ``Mode/tolerant`` and says whether it needed the tolerance — a trailing comma or a `...`
    /// elision — that is, whether a strict parse would have failed, without parsing it a second time.
    public static func parseTolerantly(
        _ input: some Collection<UInt8>
    ) throws(Failure) -> (value: JSONValue, toleratedSyntax: Bool) {
        let result: Result<(JSONValue, Bool), Failure> =
            input.withContiguousStorageIfAvailable { buffer in
                parseBufferNotingTolerance(buffer, mode: .tolerant)
            } ?? Array(input).withUnsafeBufferPointer { parseBufferNotingTolerance($0, mode: .tolerant) }
        let (value, tolerated) = try result.get()
        return (value, tolerated)
    }

    /// Parses a JSON document held in a string.
    public static func parse(_ text: String, mode: Mode = .strict) throws(Failure) -> JSONValue {
        try parse(Array(text.utf8), mode: mode)
    }

    /// Parses one value of a larger document, found inside `depth` objects and arrays: the nesting limit counts them,
    /// as it does when the whole document is parsed (``JSONScanner`` parses the parts it does not read itself).
    static func parse(
        _ buffer: UnsafeBufferPointer<UInt8>, mode: Mode, depth: Int
    ) throws(Failure) -> JSONValue {
        try parseBufferNotingTolerance(buffer, mode: mode, depth: depth).map(\.0).get()
    }

    private static func parseBuffer(_ buffer: UnsafeBufferPointer<UInt8>, mode: Mode) -> Result<JSONValue, Failure> {
        parseBufferNotingTolerance(buffer, mode: mode).map(\.0)
    }

    private static func parseBufferNotingTolerance(
        _ buffer: UnsafeBufferPointer<UInt8>, mode: Mode, depth: Int = 0
    ) -> Result<(JSONValue, Bool), Failure> {
        var parser = JSONParser(bytes: buffer, mode: mode, depth: depth)
        do throws(Failure) {
            parser.skipWhitespace()
            let value = try parser.parseValue()
            parser.skipWhitespace()
            guard parser.index == buffer.count else {
                throw parser.failure("unexpected data after the JSON value")
            }
            return .success((value, parser.tolerated))
        } catch {
            return .failure(error)
        }
    }

    // MARK: - Grammar

    private mutating func parseValue() throws(Failure) -> JSONValue {
        guard index < bytes.count else { throw failure("unexpected end of input") }
        switch bytes[index] {
        case UInt8(ascii: "{"): return try parseObject()
        case UInt8(ascii: "["): return try parseArray()
        case UInt8(ascii: "\""): return .string(try parseString())
        case UInt8(ascii: "t"): return try parseLiteral("true", .bool(true))
        case UInt8(ascii: "f"): return try parseLiteral("false", .bool(false))
        case UInt8(ascii: "n"): return try parseLiteral("null", .null)
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return try parseNumber()
        default: throw failure("unexpected character '\(printable(bytes[index]))'")
        }
    }

    private mutating func parseObject() throws(Failure) -> JSONValue {
        try enter()
        index += 1
        var members: [JSONObject.Member] = []
        members.reserveCapacity(8)
        skipSeparators()
        if consume(UInt8(ascii: "}")) {
            depth -= 1
            return .object(JSONObject(members))
        }
        while true {
            skipSeparators()
            guard index < bytes.count, bytes[index] == UInt8(ascii: "\"") else {
                throw failure(index < bytes.count ? "expected a quoted key" : "unexpected end of input in an object")
            }
            let key = try parseString()
            skipWhitespace()
            guard consume(UInt8(ascii: ":")) else { throw failure("expected ':' after key \"\(key)\"") }
            skipWhitespace()
            members.append(JSONObject.Member(key: key, value: try parseValue()))
            skipWhitespace()
            if consume(UInt8(ascii: ",")) {
                skipSeparators()
                if mode == .tolerant, consume(UInt8(ascii: "}")) {
                    tolerated = true
                    break
                }
                continue
            }
            skipSeparators()
            guard consume(UInt8(ascii: "}")) else {
                throw failure(
                    index < bytes.count ? "expected ',' or '}' in an object" : "unexpected end of input in an object")
            }
            break
        }
        depth -= 1
        return .object(JSONObject(members))
    }

    private mutating func parseArray() throws(Failure) -> JSONValue {
        try enter()
        index += 1
        var elements: [JSONValue] = []
        skipSeparators()
        if consume(UInt8(ascii: "]")) {
            depth -= 1
            return .array(elements)
        }
        while true {
            skipSeparators()
            elements.append(try parseValue())
            skipWhitespace()
            if consume(UInt8(ascii: ",")) {
                skipSeparators()
                if mode == .tolerant, consume(UInt8(ascii: "]")) {
                    tolerated = true
                    break
                }
                continue
            }
            skipSeparators()
            guard consume(UInt8(ascii: "]")) else {
                throw failure(
                    index < bytes.count ? "expected ',' or ']' in an array" : "unexpected end of input in an array")
            }
            break
        }
        depth -= 1
        return .array(elements)
    }

    private mutating func parseString() throws(Failure) -> String {
        index += 1
        let start = index
        index = Self.plainRun(bytes, from: index)
        while index < bytes.count {
            let byte = bytes[index]
            if byte == UInt8(ascii: "\"") {
                let raw = UnsafeBufferPointer(rebasing: bytes[start..<index])
                let text = pool.string(raw)
                index += 1
                return text
            }
            if byte == UInt8(ascii: "\\") { break }
            if byte < 0x20 { throw failure("unescaped control character in a string") }
            index += 1
        }
        var scalars: [UInt8] = Array(bytes[start..<index])
        while index < bytes.count {
            let byte = bytes[index]
            switch byte {
            case UInt8(ascii: "\""):
                index += 1
                return String(decoding: scalars, as: UTF8.self)
            case UInt8(ascii: "\\"):
                index += 1
                guard index < bytes.count else { break }
                let escape = bytes[index]
                index += 1
                if let byte = Self.oneCharacterEscape(escape) {
                    scalars.append(byte)
                } else if escape == UInt8(ascii: "u") {
                    scalars.append(contentsOf: try parseUnicodeEscape())
                } else {
                    throw failure("invalid escape '\\\(printable(escape))'")
                }
            default:
                if byte < 0x20 { throw failure("unescaped control character in a string") }
                scalars.append(byte)
                index += 1
            }
        }
        throw failure("unterminated string")
    }

    /// The byte a one-character escape stands for (`\"`, `\\`, `\/`, `\b`, `\f`, `\n`, `\r`, `\t`), given the byte
    /// after the backslash; `nil` for `\u` and anything else. (``JSONScanner`` decodes these in place the same way.)
    static func oneCharacterEscape(_ escape: UInt8) -> UInt8? {
        switch escape {
        case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): escape
        case UInt8(ascii: "b"): 0x08
        case UInt8(ascii: "f"): 0x0C
        case UInt8(ascii: "n"): 0x0A
        case UInt8(ascii: "r"): 0x0D
        case UInt8(ascii: "t"): 0x09
        default: nil
        }
    }

    /// The end of the bytes from `start` that need no look in a string: not `"`, `\` or a control character. Eight
    /// bytes are tested at a time (each test exact for "some byte of the word is…"); the byte loop after it decides.
    /// (The crash-detail blob asks the same of its fields, whose escapes are a subset of these bytes.)
    static func plainRun(_ bytes: UnsafeBufferPointer<UInt8>, from start: Int) -> Int {
        guard let base = bytes.baseAddress else { return start }
        let raw = UnsafeRawPointer(base)
        let ones: UInt64 = 0x0101_0101_0101_0101
        let highs: UInt64 = 0x8080_8080_8080_8080
        var index = start
        while index + 8 <= bytes.count {
            let word = raw.loadUnaligned(fromByteOffset: index, as: UInt64.self)
            let quote = word ^ (ones &* 0x22)
            let backslash = word ^ (ones &* 0x5C)
            let special =
                ((quote &- ones) & ~quote) | ((backslash &- ones) & ~backslash) | ((word &- ones &* 0x20) & ~word)
            if special & highs != 0 { break }
            index += 8
        }
        return index
    }

    private mutating func parseUnicodeEscape() throws(Failure) -> [UInt8] {
        var code = try parseHex4()
        if (0xD800..<0xDC00).contains(code), index + 6 <= bytes.count, bytes[index] == UInt8(ascii: "\\"),
            bytes[index + 1] == UInt8(ascii: "u")
        {
            index += 2
            let low = try parseHex4()
            if (0xDC00..<0xE000).contains(low) {
                code = 0x10000 + ((code - 0xD800) << 10) + (low - 0xDC00)
            }
        }
        let scalar = Unicode.Scalar(code) ?? "\u{FFFD}"
        return Array(String(Character(scalar)).utf8)
    }

    private mutating func parseHex4() throws(Failure) -> UInt32 {
        guard index + 4 <= bytes.count else { throw failure("truncated \\u escape") }
        var value: UInt32 = 0
        for _ in 0..<4 {
            let byte = bytes[index]
            let digit: UInt32
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = UInt32(byte - UInt8(ascii: "0"))
            case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = UInt32(byte - UInt8(ascii: "a") + 10)
            case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = UInt32(byte - UInt8(ascii: "A") + 10)
            default: throw failure("invalid hex digit in \\u escape")
            }
            value = value << 4 | digit
            index += 1
        }
        return value
    }

    private mutating func parseNumber() throws(Failure) -> JSONValue {
        let start = index
        var isInteger = true
        if bytes[index] == UInt8(ascii: "-") { index += 1 }
        // An integer that fits, the common case (addresses, counts), is read on its bytes: no string per number.
        let digitsStart = index
        var magnitude: UInt64 = 0
        var overflow = false
        while index < bytes.count, bytes[index] >= UInt8(ascii: "0"), bytes[index] <= UInt8(ascii: "9") {
            let (times10, high) = magnitude.multipliedReportingOverflow(by: 10)
            let (sum, carry) = times10.addingReportingOverflow(UInt64(bytes[index] - UInt8(ascii: "0")))
            overflow = overflow || high || carry
            magnitude = sum
            index += 1
        }
        let ended = index == bytes.count || !Self.isNumberByte(bytes[index])
        if ended, index > digitsStart, !overflow {
            if digitsStart == start, magnitude <= UInt64(Int64.max) { return .int(Int64(magnitude)) }
            if digitsStart > start, magnitude <= UInt64(Int64.max) + 1 {
                return .int(0 &- Int64(truncatingIfNeeded: magnitude))
            }
        }
        // Anything else as before: the whole token's text, an integer if it fits, else a double.
        index = digitsStart
        while index < bytes.count {
            let byte = bytes[index]
            if byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9") {
                index += 1
            } else if byte == UInt8(ascii: ".") || byte == UInt8(ascii: "e") || byte == UInt8(ascii: "E")
                || byte == UInt8(ascii: "+") || byte == UInt8(ascii: "-")
            {
                isInteger = false
                index += 1
            } else {
                break
            }
        }
        let text = String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<index]), as: UTF8.self)
        if isInteger, let value = Int64(text) {
            return .int(value)
        }
        guard let value = Double(text), text != "-" else { throw failure("invalid number '\(text)'") }
        return .double(value)
    }

    /// The bytes a number token is scanned over: digits, `.`, `e`, `E`, `+` and `-`.
    private static func isNumberByte(_ byte: UInt8) -> Bool {
        (byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9")) || byte == UInt8(ascii: ".")
            || byte == UInt8(ascii: "e") || byte == UInt8(ascii: "E") || byte == UInt8(ascii: "+")
            || byte == UInt8(ascii: "-")
    }

    private mutating func parseLiteral(_ word: String, _ value: JSONValue) throws(Failure) -> JSONValue {
        let utf8 = Array(word.utf8)
        guard index + utf8.count <= bytes.count, Array(bytes[index..<index + utf8.count]) == utf8 else {
            throw failure("unexpected character '\(printable(bytes[index]))'")
        }
        index += utf8.count
        return value
    }

    // MARK: - Scanning

    private mutating func enter() throws(Failure) {
        depth += 1
        guard depth <= Self.maximumDepth else { throw failure("nesting deeper than \(Self.maximumDepth) levels") }
    }

    private mutating func consume(_ byte: UInt8) -> Bool {
        guard index < bytes.count, bytes[index] == byte else { return false }
        index += 1
        return true
    }

    private mutating func skipWhitespace() {
        index = JSONSeparators.skipWhitespace(bytes, from: index)
    }

    /// White space, and in tolerant mode `...` elisions (with a comma that may follow them).
    private mutating func skipSeparators() {
        index = JSONSeparators.skipWhitespace(bytes, from: index)
        guard mode == .tolerant, index < bytes.count, bytes[index] == UInt8(ascii: ".") else { return }
        let start = index
        index = JSONSeparators.skipElisions(bytes, from: index)
        if index != start { tolerated = true }
    }

    private func printable(_ byte: UInt8) -> String {
        byte >= 0x20 && byte < 0x7F ? String(UnicodeScalar(byte)) : "byte 0x" + String(byte, radix: 16, uppercase: true)
    }

    private func failure(_ reason: String) -> Failure {
        var line = 1
        var lineStart = 0
        let end = min(index, bytes.count)
        for position in 0..<end where bytes[position] == 0x0A {
            line += 1
            lineStart = position + 1
        }
        return Failure(offset: index, line: line, column: end - lineStart + 1, reason: reason)
    }
}
