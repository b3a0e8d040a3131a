import Foundation

/// Reduces URLs to templates, so requests to the same endpoint with other ids read — and group — as one:
/// `https://api.shop.example/api/v1/orders/8812/items/3?token=abc&page=2` → `/api/v1/orders/{id}/items/{id}?token&page`.
public enum URLTemplate {
    /// The path of `url` with its variable segments parameterized and its query reduced to its keys; no scheme or
    /// host, so staging and production group together.
    public static func path(of url: String) -> String {
        let (rest, query) = pathAndQuery(url)
        var path = ""
        var segmentStart = rest.utf8.startIndex
        // Split on "/" by bytes: every index found is an ASCII boundary, so the slices are valid substrings.
        for index in rest.utf8.indices where rest.utf8[index] == 0x2F {
            if index > segmentStart { path += template(rest[segmentStart..<index]) }
            path += "/"
            segmentStart = rest.utf8.index(after: index)
        }
        if segmentStart < rest.endIndex { path += template(rest[segmentStart...]) }
        if path.isEmpty { path = "/" }
        let keys = query.split(separator: "&").compactMap { pair -> Substring? in
            let key = pair.prefix { $0 != "=" }
            return key.isEmpty ? nil : key
        }
        return keys.isEmpty ? path : path + "?" + keys.joined(separator: "&")
    }

    /// The path of `url` as written: no scheme, host, query or fragment (`/v1/orders/8812`).
    static func rawPath(of url: String) -> Substring {
        pathAndQuery(url).path
    }

    /// The path and the query of `url` (no scheme, host or fragment), found by bytes.
    private static func pathAndQuery(_ url: String) -> (path: Substring, query: Substring) {
        let bytes = url.utf8
        var start = bytes.startIndex
        var index = bytes.startIndex
        // "://" ends the scheme; the host runs to the next "/".
        while index < bytes.endIndex {
            let byte = bytes[index]
            if byte == 0x2F || byte == 0x3F || byte == 0x23 { break }
            if byte == 0x3A, bytes[index...].starts(with: "://".utf8) {
                let host = bytes.index(index, offsetBy: 3)
                start = bytes[host...].firstIndex { $0 == 0x2F || $0 == 0x3F || $0 == 0x23 } ?? bytes.endIndex
                break
            }
            index = bytes.index(after: index)
        }
        let end = bytes[start...].firstIndex(of: 0x23) ?? bytes.endIndex
        guard let mark = bytes[start..<end].firstIndex(of: 0x3F) else { return (url[start..<end], "") }
        return (url[start..<mark], url[bytes.index(after: mark)..<end])
    }

    /// One path segment: `{id}`, `{uuid}`, `{hash}`, `{email}`, `{locale}`, `{token}`, or the segment itself.
    static func template(_ segment: Substring) -> String {
        let decoded = segment.utf8.contains(0x25) ? segment.removingPercentEncoding ?? String(segment) : String(segment)
        // Most segments are short ASCII words: count bytes, not Characters, and test the costly shapes only at
        // the lengths they need.
        let isASCII = decoded.utf8.allSatisfy { $0 < 0x80 }
        let length = isASCII ? decoded.utf8.count : decoded.count
        let digits =
            isASCII ? decoded.utf8.count(where: { $0 >= 0x30 && $0 <= 0x39 }) : decoded.count(where: \.isNumber)
        if digits == length { return "{id}" }
        if length == 36, UUIDText.normalize(decoded) != nil { return "{uuid}" }
        if length >= 16, digits > 0, decoded.allSatisfy(\.isHexDigit) { return "{hash}" }
        if decoded.utf8.contains(0x40), decoded.utf8.contains(0x2E) { return "{email}" }
        if length <= 10, isLocale(decoded) { return "{locale}" }
        if length >= 20, digits * 4 >= length { return "{token}" }
        // `order-8812`, `item_31`: a word with a numeric id after it.
        if digits >= 2, let separator = decoded.lastIndex(where: { $0 == "-" || $0 == "_" }),
            decoded[decoded.index(after: separator)...].count >= 2,
            decoded[decoded.index(after: separator)...].allSatisfy(\.isNumber)
        {
            return decoded[...separator] + "{id}"
        }
        return String(segment)
    }

    private static let languages: Set<String> = [
        "en", "de", "fr", "es", "ja", "ko", "zh", "pt", "ru", "nl", "sv", "da", "fi", "nb", "pl", "tr", "ar", "he",
        "cs", "el", "hu", "ro", "uk", "vi", "th",
    ]

    /// `en`, `en-US`, `pt_BR`, `zh-Hans`: a language code, with a region or script.
    private static func isLocale(_ text: String) -> Bool {
        let parts = text.split(whereSeparator: { $0 == "-" || $0 == "_" })
        guard let language = parts.first, languages.contains(language.lowercased()) else { return false }
        switch parts.count {
        case 1: return language.count == 2
        case 2: return (2...4).contains(parts[1].count) && parts[1].allSatisfy(\.isLetter)
        default: return false
        }
    }
}
