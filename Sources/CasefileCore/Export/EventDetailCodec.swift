public import CasefileArchive
import Foundation

/// A report's whole timeline events as one blob: each event's JSON (``IndexJSON``, the form of an event of
/// `casefile triage --format json`) on a line of its own, in timeline order, zstd-compressed (`BlobCompression`).
///
/// The index keeps the fields of an event that are queried — kind, summary, time, the exchange's URL, status and
/// error — as a row of `timeline_events`; the whole event is read only to show a report, so it is kept once per report,
/// compressed, and made by the parallel stages so the index writer only stores it. As a column of each event's row, the
/// JSON of a long recording's events took about as much room as the recording itself. A person reads a blob with
/// `zstd -d`: it is JSON Lines.
public enum EventDetailCodec {
    /// The blob's layout, stored beside it (`event_details.version`).
    public static let version = 1

    /// The blob of `events`; throws when an event cannot be written as JSON or the text cannot be compressed.
    public static func encode(_ events: [TimelineEvent]) throws -> [UInt8] {
        var text: [UInt8] = []
        text.reserveCapacity(events.count * 400)
        for event in events {
            // JSON text holds no line break of its own: one inside a string is written `\n`.
            try IndexJSON.append(event, to: &text)
            text.append(lineBreak)
        }
        return try BlobCompression.compress(text)
    }

    /// The events of a blob of ``version`` 1, in order: `nil` for a line that is not an event Casefile reads (an event
    /// of a kind from a later version). Throws when the blob cannot be decompressed.
    public static func decode(_ blob: [UInt8]) throws(ArchiveError) -> [TimelineEvent?] {
        let text = try BlobCompression.decompress(blob)
        let decoder = JSONDecoder()
        var lines = text.split(separator: lineBreak, omittingEmptySubsequences: false)
        // The text ends with a line break: what follows the last is not a line.
        if lines.last?.isEmpty == true { lines.removeLast() }
        return lines.map { line in try? decoder.decode(TimelineEvent.self, from: Data(line)) }
    }

    private static let lineBreak = UInt8(ascii: "\n")
}
