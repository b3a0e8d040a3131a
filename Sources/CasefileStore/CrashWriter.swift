import CasefileCore
import Foundation
import GRDB

/// Writes a report's crashes: the crash row with every thread and image in a compact blob, and as rows what is
/// queried — the crashed thread's frames, the exception backtrace, the app's frames in other threads, the threads and
/// the images those frames lie in.
///
/// Addresses are unsigned 64-bit; SQLite integers are signed, so they are stored by bit pattern (every iOS user
/// space address is below 2^63 and reads back unchanged).
enum CrashWriter {
    /// `symbolicated:dwarf`, `no-debug-file`, … or `nil` when the frame was not looked at.
    static func status(_ symbolication: FrameSymbolication?) -> String? {
        switch symbolication?.status {
        case .none: nil
        case .symbolicated(let backend): "symbolicated:\(backend)"
        case .noDebugFile: "no-debug-file"
        case .uuidMismatch: "uuid-mismatch"
        case .imageWithoutUUID: "image-without-uuid"
        case .outsideImage: "outside-image"
        case .notFound: "not-found"
        }
    }

    /// Stores `crashes`, the crashes of report `report`, with their encoded `details` when they were encoded ahead;
    /// `several` tells whether their rows may go several to a statement
    /// (``MultiRowInsert/severalPerStatement(reportsStoredBefore:)``).
    static func insert(
        _ crashes: [Crash], report: String, details: [CrashDetail]?, several: Bool, _ db: Database
    ) throws {
        for (seq, crash) in crashes.enumerated() {
            let detail = try Prepared.value(details, at: seq) ?? CrashDetailCodec.encode(crash)
            // Each set is stored by the first crash that lists it; any later one finds it there.
            if !detail.imageSets.isEmpty {
                let setRow = try db.cachedStatement(
                    sql: "INSERT OR IGNORE INTO image_sets (id, detail) VALUES (?, ?)")
                for imageSet in detail.imageSets {
                    try setRow.insert { row in
                        row.bind(imageSet.id)
                        row.bind(blob: imageSet.blob)
                    }
                }
            }
            let exception = crash.exception
            let codes =
                exception.codes.isEmpty
                ? exception.codesText : exception.codes.map { CrashNumber.hex($0) }.joined(separator: ", ")
            let raw = IndexJSON.text(crash.rawFields)
            try db.cachedStatement(
                sql: """
                    INSERT INTO crashes (report_id, seq, format, kind, incident_id, timestamp, app_name, bundle_id,
                    app_version, app_build, os_name, os_version, os_build, device_model, process_name, exception_type,
                    signal, exception_codes, exception_subtype, exception_name, exception_reason, termination_namespace,
                    termination_code, termination_reason, crashed_thread, app_uuid, raw_fields, detail)
                    VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                    """
            ).insert { row in
                row.bind(report)
                row.bind(seq)
                row.bind(crash.format.rawValue)
                row.bind(crash.kind.rawValue)
                row.bind(crash.incidentID)
                row.bind(crash.timestamp)
                row.bind(crash.app.name)
                row.bind(crash.app.bundleID)
                row.bind(crash.app.version)
                row.bind(crash.app.build)
                row.bind(crash.os.name)
                row.bind(crash.os.version)
                row.bind(crash.os.build)
                row.bind(crash.deviceModel)
                row.bind(crash.processName)
                row.bind(exception.type)
                row.bind(exception.signal)
                row.bind(codes)
                row.bind(exception.subtype)
                row.bind(exception.name)
                row.bind(exception.reason)
                row.bind(exception.terminationNamespace)
                row.bind(exception.terminationCode.map { Int64(bitPattern: $0) })
                row.bind(exception.terminationReason)
                row.bind(crash.crashedThread)
                row.bind(crash.appImage?.uuid)
                row.bind(raw)
                row.bind(blob: detail.blob)
            }
            let crashID = db.lastInsertedRowID
            let appImage = crash.appImageName
            let crashedIndex = crash.crashingThread?.index
            // Rows for what is queried: the crashed thread, the exception backtrace, the app's own frames; each table's
            // rows several to a statement (``MultiRowInsert``).
            var usedImages = ImageNames()
            if let appImage { usedImages.insert(appImage) }
            var threadRows: [Int] = []
            var frameRows: [(thread: Int, frame: Int)] = []
            for (position, thread) in crash.threads.enumerated() {
                let crashed = thread.index == crashedIndex
                let first = frameRows.count
                // Indices, not elements: the test reads each frame's image in place instead of copying the frame.
                for index in thread.frames.indices
                where crashed || ImageNames.same(thread.frames[index].image, appImage) {
                    if let image = thread.frames[index].image { usedImages.insert(image) }
                    frameRows.append((position, index))
                }
                // A thread is a row when it crashed or has frame rows; the others are only in the detail blob.
                if crashed || thread.crashed || frameRows.count > first { threadRows.append(position) }
            }
            for frame in crash.exceptionBacktrace {
                if let image = frame.image { usedImages.insert(image) }
            }
            try insertThread.run(count: threadRows.count, several: several, in: db) { row, binder in
                let thread = crash.threads[threadRows[row]]
                binder.bind(crashID)
                binder.bind(thread.index)
                binder.bind(thread.name)
                binder.bind(thread.queue)
                binder.bind(thread.crashed)
            }
            var statuses = StatusMemo()
            try insertThreadFrame.run(count: frameRows.count, several: several, in: db) { row, binder in
                let (thread, index) = frameRows[row]
                bind(
                    crash.threads[thread].frames[index], crash: crashID, thread: crash.threads[thread].index,
                    seq: index, appImage: appImage, statuses: &statuses, &binder)
            }
            try insertBacktraceFrame.run(count: crash.exceptionBacktrace.count, several: several, in: db) {
                index, binder in
                bind(
                    crash.exceptionBacktrace[index], crash: crashID, thread: nil, seq: index, appImage: appImage,
                    statuses: &statuses, &binder)
            }
            // Positions, not elements: the test reads two fields in place instead of copying every image.
            let imageRows = crash.images.indices.filter {
                crash.images[$0].isApp || usedImages.contains(crash.images[$0].name)
            }
            try insertImage.run(count: imageRows.count, several: several, in: db) { row, binder in
                let image = crash.images[imageRows[row]]
                binder.bind(crashID)
                binder.bind(image.name)
                binder.bind(image.path)
                binder.bind(image.arch)
                binder.bind(image.uuid)
                binder.bind(Int64(bitPattern: image.loadAddress))
                binder.bind(image.endAddress.map { Int64(bitPattern: $0) })
                binder.bind(image.isApp)
            }
        }
    }

    private static let insertThread = MultiRowInsert(
        "INSERT INTO crash_threads (crash_id, thread_index, name, queue, crashed) VALUES", row: "(?, ?, ?, ?, ?)")
    private static let insertImage = MultiRowInsert(
        "INSERT INTO crash_images (crash_id, name, path, arch, uuid, load_address, end_address, is_app) VALUES",
        row: "(?, ?, ?, ?, ?, ?, ?, ?)")
    private static let insertThreadFrame = insertFrame(exceptionBacktrace: false)
    private static let insertBacktraceFrame = insertFrame(exceptionBacktrace: true)

    private static func insertFrame(exceptionBacktrace: Bool) -> MultiRowInsert {
        MultiRowInsert(
            """
            INSERT INTO crash_frames (crash_id, thread_index, exception_backtrace, seq, image, image_uuid, address,
            load_address, image_offset, symbol, symbol_offset, file, line, inlined, in_app, symbolication_status,
            symbolication_reason, function, source_file, source_line, inlined_json) VALUES
            """,
            row: "(?, ?, \(exceptionBacktrace ? 1 : 0), ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)")
    }

    /// The names of the images a crash's frame rows lie in: a handful, asked about for each of the crash's 300-odd
    /// images. A list compared by length first cost less than a `Set`, which hashed every image's name.
    private struct ImageNames {
        private var names: [String] = []

        mutating func insert(_ name: String) {
            if !contains(name) { names.append(name) }
        }

        func contains(_ name: String) -> Bool {
            names.contains { Self.same($0, name) }
        }

        /// `name == other`, with the lengths compared first: most names a frame or an image is compared with are
        /// another image's, of another length, and `==` on two such strings cost several times more than this.
        static func same(_ name: String?, _ other: String?) -> Bool {
            guard let name, let other else { return name == nil && other == nil }
            return name.utf8.count == other.utf8.count && name == other
        }
    }

    /// The texts of the symbolication statuses a crash's rows met. A thread's frames run through one image after
    /// another and come back to images met before, so most rows share the status of an earlier row. Remembering only
    /// the row before's made the texts again each time a thread came back to an image (the reason of a system image
    /// without a debug file names its image and UUID: a new string each time).
    private struct StatusMemo {
        private var known: [(status: FrameSymbolication.Status, text: String?, reason: String?)] = []

        /// How many statuses are remembered (one per image without a debug file, and a few more); past that, texts are
        /// made per row.
        private static let limit = 64

        /// ``CrashWriter/status(_:)`` and ``FrameSymbolication/reason`` of the symbolication in `box`
        /// (``Frame/symbolicationBox``), read where it lies.
        mutating func texts(_ box: Frame.SymbolicationBox?) -> (status: String?, reason: String?) {
            guard let box else { return (nil, nil) }
            // The latest first: the row before's status is the likeliest.
            if let found = known.lastIndex(where: { $0.status == box.value.status }) {
                return (known[found].text, known[found].reason)
            }
            let texts = (status: CrashWriter.status(box.value), reason: box.value.reason)
            if known.count < Self.limit { known.append((box.value.status, texts.status, texts.reason)) }
            return texts
        }
    }

    /// Binds one frame's row, the thread frames' or the exception backtrace's.
    private static func bind(
        _ frame: Frame, crash: Int64, thread: Int?, seq: Int, appImage: String?, statuses: inout StatusMemo,
        _ row: inout RowBinder
    ) {
        // Read in its box, where it lies: ``Frame/symbolication`` would copy it out for each read.
        let symbolication = frame.symbolicationBox
        let function = symbolication?.value.locations.last
        let inlinedLocations = symbolication?.value.locations.dropLast() ?? []
        let inlined = inlinedLocations.isEmpty ? nil : IndexJSON.text(Array(inlinedLocations))
        // Whether the frame is the exception backtrace's is part of the statement, not a parameter.
        let (status, reason) = statuses.texts(symbolication)
        row.bind(crash)
        row.bind(thread)
        row.bind(seq)
        row.bind(frame.image)
        row.bind(frame.imageUUID)
        row.bind(frame.address.map { Int64(bitPattern: $0) })
        row.bind(frame.imageLoadAddress.map { Int64(bitPattern: $0) })
        row.bind(frame.imageOffset.map { Int64(bitPattern: $0) })
        row.bind(frame.symbol)
        row.bind(frame.symbolOffset.map { Int64(bitPattern: $0) })
        row.bind(frame.file)
        row.bind(frame.line)
        row.bind(frame.inlined)
        row.bind(frame.image != nil && ImageNames.same(frame.image, appImage))
        row.bind(status)
        row.bind(reason)
        row.bind(function?.simpleName)
        row.bind(function?.file)
        row.bind(function?.line)
        row.bind(inlined)
    }
}
