import CasefileArchive
import Crypto

/// Turns the files of one `.clue` report into a ``Report``, exactly per clue-format.md, V1 and V2 alike.
///
/// Tolerant by design: a bad line, a missing module or a truncated video becomes a ``Diagnostic`` and the rest of
/// the report survives.
public struct ClueReportParser: Sendable {
    /// Creates a parser.
    public init() {}

    /// Parses a package found by ``ReportLocator``.
    public func parse(_ package: CluePackage) -> Report {
        var warnings: [Diagnostic] = []
        var device: Device?
        var exception: AppException?
        var crashes: [Crash] = []
        var extraInfo: [String: JSONValue] = [:]
        var video: MediaInfo?
        var videoEntry: String?
        // The exchanges of each network file, made into events only when every event is put in one list.
        var network: [(file: String, exchanges: [ClueNetworkReader.Assembled])] = []
        var custom: [TimelineEvent] = []
        var views: [TimelineEvent] = []
        var touches: [ClueInteractionReader.Record] = []
        var viewFile: (path: String, bytes: [UInt8])?
        var lastTimestamp: Double?
        func seen(_ timestamp: Double?) {
            guard let timestamp else { return }
            lastTimestamp = max(lastTimestamp ?? timestamp, timestamp)
        }

        for path in package.files.keys.sorted() {
            guard let entry = package.files[path] else { continue }
            let name = entry.name
            if case .media(let media) = entry.contents {
                video = media
                videoEntry = entry.path
                if media.duration == nil {
                    warnings.append(
                        Diagnostic(
                            file: path, message: "video has no readable movie header (truncated?); duration unknown"))
                }
                continue
            }
            guard let bytes = entry.bytes else { continue }
            switch name {
            case "info_device.json":
                if let value = ClueInfoReader.document(bytes, file: path, warnings: &warnings) {
                    device = ClueInfoReader.device(value, file: path, warnings: &warnings)
                }
            case "info_exception.json":
                if let value = ClueInfoReader.document(bytes, file: path, warnings: &warnings) {
                    exception = ClueInfoReader.exception(value, file: path, warnings: &warnings)
                    if exception != nil, let object = value.object {
                        var crash = InAppExceptionParser(file: path).parse(json: object).crash
                        crash.rawFields["source"] = "Clue info_exception.json"
                        crashes.append(crash)
                    }
                }
            case "module_interaction.json":
                touches = ClueInteractionReader.read(bytes, file: path, warnings: &warnings)
                seen(touches.map(\.timestamp).max())
            case "module_view.json":
                viewFile = (path, bytes)
            case "module_network.json":
                let records = ClueNetworkReader.read(bytes, file: path, warnings: &warnings)
                seen(records.lastTimestamp)
                network.append((path, records.exchanges))
                custom += records.unknown.map {
                    TimelineEvent(
                        timestamp: $0.timestamp, file: path, line: $0.line,
                        kind: .custom(CustomEvent(module: "network", record: $0.record)))
                }
            default:
                if name.hasPrefix("module_"), name.hasSuffix(".json") {
                    let module = String(name.dropFirst("module_".count).dropLast(".json".count))
                    let records = customEvents(bytes, module: module, file: path, warnings: &warnings)
                    custom += records
                    seen(records.map(\.timestamp).max())
                } else if name.hasPrefix("info_"), name.hasSuffix(".json") {
                    if let value = ClueInfoReader.document(bytes, file: path, warnings: &warnings) {
                        extraInfo[String(name.dropLast(".json".count))] = value
                    }
                } else {
                    warnings.append(Diagnostic(file: path, message: "not a file Clue writes; ignored"))
                }
            }
        }

        var snapshotCount = 0
        if let viewFile {
            let output = ClueViewReader.read(
                viewFile.bytes, file: viewFile.path, touches: &touches, warnings: &warnings)
            views = output.events
            snapshotCount = output.snapshotCount
            seen(output.lastTimestamp)
        } else {
            warnings.append(Diagnostic(file: "Modules/module_view.json", message: "missing; no screens or tap targets"))
        }
        if device == nil, package.files["Info/info_device.json"] == nil {
            warnings.append(Diagnostic(file: "Info/info_device.json", message: "missing; device unknown"))
        }
        // Events on the same frame keep a causal order: the touch, what the app logged, the network, the screen. The
        // list is sized once, and touches and exchanges are made into events in it: made in lists of their own first,
        // each was copied again on the way in (and the touches once more, when the list grew to take the rest).
        var events: [TimelineEvent] = []
        events.reserveCapacity(
            touches.count + custom.count + network.reduce(0) { $0 + $1.exchanges.count } + views.count + 1)
        for touch in touches {
            events.append(
                TimelineEvent(
                    timestamp: touch.timestamp, file: "Modules/module_interaction.json", line: touch.line,
                    kind: .touch(touch.event)))
        }
        events += custom
        for (file, exchanges) in network {
            for assembled in exchanges {
                events.append(
                    TimelineEvent(
                        timestamp: assembled.timestamp, file: file, line: assembled.line,
                        kind: .network(assembled.exchange)))
            }
        }
        events += views
        if let exception {
            // Clue writes the exception file without a timestamp, as the app goes down: it ends the recording.
            events.append(
                TimelineEvent(
                    timestamp: lastTimestamp ?? 0, timeIsRecorded: false, file: "Info/info_exception.json", line: 1,
                    kind: .exception(exception)))
        }
        let duration = [lastTimestamp, video?.duration].compactMap { $0 }.max()
        var report = Report(
            id: Self.contentID(package), format: .clue,
            source: ReportSource(input: package.input, root: package.root, clueUUID: package.uuid),
            device: device, duration: duration, video: video, exception: exception, crashes: crashes,
            extraInfo: extraInfo,
            timeline: Timeline(consume events), viewSnapshotCount: snapshotCount, warnings: warnings)
        report.videoEntry = videoEntry
        return report
    }

    private func customEvents(
        _ bytes: [UInt8], module: String, file: String, warnings: inout [Diagnostic]
    ) -> [TimelineEvent] {
        var events: [TimelineEvent] = []
        warnings += JSONLines(file: file, bytes: bytes).scan { record in
            guard let timestamp = record.value["timestamp"]?.double else {
                warnings.append(
                    Diagnostic(file: file, line: record.line, message: "no numeric \"timestamp\"; record skipped"))
                return
            }
            events.append(
                TimelineEvent(
                    timestamp: timestamp, file: file, line: record.line,
                    kind: .custom(CustomEvent(module: module, record: record.value))))
        }
        return events
    }

    /// The SHA-256 of the report's files (relative path, size, bytes; sorted by path), so the same report zipped,
    /// re-zipped by the Finder or unzipped gets the same identity.
    static func contentID(_ package: CluePackage) -> String {
        var hasher = SHA256()
        for path in package.files.keys.sorted() {
            guard let entry = package.files[path] else { continue }
            hasher.update(data: Array(path.utf8) + [0])
            switch entry.contents {
            case .bytes(let bytes):
                hasher.update(data: Array(String(bytes.count).utf8) + [0])
                hasher.update(data: bytes)
            case .media(let media):
                hasher.update(data: Array("media \(media.size)".utf8) + [0])
            }
        }
        return ContentHash.hex(hasher.finalize())
    }
}
