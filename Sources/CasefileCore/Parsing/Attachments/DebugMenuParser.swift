/// Reads what an in-house debug menu dumps beside a report, each file recognized by its name (see
/// SampleReports/README.md): a network log, analytics events, delivered push notifications, feature toggles, app
/// version and build, Keychain items and UserDefaults values, a `Podfile.lock` — or one `debug-menu.json` holding
/// several of them under their keys. Nothing is redacted here: the report's redaction pass masks what is secret.
enum DebugMenuParser {
    /// What a dump file holds.
    enum Kind: String, Sendable {
        case network, analytics, push, toggles, appInfo, keychain, userDefaults, podfileLock, combined
    }

    /// A record that happened at a time.
    struct Timed<Value> {
        var value: Value
        var line: Int
        var time: AttachmentTime?
    }

    /// Everything read from one dump file.
    struct Dump {
        var requests: [NetworkLogParser.Record] = []
        var analytics: [Timed<AnalyticsEvent>] = []
        var pushes: [Timed<PushNotification>] = []
        var toggles: [ReportAttachments.FeatureToggle] = []
        var libraries: [ReportAttachments.Library] = []
        var storedValues: [ReportAttachments.StoredValue] = []
        var appVersion: String?
        var appBuild: String?
        var bundleID: String?
        var warnings: [Diagnostic] = []
    }

    /// The kind of dump a file is, from its name (any case, `-`, `_` or nothing between words), or `nil`.
    static func kind(of path: String) -> Kind? {
        let name = String(path.split(separator: "/").last ?? "")
        if name == "Podfile.lock" { return .podfileLock }
        let lower = name.lowercased()
        let isJSON = [".json", ".jsonl", ".ndjson"].contains { lower.hasSuffix($0) }
        guard isJSON else { return nil }
        let words = lower.filter { $0.isLetter }
        if words.hasPrefix("debugmenu") { return .combined }
        if words.contains("networklog") || words.hasPrefix("network") || words.hasPrefix("requests") {
            return .network
        }
        if words.hasPrefix("analytics") { return .analytics }
        if words.hasPrefix("push") || words.contains("notifications") { return .push }
        if words.contains("toggle") || words.contains("featureflag") || lower == "flags.json" { return .toggles }
        if words.hasPrefix("appinfo") || words.hasPrefix("version") { return .appInfo }
        if words.hasPrefix("keychain") { return .keychain }
        if words.hasPrefix("userdefaults") || words.hasPrefix("defaults") { return .userDefaults }
        return nil
    }

    /// The dump in `bytes`, or `nil` when the file is not what its name says.
    static func parse(_ bytes: [UInt8], file: String, kind: Kind) -> Dump? {
        if kind == .podfileLock {
            let libraries = PodfileLockParser.libraries(String(decoding: bytes, as: UTF8.self))
            return libraries.isEmpty ? nil : Dump(libraries: libraries)
        }
        var dump = Dump()
        if kind == .combined {
            guard let object = (try? JSONParser.parse(bytes, mode: .tolerant))?.object else { return nil }
            for member in object.members {
                guard let section = section(named: member.key) else { continue }
                let items = member.value.array ?? [member.value]
                add(items.map { AttachmentRecords.Record(line: 1, value: $0) }, as: section, to: &dump)
            }
        } else {
            guard let (records, warnings) = AttachmentRecords.read(bytes, file: file) else { return nil }
            dump.warnings = warnings
            add(records, as: kind, to: &dump)
        }
        let found =
            dump.requests.count + dump.analytics.count + dump.pushes.count + dump.toggles.count
            + dump.storedValues.count
            + (dump.appVersion == nil && dump.appBuild == nil ? 0 : 1)
        return found == 0 ? nil : dump
    }

    /// The kind of a section of a combined `debug-menu.json`, from its key.
    private static func section(named key: String) -> Kind? {
        let key = key.lowercased().filter(\.isLetter)
        if key.hasPrefix("network") || key == "requests" { return .network }
        if key.hasPrefix("analytics") { return .analytics }
        if key.hasPrefix("push") || key == "notifications" { return .push }
        if key.contains("toggle") || key.contains("flag") { return .toggles }
        if key.hasPrefix("app") || key == "version" { return .appInfo }
        if key.hasPrefix("keychain") { return .keychain }
        if key.hasPrefix("userdefaults") || key == "defaults" { return .userDefaults }
        return nil
    }

    private static func add(_ records: [AttachmentRecords.Record], as kind: Kind, to dump: inout Dump) {
        switch kind {
        case .network:
            dump.requests += records.compactMap { NetworkLogParser.record($0.value, line: $0.line) }
        case .analytics:
            dump.analytics += records.compactMap(analytics)
        case .push:
            dump.pushes += records.compactMap(push)
        case .toggles:
            dump.toggles += records.flatMap { toggles($0.value) }
        case .appInfo:
            for record in records {
                let value = record.value
                dump.appVersion =
                    value.field("version", "appVersion", "CFBundleShortVersionString", "shortVersion")?.string
                    ?? dump.appVersion
                dump.appBuild =
                    (value.field("build", "buildNumber", "CFBundleVersion").flatMap {
                        $0.string ?? $0.int.map(String.init)
                    })
                    ?? dump.appBuild
                dump.bundleID =
                    value.field("bundleIdentifier", "bundleID", "CFBundleIdentifier")?.string ?? dump.bundleID
            }
        case .keychain:
            dump.storedValues += records.flatMap { stored($0.value, in: .keychain) }
        case .userDefaults:
            dump.storedValues += records.flatMap { stored($0.value, in: .userDefaults) }
        case .podfileLock, .combined:
            break
        }
    }

    /// `{"name", "parameters", "destination", "timestamp"}` and its synonyms.
    private static func analytics(_ record: AttachmentRecords.Record) -> Timed<AnalyticsEvent>? {
        let value = record.value
        guard let name = value.field("name", "event", "eventName")?.string else { return nil }
        let parameters = value.field("parameters", "params", "properties", "attributes")
        let destination = value.field("destination", "provider", "tracker", "service")?.string
        return Timed(
            value: AnalyticsEvent(name: name, parameters: parameters, destination: destination), line: record.line,
            time: AttachmentTime(value.field("timestamp", "time", "date", "sentAt")))
    }

    /// `{"title", "body", "category", "userInfo", "receivedAt"}`, or an APNs payload with `aps.alert`.
    private static func push(_ record: AttachmentRecords.Record) -> Timed<PushNotification>? {
        let value = record.value
        let payload = value.field("userInfo", "payload") ?? value["aps"].map { _ in value }
        let alert = payload?["aps"]?["alert"]
        let title = value.field("title")?.string ?? alert?["title"]?.string
        let body = value.field("body", "message")?.string ?? alert?["body"]?.string ?? alert?.string
        guard title != nil || body != nil || payload != nil else { return nil }
        return Timed(
            value: PushNotification(
                title: title, body: body,
                category: value.field("category")?.string ?? payload?["aps"]?["category"]?.string,
                payload: payload),
            line: record.line, time: AttachmentTime(value.field("receivedAt", "deliveredAt", "timestamp", "date")))
    }

    /// `{"key": value, …}`, or `[{"key"/"account"/"service", "value"/"data"}]` records.
    private static func stored(
        _ value: JSONValue, in store: ReportAttachments.StoredValue.Store
    ) -> [ReportAttachments.StoredValue] {
        if let key = value.field("key", "account", "service", "name")?.string,
            let setting = value.field("value", "data", "password", "secret")
        {
            return [ReportAttachments.StoredValue(store: store, key: key, value: setting)]
        }
        return value.object?.members.map { ReportAttachments.StoredValue(store: store, key: $0.key, value: $0.value) }
            ?? []
    }

    /// `{"name": value, …}` (or under `"toggles"`/`"features"`/`"flags"`), or `[{"name", "value"}]` records.
    private static func toggles(_ value: JSONValue) -> [ReportAttachments.FeatureToggle] {
        if let name = value.field("name", "key", "id")?.string,
            let setting = value.field("value", "enabled", "isEnabled", "state")
        {
            return [ReportAttachments.FeatureToggle(name: name, value: setting)]
        }
        if let nested = value.field("toggles", "features", "flags") {
            return (nested.array ?? [nested]).flatMap(toggles)
        }
        return value.object?.members.map { ReportAttachments.FeatureToggle(name: $0.key, value: $0.value) } ?? []
    }
}
