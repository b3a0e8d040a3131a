/// A failed request as a `curl` command a developer can paste, with credentials left out. The exchange comes
/// redacted (``Redactor/redact(_:)-(Report)``): its URL and body are printed as they are, and headers whose values
/// were masked are left out.
enum Curl {
    /// The command, or `nil` when the source did not record the request (a `.clue` recording never does, and a
    /// guessed method would mislead). Credential headers (`Authorization`, `Cookie`, tokens) are left out entirely;
    /// ``omittedHeaders(_:)`` names them.
    static func command(_ exchange: NetworkExchange) -> String? {
        guard let method = exchange.method, let url = exchange.url else { return nil }
        var parts = ["curl", "-X", method]
        for header in exchange.requestHeaders where !isMasked(header) {
            parts += ["-H", quoted("\(header.name): \(header.value)")]
        }
        if let body = exchange.requestBody, !body.isEmpty {
            parts += ["--data-raw", quoted(body)]
        }
        parts.append(quoted(url))
        return parts.joined(separator: " ")
    }

    /// The names of the credential headers ``command(_:)`` leaves out.
    static func omittedHeaders(_ exchange: NetworkExchange) -> [String] {
        exchange.requestHeaders.filter(isMasked).map(\.name)
    }

    /// Whether the redaction pass masked the header's value.
    private static func isMasked(_ header: HeaderField) -> Bool {
        header.value.contains("[redacted") || Redactor.standard.isSecretHeader(header.name)
    }

    /// Single-quoted for a POSIX shell.
    private static func quoted(_ text: String) -> String {
        "'" + text.split(separator: "'", omittingEmptySubsequences: false).joined(separator: "'\\''") + "'"
    }
}
