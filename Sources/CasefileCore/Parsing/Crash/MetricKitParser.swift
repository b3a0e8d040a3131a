import Foundation

/// Parses MetricKit JSON: a whole `MXDiagnosticPayload`, a single `MXCrashDiagnostic`, or a bare
/// `MXCallStackTree` (crash-formats.md §5).
struct MetricKitParser {
    let file: String

    func parse(_ root: JSONObject) -> (crashes: [Crash], warnings: [Diagnostic]) {
        var warnings: [Diagnostic] = []
        if root["crashDiagnostics"] != nil || root["timeStampBegin"] != nil || root["hangDiagnostics"] != nil {
            let diagnostics = root["crashDiagnostics"]?.array ?? []
            let hangs = root["hangDiagnostics"]?.array?.count ?? 0
            if hangs > 0 {
                warnings.append(Diagnostic(file: file, message: "\(hangs) hang diagnostics are not crashes; not read"))
            }
            var crashes = diagnostics.compactMap(\.object).map { diagnosticCrash($0, warnings: &warnings) }
            for index in crashes.indices {
                crashes[index].timestamp = root["timeStampEnd"]?.string
                crashes[index].rawFields["payload_window"] = [
                    root["timeStampBegin"]?.string, root["timeStampEnd"]?.string,
                ]
                .compactMap { $0 }.joined(separator: " – ")
            }
            return (crashes, warnings)
        }
        if root["callStackTree"] != nil {
            return ([diagnosticCrash(root, warnings: &warnings)], warnings)
        }
        var crash = Crash(format: .metricKit)
        readTree(root, into: &crash, usesOffsetAsLoadAddress: false, warnings: &warnings)
        return ([crash], warnings)
    }

    private func diagnosticCrash(_ diagnostic: JSONObject, warnings: inout [Diagnostic]) -> Crash {
        var crash = Crash(format: .metricKit)
        let meta = diagnostic["diagnosticMetaData"]?.object
        func text(_ key: String) -> String? { meta?[key]?.string.flatMap { $0.isEmpty ? nil : $0 } }
        crash.app = AppInfo(
            bundleID: text("bundleIdentifier"), version: text("appVersion"), build: text("appBuildVersion"))
        if let os = text("osVersion") { crash.os = OperatingSystem(appleText: os) }
        crash.deviceModel = text("deviceType")
        crash.codeType = text("platformArchitecture")
        crash.exception.type = meta?["exceptionType"]?.int.flatMap(SignalName.machException)
        crash.exception.codes = [meta?["exceptionCode"]?.uint64].compactMap { $0 }
        crash.exception.signal = meta?["signal"]?.int.flatMap(SignalName.name)
        if let termination = text("terminationReason") {
            readTermination(termination, into: &crash.exception)
        }
        if let reason = meta?["exceptionReason"]?.object {
            crash.exception.name = reason["exceptionName"]?.string
            crash.exception.reason = reason["composedMessage"]?.string
        }
        if let region = text("virtualMemoryRegionInfo") { crash.rawFields["VM Region Info"] = region }
        let os = text("osVersion") ?? ""
        // iOS 14/15 and macOS 12 put the image load address in offsetIntoBinaryTextSegment (§5).
        let quirk = ["iPhone OS 14", "iPhone OS 15", "iOS 14", "iOS 15", "macOS 12"].contains { os.hasPrefix($0) }
        if let tree = diagnostic["callStackTree"]?.object {
            readTree(tree, into: &crash, usesOffsetAsLoadAddress: quirk, warnings: &warnings)
        } else {
            warnings.append(Diagnostic(file: file, message: "diagnostic without callStackTree"))
        }
        return crash
    }

    /// `Namespace SIGNAL, Code 0xb`, or `<RBSTerminateContext| domain:10 code:0x8BADF00D …>`.
    private func readTermination(_ text: String, into exception: inout CrashException) {
        if text.hasPrefix("Namespace ") {
            AppleTextCrashParser.readTermination(text, into: &exception)
            return
        }
        exception.terminationReason = text
        if let range = text.range(of: "code:") {
            let token = text[range.upperBound...].prefix { !$0.isWhitespace && $0 != ">" }
            exception.terminationCode = CrashNumber.parse(token.lowercased())
        }
        if let range = text.range(of: "domain:") {
            exception.terminationNamespace = "domain " + text[range.upperBound...].prefix { $0.isNumber }
        }
    }

    private func readTree(
        _ tree: JSONObject, into crash: inout Crash, usesOffsetAsLoadAddress quirk: Bool, warnings: inout [Diagnostic]
    ) {
        var images: [String: BinaryImage] = [:]
        var order: [String] = []
        for (index, stack) in (tree["callStacks"]?.array ?? []).enumerated() {
            var frames: [Frame] = []
            // Crash trees are per thread: each root frame is the innermost, subFrames[0] its caller.
            var next = stack["callStackRootFrames"]?.array?.first
            var depth = 0
            while let value = next, depth < 2_000 {
                frames.append(frame(value, quirk: quirk, images: &images, order: &order))
                next = value["subFrames"]?.array?.first
                depth += 1
            }
            crash.threads.append(
                CrashThread(index: index, crashed: stack["threadAttributed"]?.bool ?? false, frames: frames))
        }
        crash.crashedThread = crash.threads.first(where: \.crashed)?.index
        crash.images = order.compactMap { images[$0] }
        // MetricKit names no executable: the app is the image that calls into dyld's start at the bottom of the
        // crashed thread (its `main`).
        if let thread = crash.crashingThread ?? crash.threads.first,
            let bottom = thread.frames.lastIndex(where: { $0.image != "dyld" && $0.image != "libdyld.dylib" }),
            bottom < thread.frames.count - 1 || thread.frames.count == 1,
            let name = thread.frames[bottom].image, let index = crash.images.firstIndex(where: { $0.name == name })
        {
            crash.images[index].isApp = true
            crash.app.name = crash.app.name ?? name
            crash.processName = name
        } else if let index = crash.images.firstIndex(where: { !SystemImages.isSystem($0.name) }) {
            // Without dyld at the bottom (a bare tree), the first image that is not Apple's.
            crash.images[index].isApp = true
            crash.processName = crash.images[index].name
            crash.app.name = crash.app.name ?? crash.images[index].name
        }
        if crash.threads.isEmpty {
            warnings.append(Diagnostic(file: file, message: "call stack tree without call stacks"))
        }
    }

    private func frame(
        _ value: JSONValue, quirk: Bool, images: inout [String: BinaryImage], order: inout [String]
    ) -> Frame {
        let address = value["address"]?.uint64
        let offset = value["offsetIntoBinaryTextSegment"]?.uint64
        let name = value["binaryName"]?.string
        var frame = Frame(image: name, address: address)
        // Neither reading holds for an "offset" above the address: not a load address below it, and no image
        // starts below zero. (In the iOS 14–15 quirk it was taken as the load address regardless, and the
        // subtraction trapped: a payload with such a frame killed the run.)
        if let address, let offset, offset <= address {
            // Sanity check besides the OS version: a load address is page-aligned and well into the address.
            let looksLikeLoadAddress = offset % 4096 == 0 && offset > address / 2
            if quirk || looksLikeLoadAddress && offset > 0x1_0000_0000 {
                frame.imageLoadAddress = offset
                frame.imageOffset = address - offset
            } else {
                frame.imageOffset = offset
                frame.imageLoadAddress = address - offset
            }
        }
        if let uuid = value["binaryUUID"]?.string, let load = frame.imageLoadAddress, images[uuid] == nil {
            images[uuid] = BinaryImage(name: name ?? "???", uuid: uuid, loadAddress: load)
            order.append(uuid)
        }
        return frame
    }
}
