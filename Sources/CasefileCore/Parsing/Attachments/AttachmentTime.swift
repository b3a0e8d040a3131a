/// A time as an attachment writes it, before it is placed on a report's recording clock.
///
/// In-house tools write ISO-8601 (with or without an offset), epoch seconds or milliseconds, or only a time of day;
/// each needs a different part of the recording's start to align with.
enum AttachmentTime: Sendable, Hashable {
    /// An instant: seconds since 1970-01-01 UTC (epoch numbers, ISO-8601 with `Z` or an offset).
    case absolute(Double)
    /// A date and time on the device's local clock with no offset: seconds since 1970-01-01 00:00 local.
    case local(Double)
    /// Only a time of day on the device's local clock: seconds since midnight.
    case timeOfDay(Double)

    /// The time in a JSON value: a number of epoch seconds (milliseconds when above 10¹¹) or a string in ISO-8601
    /// (`2026-11-20T13:02:05.120+01:00`, a space for the `T`, `Z`, `+0100`) or `HH:mm:ss[.SSS]`.
    init?(_ value: JSONValue?) {
        guard let value else { return nil }
        if let number = value.double {
            guard number.isFinite, number > 0 else { return nil }
            self = .absolute(number > 100_000_000_000 ? number / 1000 : number)
        } else if let text = value.string {
            self.init(text: text)
        } else {
            return nil
        }
    }

    /// Parses ISO-8601 date-times and bare times of day.
    init?(text: String) {
        let bytes = Array(text.utf8)[...]
        if bytes.count <= 15, let seconds = Self.clock(bytes) {
            self = .timeOfDay(seconds)
        } else if let (local, offset) = Self.dateTime(text) {
            self = offset.map { .absolute(local - $0) } ?? .local(local)
        } else {
            return nil
        }
    }

    /// An ISO-8601 date-time (`2026-11-20T13:02:05.120+01:00`, a space for the `T`, `Z`, `+0100`, no zone): its
    /// local value in seconds since 1970-01-01 00:00 on the same clock, and the zone's offset east of UTC when given.
    static func dateTime(_ text: String) -> (local: Double, offset: Double?)? {
        let bytes = Array(text.utf8)[...]
        guard bytes.count >= 19, bytes[4] == 0x2D, bytes[7] == 0x2D, bytes[10] == 0x54 || bytes[10] == 0x20,
            let year = number(bytes, 0, 4), let month = number(bytes, 5, 2), let day = number(bytes, 8, 2),
            (1...12).contains(month), (1...31).contains(day), let seconds = clock(bytes[11...])
        else { return nil }
        let local = Double(days(year: year, month: month, day: day)) * 86_400 + seconds
        var zone = 19
        if zone < bytes.count, bytes[zone] == 0x2E {
            zone += 1
            while zone < bytes.count, (0x30...0x39).contains(bytes[zone]) { zone += 1 }
        }
        guard zone < bytes.count else { return (local, nil) }
        if bytes[zone] == 0x5A { return (local, 0) }
        guard bytes[zone] == 0x2B || bytes[zone] == 0x2D, let hours = number(bytes, zone + 1, 2) else {
            return nil
        }
        let minutesAt = zone + 3 < bytes.count && bytes[zone + 3] == 0x3A ? zone + 4 : zone + 3
        let minutes = number(bytes, minutesAt, 2) ?? 0
        return (local, Double(hours * 3600 + minutes * 60) * (bytes[zone] == 0x2D ? -1 : 1))
    }

    /// `HH:mm:ss[.fraction]` at the start of `bytes`: seconds since midnight.
    private static func clock(_ bytes: ArraySlice<UInt8>) -> Double? {
        let base = bytes.startIndex
        guard bytes.count >= 8, bytes[base + 2] == 0x3A, bytes[base + 5] == 0x3A,
            let hours = number(bytes, base, 2), let minutes = number(bytes, base + 3, 2),
            let seconds = number(bytes, base + 6, 2), hours < 24, minutes < 60, seconds < 61
        else { return nil }
        var value = Double(hours * 3600 + minutes * 60 + seconds)
        var index = base + 8
        if index < bytes.endIndex, bytes[index] == 0x2E {
            var scale = 0.1
            index += 1
            while index < bytes.endIndex, (0x30...0x39).contains(bytes[index]) {
                value += Double(bytes[index] - 0x30) * scale
                scale /= 10
                index += 1
            }
        }
        return value
    }

    /// The decimal number of `count` digits at index `start` of `bytes` (an array slice keeps its base's indices).
    private static func number(_ bytes: ArraySlice<UInt8>, _ start: Int, _ count: Int) -> Int? {
        guard start >= bytes.startIndex, start + count <= bytes.endIndex else { return nil }
        var value = 0
        for byte in bytes[start..<(start + count)] {
            guard (0x30...0x39).contains(byte) else { return nil }
            value = value * 10 + Int(byte - 0x30)
        }
        return value
    }

    /// Days from 1970-01-01 to a date of the proleptic Gregorian calendar (Howard Hinnant's `days_from_civil`).
    static func days(year: Int, month: Int, day: Int) -> Int {
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yearOfEra = y - era * 400
        let dayOfYear = (153 * (month > 2 ? month - 3 : month + 9) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }
}
