import Foundation
import Testing

/// `casefile triage --format json` is an interface: every sample's document validates against
/// `Schemas/triage-v1.schema.json`, and the fields scripts rely on hold what the inputs say.
@Suite struct TriageJSONTests {
    private static let schema: JSON = {
        let url = Casefile.repository.appendingPathComponent("Schemas/triage-v1.schema.json")
        // A missing or broken schema file fails every test below through an empty schema's type check.
        return (try? JSON.parse(String(contentsOf: url, encoding: .utf8))) ?? .null
    }()

    private func document(_ path: String) throws -> JSON {
        let result = try Casefile.run(["triage", "--format", "json", path])
        return try JSON.parse(result.stdout)
    }

    static let inputs = [
        "checkout-500.clue.zip", "checkout-exception.clue.zip", "offline-1009.clue.zip", "clean-session.zip",
        "two-reports.zip", "E2A7C3D4-1B2F-4A5E-9C8D-7F6E5D4C3B2A.clue", "Crashes/cart-total-iphone14-ios16.ips",
        "Crashes/cart-total-iphone11-ios15.crash", "Crashes/cart-total-iphone12-ios15-kscrash.json",
        "Crashes/cart-total-ios15-metrickit-payload.json", "Crashes/coupon-nsexception-iphone13-bugsnag.json",
        "checkout-bugreport.zip",
    ]

    @Test(arguments: inputs)
    func validatesAgainstTheSchema(_ input: String) throws {
        let document = try document(Casefile.sample(input))
        let errors = JSONSchemaValidator(root: Self.schema).errors(of: document)
        #expect(errors.isEmpty, "\(input): \(errors.prefix(5))")
        #expect(!document.allKeys.contains("_0"))
    }

    @Test func theValidatorRejectsWhatTheSchemaForbids() throws {
        let validator = JSONSchemaValidator(root: Self.schema)
        let good = try document(Casefile.sample("checkout-500.clue.zip"))
        #expect(validator.errors(of: good).isEmpty)
        // The same document with an event whose payload hides under a "_0" key, as the Swift enum encoding would.
        let text = try Casefile.run(["triage", "--format", "json", Casefile.sample("checkout-500.clue.zip")]).stdout
        let broken = try JSON.parse(text.replacingOccurrences(of: "\"touch\" : {", with: "\"touch\" : {\"_0\": 1, "))
        #expect(validator.errors(of: broken).contains { $0.hasSuffix("unexpected key _0") })
        let wrongVersion = try JSON.parse(
            text.replacingOccurrences(of: "\"schemaVersion\" : 1", with: "\"schemaVersion\" : 2"))
        #expect(validator.errors(of: wrongVersion) == ["$.schemaVersion: expected number(1.0), found number(2.0)"])
    }

    @Test func chainsNameTheTriggerTheExchangeAndTheOutcome() throws {
        let document = try document(Casefile.sample("checkout-500.clue.zip"))
        #expect(document["schemaVersion"] == .number(1))
        let report = try #require(document["reports"]?.array?.first)
        let chain = try #require(report["chains"]?.array?.first)
        #expect(report["chains"]?.array?.count == 1)
        // From the sample: the "Pay now" button goes up at 12.483 s, the 500 arrives at 13.150 s, and the root view
        // switches to ShopApp.PaymentErrorView at 13.167 s.
        #expect(chain["trigger"]?["label"] == .string("Pay now"))
        #expect(chain["trigger"]?["time"] == .number(12.483333499999999))
        #expect(chain["exchange"]?["status"] == .number(500))
        #expect(chain["exchange"]?["template"] == .string("/v1/orders"))
        #expect(chain["exchange"]?["method"] == nil)
        #expect(chain["outcome"]?["kind"] == .string("error-screen"))
        #expect(chain["outcome"]?["time"] == .number(13.166666750000001))
        let events = try #require(report["events"]?.array)
        let triggerEvent = try #require(chain["trigger"]?["event"]?.number)
        #expect(events[Int(triggerEvent)]["type"] == .string("touch"))
        #expect(events[Int(triggerEvent)]["touch"]?["phase"] == .string("ended"))
        let exchangeEvent = try #require(chain["exchange"]?["event"]?.number)
        #expect(events[Int(exchangeEvent)]["network"]?["statusCode"] == .number(500))
        #expect(events.first?["type"] == .string("screen"))
        #expect(events.first?["file"] == .string("Modules/module_view.json"))
        #expect(events.first?["line"] == .number(1))
    }

    @Test func attachmentsAreEventsAndFieldsWithoutSecrets() throws {
        let path = Casefile.sample("checkout-bugreport.zip")
        let output = try Casefile.run(["triage", "--format", "json", path]).stdout
        // The debug menu's bearer token, session cookie, card number and analytics session token.
        for secret in ["eyJhbGci", "s3cr3t-session", "4111111111111111", "tok-991"] {
            #expect(!output.contains(secret), "\(secret) in the JSON")
        }
        let report = try #require(try JSON.parse(output)["reports"]?.array?.first)
        let types = (report["events"]?.array ?? []).compactMap { $0["type"]?.string }
        #expect(types.filter { $0 == "analytics" }.count == 3)
        #expect(types.filter { $0 == "push" }.count == 1)
        #expect(types.filter { $0 == "snapshot" }.count == 4)
        #expect(types.filter { $0 == "log" }.count == 4)
        #expect(report["attachments"]?["appVersion"] == .string("2.3.1"))
        #expect(
            report["attachments"]?["snapshots"]?["modules"]?.array?.first?["missing"] == .array([.string("PayOrder")]))
        let chain = try #require(report["chains"]?.array?.first)
        #expect(chain["exchange"]?["method"] == .string("POST"))
        #expect(chain["exchange"]?["feature"] == .string("Checkout"))
    }
}
