/// Reads `Modules/module_interaction.json`: one record per touch phase.
enum ClueInteractionReader {
    /// A touch record before hit-testing.
    struct Record {
        var timestamp: Double
        var line: Int
        var event: TouchEvent
    }

    static func read(_ bytes: [UInt8], file: String, warnings: inout [Diagnostic]) -> [Record] {
        var records: [Record] = []
        warnings += JSONLines(file: file, bytes: bytes).scan { record in
            guard let timestamp = record.value["timestamp"]?.double else {
                warnings.append(
                    Diagnostic(file: file, line: record.line, message: "no numeric \"timestamp\"; record skipped"))
                return
            }
            let raw = record.value["type"]?.string ?? ""
            let phase: TouchPhase =
                switch raw {
                case "Began": .began
                case "Moved": .moved
                case "Ended": .ended
                default: .unknown
                }
            if phase == .unknown {
                warnings.append(
                    Diagnostic(file: file, line: record.line, message: "unknown touch type \"\(raw)\"; kept"))
            }
            // V2 omits "touches" when empty.
            let touches = (record.value["touches"]?.array ?? []).compactMap { touch -> TouchPoint? in
                guard let location = touch["locationInWindow"], let x = location["x"]?.double,
                    let y = location["y"]?.double
                else { return nil }
                return TouchPoint(tapCount: touch["tapCount"]?.int ?? 0, x: x, y: y)
            }
            let event = TouchEvent(phase: phase, rawPhase: raw, touches: touches)
            records.append(Record(timestamp: timestamp, line: record.line, event: event))
        }
        return records
    }
}
