/// Keeps personal data and credentials out of summaries and the index (clue-format.md E12).
enum Redaction {
    /// Header names whose values are credentials or session state.
    private static let secretHeaders: Set<String> = [
        "authorization", "proxy-authorization", "cookie", "set-cookie", "x-api-key", "x-auth-token", "x-csrf-token",
    ]

    /// A header value, or `[redacted]` when the header carries a credential.
    static func headerValue(name: String, value: String) -> String {
        let lower = name.lowercased()
        if secretHeaders.contains(lower) || lower.contains("token") || lower.contains("secret") {
            return "[redacted]"
        }
        return value
    }

    /// What a user typed into a text field, which may be a password or a card number: only its length is kept.
    static func typedText(_ text: String) -> String {
        "[redacted: \(text.count) characters]"
    }
}
