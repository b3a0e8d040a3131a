/// The device a report came from.
public struct Device: Sendable, Codable, Hashable {
    /// The user-assigned device name (personal data: never rendered into summaries or the index).
    public var name: String?
    /// The generic model (`iPhone`, `iPad`) or a hardware identifier (`iPhone14,2`) when the format has one.
    public var model: String?
    /// The operating system name, e.g. `iOS`.
    public var systemName: String?
    /// The operating system version, e.g. `10.3.1`.
    public var systemVersion: String?
    /// `identifierForVendor`, when recorded.
    public var identifierForVendor: String?
    /// Battery level 0…1, or `nil` when unknown (Clue writes −1 unless the app enabled battery monitoring).
    public var batteryLevel: Double?
    /// Battery state: unknown, unplugged, charging or full.
    public var batteryState: BatteryState?

    /// Creates a device description.
    public init(
        name: String? = nil, model: String? = nil, systemName: String? = nil, systemVersion: String? = nil,
        identifierForVendor: String? = nil, batteryLevel: Double? = nil, batteryState: BatteryState? = nil
    ) {
        self.name = name
        self.model = model
        self.systemName = systemName
        self.systemVersion = systemVersion
        self.identifierForVendor = identifierForVendor
        self.batteryLevel = batteryLevel
        self.batteryState = batteryState
    }

    /// `iOS 10.3.1`, or whichever parts are known.
    public var operatingSystem: String? {
        let parts = [systemName, systemVersion].compactMap { $0 }
        return parts.isEmpty ? nil : parts.joined(separator: " ")
    }
}

/// `UIDevice.BatteryState` as Clue records it.
public enum BatteryState: String, Sendable, Codable, Hashable {
    /// 0: unknown.
    case unknown
    /// 1: on battery.
    case unplugged
    /// 2: charging.
    case charging
    /// 3: full.
    case full

    /// Maps UIKit's raw value; `nil` for values UIKit does not define.
    public init?(rawState: Int) {
        switch rawState {
        case 0: self = .unknown
        case 1: self = .unplugged
        case 2: self = .charging
        case 3: self = .full
        default: return nil
        }
    }
}

/// The app a report came from.
public struct AppInfo: Sendable, Codable, Hashable {
    /// The app's name.
    public var name: String?
    /// The bundle identifier.
    public var bundleID: String?
    /// The marketing version (`CFBundleShortVersionString`).
    public var version: String?
    /// The build number (`CFBundleVersion`).
    public var build: String?

    /// Creates an app description.
    public init(name: String? = nil, bundleID: String? = nil, version: String? = nil, build: String? = nil) {
        self.name = name
        self.bundleID = bundleID
        self.version = version
        self.build = build
    }
}
