/// One HTTP exchange assembled from the records a recorder made of it.
///
/// Clue never records the outgoing request, so ``method`` is known only from a redirect's new request, and there
/// is no latency: ``responseAt`` and ``endAt`` are the frame-quantized times of the callbacks.
public struct NetworkExchange: Sendable, Codable, Hashable {
    /// The response URL (after redirects), or the failing URL of a transport error.
    public var url: String?
    /// The HTTP method, only when the report recorded it.
    public var method: String?
    /// The HTTP status code.
    public var statusCode: Int?
    /// The status phrase as recorded, e.g. `internal server error`.
    public var statusText: String?
    /// The response MIME type.
    public var mimeType: String?
    /// Response headers, in file order, with credentials redacted.
    public var responseHeaders: [HeaderField]
    /// `expectedContentLength`; `nil` when the server did not say (Clue writes −1).
    public var expectedContentLength: Int?
    /// UTF-8 bytes of body text received, over all chunks.
    public var receivedBytes: Int
    /// How many data chunks arrived.
    public var chunkCount: Int
    /// Chunks that were not UTF-8 text (Clue records them as empty strings).
    public var undecodableChunks: Int
    /// The start of the body text, at most 512 characters.
    public var bodyPreview: String?
    /// When the response arrived.
    public var responseAt: Double?
    /// The time of the last record of this exchange.
    public var endAt: Double?
    /// Whether a completion record was seen.
    public var completed: Bool
    /// The transport error the exchange completed with.
    public var error: TransportError?
    /// Where the response redirected to (for a 3xx), from the redirect record.
    public var redirectLocation: String?
    /// The URL that redirected here, when this exchange follows a redirect.
    public var redirectedFrom: String?
    /// Whether data chunks may belong to another exchange: responses overlapped, and Clue records no request id.
    public var isAmbiguous: Bool
    /// When the request was sent, only when a source records it (a debug-menu network log; never Clue).
    public var requestAt: Double?
    /// Request headers, only when a source records them, with credentials redacted.
    public var requestHeaders: [HeaderField] = []
    /// The request body's text, only when a source records it, with secret values redacted.
    public var requestBody: String?
    /// The file and line of a debug-menu network-log record merged into this recorded exchange (it gave the
    /// method, request time, headers and body).
    public var requestSource: String?

    /// Creates an exchange with only the fields given.
    public init(
        url: String? = nil, method: String? = nil, statusCode: Int? = nil, statusText: String? = nil,
        mimeType: String? = nil, responseHeaders: [HeaderField] = [], expectedContentLength: Int? = nil,
        responseAt: Double? = nil
    ) {
        self.url = url
        self.method = method
        self.statusCode = statusCode
        self.statusText = statusText
        self.mimeType = mimeType
        self.responseHeaders = responseHeaders
        self.expectedContentLength = expectedContentLength
        self.receivedBytes = 0
        self.chunkCount = 0
        self.undecodableChunks = 0
        self.responseAt = responseAt
        self.endAt = responseAt
        self.completed = false
        self.isAmbiguous = false
    }

    /// Seconds from request to response, only when a source records both times.
    public var latency: Double? {
        guard let requestAt, let end = responseAt ?? endAt, end >= requestAt else { return nil }
        return end - requestAt
    }

    /// Why the exchange failed, or `nil` when it did not.
    public var failure: NetworkFailure? {
        if let error {
            return error.isTimeout ? .timeout(error) : .transport(error)
        }
        if let statusCode, statusCode >= 400 {
            return .http(statusCode)
        }
        return nil
    }
}
