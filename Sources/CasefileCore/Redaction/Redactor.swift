/// Keeps credentials and personal data out of everything Casefile writes (clue-format.md E12): credential headers,
/// secret query, form and JSON fields, and in free text `key=value` secrets, emails, phone numbers, JWTs, `Bearer`
/// credentials and long random-looking values.
///
/// A redacted value keeps its shape where it has one, so a triager still sees what kind of thing was there:
/// `tok_…[redacted]`, `Bearer …[redacted]`, `eyJ…[redacted JWT]`, `[redacted email]`, `[redacted phone]`.
public struct Redactor: Sendable {
    /// The rules applied.
    public let rules: RedactionRules
    private let secretHeaders: Set<String>
    private let secretKeys: [[UInt8]]
    private let patterns: [Pattern]

    /// The built-in rules.
    public static let standard = Redactor(rules: .standard)

    /// A redactor for `rules`; a pattern that is not a valid regular expression is reported by the pipeline
    /// definition, and skipped here.
    public init(rules: RedactionRules) {
        self.rules = rules
        secretHeaders = Set(rules.headers.map { $0.lowercased() })
        secretKeys = rules.keys.map { Array($0.lowercased().utf8) }
        patterns = rules.patterns.compactMap(Pattern.init)
    }

    // MARK: - Headers, keys, typed text

    /// A header value, or its masked form when the header carries a credential.
    public func header(name: String, value: String) -> String {
        isSecretHeader(name) ? mask(value) : text(value)
    }

    /// Whether the header carries a credential or session state.
    ///
    /// Any name holding `token` or `secret` is one too, whatever its case. The words are looked for in the name's
    /// bytes: `String.contains(_:)` compares Characters through the string-processing library, for every header of
    /// every exchange. A name where a combining mark follows either word is then a secret too.
    public func isSecretHeader(_ name: String) -> Bool {
        let lower = name.lowercased()
        return secretHeaders.contains(lower) || lower.containsBytes("token") || lower.containsBytes("secret")
    }

    /// Whether a parameter or JSON key names a secret (`access_token`, `password`, `cardNumber`).
    public func isSecretKey(_ key: String) -> Bool {
        let lower = Array(key.lowercased().utf8)
        return secretKeys.contains { ByteScan.find($0, in: lower[...], from: 0) != nil }
    }

    /// What a user typed into a text field, which may be a password or a card number: only its length is kept.
    public func typedText(_ text: String) -> String {
        "[redacted: \(text.count) characters]"
    }

    // MARK: - URLs and bodies

    /// A URL with its password, the values of secret query parameters and secret-looking path segments masked.
    public func url(_ url: String) -> String {
        // Most URLs have nothing to mask: no query, no user info, no path segment long enough to be a token.
        var run = 0
        var longest = 0
        for byte in url.utf8 {
            if byte == UInt8(ascii: "?") || byte == UInt8(ascii: "@") {
                longest = .max
                break
            }
            run = byte == UInt8(ascii: "/") ? 0 : run + 1
            longest = max(longest, run)
        }
        guard longest >= 20 else { return url }
        var rest = Substring(url)
        var output = ""
        let bytes = Array(url.utf8)
        if let scheme = ByteScan.find(Array("://".utf8), in: bytes[...], from: 0),
            bytes[..<scheme].allSatisfy({ Self.isAlphanumeric($0) || $0 == UInt8(ascii: "+") })
        {
            let afterScheme = url.utf8.index(url.utf8.startIndex, offsetBy: scheme + 3)
            output += rest[..<afterScheme]
            rest = rest[afterScheme...]
            let authorityEnd = rest.firstIndex { $0 == "/" || $0 == "?" || $0 == "#" } ?? rest.endIndex
            if let at = rest[..<authorityEnd].lastIndex(of: "@") {
                let userInfo = rest[..<at]
                if let colon = userInfo.firstIndex(of: ":") {
                    output += userInfo[...colon] + "[redacted]"
                } else {
                    output += userInfo
                }
                output += "@"
                rest = rest[rest.index(after: at)...]
            }
        }
        let queryStart = rest.firstIndex(of: "?")
        let fragmentStart = rest.firstIndex(of: "#")
        let pathEnd = queryStart ?? fragmentStart ?? rest.endIndex
        output += rest[..<pathEnd].split(separator: "/", omittingEmptySubsequences: false).map { segment in
            Self.isRandomLooking(Array(segment.utf8)) || Self.isJWT(Array(segment.utf8))
                ? mask(String(segment)) : String(segment)
        }.joined(separator: "/")
        if let queryStart {
            let queryEnd = fragmentStart.map { $0 > queryStart ? $0 : rest.endIndex } ?? rest.endIndex
            output += "?" + form(String(rest[rest.index(after: queryStart)..<queryEnd]))
            rest = rest[queryEnd...]
        } else {
            rest = rest[pathEnd...]
        }
        output += rest
        return output
    }

    /// `key=value&…` with the values of secret keys masked and the others scrubbed as text.
    public func form(_ text: String) -> String {
        text.split(separator: "&", omittingEmptySubsequences: false).map { pair in
            guard let equals = pair.firstIndex(of: "=") else { return String(pair) }
            let key = String(pair[..<equals])
            let value = String(pair[pair.index(after: equals)...])
            return key + "=" + (isSecretKey(key) ? mask(value) : self.text(value))
        }.joined(separator: "&")
    }

    /// A request or response body with secrets masked: JSON members and form fields whose keys name a secret, and
    /// free text.
    public func body(_ text: String) -> String {
        if let value = try? JSONParser.parse(text), value.object != nil || value.array != nil {
            return json(value).compactText
        }
        if text.contains("="), !text.contains(" "), !text.contains("\n") {
            return form(text)
        }
        return self.text(text)
    }

    /// A JSON value with the values of members whose keys name a secret masked and every string scrubbed as text,
    /// at any depth.
    public func json(_ value: JSONValue) -> JSONValue {
        switch value {
        case .object(var object):
            for index in object.members.indices {
                let member = object.members[index]
                if isSecretKey(member.key), !member.value.isNullOrBool {
                    object.members[index].value = .string(mask(member.value.string ?? member.value.compactText))
                } else {
                    object.members[index].value = json(member.value)
                }
            }
            return .object(object)
        case .array(let items): return .array(items.map(json))
        case .string(let string): return .string(text(string))
        default: return value
        }
    }

    // MARK: - Free text

    /// Free text (a log line, an exception reason, a label, a response body) with `key=value` and `"key": "value"`
    /// secrets, emails, phone numbers, JWTs, `Bearer` credentials and long random-looking values masked.
    public func text(_ text: String) -> String {
        let bytes = Array(text.utf8)
        guard !bytes.isEmpty else { return text }
        var found = Replacements()
        keyValues(bytes, into: &found)
        words(bytes, into: &found)
        if rules.phones { phones(bytes, into: &found) }
        for pattern in patterns {
            for range in pattern.matches(in: text) { found.add(range, "[redacted]") }
        }
        return found.isEmpty ? text : found.apply(to: bytes)
    }

    /// A secret value's masked form, keeping what kind of thing it was.
    public func mask(_ value: String) -> String {
        let bytes = Array(value.utf8)
        guard !bytes.isEmpty else { return value }
        if value.hasPrefix("[redacted") || value == "REDACTED" { return value }
        for scheme in ["Bearer ", "Basic ", "Token ", "Digest "] where value.lowercased().hasPrefix(scheme.lowercased())
        {
            return String(value.prefix(scheme.count)) + "…[redacted]"
        }
        if Self.isJWT(bytes) { return "eyJ…[redacted JWT]" }
        if Self.isEmail(bytes[...]) { return "[redacted email]" }
        // A kind prefix: `tok_`, `sk_live_`, `ghp_`, `AKIA…` keys have none, `pk-` has one.
        var end = 0
        var index = 0
        while index < min(bytes.count, 16) {
            let byte = bytes[index]
            if byte == UInt8(ascii: "_") || byte == UInt8(ascii: "-") {
                guard index >= 2 else { break }
                end = index + 1
            } else if !Self.isLetter(byte) {
                break
            }
            index += 1
        }
        if end > 0, end < bytes.count { return String(decoding: bytes[..<end], as: UTF8.self) + "…[redacted]" }
        return "[redacted]"
    }

    /// `key=value`, `key: value` and `"key": "value"` where the key names a secret.
    private func keyValues(_ bytes: [UInt8], into found: inout Replacements) {
        guard bytes.contains(UInt8(ascii: "=")) || bytes.contains(UInt8(ascii: ":")) else { return }
        let lower = bytes.map { Self.isUpper($0) ? $0 | 0x20 : $0 }
        for key in secretKeys {
            var from = 0
            while let start = ByteScan.find(key, in: lower[...], from: from) {
                from = start + 1
                // A word start: not inside a lowercase word ("spinner"), or a camel-case hump ("authToken").
                if start > 0, Self.isLetter(bytes[start - 1]),
                    !(Self.isUpper(bytes[start]) && !Self.isUpper(bytes[start - 1]))
                {
                    continue
                }
                var index = start + key.count
                while index < bytes.count, Self.isKeyByte(bytes[index]) { index += 1 }
                if index < bytes.count, bytes[index] == UInt8(ascii: "\"") || bytes[index] == UInt8(ascii: "'") {
                    index += 1
                }
                while index < bytes.count, bytes[index] == UInt8(ascii: " ") { index += 1 }
                guard index < bytes.count, bytes[index] == UInt8(ascii: ":") || bytes[index] == UInt8(ascii: "=")
                else { continue }
                index += 1
                while index < bytes.count, bytes[index] == UInt8(ascii: " ") { index += 1 }
                guard let value = Self.value(in: bytes, at: index) else { continue }
                let text = String(decoding: bytes[value], as: UTF8.self)
                guard !["null", "true", "false", "nil", "REDACTED"].contains(text), !text.hasPrefix("[redacted")
                else { continue }
                found.add(value, mask(text))
                from = value.upperBound
            }
        }
    }

    /// The value starting at `index`: quoted (without its quotes), or up to a delimiter; a `Bearer`-style scheme
    /// takes the word after it too.
    private static func value(in bytes: [UInt8], at index: Int) -> Range<Int>? {
        guard index < bytes.count else { return nil }
        let quote = bytes[index]
        if quote == UInt8(ascii: "\"") || quote == UInt8(ascii: "'") {
            var end = index + 1
            while end < bytes.count, bytes[end] != quote {
                end += bytes[end] == UInt8(ascii: "\\") ? 2 : 1
            }
            let range = (index + 1)..<min(end, bytes.count)
            return range.isEmpty ? nil : range
        }
        var end = index
        while end < bytes.count, !isValueEnd(bytes[end]) { end += 1 }
        let word = String(decoding: bytes[index..<end], as: UTF8.self).lowercased()
        if ["bearer", "basic", "token", "digest"].contains(word), end < bytes.count, bytes[end] == UInt8(ascii: " ") {
            end += 1
            while end < bytes.count, !isValueEnd(bytes[end]) { end += 1 }
        }
        return end > index ? index..<end : nil
    }

    /// Emails, JWTs, URLs, `Bearer` credentials and long random-looking words.
    private func words(_ bytes: [UInt8], into found: inout Replacements) {
        var start = 0
        var afterScheme = false
        while start < bytes.count {
            while start < bytes.count, Self.isWordDelimiter(bytes[start]) { start += 1 }
            var end = start
            while end < bytes.count, !Self.isWordDelimiter(bytes[end]) { end += 1 }
            guard end > start else { break }
            var trimmed = end
            while trimmed > start,
                [UInt8(ascii: "."), UInt8(ascii: ":"), UInt8(ascii: "!"), UInt8(ascii: "?")]
                    .contains(bytes[trimmed - 1])
            {
                trimmed -= 1
            }
            let word = bytes[start..<trimmed]
            let range = start..<trimmed
            if !word.isEmpty, !found.overlaps(range) {
                if afterScheme, rules.tokens {
                    found.add(range, "[redacted]")
                } else if ByteScan.find(Array("://".utf8), in: word, from: word.startIndex) != nil {
                    let text = String(decoding: word, as: UTF8.self)
                    let redacted = url(text)
                    if redacted != text { found.add(range, redacted) }
                } else if rules.emails, Self.isEmail(word) {
                    found.add(range, "[redacted email]")
                } else if rules.tokens, Self.isJWT(Array(word)) || Self.isRandomLooking(Array(word)) {
                    found.add(range, mask(String(decoding: word, as: UTF8.self)))
                }
            }
            let lower = String(decoding: word, as: UTF8.self).lowercased()
            afterScheme = (lower == "bearer" || lower == "basic") && end < bytes.count && bytes[end] == 0x20
            start = end
        }
    }

    /// `+CC …` international numbers and North American `(415) 555-0100` / `415-555-0100` / `1 415 555 0100`.
    private func phones(_ bytes: [UInt8], into found: inout Replacements) {
        var index = 0
        while index < bytes.count {
            let byte = bytes[index]
            let startsNumber = byte == UInt8(ascii: "+") || byte == UInt8(ascii: "(") || Self.isDigit(byte)
            guard startsNumber, index == 0 || !Self.isAlphanumeric(bytes[index - 1]) else {
                index += 1
                continue
            }
            var end = index
            var groups: [Int] = []
            var run = 0
            while end < bytes.count {
                let byte = bytes[end]
                if Self.isDigit(byte) {
                    run += 1
                } else if byte == UInt8(ascii: " ") || byte == UInt8(ascii: "-") || byte == UInt8(ascii: ".")
                    || byte == UInt8(ascii: "(") || byte == UInt8(ascii: ")")
                    || (byte == UInt8(ascii: "+") && end == index)
                {
                    if run > 0 { groups.append(run) }
                    run = 0
                    // Two separators in a row end the number ("555-0100 - retry").
                    if end + 1 < bytes.count, !Self.isDigit(bytes[end + 1]), bytes[end] != UInt8(ascii: ")"),
                        bytes[end] != UInt8(ascii: "+")
                    {
                        break
                    }
                } else {
                    break
                }
                end += 1
            }
            if run > 0 { groups.append(run) }
            let digits = groups.reduce(0, +)
            let followedByWord = end < bytes.count && Self.isAlphanumeric(bytes[end])
            let isPhone =
                !followedByWord
                && ((byte == UInt8(ascii: "+") && digits >= 8 && digits <= 15 && groups.count >= 1)
                    || groups == [3, 3, 4] || groups == [1, 3, 3, 4])
            if isPhone {
                var last = end
                while last > index, !Self.isDigit(bytes[last - 1]) { last -= 1 }
                found.add(index..<last, "[redacted phone]")
                index = end
            } else {
                index = max(end, index + 1)
            }
        }
    }

    // MARK: - Shapes

    static func isEmail(_ word: ArraySlice<UInt8>) -> Bool {
        guard let at = word.firstIndex(of: UInt8(ascii: "@")), at > word.startIndex,
            word[(at + 1)...].firstIndex(of: UInt8(ascii: "@")) == nil
        else { return false }
        let local = word[..<at]
        let domain = word[(at + 1)...]
        guard local.allSatisfy({ isAlphanumeric($0) || "._%+-".utf8.contains($0) }),
            let dot = domain.lastIndex(of: UInt8(ascii: ".")), dot > domain.startIndex,
            domain.allSatisfy({ isAlphanumeric($0) || $0 == UInt8(ascii: ".") || $0 == UInt8(ascii: "-") })
        else { return false }
        let topLevel = domain[(dot + 1)...]
        return topLevel.count >= 2 && topLevel.allSatisfy(isLetter)
    }

    static func isJWT(_ word: [UInt8]) -> Bool {
        guard word.count >= 20, word.starts(with: Array("eyJ".utf8)) else { return false }
        let parts = word.split(separator: UInt8(ascii: "."), omittingEmptySubsequences: false)
        return parts.count == 3 && parts[0].count >= 10 && parts[1].count >= 2
            && word.allSatisfy {
                isAlphanumeric($0) || $0 == UInt8(ascii: "-") || $0 == UInt8(ascii: "_") || $0 == 0x2E
            }
    }

    /// At least 20 characters of a token alphabet, with upper and lower case letters and digits, not a UUID or hex.
    static func isRandomLooking(_ word: [UInt8]) -> Bool {
        guard word.count >= 20 else { return false }
        var upper = false
        var lower = false
        var digit = false
        for byte in word {
            if isUpper(byte) {
                upper = true
            } else if byte >= UInt8(ascii: "a") && byte <= UInt8(ascii: "z") {
                lower = true
            } else if isDigit(byte) {
                digit = true
            } else if !"_-+/=".utf8.contains(byte) {
                return false
            }
        }
        return upper && lower && digit
    }

    private static func isLetter(_ byte: UInt8) -> Bool {
        (byte | 0x20) >= UInt8(ascii: "a") && (byte | 0x20) <= UInt8(ascii: "z")
    }
    private static func isUpper(_ byte: UInt8) -> Bool { byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z") }
    private static func isDigit(_ byte: UInt8) -> Bool { byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9") }
    private static func isAlphanumeric(_ byte: UInt8) -> Bool { isLetter(byte) || isDigit(byte) }
    private static func isKeyByte(_ byte: UInt8) -> Bool {
        isAlphanumeric(byte) || byte == UInt8(ascii: "_") || byte == UInt8(ascii: "-")
    }
    private static func isValueEnd(_ byte: UInt8) -> Bool {
        byte <= 0x20 || "&,;)}]\"'<>".utf8.contains(byte)
    }
    private static func isWordDelimiter(_ byte: UInt8) -> Bool {
        byte <= 0x20 || "\"'<>()[]{},;`|".utf8.contains(byte)
    }
}

extension JSONValue {
    /// Whether the value is `null`, `true` or `false`: nothing secret to mask.
    fileprivate var isNullOrBool: Bool {
        switch self {
        case .null, .bool: true
        default: false
        }
    }
}
