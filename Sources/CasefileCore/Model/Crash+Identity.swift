extension Crash {
    /// What makes this crash the same incident wherever it arrives from: the incident identifier when the format
    /// has one (`.ips` and its translated `.crash` share it), otherwise the parsed content that does not depend on
    /// the file's encoding — time, app, OS, device, exception and the crashed thread's frames.
    public var identity: String {
        if let incidentID, !incidentID.isEmpty {
            return "incident:" + (UUIDText.normalize(incidentID) ?? incidentID.lowercased())
        }
        var parts = [
            "content", format.rawValue, timestamp ?? "", app.bundleID ?? app.name ?? "", app.version ?? "",
            app.build ?? "", os.version ?? "", os.build ?? "", deviceModel ?? "", exception.type ?? "",
            exception.signal ?? "", exception.name ?? "", exception.reason ?? "",
            exception.codes.map { String($0, radix: 16) }.joined(separator: ","),
        ]
        let frames = crashingThread?.frames ?? (exceptionBacktrace.isEmpty ? [] : exceptionBacktrace)
        parts += frames.map { frame in
            "\(frame.image ?? "?")+\(frame.imageOffset.map { String($0, radix: 16) } ?? frame.symbol ?? "")@"
                + (frame.address.map { String($0, radix: 16) } ?? "")
        }
        return parts.joined(separator: "|")
    }
}
