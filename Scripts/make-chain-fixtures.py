#!/usr/bin/env python3
"""Writes Tests/Fixtures/Chains/*.clue: small hand-designed Clue recordings, one per correlation case, each described
below with the chain a person expects from it (the tests in ChainTests.swift state the same expectations).

One screen, ShopApp.CartView (375x667): title label "Cart", a coupon text field, a "Pay now" button at
(35, 538, 305x55), a hidden spinner under it, a hidden error label; the recording indicator on top.
Timestamps sit on the 60 Hz grid only loosely: correlation must not care.
"""
import copy
import json
import os
import shutil

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "Tests", "Fixtures", "Chains")


def view(cls, x, y, w, h, hidden=False, interactive=True, text=None, placeholder=None, subviews=()):
    properties = {"frame": {"x": x, "y": y, "width": w, "height": h}, "hidden": hidden,
                  "userInteractionEnabled": interactive}
    if text is not None:
        properties["text"] = text
    if placeholder is not None:
        properties["placeholder"] = placeholder
    return {"class": cls, "properties": properties, "subviews": list(subviews)}


def cart(spinner=False, button_enabled=True, button_text="Pay now", error=None, alert=None):
    subviews = [
        view("UILabel", 16, 80, 200, 24, interactive=False, text="Cart"),
        view("UITextField", 16, 140, 343, 30, text="", placeholder="Coupon code"),
        view("UIButton", 35, 538, 305, 55, interactive=button_enabled,
             subviews=[view("UIButtonLabel", 128, 19, 60, 16, interactive=False, text=button_text)]),
        view("UIActivityIndicatorView", 177, 603, 20, 20, hidden=not spinner, interactive=False),
        view("UILabel", 16, 480, 343, 40, hidden=error is None, interactive=False, text=error or "Error"),
        view("CLURecordIndicatorView", 0, 0, 375, 29,
             subviews=[view("UILabel", 146, 6, 83, 17, interactive=False, text="Recording...")]),
    ]
    if alert:
        subviews.append(view("_UIAlertControllerView", 52, 250, 270, 150, subviews=[
            view("UILabel", 16, 20, 238, 22, interactive=False, text=alert[0]),
            view("UILabel", 16, 50, 238, 40, interactive=False, text=alert[1]),
            view("_UIAlertControllerActionView", 0, 106, 270, 44,
                 subviews=[view("UILabel", 100, 12, 70, 20, interactive=False, text="OK")])]))
    return view("ShopApp.CartView", 0, 0, 375, 667, subviews=subviews)


def tap(t_down, t_up, x, y):
    point = [{"tapCount": 1, "locationInWindow": {"x": x, "y": y}}]
    return [{"type": "Began", "timestamp": t_down, "touches": point},
            {"type": "Ended", "timestamp": t_up, "touches": point}]


def response(t, url, status, body):
    return [{"timestamp": t, "label": "DidReceiveResponse", "properties": [{
        "class": "NSHTTPURLResponse", "URL": url, "MIMEType": "application/json", "expectedContentLength": len(body),
        "statusCode": status, "localizedStringForStatusCode": "status %d" % status,
        "allHeaderFields": {"Content-Type": "application/json"}}]},
        {"timestamp": t, "label": "DidReceiveData", "properties": [{"HTTPBody": body}]}]


def timeout(t, url):
    return [{"timestamp": t, "label": "DidComplete", "properties": [{
        "class": "NSError", "code": -1001, "domain": "NSURLErrorDomain",
        "userInfo": {"NSLocalizedDescription": "The request timed out.", "NSErrorFailingURLStringKey": url},
        "localizedDescription": "The request timed out.", "localizedFailureReason": ""}]}]


def write(name, views, touches=(), network=(), exception=None):
    folder = os.path.join(ROOT, name + ".clue")
    shutil.rmtree(folder, ignore_errors=True)
    os.makedirs(os.path.join(folder, "Info"))
    os.makedirs(os.path.join(folder, "Modules"))

    def lines(path, records):
        with open(os.path.join(folder, path), "w") as out:
            for record in records:
                out.write(json.dumps(record, separators=(",", ":"), ensure_ascii=False).replace("/", "\\/") + "\n")

    lines("Info/info_device.json", [{"systemName": "iOS", "model": "iPhone", "systemVersion": "16.4",
                                     "name": "QA iPhone", "batteryLevel": -1, "batteryState": 0}])
    lines("Modules/module_view.json", [{"timestamp": t, "view": tree} for t, tree in views])
    lines("Modules/module_interaction.json", list(touches))
    lines("Modules/module_network.json", list(network))
    if exception:
        lines("Info/info_exception.json", [exception])


PAY = (187.5, 566)
TITLE = (60, 90)
API = "https://api.shop.example"

# 1. Background refresh: no touch at all; recommendations fail with 500 and nothing changes on screen.
#    Expected: one chain, no trigger, outcome silent. The successful cart request makes no chain.
write("background-refresh",
      views=[(0, cart()), (9.0, cart())],
      network=response(1.0, API + "/v1/cart", 200, '{"items":[]}')
      + response(5.0, API + "/v1/recommendations?user=8812", 500, '{"error":"internal"}'))

# 2. Two taps close together: "Pay now" at 3.0 s (the spinner shows at once), then a tap on the "Cart" title
#    at 3.4 s, nearer to the failure. The order request fails with 500 at 4.0 s and an alert appears.
#    Expected: trigger "Pay now", outcome alert "Payment failed — Please try again".
write("two-taps",
      views=[(0, cart()), (3.02, cart(spinner=True, button_enabled=False)),
             (4.02, cart(alert=("Payment failed", "Please try again")))],
      touches=tap(2.95, 3.0, *PAY) + tap(3.35, 3.4, *TITLE),
      network=response(4.0, API + "/v1/orders", 500, '{"error":"gateway"}'))

# 3. A retry that succeeds: "Pay now" at 2.0 s, 503 at 2.5 s, the error label shows "Couldn't reach the
#    server"; "Pay now" again at 6.0 s and the same endpoint answers 200 at 6.4 s.
#    Expected: one chain (the 503) with the follow-up retry-succeeded; the 200 makes no chain.
write("retry-succeeds",
      views=[(0, cart()), (2.52, cart(error="Couldn't reach the server")), (6.42, cart())],
      touches=tap(1.95, 2.0, *PAY) + tap(5.95, 6.0, *PAY),
      network=response(2.5, API + "/v1/orders", 503, '{"error":"unavailable"}')
      + response(6.4, API + "/v1/orders", 200, '{"order":"A-1"}'))

# 4. A crash 2 s after a failed request: "Pay now" at 1.0 s, 500 at 1.5 s, the app raises an uncaught exception.
#    Clue writes info_exception.json with no time: it ends the recording, whose last snapshot is at 3.5 s.
#    Expected: trigger "Pay now", follow-up crash (NSInvalidArgumentException).
write("crash-after-failure",
      views=[(0, cart()), (3.5, cart())],
      touches=tap(0.95, 1.0, *PAY),
      network=response(1.5, API + "/v1/orders/8812/pay", 500, '{"error":"gateway"}'),
      exception={"name": "NSInvalidArgumentException",
                 "reson": "*** -[__NSPlaceholderArray initWithObjects:count:]: attempt to insert nil object",
                 "userInfo": "", "callStackReturnAddresses": [], "callStackSymbols": []})

# 5. A silent stuck spinner: "Pay now" at 1.0 s, the spinner shows and the button disables at 1.02 s, the request
#    times out at 8.0 s, and the spinner is still there when the recording ends at 17.0 s.
#    Expected: trigger "Pay now", outcome stuck-spinner (9 s).
write("stuck-spinner",
      views=[(0, cart()), (1.02, cart(spinner=True, button_enabled=False)), (17.0, cart(spinner=True, button_enabled=False))],
      touches=tap(0.95, 1.0, *PAY),
      network=timeout(8.0, API + "/v1/orders"))

# 6. Attachments (Tests/Fixtures/Attachments/checkout-with-log.zip): the checkout recording of SampleReports (tap "Pay now" 12.483 s, HTTP 500 at 13.150 s) zipped with
#    an app log beside it, and an Info/info_session.json saying the recording started at 13:02:00.000 local time.
#    Expected: the log's lines at 13:01:58.500 → −1.5 s, 13:02:12.490 → 12.49 s, 13:02:13.160 → 13.16 s (an error,
#    with a continuation line), 13:02:13.170 → 13.17 s; the chain gains the follow-up "error logged".
import zipfile

SAMPLE = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "SampleReports",
                      "5B0F1C2E-9D4A-4C61-8E07-3A1F6B2C9D10.clue")
LOG = """13:01:58.500 INFO [App-🚀] AppDelegate.application(_:didFinishLaunchingWithOptions:):42 - Launched 2.3.1 (412)
13:02:12.490 DEBUG [Checkout-💳] CheckoutViewModel.pay():80 - Pay tapped, cart 8812
13:02:13.160 ERROR [Network-🌐] APIClient.handle(_:):131 - POST /v1/orders failed: 500 payment_gateway_unavailable
  request_id r-7f3a9c
13:02:13.170 WARNING [Checkout-💳] CheckoutViewModel.showError(_:):96 - Showing PaymentErrorView
"""
attachments = os.path.join(ROOT, "..", "Attachments")
os.makedirs(attachments, exist_ok=True)
with zipfile.ZipFile(os.path.join(attachments, "checkout-with-log.zip"), "w", zipfile.ZIP_DEFLATED) as archive:
    for folder, _, files in sorted(os.walk(SAMPLE)):
        for name in sorted(files):
            path = os.path.join(folder, name)
            relative = os.path.relpath(path, SAMPLE)
            archive.writestr(zipfile.ZipInfo("checkout.clue/" + relative, (2026, 11, 20, 13, 2, 30)),
                             open(path, "rb").read())
    archive.writestr(zipfile.ZipInfo("checkout.clue/Info/info_session.json", (2026, 11, 20, 13, 2, 30)),
                     '{"recordingStart":"2026-11-20T13:02:00.000+01:00","appVersion":"2.3.1","build":"412"}\n')
    archive.writestr(zipfile.ZipInfo("app.log", (2026, 11, 20, 13, 2, 30)), LOG.encode())


# 7. A whole in-house bug report (SampleReports/checkout-bugreport.zip): the same recording and log (with a real
#    screen video: white until 13.15 s, then red), a debug menu's dump and a data-snapshot folder. The recording started at 13:02:00.000+01:00 = 12:02:00Z = epoch 1795176120.
#    Expected, read from the files below:
#    - network-log.json (a JSON array): #1 GET shipping-options ended 13:02:00.851+01:00 → merges into the recorded
#      200 at 0.85 s; #2 POST /v1/orders 12:02:12.530Z → 12:02:13.148Z merges into the recorded 500 at 13.15 s:
#      method POST, latency 0.618 s, X-FEATURE-NAME "Checkout", a curl line without the Authorization header, the
#      cookie or the card number; #3 GET /v1/recommendations?user=u-1942 at epoch ms 1795176135000 → 404 at 15.0 s,
#      not in the recording: a request of its own, and a failure with no touch (background).
#    - analytics.jsonl (JSON lines, epoch seconds and milliseconds): checkout_viewed at 1.0 s, pay_tapped at 12.5 s,
#      payment_failed at 13.2 s whose session_token is redacted.
#    - push-notifications.json: "Your cart is waiting" (category CART_REMINDER) at 5.0 s.
#    - feature-toggles.json: newCheckoutFlow true, applePay false, paymentRetryCount 2.
#    - app-info.json: 2.3.1 (412), com.example.shop.  Podfile.lock: Alamofire 5.8.1, Firebase/Analytics 10.18.0,
#      GoogleUtilities/Environment 7.12.0, SDWebImage 5.18.5 (not the DEPENDENCIES lines).
#    - Snapshots/registry.json: Checkout expects GetCart, CreateOrder, PayOrder; Catalog expects GetProducts.
#      Recorded: GetCart-8812.json (at 13:02:02 → 2 s), CreateOrder-ord_3f2a.json (13 s), GetProducts-page1.json
#      (1 s), Telemetry-x.txt (not JSON, registered by no module, 20 s). Missing: PayOrder.
import struct

START = 1795176120
NETWORK_LOG = [
    {"method": "GET", "url": API + "/v1/shipping-options?cart=8812",
     "startedAt": "2026-11-20T13:02:00.610+01:00", "endedAt": "2026-11-20T13:02:00.851+01:00", "statusCode": 200,
     "requestHeaders": {"Accept": "application/json", "Authorization": "Bearer eyJhbGciOiJIUzI1NiJ9.c2VjcmV0",
                        "X-FEATURE-NAME": "Checkout"},
     "responseBody": {"options": [{"id": "std", "price": 0}]}},
    {"request": {"method": "POST", "url": API + "/v1/orders",
                 "headers": [{"name": "Content-Type", "value": "application/json"},
                             {"name": "Authorization", "value": "Bearer eyJhbGciOiJIUzI1NiJ9.c2VjcmV0"},
                             {"name": "Cookie", "value": "sid=s3cr3t-session"},
                             {"name": "X-FEATURE-NAME", "value": "Checkout"}],
                 "body": "{\"cart\":\"8812\",\"payment\":{\"cardNumber\":\"4111111111111111\",\"cvv\":\"123\"},\"coupon\":\"SPRING\"}",
                 "startedAt": "2026-11-20T12:02:12.530Z"},
     "response": {"statusCode": 500, "headers": {"Content-Type": "application/json"},
                  "body": "{\"error\":\"payment_gateway_unavailable\"}", "endedAt": "2026-11-20T12:02:13.148Z"}},
    {"method": "GET", "url": API + "/v1/recommendations?user=u-1942", "startedAt": (START + 14.8) * 1000,
     "endedAt": (START + 15) * 1000, "statusCode": 404, "requestHeaders": {"X-FEATURE-NAME": "Recommendations"}},
]
ANALYTICS = [
    {"name": "checkout_viewed", "parameters": {"items": 2}, "destination": "Firebase", "timestamp": START + 1.0},
    {"event": "pay_tapped", "params": {"amount": 54.9, "currency": "EUR"}, "provider": "Amplitude",
     "timestamp": START + 12.5},
    {"name": "payment_failed", "parameters": {"code": 500, "session_token": "tok-991"}, "destination": "Firebase",
     "timestamp": (START + 13.2) * 1000},
]
PUSHES = [{"receivedAt": "2026-11-20T13:02:05.000+01:00",
           "userInfo": {"aps": {"alert": {"title": "Your cart is waiting", "body": "Complete your order for 10% off"},
                                "category": "CART_REMINDER"}, "campaign": "c-17"}}]
TOGGLES = {"toggles": [{"name": "newCheckoutFlow", "enabled": True}, {"name": "applePay", "enabled": False},
                       {"name": "paymentRetryCount", "value": 2}]}
APP_INFO = {"CFBundleShortVersionString": "2.3.1", "CFBundleVersion": "412", "CFBundleIdentifier": "com.example.shop"}
PODFILE_LOCK = """PODS:
  - Alamofire (5.8.1)
  - Firebase/Analytics (10.18.0):
    - Firebase/Core
  - "GoogleUtilities/Environment (7.12.0)":
    - PromisesObjC (< 3.0, >= 1.2)
  - SDWebImage (5.18.5)

DEPENDENCIES:
  - Alamofire (~> 5.8)
  - SDWebImage

COCOAPODS: 1.14.3
"""
REGISTRY = {"Checkout": ["GetCart", "CreateOrder", "PayOrder"], "Catalog": ["GetProducts"]}
SNAPSHOTS = [
    ("GetCart-8812.json", 2, {"id": "8812", "items": [{"sku": "A-1", "qty": 2}], "total": 54.9}),
    ("CreateOrder-ord_3f2a.json", 13, {"orderId": "ord_3f2a", "status": "pending"}),
    ("GetProducts-page1.json", 1, [{"sku": "A-1", "name": "Mug", "price": 12.5}]),
    ("Telemetry-x.txt", 20, "frames=1200 dropped=3"),
]


def entry(name, seconds_after_start=30):
    """A zip entry whose modification time is an instant: the extended-timestamp field (0x5455) in UTC."""
    info = zipfile.ZipInfo(name, (2026, 11, 20, 12, 2, 0))
    info.extra = struct.pack("<HHBI", 0x5455, 5, 1, START + seconds_after_start)
    info.compress_type = zipfile.ZIP_DEFLATED
    return info


def screen_video():
    """A real 90x160 screen video for the frames in the summary: the cart (white) until the 500 at 13.15 s, then the
    error screen (red). Made with ffmpeg when it is on the PATH; otherwise the sample's header-only video is kept."""
    import shutil
    import subprocess
    import tempfile
    if shutil.which("ffmpeg") is None:
        print("note: no ffmpeg on PATH; checkout-bugreport.zip keeps the header-only video")
        return None
    with tempfile.TemporaryDirectory() as folder:
        out = os.path.join(folder, "screen.mp4")
        subprocess.run(["ffmpeg", "-v", "error", "-f", "lavfi", "-i", "color=c=white:s=90x160:d=13.15:r=10",
                        "-f", "lavfi", "-i", "color=c=red:s=90x160:d=3.35:r=10", "-filter_complex",
                        "[0][1]concat=n=2:v=1", "-pix_fmt", "yuv420p", "-fflags", "+bitexact", "-map_metadata", "-1",
                        "-y", out], check=True)
        return open(out, "rb").read()


VIDEO = screen_video()
sample_reports = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "SampleReports")
with zipfile.ZipFile(os.path.join(sample_reports, "checkout-bugreport.zip"), "w") as archive:
    for folder, _, files in sorted(os.walk(SAMPLE)):
        for name in sorted(files):
            path = os.path.join(folder, name)
            data = open(path, "rb").read()
            if name == "module_video.mp4" and VIDEO is not None:
                data = VIDEO
            archive.writestr(entry("checkout.clue/" + os.path.relpath(path, SAMPLE)), data)
    archive.writestr(entry("checkout.clue/Info/info_session.json"),
                     '{"recordingStart":"2026-11-20T13:02:00.000+01:00"}\n')
    archive.writestr(entry("app.log"), LOG.encode())
    archive.writestr(entry("DebugMenu/network-log.json"), json.dumps(NETWORK_LOG, indent=2) + "\n")
    archive.writestr(entry("DebugMenu/analytics.jsonl"), "".join(json.dumps(e) + "\n" for e in ANALYTICS))
    archive.writestr(entry("DebugMenu/push-notifications.json"), json.dumps(PUSHES, indent=2) + "\n")
    archive.writestr(entry("DebugMenu/feature-toggles.json"), json.dumps(TOGGLES, indent=2) + "\n")
    archive.writestr(entry("DebugMenu/app-info.json"), json.dumps(APP_INFO) + "\n")
    archive.writestr(entry("DebugMenu/Podfile.lock"), PODFILE_LOCK)
    archive.writestr(entry("Snapshots/registry.json"), json.dumps(REGISTRY, indent=2) + "\n")
    for name, seconds, payload in SNAPSHOTS:
        data = payload if isinstance(payload, str) else json.dumps(payload)
        archive.writestr(entry("Snapshots/" + name, seconds), data)
