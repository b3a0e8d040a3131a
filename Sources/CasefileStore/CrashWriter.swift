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

    static func insert(_ crashes: [Crash], report: String, details: [[UInt8]]?, _ db: Database) throws {
        for (seq, crash) in crashes.enumerated() {
            let detail = try Prepared.value(details, at: seq) ?? CrashDetailCodec.encode(crash)
            let exception = crash.exception
            let codes =
                exception.codes.isEmpty
                ? exception.codesText : exception.codes.map { CrashNumber.hex($0) }.joined(separator: ", ")
            let raw = try IndexJSON.text(crash.rawFields)
            let values: [(any DatabaseValueConvertible)?] = [
                report, seq, crash.format.rawValue, crash.kind.rawValue, crash.incidentID, crash.timestamp,
                crash.app.name, crash.app.bundleID, crash.app.version, crash.app.build, crash.os.name, crash.os.version,
                crash.os.build, crash.deviceModel, crash.processName, exception.type, exception.signal, codes,
                exception.subtype, exception.name, exception.reason, exception.terminationNamespace,
                exception.terminationCode.map { Int64(bitPattern: $0) }, exception.terminationReason,
                crash.crashedThread, crash.appImage?.uuid, raw, Data(detail),
            ]
            try db.cachedStatement(
                sql: """
                    INSERT INTO crashes (report_id, seq, format, kind, incident_id, timestamp, app_name, bundle_id,
                    app_version, app_build, os_name, os_version, os_build, device_model, process_name, exception_type,
                    signal, exception_codes, exception_subtype, exception_name, exception_reason, termination_namespace,
                    termination_code, termination_reason, crashed_thread, app_uuid, raw_fields, detail)
                    VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                    """
            ).execute(arguments: StatementArguments(values))
            let crashID = db.lastInsertedRowID
            let appImage = crash.appImageName
            let crashedIndex = crash.crashingThread?.index
            // Rows for what is queried: the crashed thread, the exception backtrace, the app's own frames.
            var usedImages: Set<String> = appImage.map { [$0] } ?? []
            for thread in crash.threads {
                let crashed = thread.index == crashedIndex
                // Indices, not elements: the test reads each frame's image in place instead of copying the frame.
                let rows = thread.frames.indices.filter { crashed || thread.frames[$0].image == appImage }
                // A thread is a row when it crashed or has frame rows; the others are only in the detail blob.
                guard crashed || thread.crashed || !rows.isEmpty else { continue }
                try db.cachedStatement(
                    sql:
                        "INSERT INTO crash_threads (crash_id, thread_index, name, queue, crashed) VALUES (?, ?, ?, ?, ?)"
                ).execute(arguments: [crashID, thread.index, thread.name, thread.queue, thread.crashed])
                for index in rows {
                    let frame = thread.frames[index]
                    if let image = frame.image { usedImages.insert(image) }
                    try insert(frame, crash: crashID, thread: thread.index, seq: index, appImage: appImage, db)
                }
            }
            for (index, frame) in crash.exceptionBacktrace.enumerated() {
                if let image = frame.image { usedImages.insert(image) }
                try insert(frame, crash: crashID, thread: nil, seq: index, appImage: appImage, db)
            }
            // Indices, not elements: the test reads two fields in place instead of copying every image.
            for position in crash.images.indices
            where crash.images[position].isApp || usedImages.contains(crash.images[position].name) {
                let image = crash.images[position]
                try db.cachedStatement(
                    sql: """
                        INSERT INTO crash_images (crash_id, name, path, arch, uuid, load_address, end_address, is_app)
                        VALUES (?, ?, ?, ?, ?, ?, ?, ?)
                        """
                ).execute(arguments: [
                    crashID, image.name, image.path, image.arch, image.uuid, Int64(bitPattern: image.loadAddress),
                    image.endAddress.map { Int64(bitPattern: $0) }, image.isApp,
                ])
            }
        }
    }

    private static let insertThreadFrame = insertFrame(exceptionBacktrace: false)
    private static let insertBacktraceFrame = insertFrame(exceptionBacktrace: true)

    private static func insertFrame(exceptionBacktrace: Bool) -> String {
        """
        INSERT INTO crash_frames (crash_id, thread_index, exception_backtrace, seq, image, image_uuid, address,
        load_address, image_offset, symbol, symbol_offset, file, line, inlined, in_app, symbolication_status,
        symbolication_reason, function, source_file, source_line, inlined_json)
        VALUES (?, ?, \(exceptionBacktrace ? 1 : 0), ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
        """
    }

    private static func insert(
        _ frame: Frame, crash: Int64, thread: Int?, seq: Int, appImage: String?, _ db: Database
    ) throws {
        let function = frame.symbolication?.locations.last
        let inlinedLocations = frame.symbolication?.locations.dropLast() ?? []
        let inlined =
            inlinedLocations.isEmpty
            ? nil : try IndexJSON.text(Array(inlinedLocations))
        // Whether the frame is the exception backtrace's is part of the statement, not an argument: twenty
        // arguments or fewer are bound in place by GRDB; more are copied (strings included) first.
        try db.cachedStatement(sql: thread == nil ? insertBacktraceFrame : insertThreadFrame).execute(arguments: [
            crash, thread, seq, frame.image, frame.imageUUID,
            frame.address.map { Int64(bitPattern: $0) },
            frame.imageLoadAddress.map { Int64(bitPattern: $0) }, frame.imageOffset.map { Int64(bitPattern: $0) },
            frame.symbol, frame.symbolOffset.map { Int64(bitPattern: $0) }, frame.file, frame.line, frame.inlined,
            frame.image != nil && frame.image == appImage, status(frame.symbolication), frame.symbolication?.reason,
            function?.simpleName, function?.file, function?.line, inlined,
        ])
    }
}
