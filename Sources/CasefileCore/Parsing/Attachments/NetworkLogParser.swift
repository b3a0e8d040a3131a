/// Reads a debug menu's network log: one record per request, flat
/// (`{"method", "url", "requestHeaders", "requestBody", "statusCode", "responseHeaders", "responseBody", "startedAt",
/// "endedAt", "error"}`) or nested (`{"request": {"method", "url", "headers", "body"}, "response": {"statusCode",
/// "headers", "body"}}`), with the variations SampleReports/README.md lists. Credentials are redacted as they are
/// read, so no later stage ever holds them.
enum NetworkLogParser {
    /// One request of the log.
    struct Record {
        var exchange: NetworkExchange
        var line: Int
        var requestTime: AttachmentTime?
        var responseTime: AttachmentTime?
    }

    /// The request in `value`, or `nil` when it has no URL.
    static func record(_ value: JSONValue, line: Int) -> Record? {
        let request = value["request"]?.object.map(JSONValue.object) ?? value
        let response = value["response"]?.object.map(JSONValue.object) ?? value
        guard let url = request.field("url", "URL", "requestURL", "path")?.string else { return nil }
        var exchange = NetworkExchange(
            url: url, method: request.field("method", "httpMethod", "verb")?.string?.uppercased(),
            statusCode: response.field("statusCode", "status", "code")?.int,
            mimeType: response.field("mimeType", "contentType")?.string,
            responseHeaders: headers(response.field("responseHeaders", "headers")))
        exchange.requestHeaders = headers(request.field("requestHeaders", "headers"))
        exchange.requestBody = body(request.field("requestBody", "body"))
        if let text = body(response.field("responseBody", "body")), !text.isEmpty {
            exchange.bodyPreview = String(text.prefix(512))
            exchange.receivedBytes = text.utf8.count
            exchange.chunkCount = 1
        }
        exchange.error = transportError(value.field("error", "errorDescription"), url: url)
        exchange.completed = true
        let requestTime = AttachmentTime(
            request.field("startedAt", "requestTime", "requestDate", "start", "timestamp"))
        var responseTime = AttachmentTime(response.field("endedAt", "responseTime", "responseDate", "end"))
        if responseTime == nil, case .absolute(let start) = requestTime,
            let milliseconds = value.field("durationMs", "duration_ms")?.double
                ?? value.field("duration")?.double
                .map({ $0 * 1000 })
        {
            responseTime = .absolute(start + milliseconds / 1000)
        }
        return Record(exchange: exchange, line: line, requestTime: requestTime, responseTime: responseTime)
    }

    /// Headers as an object, an array of `{"name", "value"}` or an array of `[name, value]`; credentials redacted.
    static func headers(_ value: JSONValue?) -> [HeaderField] {
        var pairs: [(String, String)] = []
        if let object = value?.object {
            pairs = object.members.map { ($0.key, $0.value.string ?? $0.value.compactText) }
        } else if let items = value?.array {
            pairs = items.compactMap { item in
                if let name = item["name"]?.string, let value = item["value"] {
                    return (name, value.string ?? value.compactText)
                }
                if let pair = item.array, pair.count == 2, let name = pair[0].string {
                    return (name, pair[1].string ?? pair[1].compactText)
                }
                return nil
            }
        }
        return pairs.map { HeaderField(name: $0.0, value: $0.1) }
    }

    /// A body as text (a JSON body kept as compact JSON); the report's redaction pass masks its secrets.
    static func body(_ value: JSONValue?) -> String? {
        guard let value, value != .null else { return nil }
        return value.string ?? value.compactText
    }

    /// `"error": "The Internet connection appears to be offline."` or `{"domain", "code", "description"}`.
    static func transportError(_ value: JSONValue?, url: String) -> TransportError? {
        if let text = value?.string, !text.isEmpty {
            return TransportError(domain: nil, code: nil, description: text, failingURL: url)
        }
        guard let object = value?.object.map(JSONValue.object) else { return nil }
        return TransportError(
            domain: object["domain"]?.string, code: object["code"]?.int,
            description: object.field("description", "localizedDescription", "message")?.string, failingURL: url)
    }
}
