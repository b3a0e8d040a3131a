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
        let clock = text[text.index(after: t)...]
        return AppLogParser.clock(clock, from: clock.startIndex, minimumFraction: 0)?.0
    }
}
