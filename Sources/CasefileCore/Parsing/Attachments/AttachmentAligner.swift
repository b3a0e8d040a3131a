/// Puts what is attached beside a report on its timeline: app log lines, a debug menu's requests, analytics events
/// and push notifications, data-snapshot payloads.
///
/// Times are aligned from the report's `Info/info_session.json` `"recordingStart"` (ISO-8601 local time with its
/// offset; see SampleReports/README.md): a time of day against the start's time of day, a local date-time against
/// the start's local value, an instant against the start's instant. What cannot be aligned is kept at the end,
/// marked as not timed, with one warning per file.
enum AttachmentAligner {
    /// How far apart, in seconds, a network-log record and a recorded exchange of the same URL may be to be the same
    /// request (the recording's times sit on a 60 Hz grid; the two clocks may differ slightly).
    static let mergeTolerance = 3.0

    /// The recording's start on the clocks attachments write.
    struct Clock {
        /// Seconds since 1970-01-01 00:00 on the device's local clock.
        var local: Double
        /// Seconds since 1970-01-01 UTC, when the start gives its offset.
        var absolute: Double?

        /// The time of `time` on the recording clock, or `nil` when it cannot be aligned.
        func seconds(_ time: AttachmentTime) -> Double? {
            switch time {
            case .absolute(let instant): return absolute.map { instant - $0 }
            case .local(let value): return value - local
            case .timeOfDay(let value):
                let start = local.truncatingRemainder(dividingBy: 86_400)
                var seconds = value - (start < 0 ? start + 86_400 : start)
                if seconds < -43_200 { seconds += 86_400 }  // the recording crossed midnight
                return seconds
            }
        }
    }

    /// The report's start, from `"recordingStart"`.
    static func clock(_ report: Report) -> Clock? {
        guard let text = report.extraInfo["info_session"]?["recordingStart"]?.string,
            let (local, offset) = AttachmentTime.dateTime(text)
        else { return nil }
        return Clock(local: local, absolute: offset.map { local - $0 })
    }

    /// The report with an app log's lines on its timeline.
    static func attach(_ entries: [AppLogParser.Entry], file: String, to report: Report) -> Report {
        var placer = Placer(report: report, file: file)
        for entry in entries {
            placer.add(.log(entry.line), line: entry.number, at: .timeOfDay(entry.secondsOfDay))
        }
        return placer.finish()
    }

    /// The report with a debug-menu dump's events on its timeline, its requests merged into the recorded exchanges
    /// they match, and its version, toggles and libraries in ``Report/attachments``.
    static func attach(_ dump: DebugMenuParser.Dump, file: String, to report: Report) -> Report {
        var placer = Placer(report: report, file: file)
        placer.report.warnings += dump.warnings
        for record in dump.requests {
            placer.add(record)
        }
        for event in dump.analytics {
            placer.add(.analytics(event.value), line: event.line, at: event.time)
        }
        for push in dump.pushes {
            placer.add(.push(push.value), line: push.line, at: push.time)
        }
        var report = placer.finish()
        var attachments = report.attachments
        attachments.toggles += dump.toggles
        attachments.storedValues += dump.storedValues
        attachments.libraries += dump.libraries
        attachments.appVersion = dump.appVersion ?? attachments.appVersion
        attachments.appBuild = dump.appBuild ?? attachments.appBuild
        for request in dump.requests {
            for header in request.exchange.requestHeaders
            where header.name.lowercased() == "x-feature-name" && !attachments.featureNames.contains(header.value) {
                attachments.featureNames.append(header.value)
            }
        }
        if dump.appVersion != nil || dump.appBuild != nil || dump.bundleID != nil {
            var app = report.app ?? AppInfo()
            app.version = app.version ?? dump.appVersion
            app.build = app.build ?? dump.appBuild
            app.bundleID = app.bundleID ?? dump.bundleID
            report.app = app
        }
        report.attachments = attachments
        return report
    }

    /// The report with a snapshot folder's payloads on its timeline and its registry check in
    /// ``Report/attachments``.
    static func attach(_ folder: DataSnapshotParser.Folder, to report: Report) -> Report {
        var placer = Placer(report: report, file: folder.snapshots.folder)
        placer.report.warnings += folder.warnings
        for payload in folder.snapshots.payloads {
            placer.file = payload.file
            placer.add(.snapshot(payload), line: nil, at: folder.times[payload.file])
        }
        var report = placer.finish()
        report.attachments.snapshots = folder.snapshots
        return report
    }

    /// Adds events of one attachment file to a report, warning once about times it cannot align.
    private struct Placer {
        var report: Report
        var file: String
        let clock: Clock?
        let end: Double
        var events: [TimelineEvent]
        var merged: Set<Int> = []
        var unaligned = 0
        let firstFile: String

        init(report: Report, file: String) {
            self.report = report
            self.file = file
            firstFile = file
            clock = AttachmentAligner.clock(report)
            end = report.timeline.lastTimestamp ?? 0
            events = report.timeline.events
            self.report.attachments.files.append(file)
        }

        /// The recording-clock time of `time`, counting what cannot be aligned.
        mutating func seconds(_ time: AttachmentTime?) -> Double? {
            guard let time, let seconds = clock?.seconds(time) else {
                unaligned += 1
                return nil
            }
            return seconds
        }

        mutating func add(_ kind: TimelineEvent.Kind, line: Int?, at time: AttachmentTime?) {
            let seconds = seconds(time)
            events.append(
                TimelineEvent(
                    timestamp: seconds ?? end, timeIsRecorded: seconds != nil, file: file, line: line, kind: kind))
        }

        /// A network-log request: merged into the recorded exchange of the same URL and status nearest in time, or
        /// added as an exchange of its own.
        mutating func add(_ record: NetworkLogParser.Record) {
            let requestAt = record.requestTime.flatMap { clock?.seconds($0) }
            let responseAt = record.responseTime.flatMap { clock?.seconds($0) }
            let source = "\(file):\(record.line)"
            if let time = responseAt ?? requestAt, let match = recorded(matching: record.exchange, near: time) {
                guard case .network(var exchange) = events[match].kind else { return }
                exchange.method = record.exchange.method ?? exchange.method
                exchange.requestHeaders = record.exchange.requestHeaders
                exchange.requestBody = record.exchange.requestBody
                exchange.requestAt = requestAt
                exchange.requestSource = source
                if exchange.responseHeaders.isEmpty { exchange.responseHeaders = record.exchange.responseHeaders }
                events[match].kind = .network(exchange)
                merged.insert(match)
                return
            }
            var exchange = record.exchange
            exchange.requestAt = requestAt
            exchange.responseAt = responseAt
            exchange.endAt = responseAt ?? requestAt
            let time = responseAt ?? requestAt
            if time == nil { unaligned += 1 }
            events.append(
                TimelineEvent(
                    timestamp: time ?? end, timeIsRecorded: time != nil, file: file, line: record.line,
                    kind: .network(exchange)))
        }

        /// The recorded exchange (not itself from an attachment) with the same URL and status nearest to `time`.
        private func recorded(matching exchange: NetworkExchange, near time: Double) -> Int? {
            var best: (index: Int, distance: Double)?
            for index in events.indices
            where !merged.contains(index) && !report.attachments.files.contains(events[index].file) {
                guard case .network(let candidate) = events[index].kind, candidate.url == exchange.url,
                    candidate.statusCode == exchange.statusCode || candidate.statusCode == nil
                        || exchange.statusCode == nil
                else { continue }
                let distance = abs(events[index].timestamp - time)
                if distance <= AttachmentAligner.mergeTolerance, distance < (best?.distance ?? .infinity) {
                    best = (index, distance)
                }
            }
            return best?.index
        }

        mutating func finish() -> Report {
            if unaligned > 0 {
                let reason =
                    clock == nil
                    ? "the report has no Info/info_session.json \"recordingStart\""
                    : "their times are missing or cannot be aligned with \"recordingStart\""
                report.warnings.append(
                    Diagnostic(
                        file: firstFile, message: "\(unaligned) records not aligned: \(reason); placed at the end"))
            }
            report.timeline = Timeline(events)
            return report
        }
    }
}
