/// A failed request as a `curl` command a developer can paste, with credentials left out.
enum Curl {
    /// The command, or `nil` when the source did not record the request (a `.clue` recording never does, and a
    /// guessed method would mislead). Credential headers (`Authorization`, `Cookie`, tokens) are left out entirely;
    /// ``omittedHeaders(_:)`` names them.
    static func command(_ exchange: NetworkExchange) -> String? {
        guard let method = exchange.method, let url = exchange.url else { return nil }
        var parts = ["curl", "-X", method]
        for header in exchange.requestHeaders where !Redaction.isSecretHeader(header.name) {
            parts += ["-H", quoted("\(header.name): \(header.value)")]
        }
        if let body = exchange.requestBody, !body.isEmpty {
            parts += ["--data-raw", quoted(Redaction.body(body))]
        }
        parts.append(quoted(Redaction.url(url)))
        return parts.joined(separator: " ")
    }

    /// The names of the credential headers ``command(_:)`` leaves out.
    static func omittedHeaders(_ exchange: NetworkExchange) -> [String] {
        exchange.requestHeaders.map(\.name).filter(Redaction.isSecretHeader)
    }

    /// Single-quoted for a POSIX shell.
    private static func quoted(_ text: String) -> String {
        "'" + text.split(separator: "'", omittingEmptySubsequences: false).joined(separator: "'\\''") + "'"
    }
}
