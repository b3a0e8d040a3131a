/// Detects a crash report by its content — never its name — and parses it with the right parser
/// (crash-formats.md §1).
public struct CrashReportParser: Sendable {
    /// The content kinds the sniffer recognizes.
    public enum Kind: String, Sendable, Hashable {
        /// `.ips`: a JSON header line, then a JSON or text body.
        case ips
        /// Xcode 16 / App Store Connect export: translated text, then the full `.ips`.
        case translatedAndFull
        /// Apple's legacy text report or an imitation.
        case appleText
        /// KSCrash JSON.
        case ksCrash
        /// MetricKit JSON.
        case metricKit
        /// An in-app handler's JSON exception report.
        case inAppJSON
        /// An in-app handler's text exception or signal report.
        case inAppText
    }

    /// What parsing one file gave.
    public enum Outcome: Sendable {
        /// The file is not a crash report of any format Casefile reads.
        case notACrashReport
        /// The file is a crash report but nothing could be read from it; the reason names where it broke.
        case unreadable(String)
        /// The crashes read, with warnings naming the file and line or key.
        case crashes(Kind, [Crash], [Diagnostic])
    }

    /// The lines a text file may hold for its lines to be read: a crash report of 1,000 threads of 512 frames holds
    /// about half as many. A text of more is sniffed on its first lines only, and refused if they read as a report.
    /// Each line read takes 48 bytes before it is parsed: a file of 60 MB of line feeds took 3 GB.
    public static let maxTextLines = 1_000_000

    /// Creates a parser.
    public init() {}

    /// Parses one file; `file` names it in warnings.
    public func parse(_ bytes: [UInt8], file: String) -> Outcome {
        let content = UTF16Text.withoutByteOrderMark(bytes)[...]
        // JSON is recognized by its first byte, before any line splitting: reports run to megabytes.
        if content.first(where: { $0 != 0x20 && $0 != 0x0A && $0 != 0x0D && $0 != 0x09 }) == UInt8(ascii: "{") {
            return parseJSON(content, file: file)
        }
        let text = String(decoding: content, as: UTF8.self)
        let (lines, complete) = AppleTextCrashParser.unwrap(text, atMost: Self.maxTextLines)
        // What the first lines read as, unless the text holds more lines than a report.
        func read(_ outcome: () -> Outcome) -> Outcome {
            guard complete else {
                return .unreadable(
                    "its first lines read as a crash report, but it holds more than \(Self.maxTextLines) lines")
            }
            return outcome()
        }
        guard let first = lines.first(where: { !$0.trimmingSpaces.isEmpty })?.trimmingSpaces else {
            return .notACrashReport
        }
        if first.hasPrefix("{") {
            return read { parseJSON(Array(lines.joined(separator: "\n").utf8)[...], file: file) }
        }
        if first.hasPrefix("Translated Report") || first.hasPrefix("---"),
            lines.contains(where: { $0.hasPrefix("Translated Report") })
        {
            return read { translatedAndFull(lines, file: file) }
        }
        let headLines = lines.prefix(80).map { $0.trimmingSpaces }
        let appleKeys = [
            "Incident Identifier:", "Hardware Model:", "Exception Type:", "Crashed Thread:", "Triggered by Thread:",
        ]
        if headLines.contains(where: { line in appleKeys.contains { line.hasPrefix($0) } }) {
            return read {
                let parsed = AppleTextCrashParser(file: file).parse(lines: lines)
                return .crashes(.appleText, [parsed.crash], parsed.warnings)
            }
        }
        let stackLines = lines.prefix(400).filter(InAppExceptionParser.isStackLine).count
        let hasHeader = headLines.contains { line in
            // The keys are ASCII and 15 characters at most: the line's first 32 decide. Lowercasing the whole line,
            // eight times, took 13 s for a file of one 41 MB line with a few bytes that are not ASCII (a fuzzing
            // finding).
            let start = line.prefix(32).lowercased()
            return ["exception", "signal", "reason", "name"].contains {
                start.hasPrefix($0 + ":") || start.hasPrefix($0 + " name:")
            }
        }
        if stackLines >= 2 || stackLines >= 1 && hasHeader {
            return read {
                let parsed = InAppExceptionParser(file: file).parse(text: text)
                return .crashes(.inAppText, [parsed.crash], parsed.warnings)
            }
        }
        return .notACrashReport
    }

    private func parseJSON(_ bytes: ArraySlice<UInt8>, file: String) -> Outcome {
        // .ips: the first line alone is a JSON object with bug_type, and more follows.
        let trimmed = bytes.drop { $0 == 0x20 || $0 == 0x0A || $0 == 0x0D || $0 == 0x09 }
        if let newline = trimmed.firstIndex(of: 0x0A), trimmed[..<newline].count < 8_192,
            let header = try? JSONParser.parse(trimmed[..<newline], mode: .tolerant), header["bug_type"] != nil
        {
            let parsed = IPSCrashParser(file: file).parse(bytes: trimmed, header: header.object)
            return .crashes(.ips, [parsed.crash], parsed.warnings)
        }
        // KSCrash's threads and images read straight from the bytes; the tree parser reads anything else.
        if let decoded = KSCrashBodyDecoder.decode(bytes) {
            return classify(decoded.report, file: file, warnings: [], ksCrash: decoded)
        }
        var warnings: [Diagnostic] = []
        let value: JSONValue
        let toleratedSyntax: Bool
        do {
            (value, toleratedSyntax) = try JSONParser.parseTolerantly(bytes)
        } catch {
            if let repaired = JSONParser.repairTruncated(Array(bytes)),
                let salvaged = try? JSONParser.parse(repaired, mode: .tolerant), let object = salvaged.object,
                object["crash"] != nil || object["callStackTree"] != nil || object["crashDiagnostics"] != nil
            {
                let warning = Diagnostic(
                    file: file, line: error.line,
                    message:
                        "invalid JSON (\(error.reason), column \(error.column)): the report is truncated; read what was complete before it"
                )
                return classify(object, file: file, warnings: [warning])
            }
            let text = String(decoding: bytes, as: UTF8.self)
            let looksLikeCrash = [
                "\"crash\"", "\"binary_images\"", "\"callStackTree\"", "\"callStacks\"", "\"crashDiagnostics\"",
                "\"callStackSymbols\"", "\"bug_type\"",
            ]
            .contains { text.contains($0) }
            return looksLikeCrash
                ? .unreadable("crash report JSON is invalid beyond repair (\(error))") : .notACrashReport
        }
        guard let object = value.object else { return .notACrashReport }
        if toleratedSyntax {
            warnings.append(
                Diagnostic(file: file, message: "invalid JSON (trailing commas or '...' elisions) read tolerantly"))
        }
        return classify(object, file: file, warnings: warnings)
    }

    /// Whether a JSON report is KSCrash's (or a fork's): a crash or recrash section, or images beside system info.
    static func isKSCrash(_ object: JSONObject) -> Bool {
        object["crash"] != nil || object["recrash_report"] != nil
            || object["binary_images"] != nil && object["system"] != nil
    }

    private func classify(
        _ object: JSONObject, file: String, warnings: [Diagnostic], ksCrash decoded: KSCrashBodyDecoder.Body? = nil
    ) -> Outcome {
        if Self.isKSCrash(object) {
            let parsed = KSCrashParser(file: file).parse(object, decoded: decoded)
            return parsed.crashes.isEmpty
                ? .unreadable("KSCrash report without a crash section")
                : .crashes(.ksCrash, parsed.crashes, warnings + parsed.warnings)
        }
        if object["crashDiagnostics"] != nil || object["hangDiagnostics"] != nil || object["timeStampBegin"] != nil
            || object["callStackTree"] != nil || object["callStacks"] != nil
        {
            let parsed = MetricKitParser(file: file).parse(object)
            return parsed.crashes.isEmpty
                ? .unreadable("MetricKit payload without crash diagnostics")
                : .crashes(.metricKit, parsed.crashes, warnings + parsed.warnings)
        }
        if object["callStackSymbols"] != nil || object["backtrace"] != nil,
            object["name"] != nil || object["exception"] != nil || object["reason"] != nil || object["reson"] != nil
                || object["signal"] != nil
        {
            let parsed = InAppExceptionParser(file: file).parse(json: object)
            return .crashes(.inAppJSON, [parsed.crash], warnings + parsed.warnings)
        }
        return .notACrashReport
    }

    /// The translated text and the full `.ips` hold the same incident: keep the full report, note the duplicate.
    private func translatedAndFull(_ lines: [Substring], file: String) -> Outcome {
        guard let marker = lines.firstIndex(where: { $0.trimmingSpaces == "Full Report" }) else {
            let parsed = AppleTextCrashParser(file: file).parse(lines.joined(separator: "\n"))
            return .crashes(.translatedAndFull, [parsed.crash], parsed.warnings)
        }
        let translated = lines[..<marker].filter { !$0.hasPrefix("Translated Report") && !$0.hasPrefix("---") }
        let full = lines[(marker + 1)...].drop { $0.trimmingSpaces.isEmpty || $0.hasPrefix("---") }
        let text = AppleTextCrashParser(file: file).parse(translated.joined(separator: "\n"))
        let ips = IPSCrashParser(file: file).parse(full.joined(separator: "\n"))
        var warnings = text.warnings.isEmpty ? ips.warnings : text.warnings + ips.warnings
        if let incident = ips.crash.incidentID, incident == text.crash.incidentID {
            warnings = ips.warnings
            warnings.append(
                Diagnostic(
                    file: file,
                    message: "translated report and full report are incident \(incident) twice; kept the full report"))
            return .crashes(.translatedAndFull, [ips.crash], warnings)
        }
        return .crashes(.translatedAndFull, [ips.crash, text.crash], warnings)
    }
}
