import Foundation

/// Reduces URLs to templates, so requests to the same endpoint with other ids read — and group — as one:
/// `https://api.shop.example/api/v1/orders/8812/items/3?token=abc&page=2` → `/api/v1/orders/{id}/items/{id}?token&page`.
public enum URLTemplate {
    /// The path of `url` with its variable segments parameterized and its query reduced to its keys; no scheme or
    /// host, so staging and production group together.
    public static func path(of url: String) -> String {
        var rest = Substring(url)
        if let scheme = rest.range(of: "://") {
            rest = rest[scheme.upperBound...]
            rest = rest.firstIndex(of: "/").map { rest[$0...] } ?? ""
        }
        if let hash = rest.firstIndex(of: "#") { rest = rest[..<hash] }
        var query: Substring = ""
        if let mark = rest.firstIndex(of: "?") {
            query = rest[rest.index(after: mark)...]
            rest = rest[..<mark]
        }
        let segments = rest.split(separator: "/", omittingEmptySubsequences: false).map { segment in
            segment.isEmpty ? "" : template(segment)
        }
        var path = segments.joined(separator: "/")
        if path.isEmpty { path = "/" }
        let keys = query.split(separator: "&").compactMap { pair -> String? in
            let key = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false).first ?? ""
            return key.isEmpty ? nil : String(key)
        }
        return keys.isEmpty ? path : path + "?" + keys.joined(separator: "&")
    }

    /// The path of `url` as written: no scheme, host, query or fragment (`/v1/orders/8812`).
    static func rawPath(of url: String) -> Substring {
        var rest = Substring(url)
        if let scheme = rest.range(of: "://") {
            rest = rest[scheme.upperBound...]
            rest = rest.firstIndex(of: "/").map { rest[$0...] } ?? ""
        }
        return rest.prefix { $0 != "?" && $0 != "#" }
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
