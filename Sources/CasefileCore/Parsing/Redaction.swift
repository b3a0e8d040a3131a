/// Keeps personal data and credentials out of summaries and the index (clue-format.md E12).
enum Redaction {
    /// Header names whose values are credentials or session state.
    private static let secretHeaders: Set<String> = [
        "authorization", "proxy-authorization", "cookie", "set-cookie", "x-api-key", "x-auth-token", "x-csrf-token",
    ]

    /// A header value, or `[redacted]` when the header carries a credential.
    static func headerValue(name: String, value: String) -> String {
        isSecretHeader(name) ? "[redacted]" : value
    }

    /// Whether the header carries a credential or session state.
    static func isSecretHeader(_ name: String) -> Bool {
        let lower = name.lowercased()
        return secretHeaders.contains(lower) || lower.contains("token") || lower.contains("secret")
    }

    /// What a user typed into a text field, which may be a password or a card number: only its length is kept.
    static func typedText(_ text: String) -> String {
        "[redacted: \(text.count) characters]"
    }

    /// Words in a query, form or JSON key whose value is a secret.
    private static let secretKeys = [
        "password", "passwd", "token", "secret", "auth", "apikey", "api_key", "session", "signature", "sig",
        "cvv", "cvc", "pin", "card", "otp",
    ]

    /// Whether a parameter or JSON key names a secret (`access_token`, `password`, `cardNumber`).
    static func isSecretKey(_ key: String) -> Bool {
        let lower = key.lowercased()
        return secretKeys.contains { lower.contains($0) }
    }

    /// A URL with the values of secret query parameters replaced by `REDACTED`.
    static func url(_ url: String) -> String {
        guard let question = url.firstIndex(of: "?") else { return url }
        let query = url[url.index(after: question)...]
        return url[...question] + form(String(query))
    }

    /// `key=value&…` with the values of secret keys replaced by `REDACTED`.
    private static func form(_ text: String) -> String {
        text.split(separator: "&", omittingEmptySubsequences: false).map { pair in
            guard let equals = pair.firstIndex(of: "="), isSecretKey(String(pair[..<equals])) else {
                return String(pair)
            }
            return pair[...equals] + "REDACTED"
        }.joined(separator: "&")
    }

    /// A request body with secrets replaced: JSON members and form fields whose keys name a secret.
    static func body(_ text: String) -> String {
        if let value = try? JSONParser.parse(text), value.object != nil || value.array != nil {
            return redacted(value).compactText
        }
        return text.contains("=") && !text.contains(" ") ? form(text) : text
    }

    /// A JSON value with the values of members whose keys name a secret replaced by `REDACTED`, at any depth.
    static func redacted(_ value: JSONValue) -> JSONValue {
        switch value {
        case .object(var object):
            for index in object.members.indices {
                object.members[index].value =
                    isSecretKey(object.members[index].key)
                    ? .string("REDACTED") : redacted(object.members[index].value)
            }
            return .object(object)
        case .array(let items): return .array(items.map(redacted))
        default: return value
        }
    }
}
