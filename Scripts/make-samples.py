#!/usr/bin/env python3
"""Writes SampleReports/ and Tests/Fixtures/Archives/ from the record lists below.

The reports are hand-made from ../shared/formats/clue-format.md (section 11): compact JSON lines, unsorted keys,
'/' escaped as '\\/', deflate zips with entries relative to the report folder. Run it from the repository root;
bsdtar (Debian's libarchive-tools) is needed for the 7z fixture only. The outputs are committed.
"""
import copy
import io
import json
import os
import shutil
import struct
import subprocess
import tarfile
import zipfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SAMPLES = os.path.join(ROOT, "SampleReports")
FIXTURES = os.path.join(ROOT, "Tests", "Fixtures", "Archives")
ZIP_TIME = (2017, 4, 25, 12, 15, 36)  # DOS time, device local, as minizip writes it


def line(record):
    """One record as Clue writes it: compact, '/' escaped, raw UTF-8, one newline."""
    text = json.dumps(record, separators=(",", ":"), ensure_ascii=False).replace("/", "\\/")
    return text + "\n"


def lines(records):
    return "".join(line(r) for r in records)


def write_package(folder, files):
    """Writes a .clue package folder: files maps 'Info/x.json' to str or bytes."""
    if os.path.exists(folder):
        shutil.rmtree(folder)
    for path, content in files.items():
        full = os.path.join(folder, path)
        os.makedirs(os.path.dirname(full), exist_ok=True)
        with open(full, "wb") as f:
            f.write(content.encode("utf-8") if isinstance(content, str) else content)


def zip_bytes(files, prefix="", extra=()):
    """A deflate zip of files (no directory entries), like SSZipArchive's keepParentDirectory:NO."""
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as archive:
        for path, content in list(files.items()) + list(extra):
            info = zipfile.ZipInfo(prefix + path, date_time=ZIP_TIME)
            info.compress_type = zipfile.ZIP_DEFLATED
            info.external_attr = 0o644 << 16
            data = content.encode("utf-8") if isinstance(content, str) else content
            archive.writestr(info, data)
    return buffer.getvalue()


def write(path, data):
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "wb") as f:
        f.write(data)


def quicktime(duration_ms, truncated=False):
    """A minimal QuickTime movie: ftyp 'qt  ', a movie header with time scale 1000, an empty mdat.

    It has no video track: Casefile reads only the container's duration, never frames. A truncated one stops
    before 'moov', as Clue leaves a video it zipped on the exception path (clue-format.md 5.6)."""
    ftyp = struct.pack(">I4s4sI4s", 20, b"ftyp", b"qt  ", 0x200, b"qt  ")
    mdat = struct.pack(">I4s", 8 + 64, b"mdat") + bytes(64)
    mvhd_body = struct.pack(">B3sIIII", 0, b"\0\0\0", 0, 0, 1000, duration_ms) + bytes(80)
    mvhd = struct.pack(">I4s", 8 + len(mvhd_body), b"mvhd") + mvhd_body
    moov = struct.pack(">I4s", 8 + len(mvhd), b"moov") + mvhd
    return ftyp + mdat[:40] if truncated else ftyp + mdat + moov


# --- view trees ------------------------------------------------------------------------------------------------

def margins(left, top, right, bottom):
    return {"left": left, "top": top, "right": right, "bottom": bottom}


def base(x, y, w, h, background=None, hidden=False, interactive=False, m=None):
    return {
        "frame": {"y": y, "x": x, "width": w, "height": h},
        "backgroundColor": background if background is not None else {},
        "hidden": hidden,
        "userInteractionEnabled": interactive,
        "layoutMargins": m or margins(8, 8, 8, 8),
        "tag": 0,
        "focused": False,
    }


def label(text, x, y, w, h, size=17, lines_=1, family=".SF UI Text", font=".SFUIText", cls="UILabel"):
    props = {
        "text": text, "attributedText": {"string": text},
        "font": {"familyName": family, "fontName": font, "pointSize": size, "lineHeight": round(size * 1.193359375, 9)},
        "textColor": {"red": 0, "alpha": 1, "blue": 0, "green": 0}, "enabled": True, "lineBreakMode": 4,
        "numberOfLines": lines_, "highlighted": False, "shadowColor": {}, "shadowOffset": {"width": 0, "height": -1},
    }
    props.update(base(x, y, w, h))
    return {"class": cls, "properties": props, "subviews": []}


def button(title, x, y, w, h, title_x, title_w):
    props = base(x, y, w, h, background={"red": 0.72156862745098038, "alpha": 1, "blue": 0.89411764705882357,
                                         "green": 0.65098039215686276}, interactive=True)
    title_label = label(title, title_x, 19.5, title_w, 16, size=13, family="Karla", font="Karla-Bold",
                        cls="UIButtonLabel")
    return {"class": "UIButton", "properties": props, "subviews": [title_label]}


def root(cls, subviews):
    props = base(0, 0, 375, 667, background={"red": 1, "alpha": 1, "blue": 1, "green": 1}, interactive=True,
                 m=margins(16, 0, 16, 0))
    return {"class": cls, "properties": props, "subviews": subviews}


def recording_indicator():
    props = base(0, 0, 375, 29, background={"red": 0.98431372549019602, "alpha": 1, "blue": 0.38039215686274508,
                                             "green": 0.41176470588235292}, interactive=True)
    text = label("Recording...", 146, 6, 83, 17, size=14, lines_=0)
    text["properties"]["textColor"] = {"red": 1, "alpha": 1, "blue": 1, "green": 1}
    return {"class": "CLURecordIndicatorView", "properties": props, "subviews": [text]}


def text_field(text, placeholder, x, y, w, h, editing=False):
    props = {
        "text": text, "attributedText": {"string": text}, "placeholder": placeholder,
        "attributedPlaceholder": {"string": placeholder},
        "font": {"familyName": ".SF UI Text", "fontName": ".SFUIText", "pointSize": 17, "lineHeight": 20.287109375},
        "textColor": {"red": 0, "alpha": 1, "blue": 0, "green": 0}, "minimumFontSize": 0, "editing": editing,
        "borderStyle": 3,
    }
    props.update(base(x, y, w, h, interactive=True))
    return {"class": "UITextField", "properties": props, "subviews": []}


def spinner(hidden):
    props = base(177.5, 603.5, 20, 20, hidden=hidden)
    image = {"class": "UIImageView", "properties": dict(
        {"isAnimating": False, "animationDuration": 0, "animationRepeatCount": 0, "highlighted": False},
        **base(0, 0, 20, 20)), "subviews": []}
    return {"class": "UIActivityIndicatorView", "properties": props, "subviews": [image]}


# --- 1. checkout: tap "Pay now", HTTP 500, error screen ---------------------------------------------------------

CHECKOUT_UUID = "5B0F1C2E-9D4A-4C61-8E07-3A1F6B2C9D10"
DEVICE_V1 = {"batteryState": 0, "systemName": "iOS", "model": "iPhone", "systemVersion": "10.3.1", "batteryLevel": -1,
             "name": "QA iPhone 7", "identifierForVendor": "A053F005-986D-421E-A8D6-5CF048789FB8"}


def checkout_screen(editing=False, pressed=False, processing=False):
    pay = button("Processing…" if processing else "Pay now", 35, 538.5, 305, 55, 128.5, 48)
    if pressed:
        pay["properties"]["backgroundColor"]["alpha"] = 0.69999999999999996
    if processing:
        pay["properties"]["userInteractionEnabled"] = False
    return root("UIView", [
        label("Order total", 16, 96, 200, 21),
        text_field("4111 1111 1111 1111", "Card number", 16, 140, 343, 30, editing=editing),
        pay,
        spinner(hidden=not processing),
        recording_indicator(),
    ])


def error_screen():
    image = {"class": "UIImageView", "properties": dict(
        {"isAnimating": False, "animationDuration": 0, "animationRepeatCount": 0, "highlighted": False},
        **base(157.5, 180, 60, 60)), "subviews": []}
    return root("ShopApp.PaymentErrorView", [
        image,
        label("Payment failed", 16, 260, 343, 27, size=22, family=".SF UI Display", font=".SFUIDisplay-Semibold"),
        label("Something went wrong on our side (500).\nPlease try again.", 16, 299, 343, 36, size=15, lines_=0),
        button("Try again", 35, 538.5, 305, 55, 121, 63),
    ])


CHECKOUT_VIEWS = [
    {"view": checkout_screen(), "timestamp": 0},
    {"timestamp": 4.133333541999999, "view": checkout_screen(editing=True)},
    {"view": checkout_screen(editing=False), "timestamp": 6.750000334},
    {"timestamp": 12.400000083000002, "view": checkout_screen(pressed=True)},
    {"view": checkout_screen(pressed=True, processing=True), "timestamp": 12.500000125},
    {"timestamp": 13.166666750000001, "view": error_screen()},
]
CHECKOUT_TOUCHES = [
    {"type": "Began", "timestamp": 4.116666875, "touches": [{"tapCount": 1, "locationInWindow": {"x": 120, "y": 155}}]},
    {"timestamp": 4.200000042, "touches": [{"locationInWindow": {"y": 155, "x": 120}, "tapCount": 1}], "type": "Ended"},
    {"type": "Began", "timestamp": 6.383333542, "touches": [{"tapCount": 1, "locationInWindow": {"x": 200, "y": 440}}]},
    {"type": "Moved", "timestamp": 6.733333667, "touches": [
        {"tapCount": 1, "locationInWindow": {"x": 200, "y": 420.5}},
        {"tapCount": 1, "locationInWindow": {"x": 200, "y": 400}},
        {"tapCount": 1, "locationInWindow": {"x": 200.5, "y": 371}}]},
    {"type": "Ended", "timestamp": 6.733333667, "touches": [{"tapCount": 1, "locationInWindow": {"x": 200.5, "y": 371}}]},
    {"type": "Began", "timestamp": 12.383333416999998, "touches": [{"tapCount": 1, "locationInWindow": {"x": 187.5, "y": 566}}]},
    {"timestamp": 12.483333499999999, "touches": [{"locationInWindow": {"y": 566, "x": 187.5}, "tapCount": 1}], "type": "Ended"},
]
ORDER_ERROR_BODY = "{\"error\":\"payment_gateway_unavailable\",\"request_id\":\"r-7f3a9c\"}"
CHECKOUT_NETWORK = [
    {"timestamp": 0.850000042, "label": "DidReceiveResponse", "properties": [{
        "class": "NSHTTPURLResponse", "URL": "https://api.shop.example/v1/shipping-options?cart=8812",
        "MIMEType": "application/json", "expectedContentLength": -1, "statusCode": 200,
        "localizedStringForStatusCode": "no error", "allHeaderFields": {
            "Content-Type": "application/json; charset=utf-8", "Transfer-Encoding": "Identity",
            "Date": "Tue, 25 Apr 2017 10:15:19 GMT"}}]},
    {"timestamp": 0.850000042, "label": "DidReceiveData", "properties": [
        {"HTTPBody": "{\"options\":[{\"id\":\"std\",\"label\":\"Standard – 3-5 days\",\"price\":0}]}"}]},
    {"timestamp": 13.150000333000002, "label": "DidReceiveResponse", "properties": [{
        "class": "NSHTTPURLResponse", "URL": "https://api.shop.example/v1/orders", "MIMEType": "application/json",
        "expectedContentLength": len(ORDER_ERROR_BODY), "statusCode": 500,
        "localizedStringForStatusCode": "internal server error", "allHeaderFields": {
            "Content-Type": "application/json", "Content-Length": str(len(ORDER_ERROR_BODY)),
            "Date": "Tue, 25 Apr 2017 10:15:32 GMT", "Set-Cookie": "sid=REDACT-ME; Path=/; HttpOnly"}}]},
    {"timestamp": 13.150000333000002, "label": "DidReceiveData", "properties": [{"HTTPBody": ORDER_ERROR_BODY}]},
]
CHECKOUT = {
    "Info/info_device.json": line(DEVICE_V1),
    "Modules/module_view.json": lines(CHECKOUT_VIEWS),
    "Modules/module_interaction.json": lines(CHECKOUT_TOUCHES),
    "Modules/module_network.json": lines(CHECKOUT_NETWORK),
    "Modules/module_video.mp4": quicktime(16500),
}

# --- 2. clean session: browse products, a redirect, no failure; re-zipped by the Finder ---------------------------

CLEAN_UUID = "3F2504E0-4F89-41D3-9A0C-0305E82C3301"


def cell(title, y):
    props = base(0, y, 375, 44, interactive=True)
    content = {"class": "UITableViewCellContentView", "properties": base(0, 0, 375, 43.5, interactive=True),
               "subviews": [label(title, 16, 11, 300, 21)]}
    return {"class": "UITableViewCell", "properties": props, "subviews": [content]}


def product_list():
    table = {"class": "UITableView", "properties": base(0, 64, 375, 603, interactive=True),
             "subviews": [cell("Running shoes", 0), cell("Rain jacket", 44), cell("Trail socks", 88)]}
    return root("ShopApp.ProductListView", [table])


def product_detail():
    return root("ShopApp.ProductDetailView", [
        label("Rain jacket", 16, 84, 343, 27, size=22),
        label("€89.00", 16, 120, 120, 21),
        button("Add to bag", 35, 538.5, 305, 55, 112, 81),
    ])


CLEAN_DEVICE = {"systemVersion": "10.3.2", "name": "Dana's iPad", "model": "iPad", "systemName": "iOS",
                "identifierForVendor": "6B1C2D3E-4F50-4617-8A9B-0C1D2E3F4A5B", "batteryLevel": 0.85000002384185791,
                "batteryState": 2}
CLEAN = {
    "Info/info_device.json": line(CLEAN_DEVICE),
    "Modules/module_view.json": lines([
        {"timestamp": 0, "view": product_list()},
        {"view": product_detail(), "timestamp": 3.350000167},
        {"timestamp": 7.116666958, "view": product_list()},
    ]),
    "Modules/module_interaction.json": lines([
        {"type": "Began", "timestamp": 3.200000083, "touches": [{"tapCount": 1, "locationInWindow": {"x": 100, "y": 130}}]},
        {"type": "Ended", "timestamp": 3.283333417, "touches": [{"tapCount": 1, "locationInWindow": {"x": 100, "y": 130}}]},
    ]),
    "Modules/module_network.json": lines([
        {"timestamp": 0.333333375, "label": "DidRedirect", "properties": [
            {"class": "NSHTTPURLResponse", "URL": "http://api.shop.example/v1/products?page=1", "MIMEType": "text/html",
             "expectedContentLength": 178, "statusCode": 301, "localizedStringForStatusCode": "moved permanently",
             "allHeaderFields": {"Location": "https://api.shop.example/v1/products?page=1"}},
            {"class": "NSMutableURLRequest", "URL": "https://api.shop.example/v1/products?page=1",
             "allHTTPHeaderFields": {"Accept": "application/json", "Authorization": "Bearer eyJhbGciOi.secret"},
             "HTTPMethod": "GET", "HTTPShouldHandleCookies": True}]},
        {"timestamp": 0.366666708, "label": "DidReceiveResponse", "properties": [
            {"class": "NSHTTPURLResponse", "URL": "https://api.shop.example/v1/products?page=1",
             "MIMEType": "application/json", "expectedContentLength": 96, "statusCode": 200,
             "localizedStringForStatusCode": "no error", "allHeaderFields": {"Content-Type": "application/json"}}]},
        {"timestamp": 0.366666708, "label": "DidReceiveData", "properties": [
            {"HTTPBody": "{\"products\":[{\"id\":4470,\"name\":\"Running shoes\"},{\"id\":4471,\"name\":\"Rain jacket\"}]}"}]},
        {"timestamp": 3.383333500, "label": "DidReceiveResponse", "properties": [
            {"class": "NSHTTPURLResponse", "URL": "https://api.shop.example/v1/products/4471",
             "MIMEType": "application/json", "expectedContentLength": -1, "statusCode": 200,
             "localizedStringForStatusCode": "no error", "allHeaderFields": {"Content-Type": "application/json"}}]},
        {"timestamp": 3.400000167, "label": "DidReceiveData", "properties": [
            {"HTTPBody": "{\"id\":4471,\"name\":\"Rain jacket\",\"price\":\"89.00\"}"}]},
    ]),
}

# --- 3. offline: tap "Refresh", NSURLErrorDomain -1009, offline banner; V2 shape, custom module -----------------

OFFLINE_UUID = "9A8B7C6D-5E4F-4A3B-8C2D-1E0F9A8B7C6D"


def orders_screen(offline):
    subviews = [label("Orders", 16, 84, 200, 27, size=22), button("Refresh", 35, 538.5, 305, 55, 124, 57)]
    if offline:
        subviews.append(label("You're offline. Check your connection.", 16, 300, 343, 21))
    tree = root("ShopApp.OrdersView", subviews)
    return tree


def strip_placeholders(tree):
    """V2 omits empty strings and nil objects (clue-format.md 6)."""
    if isinstance(tree, dict):
        return {k: strip_placeholders(v) for k, v in tree.items()
                if not (k in ("shadowColor", "placeholder", "attributedPlaceholder") and v in ({}, ""))}
    if isinstance(tree, list):
        return [strip_placeholders(v) for v in tree]
    return tree


OFFLINE = {
    "Info/info_device.json": line({"systemName": "iOS", "model": "iPhone", "systemVersion": "10.3.1",
                                   "batteryLevel": -1, "name": "Field test 6s", "batteryState": 1}),
    "Info/info_location.json": line({"city": "Lisbon", "accuracy": 65}),
    "Modules/module_view.json": lines([
        {"timestamp": 0, "view": strip_placeholders(orders_screen(False))},
        {"timestamp": 2.266666792, "view": strip_placeholders(orders_screen(True))},
    ]),
    "Modules/module_interaction.json": lines([
        {"type": "Began", "timestamp": 1.966666750, "touches": [{"tapCount": 1, "locationInWindow": {"x": 187, "y": 560}}]},
        {"type": "Ended", "timestamp": 2.050000083, "touches": [{"tapCount": 1, "locationInWindow": {"x": 187, "y": 560}}]},
    ]),
    "Modules/module_network.json": lines([
        {"timestamp": 2.250000125, "label": "DidComplete", "properties": [{
            "class": "NSError", "code": -1009, "domain": "NSURLErrorDomain",
            "userInfo": {"NSLocalizedDescription": "The Internet connection appears to be offline.",
                         "NSErrorFailingURLStringKey": "https://api.shop.example/v1/orders?status=open"},
            "localizedDescription": "The Internet connection appears to be offline."}]},
    ]),
    "Modules/module_logs.json": lines([
        {"timestamp": 2.050000083, "level": "info", "message": "Refreshing orders"},
        {"timestamp": 2.250000125, "level": "error", "message": "Orders refresh failed: offline"},
    ]),
    "Modules/module_video.mp4": quicktime(3000, truncated=True),
}

# --- 4. malformed lines: a cut-off snapshot, a record without timestamp, an unterminated last line --------------

MALFORMED_UUID = "E2A7C3D4-1B2F-4A5E-9C8D-7F6E5D4C3B2A"
malformed_views = [line({"timestamp": 0, "view": orders_screen(False)}),
                   line({"timestamp": 1.5, "view": orders_screen(False)})[:90] + "\n",
                   line({"timestamp": 2.266666792, "view": orders_screen(True)}).rstrip("\n")]
MALFORMED = {
    "Info/info_device.json": line(DEVICE_V1),
    "Modules/module_view.json": "".join(malformed_views[:2]) + "\n" + malformed_views[2],
    "Modules/module_interaction.json": lines([
        {"type": "Began", "touches": [{"tapCount": 1, "locationInWindow": {"x": 187, "y": 560}}]},
        {"type": "Ended", "timestamp": 2.050000083, "touches": [{"tapCount": 1, "locationInWindow": {"x": 187, "y": 560}}]},
    ]),
    "Modules/module_network.json": "",
}

# --- 4b. the checkout again, but Clue's own V1 DidComplete bug raised: an uncaught exception (clue-format.md E6) --

EXCEPTION = dict(CHECKOUT)
EXCEPTION["Info/info_exception.json"] = line({
    "name": "NSInvalidArgumentException",
    "reson": "*** -[__NSPlaceholderArray initWithObjects:count:]: attempt to insert nil object from objects[0]",
    "userInfo": "", "callStackReturnAddresses": [6447063948, 6436392912, 6447063508],
    "callStackSymbols": [
        "0   CoreFoundation                      0x0000000180b0ab8c <redacted> + 148",
        "1   libobjc.A.dylib                     0x000000017fe985ec objc_exception_throw + 56",
        "2   CoreFoundation                      0x0000000180b0a9d4 <redacted> + 0"]})
EXCEPTION["Modules/module_network.json"] = lines(CHECKOUT_NETWORK[:2])
EXCEPTION["Modules/module_view.json"] = lines(CHECKOUT_VIEWS[:5])
EXCEPTION["Modules/module_interaction.json"] = lines(CHECKOUT_TOUCHES)
EXCEPTION["Modules/module_video.mp4"] = b""

# --- 5. two reports in one zip, each a .clue.zip: a timeout, and a 404 with a binary chunk ----------------------

TIMEOUT = {
    "Info/info_device.json": line({"batteryState": 1, "systemName": "iOS", "model": "iPhone", "systemVersion": "10.2",
                                   "batteryLevel": -1, "name": "iPhone SE", "identifierForVendor": ""}),
    "Modules/module_view.json": lines([{"timestamp": 0, "view": checkout_screen()},
                                       {"timestamp": 12.500000125, "view": checkout_screen(processing=True)}]),
    "Modules/module_interaction.json": lines(CHECKOUT_TOUCHES[-2:]),
    "Modules/module_network.json": lines([
        {"timestamp": 20.5, "label": "DidComplete", "properties": [{
            "class": "NSError", "code": -1001, "domain": "NSURLErrorDomain",
            "userInfo": {"NSLocalizedDescription": "The request timed out.",
                         "NSErrorFailingURLStringKey": "https://api.shop.example/v1/orders"},
            "localizedDescription": "The request timed out.", "localizedFailureReason": ""}]}]),
}
SEARCH_404 = {
    "Info/info_device.json": line({"batteryState": 3, "systemName": "iOS", "model": "iPhone", "systemVersion": "10.3.1",
                                   "batteryLevel": 1, "name": "QA iPhone 7 Plus",
                                   "identifierForVendor": "0C8E1F7A-2B3C-4D5E-8F90-A1B2C3D4E5F6"}),
    "Modules/module_view.json": lines([{"timestamp": 0, "view": product_list()}]),
    "Modules/module_interaction.json": "",
    "Modules/module_network.json": lines([
        {"timestamp": 1.016666708, "label": "DidReceiveResponse", "properties": [{
            "class": "NSHTTPURLResponse", "URL": "https://img.shop.example/v1/images/4471/thumb.jpg",
            "MIMEType": "image/jpeg", "expectedContentLength": 2048, "statusCode": 404,
            "localizedStringForStatusCode": "not found", "allHeaderFields": {"Content-Type": "image/jpeg"}}]},
        {"timestamp": 1.033333375, "label": "DidReceiveData", "properties": [{"HTTPBody": ""}]},
    ]),
}


def main():
    os.makedirs(SAMPLES, exist_ok=True)
    # 1. the checkout as a package folder, and as the zip Clue mails (the same report: indexed once)
    write_package(os.path.join(SAMPLES, f"{CHECKOUT_UUID}.clue"), CHECKOUT)
    write(os.path.join(SAMPLES, "checkout-500.clue.zip"), zip_bytes(CHECKOUT))
    # 2. re-zipped by the Finder: one top folder, __MACOSX and ._ entries
    finder_litter = [(f"__MACOSX/{CLEAN_UUID}.clue/._Info", b"\0\5\26\7"), (f"{CLEAN_UUID}.clue/.DS_Store", b"\0")]
    write(os.path.join(SAMPLES, "clean-session.zip"), zip_bytes(CLEAN, prefix=f"{CLEAN_UUID}.clue/", extra=finder_litter))
    # 3. offline, V2
    write(os.path.join(SAMPLES, "offline-1009.clue.zip"), zip_bytes(OFFLINE))
    # 4. malformed lines, as a folder
    write_package(os.path.join(SAMPLES, f"{MALFORMED_UUID}.clue"), MALFORMED)
    # 4b. an uncaught exception, with the 0-byte video Clue leaves when it zips at once
    write(os.path.join(SAMPLES, "checkout-exception.clue.zip"), zip_bytes(EXCEPTION))
    # 5. a zip of two .clue zips
    write(os.path.join(SAMPLES, "two-reports.zip"), zip_bytes({
        "timeout.clue.zip": zip_bytes(TIMEOUT), "search-404.clue.zip": zip_bytes(SEARCH_404)}))

    bad = os.path.join(SAMPLES, "Malformed")
    write(os.path.join(bad, "path-traversal.zip"), zip_bytes({
        "Info/info_device.json": line(DEVICE_V1), "../../../tmp/casefile-escaped.txt": "should never be written\n"}))
    write(os.path.join(bad, "archive-bomb.zip"), zip_bytes({"Modules/module_view.json": bytes(32 << 20)}))
    write(os.path.join(bad, "empty-report.clue.zip"), zip_bytes({}))
    write(os.path.join(bad, "placeholders-only.clue.zip"), zip_bytes({"Info/.DS_Store": b"", "Modules/.DS_Store": b""}))
    whole = zip_bytes(CHECKOUT)
    write(os.path.join(bad, "truncated.clue.zip"), whole[: len(whole) // 2])

    # Archive fixtures for the unpacking tests: the clean session in other containers, and nesting too deep.
    files = {f"{CLEAN_UUID}.clue/{k}": v for k, v in CLEAN.items()}
    tar_buffer = io.BytesIO()
    with tarfile.open(fileobj=tar_buffer, mode="w") as archive:
        for path, content in files.items():
            data = content.encode("utf-8")
            info = tarfile.TarInfo(path)
            info.size = len(data)
            info.mtime = 1493115336
            archive.addfile(info, io.BytesIO(data))
    tar = tar_buffer.getvalue()
    import gzip
    import lzma
    write(os.path.join(FIXTURES, "clean-session.tar.gz"), gzip.compress(tar, mtime=0))
    write(os.path.join(FIXTURES, "clean-session.tar.xz"), lzma.compress(tar))
    seven = os.path.join(FIXTURES, "clean-session.7z")
    staging = os.path.join(FIXTURES, ".7z-staging")
    write_package(os.path.join(staging, f"{CLEAN_UUID}.clue"), CLEAN)
    for folder, dirs, names in os.walk(staging):
        for name in dirs + names:
            os.utime(os.path.join(folder, name), (1493115336, 1493115336))
    if os.path.exists(seven):
        os.remove(seven)
    subprocess.run(["bsdtar", "--format", "7zip", "-cf", seven, "-C", staging, f"{CLEAN_UUID}.clue"], check=True)
    shutil.rmtree(staging)
    level3 = zip_bytes({"report.clue.zip": zip_bytes(CLEAN)})
    write(os.path.join(FIXTURES, "nested-too-deep.zip"), zip_bytes({"level2.zip": zip_bytes({"level3.zip": level3})}))
    write(os.path.join(FIXTURES, "single-file.json.gz"), __import__("gzip").compress(line(CLEAN_DEVICE).encode(), mtime=0))


if __name__ == "__main__":
    main()
