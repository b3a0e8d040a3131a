/// A failed request as a `curl` command a developer can paste, with credentials left out.
enum Curl {
    /// The command, or `nil` when the source did not record the request (a `.clue` recording never does, and a
    /// guessed method would mislead).
    static func command(_ exchange: NetworkExchange) -> String? {
        guard let method = exchange.method, let url = exchange.url else { return nil }
        var parts = ["curl", "-X", method]
        for header in exchange.requestHeaders {
            let value = Redaction.isSecretHeader(header.name) ? "REDACTED" : header.value
            parts += ["-H", quoted("\(header.name): \(value)")]
        }
        if let body = exchange.requestBody, !body.isEmpty {
            parts += ["--data-raw", quoted(Redaction.body(body))]
        }
        parts.append(quoted(Redaction.url(url)))
        return parts.joined(separator: " ")
    }

    /// Single-quoted for a POSIX shell.
    private static func quoted(_ text: String) -> String {
        "'" + text.split(separator: "'", omittingEmptySubsequences: false).joined(separator: "'\\''") + "'"
    }
}
