import CasefileArchive

/// Writes any parsed crash back in Apple's legacy text layout — header, exception block, threads, binary
/// images — so a `.ips`, KSCrash or MetricKit crash reads the way iOS developers are used to.
public struct AppleCrashWriter: Sendable {
    /// Creates a writer.
    public init() {}

    /// The crash as Apple-style text.
    public func write(_ crash: Crash) -> String {
        var lines: [String] = []
        func field(_ key: String, _ value: String?) {
            guard let value, !value.isEmpty else { return }
            lines.append((key + ":").padding(21) + value)
        }
        field("Incident Identifier", crash.incidentID)
        field("Hardware Model", crash.deviceModel)
        field("Process", crash.processName ?? crash.app.name)
        field("Path", crash.processPath ?? crash.appImage?.path)
        field("Identifier", crash.app.bundleID)
        if let version = crash.app.version {
            field("Version", crash.app.build.map { "\(version) (\($0))" } ?? version)
        }
        field("Code Type", crash.codeType)
        lines.append("")
        field("Date/Time", crash.timestamp)
        let os = crash.os.description
        field("OS Version", os)
        field("Report Version", "104")
        lines.append("")

        let exception = crash.exception
        if crash.kind == .jetsam, let jetsam = crash.jetsam {
            field("Exception Type", "JETSAM")
            for process in jetsam.killed {
                lines.append("Killed: \(process.name) (\(process.reason))")
            }
        } else {
            let type = [exception.type, exception.signal.map { exception.type == nil ? $0 : "(\($0))" }]
                .compactMap { $0 }.joined(separator: " ")
            field("Exception Type", type.isEmpty ? nil : type)
            field(
                "Exception Codes",
                exception.codesText
                    ?? (exception.codes.isEmpty
                        ? nil : exception.codes.map { CrashNumber.hex($0, width: 16) }.joined(separator: ", ")))
            field("Exception Subtype", exception.subtype)
            if let code = exception.terminationCodeHex, exception.terminationReason?.hasPrefix("Namespace") != true {
                field("Termination Reason", "Namespace \(exception.terminationNamespace ?? "UNKNOWN"), Code \(code)")
            } else {
                field("Termination Reason", exception.terminationReason)
            }
            if let crashed = crash.crashedThread { field("Triggered by Thread", " \(crashed)") }
        }
        let info =
            exception.applicationSpecificInformation ?? exception.name.map { name in
                "*** Terminating app due to uncaught exception '\(name)', reason: '\(exception.reason ?? "")'"
            } ?? exception.reason
        if let info {
            lines += ["", "Application Specific Information:", info]
        }
        if !crash.exceptionBacktrace.isEmpty {
            lines += ["", "Last Exception Backtrace:"]
            lines += crash.exceptionBacktrace.enumerated().map { frameLine($0.offset, $0.element) }
        }
        for thread in crash.threads {
            lines.append("")
            let name = [thread.name, thread.queue.map { "Dispatch queue: \($0)" }].compactMap { $0 }.joined(
                separator: " ")
            if !name.isEmpty { lines.append("Thread \(thread.index) name:  \(name)") }
            lines.append("Thread \(thread.index)\(thread.crashed ? " Crashed" : ""):")
            lines += thread.frames.enumerated().map { frameLine($0.offset, $0.element) }
        }
        if !crash.images.isEmpty {
            lines += ["", "Binary Images:"]
            for image in crash.images.sorted(by: { $0.loadAddress < $1.loadAddress }) {
                let end = image.endAddress.map { CrashNumber.hex($0) } ?? "???"
                let uuid = image.uuid.map { "<\($0.filter { $0 != "-" })>" } ?? "<00000000000000000000000000000000>"
                let name = (image.isApp ? "+" : "") + image.name
                lines.append(
                    "\(CrashNumber.hex(image.loadAddress)) - \(end) \(name) \(image.arch ?? "unknown-arch")  \(uuid) \(image.path ?? image.name)"
                )
            }
        }
        return lines.joined(separator: "\n") + "\n"
    }

    /// `N   Image<padding>\t0xADDRESS symbol + offset (File:line)`, or `0xLOAD + OFFSET` when unsymbolicated.
    /// A symbolicated frame with inlined functions takes one line per function, innermost first, like
    /// symbolicatecrash.
    private func frameLine(_ index: Int, _ frame: Frame) -> String {
        let image = (frame.image ?? "???").padding(30)
        let address = frame.address.map { CrashNumber.hex($0, width: 16) } ?? "0x0000000000000000"
        if let locations = frame.symbolication?.locations, !locations.isEmpty {
            return locations.map { location in
                var text = location.demangledName ?? location.rawName
                if let offset = location.offset { text += " + \(offset)" }
                if let file = location.file {
                    let name = PathText.lastComponent(file)
                    text += " (\(name)\(location.line.map { ":\($0)" } ?? ""))"
                }
                return String(index).padding(4) + image + "\t" + address + " " + text
            }.joined(separator: "\n")
        }
        var location: String
        if let symbol = frame.symbol {
            location = symbol + (frame.symbolOffset.map { " + \($0)" } ?? "")
            if let file = frame.file { location += " (\(file)\(frame.line.map { ":\($0)" } ?? ""))" }
        } else if let load = frame.imageLoadAddress, let offset = frame.imageOffset {
            location = "\(CrashNumber.hex(load)) + \(offset)"
        } else {
            location = "0x0 + 0"
        }
        return String(index).padding(4) + image + "\t" + address + " " + location
    }
}

extension String {
    /// The string padded with spaces to `width`; a longer string is kept whole with one space after it.
    fileprivate func padding(_ width: Int) -> String {
        count >= width ? self + " " : self + String(repeating: " ", count: width - count)
    }
}
