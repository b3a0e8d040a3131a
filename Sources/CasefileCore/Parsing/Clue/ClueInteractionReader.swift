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
        // Most lines are read straight from their bytes; the rest as trees, to the same record.
        let lines = JSONLines(file: file, bytes: bytes)
        warnings += lines.scan(decoding: ClueTouchLineDecoder.decode, tree: ClueTouchLineDecoder.record) {
            line, record in
            guard let timestamp = record.timestamp else {
                warnings.append(Diagnostic(file: file, line: line, message: "no numeric \"timestamp\"; record skipped"))
                return
            }
            let phase: TouchPhase =
                switch record.type {
                case "Began": .began
                case "Moved": .moved
                case "Ended": .ended
                default: .unknown
                }
            if phase == .unknown {
                warnings.append(
                    Diagnostic(file: file, line: line, message: "unknown touch type \"\(record.type)\"; kept"))
            }
            let event = TouchEvent(phase: phase, rawPhase: record.type, touches: record.touches)
            records.append(Record(timestamp: timestamp, line: line, event: event))
        }
        return records
    }
}
