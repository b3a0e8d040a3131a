import CasefileCore
import Testing

/// A view file of hundreds of kilobytes, which the reader reads in two halves at once, gives what the rule for reading
/// it line by line gives: each touch hit-tested on the snapshot on screen when the first snapshot later than the touch
/// came (or the last one), each line numbered in the file, the first snapshot of the second half compared with the last
/// of the first.
@Suite struct LargeViewFileTests {
    /// A snapshot line of about a kilobyte: a screen with one button over all of it, labelled `label`. The `layer`
    /// filler stands for the properties Clue writes and the reader skips.
    static func snapshot(_ time: Double?, label: String) -> String {
        let timestamp = time.map { #""timestamp":\#($0),"# } ?? ""
        return #"{\#(timestamp)"view":{"class":"ShopApp.FeedView","properties":{"frame":{"x":0,"y":0,"width":375,"#
            + #""height":667},"layer":"\#(String(repeating: "x", count: 900))"},"subviews":[{"class":"UIButton","#
            + #""properties":{"frame":{"x":0,"y":0,"width":375,"height":667},"text":"\#(label)"},"subviews":[]}]}}"#
    }

    static func touch(_ time: Double) -> String {
        #"{"type":"Began","timestamp":\#(time),"touches":[{"tapCount":1,"locationInWindow":{"x":100,"y":100}}]}"#
    }

    /// The label of the target of each touch on the timeline, by its line in the interaction file.
    static func targets(_ report: Report) -> [Int: String?] {
        var labels: [Int: String?] = [:]
        for event in report.timeline.events {
            guard case .touch(let touch) = event.kind, let line = event.line else { continue }
            labels[line] = touch.target?.label
        }
        return labels
    }

    @Test func everyTouchHitsTheSnapshotBeforeIt() throws {
        // 400 snapshots a second apart, 400 KB; a tap half a second after each.
        let views = (1...400).map { Self.snapshot(Double($0), label: "Button \($0)") }
        let touches = (1...400).map { Self.touch(Double($0) + 0.5) }
        #expect(views.joined(separator: "\n").utf8.count > 400_000)
        let report = try WrittenRecording.report(modules: [
            "module_view.json": views, "module_interaction.json": touches,
        ])
        let targets = Self.targets(report)
        #expect(targets.count == 400)
        for line in 1...400 {
            #expect(targets[line] == "Button \(line)", "the tap at \(line).5 s")
        }
        #expect(report.viewSnapshotCount == 400)
        // The first snapshot opens the screen; each later one changes the button's title, the one after the middle
        // too (against the last snapshot before it).
        let kinds = report.timeline.events.map(\.kindName)
        #expect(kinds.filter { $0 == "screen" }.count == 1)
        #expect(kinds.filter { $0 == "view" }.count == 399)
    }

    /// A file with snapshots out of time order, lines without a time, broken and blank lines, read as the rule says.
    @Test(arguments: [1, 2, 3, 4, 5] as [UInt64])
    func irregularFileReadsAsLineByLine(seed: UInt64) throws {
        var random = SplitMixGenerator(seed: seed)
        var lines: [String] = []
        // (line, time) of each snapshot with a time and a view, in the order of the file.
        var valid: [(line: Int, time: Double)] = []
        var broken: [Int] = []
        var untimed: [Int] = []
        for line in 1...600 {
            let roll = random.next() % 100
            switch roll {
            case 0..<5:
                lines.append("")
            case 5..<10:
                lines.append(#"{"timestamp":"#)
                broken.append(line)
            case 10..<15:
                lines.append(Self.snapshot(nil, label: "L\(line)"))
                untimed.append(line)
            default:
                // Mostly a second after the line before; one in six jumps back up to 20 s.
                let back = roll < 30 ? Double(random.next() % 2000) / 100 : 0
                let time = max(0, Double(line) - back)
                lines.append(Self.snapshot(time, label: "L\(line)"))
                valid.append((line, time))
            }
        }
        let touchTimes = (0..<300).map { _ in Double(random.next() % 62_000) / 100 + 0.005 }
        let report = try Self.read(lines, valid: valid, touchTimes: touchTimes)
        let warnings = report.warnings.filter { $0.file == "Modules/module_view.json" }
        #expect(warnings.filter { $0.message.contains("invalid JSON") }.compactMap(\.line) == broken)
        #expect(warnings.filter { $0.message.contains("no numeric") }.compactMap(\.line) == untimed)
    }

    /// Snapshots that go back five seconds every other line, so that the first half ends, wherever it ends, on a
    /// snapshot earlier than one before it in the file (for one of the file's lengths at least): the touches between
    /// the two were hit-tested with the first half, on the snapshot before the later one.
    @Test(arguments: [400, 401, 402, 403])
    func snapshotsGoingBackInTime(count: Int) throws {
        var lines: [String] = []
        var valid: [(line: Int, time: Double)] = []
        for line in 1...count {
            let time = line % 2 == 1 ? 5.0 * Double(line + 1) : 5.0 * Double(line) - 5
            lines.append(Self.snapshot(time, label: "L\(line)"))
            valid.append((line, time))
        }
        // Between each snapshot going back and the one before it, and after each.
        var touchTimes: [Double] = []
        for pair in 1...count / 2 {
            let peak = 10.0 * Double(pair)
            touchTimes += [peak - 2.5, peak + 2.5]
        }
        _ = try Self.read(lines, valid: valid, touchTimes: touchTimes)
    }

    /// Reads a recording of the view file `lines` and a touch at each of `touchTimes`, and checks it against the rule:
    /// a touch is hit-tested when the first snapshot later than it comes, on the one on screen before that; with no
    /// later snapshot, on the last one. `valid` lists the snapshots with a time and a view, in the order of the file.
    static func read(_ lines: [String], valid: [(line: Int, time: Double)], touchTimes: [Double]) throws -> Report {
        #expect(lines.joined(separator: "\n").utf8.count > 300_000)
        let report = try WrittenRecording.report(modules: [
            "module_view.json": lines, "module_interaction.json": touchTimes.map(Self.touch),
        ])
        let targets = Self.targets(report)
        for (index, time) in touchTimes.enumerated() {
            let later = valid.firstIndex { $0.time > time } ?? valid.count
            let expected: String? = later == 0 ? nil : "L\(valid[later - 1].line)"
            #expect(targets[index + 1] == .some(expected), "the touch at \(time) s")
        }
        #expect(report.viewSnapshotCount == valid.count)
        let kinds = report.timeline.events.map(\.kindName)
        #expect(kinds.filter { $0 == "screen" }.count == 1)
        #expect(kinds.filter { $0 == "view" }.count == valid.count - 1)
        return report
    }
}
