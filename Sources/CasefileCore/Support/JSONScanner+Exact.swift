/// Values read exactly as `JSONDecoder` reads them into Swift types, for the index's own JSON columns read back
/// without it: every value either has the expected type — a string, a plain integer in range, a boolean — or `null`
/// where the field is optional; anything else throws, and the caller decodes the text with `JSONDecoder` instead.
extension JSONScanner {
    /// The elements of the JSON array that is the whole of `json`, each read by `element` from its start; `nil` when
    /// the text is anything else, or `element` throws.
    static func exactArray<Element>(_ json: String, _ element: (inout JSONScanner) throws -> Element) -> [Element]? {
        exactDocument(json) { scanner in
            var elements: [Element] = []
            try scanner.elements { scanner in elements.append(try element(&scanner)) }
            return elements
        }
    }

    /// The value that is the whole of `json`, read by `value` from its start; `nil` when anything follows it, or
    /// `value` throws.
    static func exactDocument<Value>(_ json: String, _ value: (inout JSONScanner) throws -> Value) -> Value? {
        json.withUTF8Bytes { bytes in
            var scanner = JSONScanner(bytes, strict: true)
            do {
                scanner.skipWhitespace()
                let read = try value(&scanner)
                return scanner.atEnd() ? read : nil
            } catch {
                return nil
            }
        }
    }

    /// The text of a key written without escapes; a key with one throws (it is left to `JSONDecoder`).
    func plainKey(_ range: Range<Int>) throws -> String {
        guard !range.contains(where: { byte(at: $0) == UInt8(ascii: "\\") }) else {
            throw Failure(offset: range.lowerBound)
        }
        return text(range)
    }

    /// A string naming a case of `Value`; any other string throws.
    mutating func requiredCase<Value: RawRepresentable<String>>(_: Value.Type) throws -> Value {
        let start = index
        guard let value = Value(rawValue: try requiredString()) else { throw Failure(offset: start) }
        return value
    }

    /// An array of strings, each there.
    mutating func requiredStrings() throws -> [String] {
        var strings: [String] = []
        try elements { scanner in strings.append(try scanner.requiredString()) }
        return strings
    }

    /// Whether the whole text was read: nothing but white space after the cursor.
    mutating func atEnd() -> Bool {
        skipWhitespace()
        return next == nil
    }

    /// A string, or `nil` for `null`.
    mutating func exactString() throws -> String? {
        if literal("null") { return nil }
        guard next == UInt8(ascii: "\"") else { throw Failure(offset: index) }
        return try string()
    }

    /// A string that must be there.
    mutating func requiredString() throws -> String {
        guard let text = try exactString() else { throw Failure(offset: index) }
        return text
    }

    /// `true` or `false`.
    mutating func exactBool() throws -> Bool {
        if literal("true") { return true }
        if literal("false") { return false }
        throw Failure(offset: index)
    }

    /// An integer of type `Value` written as plain digits (a sign where `Value` has one), or `nil` for `null`. A
    /// fraction, an exponent, a leading zero or a value out of range throws, as `JSONDecoder` would refuse or round
    /// what `JSONEncoder` never writes.
    mutating func exactInteger<Value: FixedWidthInteger>(_: Value.Type) throws -> Value? {
        if literal("null") { return nil }
        let start = index
        let negative = Value.isSigned && literal("-")
        let digitsStart = index
        guard let magnitude = exactDigits() else { throw Failure(offset: start) }
        if index - digitsStart > 1, byte(at: digitsStart) == UInt8(ascii: "0") { throw Failure(offset: start) }
        if let following = next,
            following == UInt8(ascii: ".") || following == UInt8(ascii: "e") || following == UInt8(ascii: "E")
        {
            throw Failure(offset: start)
        }
        if negative {
            // Value.min's magnitude is one more than Value.max.
            guard magnitude <= UInt64(Value.max) + 1 else { throw Failure(offset: start) }
            return magnitude == UInt64(Value.max) + 1 ? Value.min : Value.zero - Value(magnitude)
        }
        guard let value = Value(exactly: magnitude) else { throw Failure(offset: start) }
        return value
    }

    /// An integer that must be there.
    mutating func requiredInteger<Value: FixedWidthInteger>(_ type: Value.Type) throws -> Value {
        guard let value = try exactInteger(type) else { throw Failure(offset: index) }
        return value
    }
}
