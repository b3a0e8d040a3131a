/// What files attached beside a report say about the app beyond timeline events: a debug-menu dump's version,
/// feature toggles and libraries, and a data-snapshot folder's recorded and missing operations.
public struct ReportAttachments: Sendable, Codable, Hashable {
    /// The attachment files read, in input order.
    public var files: [String] = []
    /// The app version (`CFBundleShortVersionString`), from an app-info dump.
    public var appVersion: String?
    /// The app build (`CFBundleVersion`), from an app-info dump.
    public var appBuild: String?
    /// The values of `X-FEATURE-NAME` request headers, in first-seen order.
    public var featureNames: [String] = []
    /// Feature toggles and their values, as dumped.
    public var toggles: [FeatureToggle] = []
    /// The libraries a `Podfile.lock` lists.
    public var libraries: [Library] = []
    /// The data snapshots, when a snapshot folder was attached.
    public var snapshots: DataSnapshots?
    /// Keychain items and UserDefaults values from a debug-menu dump; Keychain values are always masked.
    public var storedValues: [StoredValue] = []

    /// Creates empty attachments.
    public init() {}

    /// Whether nothing was attached.
    public var isEmpty: Bool {
        files.isEmpty
    }

    /// A value the app stored on the device, as a debug menu dumped it.
    public struct StoredValue: Sendable, Codable, Hashable {
        /// Where the app stored a value.
        public enum Store: String, Sendable, Codable, Hashable {
            /// The Keychain: credentials by design, so every value is masked.
            case keychain
            /// UserDefaults: masked when the key names a secret, scrubbed as text otherwise.
            case userDefaults
        }

        /// Where it was stored.
        public var store: Store
        /// Its key (a Keychain item's account or service).
        public var key: String
        /// Its value.
        public var value: JSONValue

        /// Creates a stored value.
        public init(store: Store, key: String, value: JSONValue) {
            self.store = store
            self.key = key
            self.value = value
        }
    }

    /// A feature toggle and its value.
    public struct FeatureToggle: Sendable, Codable, Hashable {
        /// The toggle's name.
        public var name: String
        /// Its value: usually a Boolean, sometimes a string or number.
        public var value: JSONValue

        /// Creates a toggle.
        public init(name: String, value: JSONValue) {
            self.name = name
            self.value = value
        }
    }

    /// A library and its version.
    public struct Library: Sendable, Codable, Hashable {
        /// The pod name, e.g. `Alamofire` or `Firebase/Analytics`.
        public var name: String
        /// The version, e.g. `5.8.1`.
        public var version: String

        /// Creates a library.
        public init(name: String, version: String) {
            self.name = name
            self.version = version
        }
    }
}

/// A data-snapshot folder: recorded payloads checked against the module registry beside them.
public struct DataSnapshots: Sendable, Codable, Hashable {
    /// The folder, as found in the input.
    public var folder: String
    /// Every payload, in name order.
    public var payloads: [SnapshotPayload]
    /// Each registered module with the operations recorded and missing.
    public var modules: [Module]
    /// Operations recorded that no module registers.
    public var unregistered: [String]

    /// Creates a snapshot summary.
    public init(folder: String, payloads: [SnapshotPayload], modules: [Module], unregistered: [String]) {
        self.folder = folder
        self.payloads = payloads
        self.modules = modules
        self.unregistered = unregistered
    }

    /// One module of the registry.
    public struct Module: Sendable, Codable, Hashable {
        /// The module name.
        public var name: String
        /// Registered operations with at least one payload.
        public var recorded: [String]
        /// Registered operations with none.
        public var missing: [String]

        /// Creates a module entry.
        public init(name: String, recorded: [String], missing: [String]) {
            self.name = name
            self.recorded = recorded
            self.missing = missing
        }
    }
}
