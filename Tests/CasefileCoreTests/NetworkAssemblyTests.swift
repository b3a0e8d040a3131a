import CasefileCore
import Testing

/// How the records of `module_network.json`, which name no request, are put together into exchanges. Recordings are
/// written here; the expected exchanges are read from their records.
@Suite struct NetworkAssemblyTests {
    func response(_ time: Double, _ path: String) -> String {
        #"{"timestamp":\#(time),"label":"DidReceiveResponse","properties":[{"class":"NSHTTPURLResponse","#
            + #""URL":"https:\/\/api.shop.example\/\#(path)","statusCode":200,"allHeaderFields":{}}]}"#
    }

    func data(_ time: Double, _ body: String) -> String {
        #"{"timestamp":\#(time),"label":"DidReceiveData","properties":[{"HTTPBody":"\#(body)"}]}"#
    }

    func complete(_ time: Double) -> String {
        #"{"timestamp":\#(time),"label":"DidComplete","properties":[{}]}"#
    }

    /// The exchanges of a recording of `records`, by URL path.
    func exchanges(_ records: [String]) throws -> [String: NetworkExchange] {
        let report = try WrittenRecording.report(modules: ["module_network.json": records])
        var exchanges: [String: NetworkExchange] = [:]
        for event in report.timeline.events {
            if case .network(let exchange) = event.kind, let url = exchange.url {
                exchanges[String(url.dropFirst("https://api.shop.example/".count))] = exchange
            }
        }
        return exchanges
    }

    /// Chunks and completions go to the latest response still open. A response that arrives while an earlier one is
    /// open and has no chunk yet is ambiguous: its chunks could be the earlier one's. Once the earlier one has a chunk,
    /// or is complete, a new response is not.
    @Test func marksAResponseAmbiguousOnlyWhileAnOpenOneHasNoChunk() throws {
        let exchanges = try exchanges([
            response(1, "cart"),  // nothing else open
            response(2, "stock"),  // cart is open without chunks: ambiguous
            data(3, "{\\\"stock\\\":3}"),  // to stock, the latest open
            complete(4),  // stock
            data(5, "{\\\"items\\\":2}"),  // to cart, the only one open
            response(6, "price"),  // cart is open, with a chunk
            complete(7),  // price, without chunks
            complete(8),  // cart
            response(9, "tax"),  // nothing open
            complete(10),  // tax, without chunks
            response(11, "total"),  // nothing open
        ])
        #expect(exchanges.count == 5)
        #expect(exchanges.filter(\.value.isAmbiguous).map(\.key) == ["stock"])
        #expect(exchanges["stock"]?.bodyPreview == #"{"stock":3}"#)
        #expect(exchanges["cart"]?.bodyPreview == #"{"items":2}"#)
        #expect(exchanges["cart"]?.endAt == 8)
        #expect(exchanges["price"]?.chunkCount == 0)
        #expect(exchanges["price"]?.endAt == 7)
    }
}
