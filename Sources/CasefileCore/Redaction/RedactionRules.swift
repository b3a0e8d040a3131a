/// What is redacted before anything is written: data in the pipeline definition (`[redaction]`), with safe
/// defaults. The lists only add to the built-in ones; the switches turn a kind of free-text detection off.
public struct RedactionRules: Sendable, Equatable {
    /// Header names (any case) whose values are credentials or session state.
    public var headers: [String]
    /// Words that make a query, form, JSON or `key=value` key a secret (`access_token`, `password`, `cardNumber`).
    public var keys: [String]
    /// Email addresses in free text.
    public var emails: Bool
    /// Phone numbers in free text (`+1 415 555 0100`, `(415) 555-0100`, `415-555-0100`).
    public var phones: Bool
    /// JWTs, `Bearer …` credentials and long random-looking values in free text.
    public var tokens: Bool
    /// Extra patterns (regular expressions) whose matches are redacted wherever text is.
    public var patterns: [String]

    /// The built-in rules.
    public static let standard = RedactionRules(
        headers: [
            "authorization", "proxy-authorization", "cookie", "set-cookie", "x-api-key", "x-auth-token",
            "x-csrf-token", "x-xsrf-token", "x-amz-security-token", "api-key", "apikey",
        ],
        keys: [
            "password", "passwd", "passcode", "token", "secret", "auth", "apikey", "api_key", "api-key", "session",
            "signature", "sig", "cvv", "cvc", "pin", "card", "otp", "credential", "private_key", "privatekey",
            "ssn", "iban",
        ],
        emails: true, phones: true, tokens: true, patterns: [])

    /// Creates rules.
    public init(
        headers: [String], keys: [String], emails: Bool, phones: Bool, tokens: Bool, patterns: [String]
    ) {
        self.headers = headers
        self.keys = keys
        self.emails = emails
        self.phones = phones
        self.tokens = tokens
        self.patterns = patterns
    }
}
