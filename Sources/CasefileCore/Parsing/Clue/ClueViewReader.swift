#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Reads `Modules/module_view.json` as a stream of snapshots, keeping only the current one: it turns root class
/// changes into ``ScreenChange``s, visible differences into ``ViewUpdate``s, and hit-tests touches on the way.
enum ClueViewReader {
    struct Output {
        var events: [TimelineEvent] = []
        var snapshotCount = 0
        var lastTimestamp: Double?
    }

    /// Reads the snapshots; fills in `touches[i].event.target` from the latest snapshot at or before each touch.
    ///
    /// A large file is read in two halves at once: the second half starts from the last snapshot of the first, read
    /// again, and hit-tests only the touches the first half leaves, so the result is the one of reading it in turn.
    static func read(
        _ bytes: [UInt8], file: String, touches: inout [ClueInteractionReader.Record], warnings: inout [Diagnostic]
    ) -> Output {
        let recorded = touches
        let order = touches.indices.sorted { touches[$0].timestamp < touches[$1].timestamp }
        var parts: [Part]
        if let halfway = halfway(bytes) {
            let first = JSONLines(file: file, bytes: bytes, range: 0..<halfway.offset)
            let second = JSONLines(
                file: file, bytes: bytes, range: halfway.offset..<bytes.count, firstLine: halfway.line)
            let (front, back) = SideBySide.run(
                concurrently: true,
                { read(first, touches: recorded, order: order, from: Start(), resolvingRest: false) },
                {
                    read(
                        second, touches: recorded, order: order,
                        from: start(after: first, touches: recorded, order: order), resolvingRest: true)
                })
            parts = [front, back]
        } else {
            let lines = JSONLines(file: file, bytes: bytes)
            parts = [read(lines, touches: recorded, order: order, from: Start(), resolvingRest: true)]
        }
        var output = Output()
        // Each part hit-tests the touches from where the one before it left off.
        var resolved = 0
        for part in parts {
            output.events += part.events
            output.snapshotCount += part.snapshotCount
            output.lastTimestamp = part.lastTimestamp ?? output.lastTimestamp
            for (position, target) in part.targets where position >= resolved {
                touches[order[position]].event.target = target
            }
            resolved = max(resolved, part.resolved)
        }
        // The snapshots' warnings, then the lines skipped, as reading the file in turn gives them.
        warnings += parts.flatMap(\.notes) + parts.flatMap(\.skipped)
        return output
    }

    /// What reading some of the file's lines gives.
    private struct Part {
        var events: [TimelineEvent] = []
        var snapshotCount = 0
        var lastTimestamp: Double?
        /// The snapshots skipped, and why.
        var notes: [Diagnostic] = []
        /// The lines that could not be read.
        var skipped: [Diagnostic] = []
        /// The targets hit, by the touch's position in time order.
        var targets: [(position: Int, target: TouchTarget)] = []
        /// How many touches, in time order, were hit-tested (a hit or not) from the start of the recording.
        var resolved = 0
    }

    /// Where reading some of the lines starts: the snapshot on screen before the first of them, and the first touch,
    /// by position in time order, still to hit-test.
    private struct Start {
        var snapshot: ViewNode?
        var touch = 0
    }

    /// Reads the snapshots of `lines` from `start`; hit-tests the touches of their time, and those after the last
    /// snapshot when `resolvingRest`.
    private static func read(
        _ lines: JSONLines, touches: [ClueInteractionReader.Record], order: [Int], from start: Start,
        resolvingRest: Bool
    ) -> Part {
        var part = Part()
        var current = start.snapshot
        var next = start.touch
        func resolveTouches(before limit: Double?, on snapshot: ViewNode?) {
            while next < order.count, limit.map({ touches[order[next]].timestamp < $0 }) ?? true {
                if let snapshot, let point = touches[order[next]].event.touches.first,
                    let path = snapshot.hitTest(x: point.x, y: point.y), let target = path.last
                {
                    // The root view's "text" would only be the first label on screen: name it by class alone.
                    let label = path.count > 1 ? target.displayText : nil
                    part.targets.append(
                        (next, TouchTarget(className: target.className, label: label, path: path.map(\.className))))
                }
                next += 1
            }
        }
        // Most lines are read straight from their bytes; the rest as trees, to the same snapshot.
        part.skipped = lines.scan(decoding: ClueViewLineDecoder.decode, tree: snapshot) { line, snapshot in
            guard let timestamp = snapshot.timestamp else {
                part.notes.append(
                    Diagnostic(file: lines.file, line: line, message: "no numeric \"timestamp\"; snapshot skipped"))
                return
            }
            guard let root = snapshot.view else {
                part.notes.append(
                    Diagnostic(
                        file: lines.file, line: line, message: "no \"view\" with a \"class\"; snapshot skipped"))
                return
            }
            resolveTouches(before: timestamp, on: current)
            part.snapshotCount += 1
            part.lastTimestamp = timestamp
            if let kind = change(from: current, to: root) {
                part.events.append(TimelineEvent(timestamp: timestamp, file: lines.file, line: line, kind: kind))
            }
            current = root
        }
        if resolvingRest { resolveTouches(before: nil, on: current) }
        part.resolved = next
        return part
    }

    /// Where a file is cut to read it in two halves at once: after the first line that ends past its middle, with the
    /// number of the line that starts there. `nil` for a file too small for a second thread to pay, or of more lines
    /// than ``JSONLines`` reads from one file (its limit counts the whole file's).
    private static func halfway(_ bytes: [UInt8]) -> (offset: Int, line: Int)? {
        guard bytes.count >= 2 * SideBySide.pieceBytes else { return nil }
        return bytes.withUnsafeBufferPointer { buffer -> (offset: Int, line: Int)? in
            guard let base = buffer.baseAddress else { return nil }
            var lines = 0
            var halfway: (offset: Int, line: Int)?
            var position = 0
            while let found = memchr(base + position, 0x0A, buffer.count - position) {
                let newline = base.distance(to: found.assumingMemoryBound(to: UInt8.self))
                lines += 1
                if lines >= JSONLines.maximumRecords { return nil }
                if halfway == nil, newline >= buffer.count / 2, newline + 1 < buffer.count {
                    halfway = (newline + 1, lines + 1)
                }
                position = newline + 1
            }
            return halfway
        }
    }

    /// Where reading the lines after `lines` starts: from the last snapshot they hold, read as ``read(_:file:touches:warnings:)``
    /// reads it, with the first touch not before its time (a touch before it was hit-tested with the lines before).
    private static func start(
        after lines: JSONLines, touches: [ClueInteractionReader.Record], order: [Int]
    ) -> Start {
        guard
            let last = lines.last(
                decoding: ClueViewLineDecoder.decode, tree: snapshot, where: { $0.timestamp != nil && $0.view != nil }),
            let timestamp = last.timestamp
        else { return Start() }
        // The first touch, in time order, at or after the snapshot's time.
        var low = 0
        var high = order.count
        while low < high {
            let middle = (low + high) / 2
            if touches[order[middle]].timestamp < timestamp { low = middle + 1 } else { high = middle }
        }
        return Start(snapshot: last.view, touch: low)
    }

    /// The snapshot a line's tree holds, as ``ClueViewLineDecoder`` reads it from the bytes.
    static func snapshot(_ value: JSONValue) -> ClueViewLineDecoder.Snapshot {
        ClueViewLineDecoder.Snapshot(
            timestamp: value["timestamp"]?.double, view: value["view"].flatMap { ViewNode($0) })
    }

    /// What a user would notice between two snapshots: a ``ScreenChange`` when the root class differs, a
    /// ``ViewUpdate`` when visible views changed, `nil` when nothing did.
    private static func change(from old: ViewNode?, to new: ViewNode) -> TimelineEvent.Kind? {
        guard let old, old.className == new.className else {
            return .screen(ScreenChange(fromClass: old?.className, toClass: new.className, state: screenState(new)))
        }
        let items = ViewDiff.changes(from: old, to: new)
        return items.isEmpty ? nil : .viewUpdate(ViewUpdate(items: items, state: screenState(new)))
    }

    /// What the screen shows: root class, navigation title, first texts, a visible spinner or alert.
    static func screenState(_ root: ViewNode) -> ScreenState {
        var title: String?
        var spinner = false
        var alert: String?
        func walk(_ node: ViewNode, inNavigationBar: Bool) {
            guard !node.hidden, node.className != ViewNode.recordingIndicator else { return }
            let inBar = inNavigationBar || node.className.containsBytes("NavigationBar")
            if inBar, title == nil, let text = node.text { title = text }
            if ViewChange.isSpinner(node.className) { spinner = true }
            if alert == nil, ViewChange.isAlert(node.className) { alert = node.alertText }
            for child in node.children { walk(child, inNavigationBar: inBar) }
        }
        walk(root, inNavigationBar: false)
        return ScreenState(
            rootClass: root.className, title: title, labels: root.visibleTexts(limit: 4), spinnerVisible: spinner,
            alert: alert.flatMap { $0.isEmpty ? nil : $0 })
    }
}
