/// Puts an attached app log on a report's timeline: each line's time of day minus the recording's start time of
/// day, from the report's `Info/info_session.json` (`"recordingStart"`, ISO-8601 local time with offset; see
/// SampleReports/README.md). Without a start time the lines are kept at the end, marked as not timed.
enum AttachmentAligner {
    /// The report with the log's lines on its timeline and, when they could not be aligned, a warning.
    static func attach(_ entries: [AppLogParser.Entry], file: String, to report: Report) -> Report {
        var report = report
        let start = recordingStart(report)
        if start == nil {
            report.warnings.append(
                Diagnostic(
                    file: file,
                    message:
                        "app log not aligned: the report has no Info/info_session.json \"recordingStart\"; lines placed at the end"
                ))
        }
        let end = report.timeline.lastTimestamp ?? 0
        var events = report.timeline.events
        for entry in entries {
            var time = end
            if let start {
                time = entry.secondsOfDay - start
                if time < -43_200 { time += 86_400 }  // the recording crossed midnight
            }
            events.append(
                TimelineEvent(
                    timestamp: time, timeIsRecorded: start != nil, file: file, line: entry.number,
                    kind: .log(entry.line)))
        }
        report.timeline = Timeline(events)
        return report
    }

    /// Seconds since local midnight at which the recording started, from `"recordingStart"`.
    static func recordingStart(_ report: Report) -> Double? {
        guard let text = report.extraInfo["info_session"]?["recordingStart"]?.string,
            let t = text.firstIndex(of: "T")
        else { return nil }
        let clock = Array(text[text.index(after: t)...].utf8)
        func number(_ range: Range<Int>) -> Int? {
            guard range.upperBound <= clock.count else { return nil }
            return Int(String(decoding: clock[range], as: UTF8.self))
        }
        guard let hours = number(0..<2), let minutes = number(3..<5), let seconds = number(6..<8) else { return nil }
        var fraction = 0.0
        if clock.count > 8, clock[8] == 0x2E {
            var scale = 0.1
            for byte in clock[9...] {
                guard (0x30...0x39).contains(byte) else { break }
                fraction += Double(byte - 0x30) * scale
                scale /= 10
            }
        }
        return Double(hours * 3600 + minutes * 60 + seconds) + fraction
    }
}
