#!/usr/bin/env python3
"""Writes Tests/Fixtures/Secrets/seeded-secrets.zip: a bug report with a secret of every kind Casefile must keep out of
what it writes (SecretsTests.swift scans every output for each value listed in SECRETS below).

Where each secret is seeded:
- support.clue/Modules/module_network.json (the recording): a URL with `?access_token=`, a URL with a password in
  its user info, a `Set-Cookie` response header, and a JSON response body with an email and a `password` member.
- DebugMenu/network-log.json: `X-API-Key` and `Cookie` request headers, a `?token=` query, a form body with
  `password=`, a JSON request body with `card_number`.
- app.log: an email, a phone number, a JWT, `Authorization: Bearer …`, `password=…`, a `sk_live_` API key.
- DebugMenu/debug-menu.json: Keychain items, UserDefaults with a session token and an email (and `theme = dark`,
  which is not secret and must survive), analytics parameters with an email, a push notification with a phone number.
The recording's device info and touches are those of SampleReports/checkout-bugreport.zip.
"""
import io
import json
import os
import zipfile

HERE = os.path.dirname(os.path.abspath(__file__))
SOURCE = os.path.join(HERE, "..", "SampleReports", "checkout-bugreport.zip")
TARGET = os.path.join(HERE, "..", "Tests", "Fixtures", "Secrets", "seeded-secrets.zip")

EMAIL = "jane.doe@example.com"
PHONE = "+1 415 555 0134"
JWT = "eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJzdWIiOiJTRUVEand0In0.SEEDjwtSignature0123"
SECRETS = [
    "SEEDtokQueryValue123", "SEEDuserinfoPass", "SEEDsetCookieValue", "SEEDpassResponse", EMAIL,
    "SEEDapiKeyHeader1", "SEEDcookieValue", "SEEDqueryToken2", "SEEDformPass", "4242424242424242",
    "415 555 0134", "eyJzdWIiOiJTRUVEand0In0", "SEEDbearerLogValue42", "SEEDpassLogValue", "4f9aQ2xZ7bL1mN8pR3tVw",
    "SEEDkeychainToken7", "SEEDkeychainRefresh8", "SEEDdefaultsSession9",
]


def lines(records):
    return "".join(json.dumps(record, separators=(",", ":")) + "\n" for record in records)


NETWORK = lines([
    {"timestamp": 2.0, "label": "DidReceiveResponse", "properties": [{
        "class": "NSHTTPURLResponse",
        "URL": "https://api.shop.example/v1/profile?access_token=SEEDtokQueryValue123&user=u-1",
        "MIMEType": "application/json", "expectedContentLength": -1, "statusCode": 401,
        "localizedStringForStatusCode": "unauthorized",
        "allHeaderFields": {"Content-Type": "application/json", "Set-Cookie": "sid=SEEDsetCookieValue; Path=/"}}]},
    {"timestamp": 2.0, "label": "DidReceiveData", "properties": [{
        "HTTPBody": json.dumps({"user": {"email": EMAIL, "password": "SEEDpassResponse!9"}, "error": "expired"})}]},
    {"timestamp": 3.0, "label": "DidReceiveResponse", "properties": [{
        "class": "NSHTTPURLResponse", "URL": "https://admin:SEEDuserinfoPass@internal.shop.example/v1/health",
        "MIMEType": "text/plain", "expectedContentLength": 2, "statusCode": 503,
        "localizedStringForStatusCode": "service unavailable", "allHeaderFields": {"Content-Type": "text/plain"}}]},
    {"timestamp": 3.0, "label": "DidReceiveData", "properties": [{"HTTPBody": "down"}]},
])

NETWORK_LOG = [
    {"method": "POST", "url": "https://api.shop.example/v1/login?token=SEEDqueryToken2",
     "startedAt": "2026-11-20T13:02:04.000+01:00", "endedAt": "2026-11-20T13:02:04.300+01:00", "statusCode": 400,
     "requestHeaders": {"X-API-Key": "SEEDapiKeyHeader1", "Cookie": "sid=SEEDcookieValue",
                        "Content-Type": "application/x-www-form-urlencoded"},
     "requestBody": "username=jane&password=SEEDformPass",
     "responseBody": {"error": "bad_credentials"}},
    {"method": "POST", "url": "https://api.shop.example/v1/cards",
     "startedAt": "2026-11-20T13:02:05.000+01:00", "endedAt": "2026-11-20T13:02:05.200+01:00", "statusCode": 422,
     "requestHeaders": {"Content-Type": "application/json"},
     "requestBody": {"card_number": "4242424242424242", "holder": "Jane"},
     "responseBody": {"error": "card_declined"}},
]

LOG = "\n".join([
    "13:02:01.000 INFO [App] AppDelegate.signIn():12 - Signed in as " + EMAIL + ", phone " + PHONE,
    "13:02:02.000 DEBUG [Network] APIClient.send(_:):40 - token " + JWT,
    "13:02:02.100 DEBUG [Network] APIClient.send(_:):41 - Authorization: Bearer SEEDbearerLogValue42",
    "13:02:02.200 ERROR [Login] LoginViewModel.submit():77 - login failed password=SEEDpassLogValue retry",
    "13:02:02.300 INFO [Payments] Stripe.configure():9 - key sk_live_4f9aQ2xZ7bL1mN8pR3tVw",
]) + "\n"

DEBUG_MENU = {
    "keychain": [{"account": "authToken", "value": "SEEDkeychainToken7"},
                 {"account": "refreshToken", "value": "SEEDkeychainRefresh8"}],
    "userDefaults": {"sessionToken": "SEEDdefaultsSession9", "lastLoginEmail": EMAIL, "theme": "dark"},
    "analytics": [{"name": "login_failed", "parameters": {"email": EMAIL, "attempt": 2},
                   "timestamp": "2026-11-20T13:02:04.400+01:00"}],
    "pushNotifications": [{"title": "Verify", "body": "Call us at " + PHONE,
                           "receivedAt": "2026-11-20T13:02:06.000+01:00"}],
}


def main():
    with zipfile.ZipFile(SOURCE) as source:
        device = source.read("checkout.clue/Info/info_device.json")
        session = source.read("checkout.clue/Info/info_session.json")
        touches = source.read("checkout.clue/Modules/module_interaction.json")
    stamp = (2026, 11, 20, 12, 2, 0)
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as archive:
        for name, data in [
            ("support.clue/Info/info_device.json", device),
            ("support.clue/Info/info_session.json", session),
            ("support.clue/Modules/module_interaction.json", touches),
            ("support.clue/Modules/module_network.json", NETWORK.encode()),
            ("app.log", LOG.encode()),
            ("DebugMenu/network-log.json", json.dumps(NETWORK_LOG, indent=1).encode()),
            ("DebugMenu/debug-menu.json", json.dumps(DEBUG_MENU, indent=1).encode()),
        ]:
            archive.writestr(zipfile.ZipInfo(name, stamp), data)
    os.makedirs(os.path.dirname(TARGET), exist_ok=True)
    with open(TARGET, "wb") as target:
        target.write(buffer.getvalue())
    with open(os.path.join(os.path.dirname(TARGET), "secrets.txt"), "w") as listing:
        listing.write("".join(secret + "\n" for secret in SECRETS))


if __name__ == "__main__":
    main()
