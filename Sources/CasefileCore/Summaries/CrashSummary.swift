/// Renders the crashes of a report as Markdown: what happened, where, and the crashed thread's frames.
struct CrashSummary {
    /// Frames shown before the rest fold into `<details>`.
    static let visibleFrames = 20

    /// One line naming the crash for "What went wrong": exception, reason, and the first in-app frame; `modules` are
    /// the crash's ``appModules(_:)`` when the caller has them.
    static func headline(_ crash: Crash, modules: Set<String>? = nil) -> String {
        var text = "**\(Markdown.text(title(crash)))**"
        if let name = crash.exception.name { text += " — \(Markdown.code(name))" }
        if let reason = crash.exception.reason {
            text += ": \(Markdown.code(Markdown.truncate(XcodeName.demangled(in: reason), 160)))"
        }
        if let meaning = crash.exception.terminationMeaning { text += " — \(meaning)" }
        if let thread = crash.crashingThread, let frame = firstAppFrame(thread.frames, crash: crash) {
            text += " in \(Markdown.code(location(frame, appModules: modules ?? appModules(crash))))"
            text += " on thread \(thread.index)"
        }
        return text
    }

    /// `EXC_BAD_ACCESS (SIGSEGV)`, `SIGSEGV`, `Jetsam`, plus the termination code when it says more.
    static func title(_ crash: Crash) -> String {
        if crash.kind == .jetsam { return "Jetsam event (killed for memory)" }
        let exception = crash.exception
        var title = [exception.type, exception.signal.map { exception.type == nil ? $0 : "(\($0))" }]
            .compactMap { $0 }.joined(separator: " ")
        if title.isEmpty { title = exception.name ?? "Crash" }
        if let code = exception.terminationCodeHex, exception.terminationNamespace != "SIGNAL" {
            title += " · \(exception.terminationNamespace ?? "termination") \(code)"
        }
        return title
    }

    /// The Markdown section for one crash.
    static func render(_ crash: Crash, number: Int?) -> [String] {
        var lines = ["## Crash\(number.map { " \($0)" } ?? "")", ""]
        // Made once for the headline and every frame table.
        let modules = appModules(crash)
        lines.append(headline(crash, modules: modules))
        lines.append("")
        var rows: [(String, String)] = []
        let app = crash.app
        if let name = app.name ?? app.bundleID {
            var value = [name, app.version, app.build.map { "(\($0))" }].compactMap { $0 }.joined(separator: " ")
            if let bundle = app.bundleID, bundle != name { value += " · \(bundle)" }
            rows.append(("App", Markdown.text(value)))
        }
        let os = crash.os.description
        if !os.isEmpty { rows.append(("OS", Markdown.text(os))) }
        if let model = crash.deviceModel { rows.append(("Device", Markdown.text(model))) }
        if let incident = crash.incidentID { rows.append(("Incident", Markdown.code(incident))) }
        if let time = crash.timestamp { rows.append(("Time", Markdown.text(time))) }
        if let codes = crash.exception.codesText {
            rows.append(("Exception codes", Markdown.code(codes)))
        } else if !crash.exception.codes.isEmpty {
            rows.append(
                (
                    "Exception codes",
                    Markdown.code(crash.exception.codes.map { CrashNumber.hex($0) }.joined(separator: ", "))
                ))
        }
        if let subtype = crash.exception.subtype { rows.append(("Exception subtype", Markdown.code(subtype))) }
        if let reason = crash.exception.terminationReason {
            rows.append(("Termination", Markdown.text(Markdown.truncate(reason, 300))))
        }
        if let image = crash.appImage {
            let uuid = image.uuid.map { " \(Markdown.code($0))" } ?? ""
            rows.append(
                (
                    "App image",
                    "\(Markdown.text(image.name))\(uuid) at \(Markdown.code(CrashNumber.hex(image.loadAddress)))"
                ))
        }
        rows.append(("Format", crash.format.rawValue))
        lines += ["| | |", "|---|---|"] + rows.map { "| \($0.0) | \(Markdown.cell($0.1)) |" }
        if let jetsam = crash.jetsam {
            lines.append("")
            lines.append(
                "Killed: "
                    + jetsam.killed.map { "\(Markdown.code($0.name)) (\(Markdown.text($0.reason)))" }.joined(
                        separator: ", "))
            if let largest = jetsam.largestProcess { lines.append("Largest process: \(Markdown.code(largest))") }
        }
        if let thread = crash.crashingThread {
            let about = [thread.name, thread.queue.map { "queue \($0)" }].compactMap { $0 }.joined(separator: ", ")
            lines.append("")
            lines.append("### Crashed thread \(thread.index)\(about.isEmpty ? "" : " — \(Markdown.text(about))")")
            lines.append("")
            lines += frameTable(thread.frames, crash: crash, modules: modules)
        }
        if !crash.exceptionBacktrace.isEmpty {
            lines.append("")
            lines.append("### Exception backtrace")
            lines.append("")
            lines += frameTable(crash.exceptionBacktrace, crash: crash, modules: modules)
        }
        return lines
    }

    private static func frameTable(_ frames: [Frame], crash: Crash, modules: Set<String>) -> [String] {
        guard !frames.isEmpty else { return ["No frames were recorded."] }
        let appImage = crash.appImageName
        let header = ["| # | Image | Address | Location |", "|---:|---|---|---|"]
        // Each row is made once: the first rows appear both in the visible table and in the full one.
        var row = MarkdownRow()
        let rows = frames.indices.map { index in
            let frame = frames[index]
            let image = frame.image ?? "???"
            row.start()
            row.append(decimal: index)
            row.append(" | ")
            row.append(Markdown.cell(Markdown.text(isApp(frame, appImageName: appImage) ? image + " ★" : image)))
            row.append(" | ")
            if let address = frame.address { row.append(hexCode: address) }
            row.append(" | ")
            row.append(codeCell: location(frame, appModules: modules))
            row.append(" |")
            return row.line
        }
        var lines = header + rows.prefix(visibleFrames)
        if frames.count > visibleFrames {
            lines += ["", "<details><summary>All \(frames.count) frames</summary>", ""]
            lines += header + rows
            lines += ["", "</details>"]
        }
        lines += ["", "★ the app's own image."]
        // Each status's reason is written once: frames of one image share their status, and making the text of
        // every frame's reason to compare it cost a string per frame.
        var statuses: [FrameSymbolication.Status] = []
        var reasons: [String] = []
        for frame in frames {
            guard let symbolication = frame.symbolication, !statuses.contains(symbolication.status) else { continue }
            statuses.append(symbolication.status)
            if let reason = symbolication.reason, !reasons.contains(reason) { reasons.append(reason) }
        }
        let symbolicated = frames.filter { $0.symbolication?.locations.isEmpty == false }.count
        if frames.contains(where: { $0.symbolication != nil }) {
            lines.append("Symbolicated \(symbolicated) of \(frames.count) frames.")
        }
        lines += reasons.map { "- not symbolicated: \(Markdown.text($0))" }
        return lines
    }

    /// `symbol + 96 (File.swift:41)`, or `ShopApp + 34280` when unsymbolicated.
    static func location(_ frame: Frame, appModules: Set<String> = ["Swift"]) -> String {
        if let locations = frame.symbolication?.locations, let function = locations.last {
            // The frame's own function first; functions inlined into it after, innermost last.
            var text = function.displayDescription(modules: appModules)
            let inlined = locations.dropLast().reversed().map { $0.displayDescription(modules: appModules) }
            if !inlined.isEmpty { text += " · inlined " + inlined.joined(separator: " → ") }
            return text
        }
        var text: String
        if let symbol = frame.symbol {
            text = XcodeName.simplified(symbol, modules: appModules) + (frame.symbolOffset.map { " + \($0)" } ?? "")
        } else if let offset = frame.imageOffset {
            text = "\(frame.image ?? "???") + \(offset)"
        } else {
            text = frame.address.map { CrashNumber.hex($0) } ?? "???"
        }
        if let file = frame.file {
            text += " (\(file)\(frame.line.map { ":\($0)" } ?? ""))"
        }
        return text
    }

    /// The Swift modules whose prefix a name loses on display: `Swift`, and the app's own module (its executable's
    /// name, and the process name, spaces as underscores, as Swift names a module).
    static func appModules(_ crash: Crash) -> Set<String> {
        var modules: Set<String> = ["Swift"]
        for name in [crash.appImage?.name, crash.processName, crash.app.name].compactMap({ $0 }) {
            modules.insert(name)
            // A name with spaces is also a module with underscores (`My App` is `My_App`). Looked for in the bytes:
            // mapping every name's Characters cost 2 % of a run over small reports, whose names seldom hold a space.
            if name.utf8.contains(UInt8(ascii: " ")) { modules.insert(String(name.map { $0 == " " ? "_" : $0 })) }
        }
        return modules
    }

    static func isApp(_ frame: Frame, crash: Crash) -> Bool {
        isApp(frame, appImageName: crash.appImageName)
    }

    /// Whether the frame lies in the image of this name, found once per crash by ``Crash/appImageName``.
    static func isApp(_ frame: Frame, appImageName: String?) -> Bool {
        isApp(image: frame.image, appImageName: appImageName)
    }

    /// Whether a frame in this image lies in the app, by the frame's image name alone.
    static func isApp(image: String?, appImageName: String?) -> Bool {
        guard let image else { return false }
        return image == appImageName
    }

    private static func firstAppFrame(_ frames: [Frame], crash: Crash) -> Frame? {
        frames.first { isApp($0, crash: crash) } ?? frames.first
    }
}
