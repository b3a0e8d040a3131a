public import CasefileCore
import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// A GitHub-compatible issues API (GitHub, GitHub Enterprise, or anything that answers the same requests).
public struct GitHubClient: Sendable {
    /// Why a request failed.
    public struct Failure: Error, CustomStringConvertible, Sendable {
        /// What was asked, e.g. `POST /repos/o/r/issues`.
        public var request: String
        /// The HTTP status, when there was a response.
        public var status: Int?
        /// The response body's message or the transport error.
        public var message: String

        /// One line for a log.
        public var description: String {
            "\(request): " + (status.map { "HTTP \($0): " } ?? "") + message
        }
    }

    private let base: String
    private let repository: String
    private let token: String?
    private let session: URLSession

    /// A client of `settings.baseURL` for `settings.repository`, authenticating with `token` when given.
    public init(settings: TrackerSettings, repository: String, token: String?) {
        var base = settings.baseURL
        while base.hasSuffix("/") { base.removeLast() }
        self.base = base
        self.repository = repository
        self.token = token
        let configuration = URLSessionConfiguration.ephemeral
        configuration.timeoutIntervalForRequest = 30
        session = URLSession(configuration: configuration)
    }

    /// Opens an issue; returns its number and web address.
    public func open(_ issue: TrackerPayload.Issue) async throws(Failure) -> (number: Int, url: String?) {
        let reply = try await send("POST", "/repos/\(repository)/issues", body: Self.fields(issue))
        guard let number = reply["number"] as? Int else {
            throw Failure(request: "POST /repos/\(repository)/issues", status: nil, message: "no issue number in reply")
        }
        return (number, reply["html_url"] as? String)
    }

    /// Replaces an issue's title, body and labels.
    public func update(_ number: Int, with issue: TrackerPayload.Issue) async throws(Failure) {
        _ = try await send("PATCH", "/repos/\(repository)/issues/\(number)", body: Self.fields(issue))
    }

    /// Adds a comment to an issue.
    public func comment(on number: Int, _ text: String) async throws(Failure) {
        _ = try await send("POST", "/repos/\(repository)/issues/\(number)/comments", body: ["body": text])
    }

    /// The fingerprint markers in the bodies of the repository's `casefile` issues (open and closed), by
    /// fingerprint: how an issue opened before the index knew of it is found again.
    public func markedIssues() async throws(Failure) -> [String: Int] {
        var found: [String: Int] = [:]
        for page in 1...100 {
            let path = "/repos/\(repository)/issues?state=all&labels=casefile&per_page=100&page=\(page)"
            let items = try await sendList(path)
            for item in items {
                guard let number = item["number"] as? Int, let body = item["body"] as? String,
                    let fingerprint = TrackerPayload.fingerprint(inBody: body)
                else { continue }
                found[fingerprint] = found[fingerprint].map { min($0, number) } ?? number
            }
            if items.count < 100 { break }
        }
        return found
    }

    private static func fields(_ issue: TrackerPayload.Issue) -> [String: Any] {
        ["title": issue.title, "body": issue.body, "labels": issue.labels]
    }

    private func sendList(_ path: String) async throws(Failure) -> [[String: Any]] {
        let data = try await request("GET", path, body: nil)
        guard let items = (try? JSONSerialization.jsonObject(with: data)) as? [[String: Any]] else {
            throw Failure(request: "GET \(path)", status: nil, message: "the reply is not a JSON array")
        }
        return items
    }

    private func send(_ method: String, _ path: String, body: [String: Any]) async throws(Failure) -> [String: Any] {
        let data = try await request(method, path, body: body)
        return (try? JSONSerialization.jsonObject(with: data)) as? [String: Any] ?? [:]
    }

    private func request(_ method: String, _ path: String, body: [String: Any]?) async throws(Failure) -> Data {
        let name = "\(method) \(path.split(separator: "?").first ?? "")"
        guard let url = URL(string: base + path) else {
            throw Failure(request: name, status: nil, message: "not a valid URL: \(base + path)")
        }
        var request = URLRequest(url: url)
        request.httpMethod = method
        request.setValue("application/vnd.github+json", forHTTPHeaderField: "Accept")
        request.setValue("2022-11-28", forHTTPHeaderField: "X-GitHub-Api-Version")
        request.setValue("casefile", forHTTPHeaderField: "User-Agent")
        if let token { request.setValue("Bearer \(token)", forHTTPHeaderField: "Authorization") }
        if let body {
            request.setValue("application/json", forHTTPHeaderField: "Content-Type")
            request.httpBody = try? JSONSerialization.data(withJSONObject: body, options: [.sortedKeys])
        }
        let data: Data
        let response: URLResponse
        do {
            (data, response) = try await session.data(for: request)
        } catch {
            throw Failure(request: name, status: nil, message: error.localizedDescription)
        }
        let status = (response as? HTTPURLResponse)?.statusCode ?? 0
        guard (200..<300).contains(status) else {
            let message =
                ((try? JSONSerialization.jsonObject(with: data)) as? [String: Any])?["message"] as? String
                ?? String(decoding: data.prefix(200), as: UTF8.self)
            throw Failure(request: name, status: status, message: message)
        }
        return data
    }
}
