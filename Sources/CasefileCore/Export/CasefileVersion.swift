/// The version `casefile --version` prints, and the versions of what it writes.
public enum CasefileVersion {
    /// This build.
    public static let current = "0.14.0"
    /// The layouts this build writes, for the version line.
    public static let interfaces =
        "index migrations v1–v11, triage JSON schema 1, run JSON schema 1, outbox casefile-outbox/1, pipeline version 1, crash detail blob 2"
}
