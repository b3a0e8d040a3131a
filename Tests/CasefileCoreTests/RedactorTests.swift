import CasefileCore
import Foundation
import Testing

/// Each expected string is the input with the secret replaced by hand, as the redaction rules describe.
@Suite struct RedactorTests {
    let redactor = Redactor.standard

    @Test func masksKeyValueSecretsInFreeText() {
        #expect(redactor.text("login failed password=hunter2 retry") == "login failed password=[redacted] retry")
        #expect(
            redactor.text(#"body {"access_token": "tok_live_abc123"}"#)
                == #"body {"access_token": "tok_live_…[redacted]"}"#)
        #expect(redactor.text("authToken: sk_live_9f8e7d") == "authToken: sk_live_…[redacted]")
        #expect(redactor.text("Authorization: Bearer abc.def") == "Authorization: Bearer …[redacted]")
    }

    @Test func masksEmailsPhonesJWTsAndRandomLookingValues() {
        #expect(redactor.text("Signed in as jane.doe@example.com.") == "Signed in as [redacted email].")
        #expect(redactor.text("call +44 20 7946 0958 now") == "call [redacted phone] now")
        #expect(redactor.text("call (415) 555-0100") == "call [redacted phone]")
        #expect(redactor.text("call 415-555-0100 or 415.555.0101") == "call [redacted phone] or [redacted phone]")
        #expect(redactor.text("jwt eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxIn0.sig") == "jwt eyJ…[redacted JWT]")
        #expect(redactor.text("key AKIAIOSFODNN7EXAMPLEa1") == "key [redacted]")
    }

    @Test func leavesWhatATriagerNeeds() {
        let lines = [
            "13:02:13.160 ERROR [Network] APIClient.handle(_:):131 - POST /v1/orders failed: 500",
            "2026-11-20 13:02:00 request 5B0F1C2E-9D4A-4C61-8E07-3A1F6B2C9D10 took 620 ms",
            "URLSession: task <7F3A> finished; spinner visible; image 3d6e1f0a9b8c7d6e5f4a3b2c1d0e9f8a",
            "Showing PaymentErrorView for cart 8812, order ord_3f2a, version 2.3.1 (412)",
            "CheckoutViewController.viewDidLoad() at 0x0000000104a3c000",
        ]
        for line in lines {
            #expect(redactor.text(line) == line)
        }
    }

    @Test func masksURLsQueriesAndUserInfo() {
        #expect(
            redactor.url("https://api.example/v1/me?access_token=abc&user=u-1#top")
                == "https://api.example/v1/me?access_token=[redacted]&user=u-1#top")
        #expect(redactor.url("https://admin:pw@host.example/x") == "https://admin:[redacted]@host.example/x")
        #expect(
            redactor.url("https://host.example/search?q=jane@example.com")
                == "https://host.example/search?q=[redacted email]")
        #expect(redactor.url("https://host.example/v1/cart/8812?page=2") == "https://host.example/v1/cart/8812?page=2")
    }

    @Test func masksJSONMembersAtAnyDepthAndKeepsNullsAndBooleans() throws {
        let value = try JSONParser.parse(#"{"user":{"password":"p","email":"a@b.co","pin":null},"remember":true}"#)
        #expect(
            redactor.json(value).compactText
                == #"{"user":{"password":"[redacted]","email":"[redacted email]","pin":null},"remember":true}"#)
    }

    @Test func headersByNameAndTheRulesOfAPipeline() {
        #expect(redactor.header(name: "X-Api-Key", value: "k_123") == "[redacted]")
        #expect(redactor.header(name: "Accept", value: "application/json") == "application/json")
        // Not among the rules' names, but holding `token` or `secret` in any case: a credential too.
        for name in ["X-Refresh-Token", "X-CLIENT-SECRET", "x-tokens-left", "X-Ünicode-Token", "SecretHash"] {
            #expect(redactor.header(name: name, value: "v_42") == "[redacted]", "\(name)")
        }
        for name in ["X-Toke", "Secre-T", "X-Request-Id", "Tokn", ""] {
            #expect(redactor.header(name: name, value: "v_42") == "v_42", "\(name)")
        }
        var rules = RedactionRules.standard
        rules.headers.append("X-Shop-Session")
        rules.patterns.append("ORD-[0-9]{6}")
        rules.emails = false
        let custom = Redactor(rules: rules)
        #expect(custom.header(name: "x-shop-session", value: "abc") == "[redacted]")
        #expect(custom.text("order ORD-123456 for a@b.co") == "order [redacted] for a@b.co")
    }

    /// A recording whose every snapshot shows the same e-mail address on a label: each screen's state, and the label
    /// changed to it, is redacted — not only the first (view texts are redacted once per distinct text and reused).
    @Test func redactsARepeatedLabelInEverySnapshot() throws {
        func snapshot(_ time: Int, root: String, label: String) -> String {
            #"{"timestamp":\#(time),"view":{"class":"\#(root)","properties":{"frame":{"x":0,"y":0,"width":100,"#
                + #""height":100}},"subviews":[{"class":"UILabel","properties":{"text":"\#(label)","frame":{"x":0,"#
                + #""y":0,"width":100,"height":20}},"subviews":[]}]}}"#
        }
        let lines = [
            snapshot(1, root: "AccountView", label: "Signed in as jane.doe@example.com"),
            snapshot(2, root: "SettingsView", label: "Signed in as jane.doe@example.com"),
            snapshot(3, root: "SettingsView", label: "Mail jane.doe@example.com"),
            snapshot(4, root: "SettingsView", label: "Signed in as jane.doe@example.com"),
        ]
        let report = try WrittenRecording.report(modules: ["module_view.json": lines])
        var texts: [String] = []
        for event in report.timeline.events {
            switch event.kind {
            case .screen(let change): texts += change.state.labels
            case .viewUpdate(let update): texts += update.state.labels + update.items.compactMap(\.text)
            default: break
            }
        }
        #expect(texts.count >= 6)
        #expect(!texts.contains { $0.contains("jane.doe") })
        #expect(texts.filter { $0 == "Signed in as [redacted email]" }.count >= 3)
        #expect(texts.contains("Mail [redacted email]"))
    }
}
