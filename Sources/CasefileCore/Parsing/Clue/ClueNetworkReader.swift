/// Reads `Modules/module_network.json` and assembles its callback records into ``NetworkExchange``s.
///
/// Clue records no request and no request id (clue-format.md §5.5.3), so the assembly is a heuristic: data
/// chunks and completions belong to the most recent response still open, and an exchange whose chunks could
/// belong to an overlapping one is marked ambiguous.
enum ClueNetworkReader {
    /// One assembled exchange: when it started, where in the file it began, and what else the file said.
    struct Assembled {
        var timestamp: Double
        var line: Int
        var exchange: NetworkExchange
    }

    /// Records with a label Clue does not write, kept as custom events.
    struct Output {
        var exchanges: [Assembled] = []
        var unknown: [(timestamp: Double, line: Int, record: JSONValue)] = []
        var lastTimestamp: Double?
    }

    private static let previewLimit = 512

    static func read(_ bytes: [UInt8], file: String, warnings: inout [Diagnostic]) -> Output {
        var output = Output()
        var open: [Int] = []  // indices into output.exchanges not yet completed, oldest first
        var openWithoutChunks = 0  // how many of them have no data chunk yet
        var pendingRedirect: (from: String?, to: String?, method: String?)?

        func latestOpen(url: String? = nil) -> Int? {
            if let url, let match = open.last(where: { output.exchanges[$0].exchange.url == url }) {
                return match
            }
            return open.last
        }

        /// A record of any other label, read from its tree.
        func other(_ label: String, _ tree: JSONValue, at timestamp: Double, line: Int) {
            let properties = tree["properties"]?.array ?? []
            switch label {
            case "DidRedirect":
                let response = properties.first?.object
                let request = properties.count > 1 ? properties[1].object : nil
                var exchange =
                    response.map { makeExchange(ClueNetworkLineDecoder.Response($0), at: timestamp) }
                    ?? NetworkExchange(responseAt: timestamp)
                exchange.redirectLocation = request?["URL"]?.string.flatMap { $0.isEmpty ? nil : $0 }
                exchange.completed = true
                output.exchanges.append(Assembled(timestamp: timestamp, line: line, exchange: exchange))
                let method = request?["HTTPMethod"]?.string.flatMap { $0.isEmpty ? nil : $0 }
                pendingRedirect = (exchange.url, exchange.redirectLocation, method)
            case "DidComplete":
                let error = properties.first.flatMap(transportError)
                var index = latestOpen(url: error?.failingURL)
                if let url = error?.failingURL, let found = index, output.exchanges[found].exchange.url != url {
                    index = nil
                }
                guard let index else {
                    guard let error else {
                        warnings.append(
                            Diagnostic(
                                file: file, line: line, message: "completion before any response; skipped"))
                        return
                    }
                    // A transport error with no response: the request never got an answer.
                    var exchange = NetworkExchange(url: error.failingURL)
                    exchange.error = error
                    exchange.completed = true
                    exchange.endAt = timestamp
                    output.exchanges.append(Assembled(timestamp: timestamp, line: line, exchange: exchange))
                    return
                }
                if output.exchanges[index].exchange.chunkCount == 0 { openWithoutChunks -= 1 }
                output.exchanges[index].exchange.completed = true
                output.exchanges[index].exchange.endAt = timestamp
                output.exchanges[index].exchange.error = error
                open.removeAll { $0 == index }
            default:
                warnings.append(
                    Diagnostic(
                        file: file, line: line,
                        message: "unknown network label \"\(label)\"; kept as a custom event"))
                output.unknown.append((timestamp, line, tree))
            }
        }

        // Response and data lines are read straight from their bytes; the rest as trees.
        let lines = JSONLines(file: file, bytes: bytes)
        warnings += lines.scan(decoding: ClueNetworkLineDecoder.decode, tree: ClueNetworkLineDecoder.record) {
            line, record in
            guard let timestamp = record.timestamp else {
                warnings.append(Diagnostic(file: file, line: line, message: "no numeric \"timestamp\"; record skipped"))
                return
            }
            output.lastTimestamp = timestamp
            switch record.kind {
            case .response(let response):
                guard let response else {
                    warnings.append(
                        Diagnostic(file: file, line: line, message: "response record without properties; skipped"))
                    return
                }
                var exchange = makeExchange(response, at: timestamp)
                if let redirect = pendingRedirect, redirect.to == exchange.url {
                    exchange.method = redirect.method
                    exchange.redirectedFrom = redirect.from
                    pendingRedirect = nil
                }
                // Another response still open without chunks: the chunks from here on cannot be told apart.
                exchange.isAmbiguous = openWithoutChunks > 0
                output.exchanges.append(Assembled(timestamp: timestamp, line: line, exchange: exchange))
                open.append(output.exchanges.count - 1)
                openWithoutChunks += 1
            case .data(let body):
                guard let index = latestOpen() else {
                    warnings.append(
                        Diagnostic(file: file, line: line, message: "data chunk before any response; skipped"))
                    return
                }
                if output.exchanges[index].exchange.chunkCount == 0 { openWithoutChunks -= 1 }
                add(chunk: body, at: timestamp, to: &output.exchanges[index].exchange)
            case .other(let label, let tree):
                other(label, tree, at: timestamp, line: line)
            }
        }
        return output
    }

    /// A data chunk received at `timestamp`, counted, and its start kept as the body's preview; an empty body is a
    /// chunk Clue could not decode.
    private static func add(chunk body: String, at timestamp: Double, to exchange: inout NetworkExchange) {
        exchange.chunkCount += 1
        exchange.endAt = timestamp
        guard !body.isEmpty else {
            exchange.undecodableChunks += 1
            return
        }
        exchange.receivedBytes += body.utf8.count
        let preview = exchange.bodyPreview ?? ""
        if preview.count < previewLimit {
            exchange.bodyPreview = String((preview + body).prefix(previewLimit))
        }
    }

    private static func makeExchange(
        _ response: ClueNetworkLineDecoder.Response, at timestamp: Double
    ) -> NetworkExchange {
        NetworkExchange(
            url: response.url, statusCode: response.statusCode, statusText: response.statusText,
            mimeType: response.mimeType, responseHeaders: response.headers,
            expectedContentLength: response.expectedContentLength.flatMap { $0 >= 0 ? $0 : nil }, responseAt: timestamp)
    }

    /// The error of a completion record; `nil` for V2's `{}` on success.
    private static func transportError(_ value: JSONValue) -> TransportError? {
        guard let object = value.object, object["domain"] != nil || object["code"] != nil else { return nil }
        let userInfo = object["userInfo"]
        let failingURL = userInfo?["NSErrorFailingURLStringKey"]?.string ?? userInfo?["NSErrorFailingURLKey"]?.string
        let description = object["localizedDescription"]?.string ?? userInfo?["NSLocalizedDescription"]?.string
        return TransportError(
            domain: object["domain"]?.string, code: object["code"]?.int, description: description,
            failingURL: failingURL)
    }
}
