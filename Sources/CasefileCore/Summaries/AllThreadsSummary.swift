/// Every thread and binary image of a report's crashes, as `casefile show REPORT --threads` prints them from the
/// index. A report's summary shows the crashed thread and the exception backtrace; the other threads and the full
/// image list live only in the index's crash-detail blobs, and this is how a triager reads them.
public enum AllThreadsSummary {
    /// One crash of the report: its threads and images, as the index keeps them.
    public struct CrashDetail: Sendable {
        /// Every thread, in the report's order.
        public var threads: [CrashThread]
        /// Every binary image, in the report's order.
        public var images: [BinaryImage]

        /// Creates the detail of one crash.
        public init(threads: [CrashThread], images: [BinaryImage]) {
            self.threads = threads
            self.images = images
        }
    }

    /// The Markdown page: a section per crash with a table per thread (every frame) and the binary images.
    public static func render(report: String, crashes: [CrashDetail]) -> String {
        var lines = ["# Every thread of report \(Markdown.code(String(report.prefix(12))))", ""]
        if crashes.isEmpty { lines += ["The report holds no crash.", ""] }
        for (number, detail) in crashes.enumerated() {
            lines += section(detail, number: crashes.count > 1 ? number + 1 : nil)
        }
        return lines.joined(separator: "\n")
    }

    private static func section(_ detail: CrashDetail, number: Int?) -> [String] {
        var crash = Crash(format: .appleText)
        crash.threads = detail.threads
        crash.images = detail.images
        let modules = CrashSummary.appModules(crash)
        let appImage = crash.appImageName
        var lines = [
            "## Crash\(number.map { " \($0)" } ?? ""): \(count(detail.threads.count, "thread")), "
                + "\(count(detail.images.count, "binary image"))",
            "",
        ]
        for thread in detail.threads {
            let about = [thread.name, thread.queue.map { "queue \($0)" }].compactMap { $0 }.joined(separator: ", ")
            lines.append(
                "### Thread \(thread.index)\(thread.crashed ? " (crashed)" : "")"
                    + (about.isEmpty ? "" : " — \(Markdown.text(about))"))
            lines.append("")
            guard !thread.frames.isEmpty else {
                lines += ["No frames were recorded.", ""]
                continue
            }
            lines += ["| # | Image | Address | Location |", "|---:|---|---|---|"]
            for (index, frame) in thread.frames.enumerated() {
                let image =
                    (frame.image ?? "???")
                    + (CrashSummary.isApp(frame, appImageName: appImage) ? " ★" : "")
                let address = frame.address.map { Markdown.code(CrashNumber.hex($0)) } ?? ""
                lines.append(
                    "| \(index) | \(Markdown.cell(Markdown.text(image))) | \(address) | "
                        + "\(Markdown.cell(Markdown.code(CrashSummary.location(frame, appModules: modules)))) |")
            }
            lines.append("")
        }
        lines += ["★ the app's own image.", "", "### Binary images", ""]
        guard !detail.images.isEmpty else { return lines + ["The report lists no binary images.", ""] }
        lines += ["| Image | UUID | Load address | End address | Arch | Path |", "|---|---|---|---|---|---|"]
        for image in detail.images {
            let cells = [
                Markdown.text(image.name + (image.isApp ? " ★" : "")), image.uuid.map(Markdown.code) ?? "",
                Markdown.code(CrashNumber.hex(image.loadAddress)),
                image.endAddress.map { Markdown.code(CrashNumber.hex($0)) } ?? "",
                image.arch.map(Markdown.text) ?? "", image.path.map(Markdown.code) ?? "",
            ]
            lines.append("| " + cells.map(Markdown.cell).joined(separator: " | ") + " |")
        }
        lines.append("")
        return lines
    }

    private static func count(_ value: Int, _ noun: String) -> String {
        "\(value) \(noun)\(value == 1 ? "" : "s")"
    }
}
