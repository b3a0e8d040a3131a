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
        let paths = package.files.keys.sorted()
        // The touches are read beside the other files (and the report's identity hashed), on a second thread when
        // both are large enough; the view snapshots after both, as the view reader hit-tests each touch on the
        // snapshot shown when it happened, and reads a large file in two halves at once.
        let touchPaths = paths.filter { Self.entry(package.files[$0], is: "module_interaction.json") }
        let viewPath = paths.last { Self.entry(package.files[$0], is: "module_view.json") }
        let otherPaths = paths.filter {
            !Self.entry(package.files[$0], is: "module_interaction.json")
                && !Self.entry(package.files[$0], is: "module_view.json")
        }
        let touchBytes = touchPaths.reduce(0) { $0 + (package.files[$1]?.bytes?.count ?? 0) }
        let otherBytes = otherPaths.reduce(0) { $0 + (package.files[$1]?.bytes?.count ?? 0) }
        let (touched, files) = SideBySide.run(
            concurrently: touchBytes >= SideBySide.pieceBytes && otherBytes >= SideBySide.pieceBytes,
            { Self.touches(package, paths: touchPaths) },
            { Self.files(package, paths: otherPaths) })
        var screens = touched
        if let viewPath, let bytes = package.files[viewPath]?.bytes {
            let output = ClueViewReader.read(
                bytes, file: viewPath, touches: &screens.touches, warnings: &screens.viewWarnings)
            screens.views = output.events
            screens.snapshotCount = output.snapshotCount
            if let last = output.lastTimestamp {
                screens.lastTimestamp = max(screens.lastTimestamp ?? last, last)
            }
        }

        // Each file's warnings in the order of the paths, then the view reader's, as when the files were read in turn.
        var warnings = (files.warnings + screens.touchWarnings).sorted { $0.path < $1.path }.flatMap(\.warnings)
        warnings += screens.viewWarnings
        if viewPath == nil {
            warnings.append(Diagnostic(file: "Modules/module_view.json", message: "missing; no screens or tap targets"))
        }
        if files.device == nil, package.files["Info/info_device.json"] == nil {
            warnings.append(Diagnostic(file: "Info/info_device.json", message: "missing; device unknown"))
        }
        let lastTimestamp = [files.lastTimestamp, screens.lastTimestamp].compactMap { $0 }.max()
        // Events on the same frame keep a causal order: the touch, what the app logged, the network, the screen. The
        // list is sized once, and touches and exchanges are made into events in it: made in lists of their own first,
        // each was copied again on the way in (and the touches once more, when the list grew to take the rest).
        var events: [TimelineEvent] = []
        events.reserveCapacity(
            screens.touches.count + files.custom.count + files.network.reduce(0) { $0 + $1.exchanges.count }
                + screens.views.count + 1)
        for touch in screens.touches {
            events.append(
                TimelineEvent(
                    timestamp: touch.timestamp, file: "Modules/module_interaction.json", line: touch.line,
                    kind: .touch(touch.event)))
        }
        events += files.custom
        for (file, exchanges) in files.network {
            for assembled in exchanges {
                events.append(
                    TimelineEvent(
                        timestamp: assembled.timestamp, file: file, line: assembled.line,
                        kind: .network(assembled.exchange)))
            }
        }
        events += screens.views
        if let exception = files.exception {
            // Clue writes the exception file without a timestamp, as the app goes down: it ends the recording.
            events.append(
                TimelineEvent(
                    timestamp: lastTimestamp ?? 0, timeIsRecorded: false, file: "Info/info_exception.json", line: 1,
                    kind: .exception(exception)))
        }
        let duration = [lastTimestamp, files.video?.duration].compactMap { $0 }.max()
        var report = Report(
            id: screens.contentID, format: .clue,
            source: ReportSource(input: package.input, root: package.root, clueUUID: package.uuid),
            device: files.device, duration: duration, video: files.video, exception: files.exception,
            crashes: files.crashes, extraInfo: files.extraInfo,
            timeline: Timeline(consume events), viewSnapshotCount: screens.snapshotCount, warnings: warnings)
        report.videoEntry = files.videoEntry
        return report
    }

    /// Whether `entry` is a file named `name` held as bytes (a video is not, whatever its name). Of several view files
    /// in one package, only the last is read.
    private static func entry(_ entry: ArchiveEntry?, is name: String) -> Bool {
        guard let entry, entry.bytes != nil else { return false }
        return entry.name == name
    }

    /// What the touches and the view snapshots give.
    private struct Screens {
        /// The touches of the last interaction file, their targets hit-tested.
        var touches: [ClueInteractionReader.Record] = []
        /// The screen changes and view updates.
        var views: [TimelineEvent] = []
        var snapshotCount = 0
        var lastTimestamp: Double?
        /// Each interaction file's warnings.
        var touchWarnings: [(path: String, warnings: [Diagnostic])] = []
        /// The view reader's warnings.
        var viewWarnings: [Diagnostic] = []
        /// ``ClueReportParser/contentID(_:)``.
        var contentID = ""
    }

    /// Reads the interaction files at `paths` in order (the last one's touches are kept), and hashes the report's
    /// identity.
    private static func touches(_ package: CluePackage, paths: [String]) -> Screens {
        var screens = Screens()
        for path in paths {
            guard let bytes = package.files[path]?.bytes else { continue }
            var warnings: [Diagnostic] = []
            screens.touches = ClueInteractionReader.read(bytes, file: path, warnings: &warnings)
            screens.touchWarnings.append((path, warnings))
            if let last = screens.touches.map(\.timestamp).max() {
                screens.lastTimestamp = max(screens.lastTimestamp ?? last, last)
            }
        }
        screens.contentID = contentID(package)
        return screens
    }

    /// What the recording's other files give.
    private struct Files {
        var device: Device?
        var exception: AppException?
        var crashes: [Crash] = []
        var extraInfo: [String: JSONValue] = [:]
        var video: MediaInfo?
        var videoEntry: String?
        /// The exchanges of each network file, made into events only when every event is put in one list.
        var network: [(file: String, exchanges: [ClueNetworkReader.Assembled])] = []
        var custom: [TimelineEvent] = []
        var lastTimestamp: Double?
        /// Each file's warnings.
        var warnings: [(path: String, warnings: [Diagnostic])] = []
    }

    /// Reads the files at `paths` in order: device and exception, the network and custom modules, the video.
    private static func files(_ package: CluePackage, paths: [String]) -> Files {
        var files = Files()
        func seen(_ timestamp: Double?) {
            guard let timestamp else { return }
            files.lastTimestamp = max(files.lastTimestamp ?? timestamp, timestamp)
        }
        for path in paths {
            guard let entry = package.files[path] else { continue }
            var warnings: [Diagnostic] = []
            defer { if !warnings.isEmpty { files.warnings.append((path, warnings)) } }
            let name = entry.name
            if case .media(let media) = entry.contents {
                files.video = media
                files.videoEntry = entry.path
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
                    files.device = ClueInfoReader.device(value, file: path, warnings: &warnings)
                }
            case "info_exception.json":
                if let value = ClueInfoReader.document(bytes, file: path, warnings: &warnings) {
                    files.exception = ClueInfoReader.exception(value, file: path, warnings: &warnings)
                    if files.exception != nil, let object = value.object {
                        var crash = InAppExceptionParser(file: path).parse(json: object).crash
                        crash.rawFields["source"] = "Clue info_exception.json"
                        files.crashes.append(crash)
                    }
                }
            case "module_network.json":
                let records = ClueNetworkReader.read(bytes, file: path, warnings: &warnings)
                seen(records.lastTimestamp)
                files.network.append((path, records.exchanges))
                files.custom += records.unknown.map {
                    TimelineEvent(
                        timestamp: $0.timestamp, file: path, line: $0.line,
                        kind: .custom(CustomEvent(module: "network", record: $0.record)))
                }
            default:
                if name.hasPrefix("module_"), name.hasSuffix(".json") {
                    let module = String(name.dropFirst("module_".count).dropLast(".json".count))
                    let records = customEvents(bytes, module: module, file: path, warnings: &warnings)
                    files.custom += records
                    seen(records.map(\.timestamp).max())
                } else if name.hasPrefix("info_"), name.hasSuffix(".json") {
                    if let value = ClueInfoReader.document(bytes, file: path, warnings: &warnings) {
                        files.extraInfo[String(name.dropLast(".json".count))] = value
                    }
                } else {
                    warnings.append(Diagnostic(file: path, message: "not a file Clue writes; ignored"))
                }
            }
        }
        return files
    }

    private static func customEvents(
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
            case .bytes, .compressed:
                let bytes = entry.bytes ?? []
                hasher.update(data: Array(String(bytes.count).utf8) + [0])
                hasher.update(data: bytes)
            case .media(let media):
                hasher.update(data: Array("media \(media.size)".utf8) + [0])
            }
        }
        return ContentHash.hex(hasher.finalize())
    }
}
