import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A real HTTP/1.1 server on loopback that answers the part of GitHub's issues API `casefile publish` uses, keeping
/// the issues in memory and recording every request.
final class FakeTracker: @unchecked Sendable {
    struct Request {
        var method: String
        var path: String
        var authorization: String?
        var body: [String: Any]
    }

    struct Issue {
        var number: Int
        var title: String
        var body: String
        var labels: [String]
        var comments: [String]
    }

    private let lock = NSLock()
    private var _requests: [Request] = []
    private var _issues: [Issue] = []
    private var _failures = 0
    private let listener: Int32
    /// The port it listens on.
    let port: Int

    var requests: [Request] { lock.withLock { _requests } }
    var issues: [Issue] { lock.withLock { _issues } }

    /// The next `count` requests that change something are answered 500.
    func fail(next count: Int) { lock.withLock { _failures = count } }

    init() throws {
        let listener = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        self.listener = listener
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = 0
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(listener, $0, length) }
        }
        guard bound == 0, listen(listener, 16) == 0 else { throw CocoaError(.fileWriteUnknown) }
        _ = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(listener, $0, &length) }
        }
        port = Int(UInt16(bigEndian: address.sin_port))
        guard port > 0 else { throw CocoaError(.fileWriteUnknown) }
        let thread = Thread { [self] in serve() }
        thread.start()
    }

    func stop() {
        shutdown(listener, Int32(SHUT_RDWR))
        close(listener)
    }

    private func serve() {
        while true {
            let connection = accept(listener, nil, nil)
            guard connection >= 0 else { return }
            handle(connection)
            close(connection)
        }
    }

    private func handle(_ connection: Int32) {
        var data = [UInt8]()
        var buffer = [UInt8](repeating: 0, count: 65536)
        var headerEnd: Int?
        var contentLength = 0
        while true {
            let count = read(connection, &buffer, buffer.count)
            guard count > 0 else { return }
            data += buffer[0..<count]
            if headerEnd == nil, let end = Self.find([13, 10, 13, 10], in: data) {
                headerEnd = end + 4
                let head = String(decoding: data[0..<end], as: UTF8.self).lowercased()
                for line in head.split(separator: "\r\n") where line.hasPrefix("content-length:") {
                    contentLength = Int(line.dropFirst(15).trimmingCharacters(in: .whitespaces)) ?? 0
                }
            }
            if let headerEnd, data.count >= headerEnd + contentLength { break }
        }
        let end = headerEnd!
        let lines = String(decoding: data[0..<(end - 4)], as: UTF8.self).components(separatedBy: "\r\n")
        let parts = lines[0].split(separator: " ")
        let authorization = lines.dropFirst().first { $0.lowercased().hasPrefix("authorization:") }
            .map { String($0.dropFirst(14)).trimmingCharacters(in: .whitespaces) }
        let body =
            (try? JSONSerialization.jsonObject(with: Data(data[end..<(end + contentLength)]))) as? [String: Any] ?? [:]
        let request = Request(
            method: String(parts[0]), path: String(parts[1]), authorization: authorization, body: body)
        let (status, reply) = lock.withLock { answer(request) }
        let payload = (try? JSONSerialization.data(withJSONObject: reply)) ?? Data()
        let head =
            "HTTP/1.1 \(status) X\r\nContent-Type: application/json\r\nContent-Length: \(payload.count)\r\n"
            + "Connection: close\r\n\r\n"
        let bytes = Array(head.utf8) + Array(payload)
        var written = 0
        while written < bytes.count {
            let count = bytes[written...].withUnsafeBytes { write(connection, $0.baseAddress, $0.count) }
            guard count > 0 else { return }
            written += count
        }
    }

    /// Called with the lock held.
    private func answer(_ request: Request) -> (Int, Any) {
        _requests.append(request)
        let path = request.path.split(separator: "?").first.map(String.init) ?? request.path
        let segments = path.split(separator: "/").map(String.init)  // repos, o, r, issues, N, comments
        guard segments.count >= 4, segments[0] == "repos", segments[3] == "issues" else {
            return (404, ["message": "Not Found"])
        }
        if request.method != "GET", _failures > 0 {
            _failures -= 1
            return (500, ["message": "Server Error"])
        }
        switch (request.method, segments.count) {
        case ("GET", 4):
            let page = request.path.components(separatedBy: "page=").last.flatMap { Int($0.prefix { $0.isNumber }) }
            let listed = page == 1 ? _issues : []
            return (200, listed.map { ["number": $0.number, "body": $0.body, "title": $0.title] as [String: Any] })
        case ("POST", 4):
            let number = _issues.count + 1
            _issues.append(
                Issue(
                    number: number, title: request.body["title"] as? String ?? "",
                    body: request.body["body"] as? String ?? "", labels: request.body["labels"] as? [String] ?? [],
                    comments: []))
            return (201, ["number": number, "html_url": "http://127.0.0.1:\(port)/issues/\(number)"])
        case ("PATCH", 5):
            guard let number = Int(segments[4]), number <= _issues.count else { return (404, ["message": "Not Found"]) }
            _issues[number - 1].title = request.body["title"] as? String ?? _issues[number - 1].title
            _issues[number - 1].body = request.body["body"] as? String ?? _issues[number - 1].body
            _issues[number - 1].labels = request.body["labels"] as? [String] ?? _issues[number - 1].labels
            return (200, ["number": number])
        case ("POST", 6) where segments[5] == "comments":
            guard let number = Int(segments[4]), number <= _issues.count else { return (404, ["message": "Not Found"]) }
            _issues[number - 1].comments.append(request.body["body"] as? String ?? "")
            return (201, ["id": _issues[number - 1].comments.count])
        default:
            return (404, ["message": "Not Found"])
        }
    }

    private static func find(_ needle: [UInt8], in haystack: [UInt8]) -> Int? {
        guard haystack.count >= needle.count else { return nil }
        for index in 0...(haystack.count - needle.count) where Array(haystack[index..<(index + needle.count)]) == needle
        {
            return index
        }
        return nil
    }
}
