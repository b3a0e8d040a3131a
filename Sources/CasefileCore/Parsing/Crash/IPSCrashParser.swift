/// Parses Apple's `.ips` files: a one-line JSON header, then a JSON body (bug type 309 crash, 298 jetsam) or a
/// legacy text body (bug type 109, and 309 exports with text) — crash-formats.md §3.
struct IPSCrashParser {
    let file: String

    func parse(_ text: String) -> (crash: Crash, warnings: [Diagnostic]) {
        parse(bytes: Array(text.utf8)[...])
    }

    /// Parses the bytes of an `.ips` file; JSON is parsed from the bytes directly, never through a `String`.
    /// `header` is the first line already parsed, when the caller had to parse it to recognize the file.
    func parse(bytes: ArraySlice<UInt8>, header parsedHeader: JSONObject? = nil) -> (
        crash: Crash, warnings: [Diagnostic]
    ) {
        var warnings: [Diagnostic] = []
        func isSpace(_ byte: UInt8) -> Bool { byte == 0x20 || byte == 0x0A || byte == 0x0D || byte == 0x09 }
        // Split on the first newline only: header strings may hold braces and escaped quotes (§3).
        let trimmed = bytes.drop(while: isSpace)
        let newline = trimmed.firstIndex(of: 0x0A) ?? trimmed.endIndex
        let headerBytes = trimmed[..<newline]
        let body = (newline < trimmed.endIndex ? trimmed[(newline + 1)...] : []).drop(while: isSpace)
        let header: JSONObject
        do {
            header = try parsedHeader ?? JSONParser.parse(headerBytes, mode: .tolerant).object ?? JSONObject()
        } catch {
            warnings.append(Diagnostic(file: file, line: 1, message: "header is not JSON (\(error)); read as text"))
            header = JSONObject()
        }
        let bugType = header["bug_type"]?.string ?? header["bug_type"]?.int.map(String.init)
        var crash: Crash
        if body.first == UInt8(ascii: "{"), bugType != "298", let decoded = IPSBodyDecoder.decode(body) {
            crash = crashReport(header: header, body: decoded.rest, decoded: decoded)
        } else if body.first == UInt8(ascii: "{") {
            let value: JSONValue?
            do {
                value = try JSONParser.parse(body, mode: .tolerant)
            } catch {
                let repaired = JSONParser.repairTruncated(Array(body))
                value = repaired.flatMap { try? JSONParser.parse($0, mode: .tolerant) }
                let outcome = value == nil ? "nothing could be read from it" : "read what was complete before it"
                warnings.append(
                    Diagnostic(
                        file: file, line: error.line + 1,
                        message:
                            "body is not valid JSON (\(error.reason), column \(error.column)): the report is truncated; \(outcome)"
                    ))
            }
            let object = value?.object ?? JSONObject()
            crash = bugType == "298" ? jetsam(header: header, body: object) : crashReport(header: header, body: object)
        } else {
            let parsed = AppleTextCrashParser(file: file).parse(String(decoding: body, as: UTF8.self))
            crash = parsed.crash
            warnings += parsed.warnings
        }
        // Here, where the crash holds its list of images alone: marked inside `crashReport`, where the decoder's
        // result still shared the list, all of its hundreds of images were copied for one flag. (A text body's
        // parser has marked it already.)
        CrashResolver.markAppImage(&crash)
        crash.format = .ips
        fillFromHeader(header, into: &crash)
        crash.rawFields["bug_type"] = bugType
        if crash.kind == .crash, crash.threads.isEmpty {
            warnings.append(Diagnostic(file: file, message: "no threads found: the report is truncated"))
        }
        return (crash, warnings)
    }

    private func fillFromHeader(_ header: JSONObject, into crash: inout Crash) {
        func text(_ key: String) -> String? { header[key]?.string.flatMap { $0.isEmpty ? nil : $0 } }
        crash.incidentID = crash.incidentID ?? text("incident_id")
        crash.timestamp = crash.timestamp ?? text("timestamp")
        crash.app.name = crash.app.name ?? text("app_name") ?? text("name")
        crash.app.bundleID = crash.app.bundleID ?? text("bundleID")
        crash.app.version = crash.app.version ?? text("app_version")
        crash.app.build = crash.app.build ?? text("build_version")
        if crash.os.version == nil, let os = text("os_version") {
            crash.os = OperatingSystem(appleText: os)
        }
        if let slice = text("slice_uuid").flatMap(UUIDText.normalize),
            let index = crash.images.firstIndex(where: { $0.uuid == slice })
        {
            for other in crash.images.indices { crash.images[other].isApp = false }
            crash.images[index].isApp = true
        }
    }

    private func crashReport(header: JSONObject, body: JSONObject, decoded: IPSBodyDecoder.Body? = nil) -> Crash {
        var crash = Crash(format: .ips)
        func text(_ key: String) -> String? { body[key]?.string.flatMap { $0.isEmpty ? nil : $0 } }
        crash.processName = text("procName")
        crash.processPath = text("procPath")
        crash.deviceModel = text("modelCode")
        crash.codeType = text("cpuType")
        crash.timestamp = text("captureTime")
        crash.incidentID = text("incident")
        if let os = body["osVersion"]?.object {
            let train = os["train"]?.string ?? ""
            let build = os["build"]?.string
            crash.os = OperatingSystem(appleText: train + (build.map { " (\($0))" } ?? ""))
        }
        if let bundle = body["bundleInfo"]?.object {
            crash.app.version = bundle["CFBundleShortVersionString"]?.string
            crash.app.build = bundle["CFBundleVersion"]?.string
            crash.app.bundleID = bundle["CFBundleIdentifier"]?.string
        }
        crash.app.name = crash.processName
        if let exception = body["exception"]?.object {
            crash.exception.type = exception["type"]?.string
            crash.exception.signal = exception["signal"]?.string
            crash.exception.subtype = exception["subtype"]?.string
            crash.exception.codesText = exception["codes"]?.string
            if let raw = exception["rawCodes"]?.array {
                crash.exception.codes = raw.compactMap(\.uint64)
            } else if let codes = exception["codes"]?.string {
                crash.exception.codes = codes.split(separator: ",").compactMap { CrashNumber.parse($0) }
            }
        }
        if let termination = body["termination"]?.object {
            crash.exception.terminationNamespace = termination["namespace"]?.string
            crash.exception.terminationCode =
                termination["code"]?.uint64
                ?? termination["code"]?.string.flatMap { CrashNumber.parse($0) }
            let parts = [
                termination["namespace"]?.string, termination["code"]?.uint64.map(String.init),
                termination["indicator"]?.string,
            ].compactMap { $0 }
            let reasons = termination["reasons"]?.array?.compactMap(\.string) ?? []
            crash.exception.terminationReason = (parts + reasons).joined(separator: " ")
        }
        if let reason = body["exceptionReason"]?.object {
            crash.exception.name = reason["name"]?.string
            crash.exception.reason = reason["composed_message"]?.string ?? reason["format_string"]?.string
        }
        if let asi = body["asi"]?.object {
            let lines = asi.members.flatMap { member in member.value.array?.compactMap(\.string) ?? [] }
            crash.exception.applicationSpecificInformation = lines.joined(separator: "\n")
            if crash.exception.reason == nil {
                AppleTextCrashParser.readUncaughtException(lines.joined(separator: "\n"), into: &crash.exception)
            }
        }
        if let triage = text("ktriageinfo") { crash.rawFields["Kernel Triage"] = triage }
        if let region = text("vmRegionInfo") ?? text("vmregioninfo") { crash.rawFields["VM Region Info"] = region }

        // The images, and for each entry of `usedImages` its position among them (−1 for none).
        let images: [BinaryImage]
        let positions: [Int]
        if let decoded, let decodedImages = decoded.images {
            (images, positions) = (decodedImages, decoded.imagePositions)
        } else {
            let listed = (body["usedImages"]?.array ?? []).map(image)
            images = listed.compactMap { $0 }
            var next = 0
            positions = listed.map { image in
                guard image != nil else { return -1 }
                defer { next += 1 }
                return next
            }
        }
        crash.images = images
        func resolve(_ raw: IPSBodyDecoder.RawFrame) -> Frame {
            var frame = raw.frame
            if let index = raw.imageIndex, positions.indices.contains(index), positions[index] >= 0 {
                let position = positions[index]
                IPSBodyDecoder.attach(
                    &frame, image: images[position].name, loadAddress: images[position].loadAddress)
            }
            return frame
        }
        func frame(_ value: JSONValue) -> Frame {
            let object = value.object ?? JSONObject()
            let frame = Frame(
                imageOffset: object.exact("imageOffset")?.uint64, symbol: object.exact("symbol")?.string,
                symbolOffset: object.exact("symbolLocation")?.uint64, file: object.exact("sourceFile")?.string,
                line: object.exact("sourceLine")?.int, inlined: object.exact("inline")?.bool ?? false)
            return resolve(IPSBodyDecoder.RawFrame(imageIndex: object.exact("imageIndex")?.int, frame: frame))
        }
        let faulting = body["faultingThread"]?.int
        if let threads = decoded?.threads {
            crash.threads.reserveCapacity(threads.count)
            for (index, thread) in threads.enumerated() {
                let frames = thread.frames  // images resolved by the decoder
                crash.threads.append(
                    CrashThread(
                        index: index, name: thread.name, queue: thread.queue,
                        crashed: thread.triggered ?? (index == faulting), frames: frames))
            }
        } else {
            crash.threads = (body["threads"]?.array ?? []).enumerated().map { index, value in
                CrashThread(
                    index: index, name: value["name"]?.string, queue: value["queue"]?.string,
                    crashed: value["triggered"]?.bool ?? (index == faulting),
                    frames: (value["frames"]?.array ?? []).map(frame))
            }
        }
        crash.crashedThread = faulting ?? crash.threads.first(where: \.crashed)?.index
        crash.exceptionBacktrace =
            decoded?.exceptionBacktrace.map { $0.map(resolve) }
            ?? (body["lastExceptionBacktrace"]?.array ?? []).map(frame)
        return crash
    }

    /// `usedImages[]`; the absolute placeholder (`"source":"A"`, base 0, zero UUID) keeps its index as `nil`.
    private func image(_ value: JSONValue) -> BinaryImage? {
        guard let base = value["base"]?.uint64 else { return nil }
        let uuid = value["uuid"]?.string
        let path = value["path"]?.string
        guard let name = value["name"]?.string ?? path.flatMap({ $0.split(separator: "/").last.map(String.init) })
        else { return nil }
        let size = value["size"]?.uint64 ?? 0
        return BinaryImage(
            name: name, path: path, arch: value["arch"]?.string, uuid: uuid, loadAddress: base,
            endAddress: size > 0 ? base &+ size &- 1 : nil)
    }

    private func jetsam(header: JSONObject, body: JSONObject) -> Crash {
        var crash = Crash(format: .ips, kind: .jetsam)
        crash.incidentID = body["incident"]?.string
        crash.timestamp = body["date"]?.string
        crash.deviceModel = body["product"]?.string
        if let build = body["build"]?.string { crash.os = OperatingSystem(appleText: build) }
        var event = JetsamEvent(
            largestProcess: body["largestProcess"]?.string, pageSize: body["memoryStatus"]?["pageSize"]?.int)
        for process in body["processes"]?.array ?? [] {
            guard let reason = process["reason"]?.string, let name = process["name"]?.string else { continue }
            event.killed.append(KilledProcess(name: name, reason: reason, residentPages: process["rpages"]?.int))
        }
        crash.jetsam = event
        crash.exception.type = "JETSAM"
        crash.exception.reason = event.killed.map { "\($0.name) killed (\($0.reason))" }.joined(separator: "; ")
        if let first = event.killed.first {
            crash.processName = first.name
            crash.app.name = first.name
        }
        return crash
    }
}
