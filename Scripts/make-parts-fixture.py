#!/usr/bin/env python3
"""Writes Tests/Fixtures/Archives/many-crashes.zip: a tester's zip of crash files, for the tests of an input read and
stored in parts (`[limits] reports_per_part`).

It holds, in this order:
- `a-first-copy-truncated.crash`: cart-total-iphone11-ios15.crash without its binary images, a less complete copy of
  the incident that `mail/cart-total-iphone11-ios15.crash` (further down) holds whole;
- every sample of SampleReports/Crashes/ (20 crash reports in 21 files: `mailed-crashes.zip` nests two of them);
- `mail/cart-total-iphone11-ios15.crash` and `dup/copy.ips` (a byte-identical copy of
  cart-total-iphone14-ios16.ips): copies of reports above;
- `broken/truncated-body.ips` (SampleReports/Malformed/), read with a warning, and `broken/damaged.json`, a KSCrash
  report whose JSON is damaged beyond repair: quarantined on its own;
- `logs/app.log`, an app log with no report to attach to, and `notes.txt`, which no parser reads.

Run it from the repository root; the output is committed.
"""
import io
import os
import zipfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
CRASHES = os.path.join(ROOT, "SampleReports", "Crashes")
TARGET = os.path.join(ROOT, "Tests", "Fixtures", "Archives", "many-crashes.zip")
ZIP_TIME = (2026, 11, 20, 9, 30, 0)


def read(*path):
    with open(os.path.join(ROOT, *path), "rb") as f:
        return f.read()


def main():
    whole = read("SampleReports", "Crashes", "cart-total-iphone11-ios15.crash")
    truncated = whole[: whole.index(b"Binary Images:")]
    entries = [("a-first-copy-truncated.crash", truncated)]
    for name in sorted(os.listdir(CRASHES)):
        entries.append((name, read("SampleReports", "Crashes", name)))
    entries += [
        ("mail/cart-total-iphone11-ios15.crash", whole),
        ("dup/copy.ips", read("SampleReports", "Crashes", "cart-total-iphone14-ios16.ips")),
        ("broken/truncated-body.ips", read("SampleReports", "Malformed", "truncated-body.ips")),
        ("broken/damaged.json", b'{"crash": {"threads": ]]], "binary_images": 7}\n'),
        ("logs/app.log", b"09:29:58.120 INFO [Cart] CartViewModel.total():42 - total recomputed\n"),
        ("notes.txt", b"Crashes from the 2.3.1 test flight, as the testers sent them.\n"),
    ]
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as archive:
        for name, data in entries:
            info = zipfile.ZipInfo(name, date_time=ZIP_TIME)
            info.compress_type = zipfile.ZIP_DEFLATED
            info.external_attr = 0o644 << 16
            archive.writestr(info, data)
    with open(TARGET, "wb") as f:
        f.write(buffer.getvalue())


if __name__ == "__main__":
    main()
