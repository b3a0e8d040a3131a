/// Parses what an in-app crash handler mails or posts: an NSException name and reason with its
/// `callStackSymbols`, or a signal with a backtrace — as text, or as JSON (crash-formats.md §6).
struct InAppExceptionParser {
    let file: String

    /// Whether a line has the `backtrace_symbols` shape: `N  Image  0xADDRESS  symbol + offset`.
    static func isStackLine(_ line: Substring) -> Bool {
        guard let parsed = AppleFrameLine.frame(line) else { return false }
        return parsed.frame.address != nil && (parsed.frame.symbolOffset != nil || parsed.frame.imageOffset != nil)
    }

    /// Text: optional `Key: value` lines (Exception, Name, Reason, Signal, App, Version, Device, OS, …), then the
    /// stack lines.
    func parse(text: String) -> (crash: Crash, warnings: [Diagnostic]) {
        var crash = Crash(format: .inAppException)
        var warnings: [Diagnostic] = []
        var frames: [Frame] = []
        var reasonLines: [String] = []
        var inReason = false
        for line in AppleTextCrashParser.unwrap(text) {
            let trimmed = line.trimmingSpaces
            if trimmed.isEmpty {
                inReason = false
                continue
            }
            if let parsed = AppleFrameLine.frame(line), parsed.frame.address != nil {
                frames.append(Self.symbols(parsed.frame))
                inReason = false
                continue
            }
            guard let colon = trimmed.firstIndex(of: ":") else {
                if inReason { reasonLines.append(trimmed) }
                continue
            }
            let key = trimmed[..<colon].trimmingSpaces.lowercased()
            let value = trimmed[trimmed.index(after: colon)...].trimmingSpaces
            inReason = false
            switch key {
            case "exception", "exception name", "name", "uncaught exception": crash.exception.name = value
            case "reason", "exception reason", "message":
                reasonLines = [value]
                inReason = true
            case "signal":
                let name = value.split(separator: " ").first.map(String.init) ?? value
                crash.exception.signal = name.hasPrefix("SIG") ? name : Int(name).flatMap(SignalName.name) ?? name
            case "signal code", "code": crash.exception.subtype = value
            case "app", "application": crash.app.name = value
            case "version", "app version": Self.readVersion(value, into: &crash.app)
            case "bundle", "bundle id", "bundle identifier": crash.app.bundleID = value
            case "device", "model", "device model", "hardware model": crash.deviceModel = value
            case "os", "os version", "system": crash.os = OperatingSystem(appleText: value)
            case "date", "time", "timestamp": crash.timestamp = value
            case "thread": crash.rawFields["thread"] = value
            default:
                // Bytes, not Characters: `String.contains` took 3 µs of a small report's 50 µs of parsing.
                if !key.hasSuffix("stack") && !key.containsBytes("backtrace") && !key.containsBytes("symbols") {
                    crash.rawFields[String(trimmed[..<colon])] = value
                }
            }
        }
        if !reasonLines.isEmpty { crash.exception.reason = reasonLines.joined(separator: "\n") }
        finish(&crash, frames: frames, warnings: &warnings)
        return (crash, warnings)
    }

    /// JSON: `name`/`exception`, `reason` (or Clue's `reson`), `callStackSymbols`, `callStackReturnAddresses`,
    /// `signal`, and optional app/device fields.
    func parse(json object: JSONObject) -> (crash: Crash, warnings: [Diagnostic]) {
        var crash = Crash(format: .inAppException)
        var warnings: [Diagnostic] = []
        func text(_ keys: String...) -> String? {
            for key in keys {
                if let value = object[key]?.string, !value.isEmpty { return value }
            }
            return nil
        }
        crash.exception.name = text("name", "exception", "exceptionName")
        crash.exception.reason = text("reason", "reson", "message")
        if let signal = object["signal"] {
            crash.exception.signal = signal.string ?? signal.int.flatMap(SignalName.name)
        }
        crash.app = AppInfo(
            name: text("app", "appName"), bundleID: text("bundleID", "bundleIdentifier"),
            version: text("appVersion", "version"), build: text("appBuild", "build"))
        crash.deviceModel = text("device", "deviceModel", "model")
        if let os = text("os", "osVersion") { crash.os = OperatingSystem(appleText: os) }
        crash.timestamp = text("timestamp", "date")
        let lines = (object["callStackSymbols"]?.array ?? object["backtrace"]?.array ?? []).compactMap(\.string)
        var frames = lines.compactMap { AppleFrameLine.frame(Substring($0))?.frame }.map(Self.symbols)
        if frames.isEmpty, let addresses = object["callStackReturnAddresses"]?.array {
            frames = addresses.compactMap(\.uint64).map { Frame(address: $0) }
        }
        if lines.count > frames.count {
            warnings.append(
                Diagnostic(
                    file: file, message: "\(lines.count - frames.count) callStackSymbols lines are not frames; skipped")
            )
        }
        finish(&crash, frames: frames, warnings: &warnings)
        return (crash, warnings)
    }

    private func finish(_ crash: inout Crash, frames: [Frame], warnings: inout [Diagnostic]) {
        if crash.exception.name != nil {
            crash.exception.type = "EXC_CRASH"
            crash.exception.signal = crash.exception.signal ?? "SIGABRT"
        }
        crash.threads = [CrashThread(index: 0, crashed: true, frames: frames)]
        crash.crashedThread = 0
        if crash.exception.name != nil {
            crash.exceptionBacktrace = frames
        }
        if frames.isEmpty {
            warnings.append(Diagnostic(file: file, message: "no stack lines found"))
        }
        if crash.exception.name == nil, crash.exception.signal == nil {
            warnings.append(Diagnostic(file: file, message: "neither an exception name nor a signal"))
        }
        // The app is the image most frames name that is not a system framework; callStackSymbols carries no
        // image table, so this is the best available guess and is only used to mark frames in-app.
        if crash.app.name == nil {
            crash.app.name = frames.compactMap(\.image).first { !SystemImages.isSystem($0) }
        }
        // `Image + N` and `UUID + N` frames reveal load addresses (and UUIDs): keep them as an image table.
        for frame in frames {
            guard let name = frame.image, let load = frame.imageLoadAddress,
                !crash.images.contains(where: { $0.name == name })
            else { continue }
            crash.images.append(
                BinaryImage(name: name, uuid: frame.imageUUID, loadAddress: load, isApp: name == crash.app.name))
        }
        crash.processName = crash.app.name
    }

    /// `backtrace_symbols` writes `Image + N` when the symbol is unknown and `UUID + N` when it is `<redacted>`:
    /// both are image offsets, not symbols.
    static func symbols(_ frame: Frame) -> Frame {
        var frame = frame
        if let symbol = frame.symbol, symbol == frame.image || UUIDText.normalize(symbol) != nil {
            frame.imageUUID = UUIDText.normalize(symbol)
            frame.imageOffset = frame.symbolOffset
            frame.symbol = nil
            frame.symbolOffset = nil
            if let address = frame.address, let offset = frame.imageOffset, address >= offset {
                frame.imageLoadAddress = address - offset
            }
        }
        return frame
    }

    private static func readVersion(_ value: String, into app: inout AppInfo) {
        let split = AppleTextCrashParser.splitVersion(value, osVersion: nil, appleOrder: false)
        app.version = split.short
        app.build = split.build
    }
}

/// Names of Apple's own images, to tell system frames from the app's.
public enum SystemImages {
    private static let prefixes = [
        "libsystem_", "libdispatch", "libobjc", "libswift", "libc++", "libdyld", "dyld", "CoreFoundation", "Foundation",
        "UIKit", "UIKitCore", "GraphicsServices", "QuartzCore", "CFNetwork", "Security", "WebKit", "JavaScriptCore",
        "CoreData", "AVFAudio", "AVFoundation", "SwiftUI", "Combine", "FrontBoardServices", "BaseBoard", "libxpc",
        "CoreGraphics", "ImageIO", "Metal", "CoreText", "AppKit", "libz", "libsqlite3", "RunningBoardServices",
    ]

    /// Whether an image name is one of Apple's.
    public static func isSystem(_ name: String) -> Bool {
        name == "???" || prefixes.contains { name.hasPrefix($0) }
    }
}
