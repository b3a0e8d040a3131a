import CasefileArchive
import Foundation

/// Parses KSCrash JSON reports and their SentryCrash and Bugsnag forks (crash-formats.md §4), including a
/// nested `recrash_report` (a crash inside the crash handler), which may be all a report holds.
struct KSCrashParser {
    let file: String

    /// The report's crashes: the main one, then the recrash report when there is one. With `decoded`, its images and
    /// threads stand for the report's (``KSCrashBodyDecoder`` leaves them empty in the tree).
    func parse(
        _ report: JSONObject, decoded: KSCrashBodyDecoder.Body? = nil
    ) -> (crashes: [Crash], warnings: [Diagnostic]) {
        var warnings: [Diagnostic] = []
        var crashes: [Crash] = []
        if report["crash"] != nil {
            crashes.append(crash(report, decoded: decoded))
        }
        if let recrash = report["recrash_report"]?.object {
            var nested = crash(recrash, decoded: nil)
            nested.rawFields["recrash"] = "true"
            if crashes.isEmpty {
                warnings.append(
                    Diagnostic(
                        file: file, message: "only a recrash report: the crash handler itself crashed; kept that"))
            }
            crashes.append(nested)
        }
        if report["incomplete"]?.bool == true {
            warnings.append(Diagnostic(file: file, message: "KSCrash marked the report incomplete"))
        }
        if crashes.isEmpty {
            warnings.append(Diagnostic(file: file, message: "no \"crash\" section: nothing to read"))
        } else if crashes[0].threads.isEmpty {
            warnings.append(Diagnostic(file: file, message: "no threads: the report is truncated"))
        } else if crashes[0].crashingThread?.frames.isEmpty == true {
            warnings.append(
                Diagnostic(file: file, message: "the crashed thread has no frames: the report is truncated"))
        }
        return (crashes, warnings)
    }

    private func crash(_ report: JSONObject, decoded: KSCrashBodyDecoder.Body?) -> Crash {
        var crash = Crash(format: .ksCrash)
        let info = report["report"]?.object
        let system = report["system"]?.object
        func text(_ object: JSONObject?, _ key: String) -> String? {
            object?[key]?.string.flatMap { $0.isEmpty ? nil : $0 }
        }
        crash.incidentID = text(info, "id")
        crash.timestamp = text(info, "timestamp") ?? info?["timestamp"]?.int.map(Self.date)
        crash.processName = text(info, "process_name") ?? text(system, "CFBundleExecutable")
        crash.processPath = text(system, "CFBundleExecutablePath")
        crash.app = AppInfo(
            name: text(system, "CFBundleName") ?? text(system, "CFBundleExecutable"),
            bundleID: text(system, "CFBundleIdentifier"), version: text(system, "CFBundleShortVersionString"),
            build: text(system, "CFBundleVersion"))
        crash.os = OperatingSystem(
            name: text(system, "system_name"), version: text(system, "system_version"),
            build: text(system, "os_version"))
        crash.deviceModel = text(system, "machine")
        crash.codeType = text(system, "cpu_arch")
        if let version = info?["version"] {
            crash.rawFields["kscrash_version"] = version.string ?? version.compactText
        }

        let body = report["crash"]?.object
        let error = body?["error"]?.object
        let mach = error?["mach"]?.object
        let signal = error?["signal"]?.object
        crash.exception.type = text(mach, "exception_name") ?? mach?["exception"]?.int.flatMap(SignalName.machException)
        crash.exception.signal = text(signal, "name") ?? signal?["signal"]?.int.flatMap(SignalName.name)
        crash.exception.codes = [mach?["code"]?.uint64, mach?["subcode"]?.uint64].compactMap { $0 }
        if let codeName = text(mach, "code_name") ?? text(signal, "code_name") {
            crash.exception.subtype =
                error?["address"]?.uint64.map { "\(codeName) at \(CrashNumber.hex($0))" } ?? codeName
        }
        let nsexception = error?["nsexception"]?.object
        crash.exception.name = text(nsexception, "name") ?? text(error?["cpp_exception"]?.object, "name")
        crash.exception.reason = text(nsexception, "reason") ?? text(error, "reason")
        if let kind = text(error, "type") { crash.rawFields["error_type"] = kind }
        if let diagnosis = text(body, "diagnosis") { crash.rawFields["diagnosis"] = diagnosis }

        crash.images = decoded?.images ?? (report["binary_images"]?.array ?? []).compactMap(image)
        if crash.exception.reason == nil {
            // Swift's fatalError message lives in libswiftCore's crash info (§4).
            crash.exception.reason =
                decoded?.images != nil
                ? decoded?.crashInfoMessages.first
                : (report["binary_images"]?.array ?? []).lazy.compactMap { $0["crash_info_message"]?.string }.first
        }
        crash.threads =
            decoded?.threads
            ?? (body?["threads"]?.array ?? []).enumerated().map { position, value in
                let contents = value["backtrace"]?["contents"]?.array ?? []
                return CrashThread(
                    index: value["index"]?.int ?? position, name: value["name"]?.string,
                    queue: value["dispatch_queue"]?.string, crashed: value["crashed"]?.bool ?? false,
                    frames: contents.map(frame))
            }
        crash.crashedThread = crash.threads.first(where: \.crashed)?.index
        if let appUUID = text(system, "app_uuid").flatMap(UUIDText.normalize),
            let index = crash.images.firstIndex(where: { $0.uuid == appUUID })
        {
            crash.images[index].isApp = true
        }
        CrashResolver.markAppImage(&crash)
        return crash
    }

    private func frame(_ value: JSONValue) -> Frame {
        let object = value.object ?? JSONObject()
        return Self.frame(
            address: object.exact("instruction_addr")?.uint64, load: object.exact("object_addr")?.uint64,
            symbolAddress: object.exact("symbol_addr")?.uint64,
            image: object.exact("object_name")?.string.map(Self.basename), symbol: object.exact("symbol_name")?.string)
    }

    /// A frame from its fields, as the tree and ``KSCrashBodyDecoder`` read them; `image` is the last component of
    /// the frame's `object_name` (``basename(_:)``).
    static func frame(
        address: UInt64?, load: UInt64?, symbolAddress: UInt64?, image: String?, symbol: String?
    ) -> Frame {
        var frame = Frame(image: image, address: address, imageLoadAddress: load, symbol: symbol)
        if let address, let load, address >= load { frame.imageOffset = address - load }
        if let address, let symbolAddress, frame.symbol != nil, address >= symbolAddress {
            frame.symbolOffset = address - symbolAddress
        }
        return frame
    }

    private func image(_ value: JSONValue) -> BinaryImage? {
        Self.image(
            base: value["image_addr"]?.uint64, path: value["name"]?.string, size: value["image_size"]?.uint64,
            cpuType: value["cpu_type"]?.int, cpuSubtype: value["cpu_subtype"]?.int, uuid: value["uuid"]?.string)
    }

    /// An image from its fields, as the tree and ``KSCrashBodyDecoder`` read them; `nil` without an address or path.
    static func image(
        base: UInt64?, path: String?, size: UInt64?, cpuType: Int?, cpuSubtype: Int?, uuid: String?
    ) -> BinaryImage? {
        guard let base, let path else { return nil }
        let size = size ?? 0
        return BinaryImage(
            name: PathText.lastComponent(path), path: path,
            arch: MachOArchitecture.name(cpuType: cpuType, cpuSubtype: cpuSubtype), uuid: uuid, loadAddress: base,
            endAddress: size > 0 ? base &+ size &- 1 : nil)
    }

    /// The last path component, by bytes.
    static func basename(_ path: String) -> String {
        guard let slash = path.utf8.lastIndex(of: UInt8(ascii: "/")) else { return path }
        return String(path[path.utf8.index(after: slash)...])
    }

    /// KSCrash wrote integer seconds up to 3.2 and microseconds from 3.3 (§4): both as ISO 8601, UTC.
    static func date(_ value: Int) -> String {
        let seconds = value > 100_000_000_000_000 ? Double(value) / 1_000_000 : Double(value)
        return Date(timeIntervalSince1970: seconds).formatted(.iso8601)
    }

}
