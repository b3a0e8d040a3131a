#!/usr/bin/env python3
"""Writes SampleReports/Hostile/: inputs built to break an unpacker or a parser. Each must be quarantined with a
one-line reason, or read in part with a note, in bounded time and memory, while every good report beside it is
indexed (HostileCorpusTests.swift runs `casefile run` over SampleReports/ with this folder in it).

    Scripts/make-hostile.py           the small files (committed)
    Scripts/make-hostile.py --large   also the large ones (not committed: `make test` and the test write them)

EXPECTED below is the outcome a person expects of each file, read from how it is built: `quarantine: TEXT` means
the input is quarantined with TEXT in its reason; `indexed` means its good report is indexed (with a note for what was
passed over). The test checks each one.
"""
import bz2
import gzip
import io
import json
import lzma
import os
import sys
import tarfile
import warnings
import zipfile

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..")
HOSTILE = os.path.join(ROOT, "SampleReports", "Hostile")
GOOD_IPS = open(os.path.join(ROOT, "SampleReports", "Crashes", "cart-total-iphone14-ios16.ips"), "rb").read()
GOOD_CRASH = open(os.path.join(ROOT, "SampleReports", "Crashes", "cart-total-iphone11-ios15.crash"), "rb").read()
GOOD_KSCRASH = open(
    os.path.join(ROOT, "SampleReports", "Crashes", "cart-total-iphone12-ios15-kscrash.json"), "rb").read()
STAMP = (2026, 11, 20, 12, 0, 0)

EXPECTED = {
    # Paths that escape the archive: the whole input is refused.
    "slip-dotdot.zip": "quarantine: path escapes the archive",
    "slip-absolute.zip": "quarantine: path escapes the archive",
    "slip-drive-letter.zip": "quarantine: path escapes the archive",
    "slip-backslashes.zip": "quarantine: path escapes the archive",
    # Links pointing outside are not followed; the good report beside them is read.
    "symlink-outside.tar": "indexed",
    "hardlink-outside.tar": "indexed",
    # A zip inside a zip inside … five levels; the limit is three.
    "nested-too-deep.zip": "quarantine: nest deeper than the limit",
    # An .ips whose body is 100,000 nested arrays: the header is read, the body refused (no recursion that deep),
    # and the report says it found no threads.
    "deep-json.ips": "indexed",
    # A KSCrash report with 100,000 nested arrays in its first thread: 200 KB, so read by the decoder of large
    # reports, which followed them one recursion per level until the stack overflowed and the whole run died.
    "deep-kscrash.json": "quarantine: nesting deeper than 256 levels",
    # Invalid UTF-8 and NUL bytes inside otherwise good reports.
    "invalid-utf8.crash": "indexed",
    "nul-bytes.crash": "indexed",
    # Content decides, not the name.
    "zip-named.ips": "indexed",
    "ips-named.zip": "indexed",
    "png-named.crash": "quarantine: no report found",
    "empty.ips": "quarantine: no report found",
    "empty-archive.zip": "quarantine: holds no files",
    # A .clue whose module file is a directory (holding a file), and a zip with two entries of one name.
    "module-is-directory.zip": "indexed",
    "duplicate-names.zip": "indexed",
    # Cut in half: every archive and compressor libarchive reads that Python can write.
    "truncated.zip": "quarantine: cannot read entry",
    "truncated.tar": "quarantine: cannot read entry",
    "truncated.tar.gz": "quarantine: cannot open archive: truncated gzip input",
    "truncated.tar.bz2": "quarantine: cannot open archive: truncated bzip2 input",
    "truncated.tar.xz": "quarantine: cannot open archive",
    "truncated.ips.gz": "quarantine: cannot open archive: truncated gzip input",
    "truncated.crash.bz2": "quarantine: cannot open archive: truncated bzip2 input",
    "truncated.crash.xz": "quarantine: cannot open archive",
    "truncated.cpio": "quarantine: cannot read entry",
    # Fuzzing findings (Tests/Fixtures/Fuzz/), each in the package its parser reads.
    # A touch at y = 1.8e34: the timeline printed coordinates through Int() and trapped.
    "fuzz-huge-coordinate.clue.zip": "indexed",
    # An iOS 15 MetricKit payload with a frame below the "load address" its offset field gives (an address written
    # 0333362176): the quirk's subtraction trapped and killed the run.
    "fuzz-metrickit-frame-below-load-address.json": "indexed",
}

LARGE = {
    # 100,000 entries; the limit is 10,000.
    "many-entries.zip": "quarantine: more than 10000 entries",
    # A tar entry declaring 8 GiB (the data is not there): refused from the header, nothing allocated.
    "huge-declared.tar": "quarantine: over the per-entry limit",
    # One line of 100 MB (gzip, 100 KB on disk): stopped while it streams, by the ratio check (1000:1).
    "long-line.log.gz": "quarantine: archive bomb",
    # One line of 40 MB, not compressed, with a few letters that are not ASCII: no report. Each file is offered to the
    # crash sniffer first, which lowercased each of its first lines whole, eight times: 13 s for a 41 MB line (a
    # fuzzing finding, a gzip of 256 KB, under the ratio limit).
    "long-line.txt": "quarantine: no report found",
    # 16 MB of line feeds: 16 million empty lines, which the crash sniffer and the app-log reader each kept at once (48
    # bytes a line: 800 MB; 60 MB of them took 3 GB and 16 s). The test's bound on the run's memory fails if they do
    # again.
    "line-feeds.txt": "quarantine: no report found",
    # An Apple crash report's first lines, then 1,100,000 lines: more than the 1,000,000 a text may hold to be read.
    "many-lines.crash": "quarantine: holds more than 1000000 lines",
    # A zip bomb inside a zip: 1 GB of zeros, refused from the size its zip64 header declares.
    "nested-bomb.zip": "quarantine: over the per-entry limit",
    # A .clue recording with 1,000,000 touch events (63 MB, under the 64 MiB entry limit): read in part, the
    # first 100,000 records of the module, with a warning naming how many lines were skipped.
    "million-events.clue.zip": "indexed",
}


def zip_bytes(entries, compression=zipfile.ZIP_DEFLATED):
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", compression) as archive:
        for name, data in entries:
            info = zipfile.ZipInfo(name, STAMP)
            info.compress_type = compression
            archive.writestr(info, data)
    return buffer.getvalue()


def tar_bytes(members, mode="w"):
    buffer = io.BytesIO()
    with tarfile.open(fileobj=buffer, mode=mode, format=tarfile.PAX_FORMAT) as archive:
        for info, data in members:
            archive.addfile(info, io.BytesIO(data) if data is not None else None)
    return buffer.getvalue()


def tar_file(name, data):
    info = tarfile.TarInfo(name)
    info.size = len(data)
    info.mtime = 1795176000
    return info, data


def link(name, target, kind):
    info = tarfile.TarInfo(name)
    info.type = kind
    info.linkname = target
    info.mtime = 1795176000
    return info, None


def cpio_newc(entries):
    out = b""
    for index, (name, data) in enumerate(entries + [("TRAILER!!!", b"")]):
        encoded = name.encode() + b"\0"
        mode = 0o100644 if name != "TRAILER!!!" else 0
        fields = [index + 1, mode, 0, 0, 1, 1795176000, len(data), 0, 0, 0, 0, len(encoded), 0]
        header = b"070701" + b"".join(b"%08X" % value for value in fields)
        out += header + encoded
        out += b"\0" * ((4 - len(out) % 4) % 4)
        out += data
        out += b"\0" * ((4 - len(out) % 4) % 4)
    return out


def small():
    files = {}
    files["slip-dotdot.zip"] = zip_bytes([("crash.ips", GOOD_IPS), ("../../evil.txt", b"escaped")])
    files["slip-absolute.zip"] = zip_bytes([("crash.ips", GOOD_IPS), ("/tmp/casefile-evil.txt", b"escaped")])
    files["slip-drive-letter.zip"] = zip_bytes([("crash.ips", GOOD_IPS), ("C:/Windows/evil.txt", b"escaped")])
    files["slip-backslashes.zip"] = zip_bytes([("crash.ips", GOOD_IPS), ("..\\..\\evil.txt", b"escaped")])
    files["symlink-outside.tar"] = tar_bytes(
        [tar_file("crash.ips", GOOD_IPS), link("passwd.crash", "/etc/passwd", tarfile.SYMTYPE)])
    files["hardlink-outside.tar"] = tar_bytes(
        [tar_file("crash.ips", GOOD_IPS), link("shadow.crash", "/etc/shadow", tarfile.LNKTYPE)])
    nested = GOOD_IPS
    name = "crash.ips"
    for level in range(5):
        nested = zip_bytes([(name, nested)])
        name = "level-%d.zip" % (5 - level)
    files["nested-too-deep.zip"] = nested
    files["deep-json.ips"] = b'{"app_name":"ShopApp","bug_type":"309"}\n' + b"[" * 100000 + b"]" * 100000
    thread = b'"threads": [\n      {\n'
    assert thread in GOOD_KSCRASH
    files["deep-kscrash.json"] = GOOD_KSCRASH.replace(
        thread, thread + b'"deep": ' + b"[" * 100000 + b"]" * 100000 + b", ", 1)
    files["invalid-utf8.crash"] = GOOD_CRASH.replace(b"Process:", b"Process:\xff\xfe", 1).replace(
        b"Thread 0", b"Thread 0\xc3\x28", 1)
    files["nul-bytes.crash"] = GOOD_CRASH.replace(b"Hardware Model:", b"Hardware\0Model:", 1) + b"\0\0\0"
    files["zip-named.ips"] = zip_bytes([("inner.ips", GOOD_IPS)])
    files["ips-named.zip"] = GOOD_IPS + b"\n"  # one byte more: another input than the sample it copies
    files["png-named.crash"] = b"\x89PNG\r\n\x1a\n" + bytes(range(256)) * 4
    files["empty.ips"] = b""
    files["empty-archive.zip"] = zip_bytes([])
    device = json.dumps({"deviceName": "x", "systemName": "iOS", "systemVersion": "17.2", "model": "iPhone15,2"})
    files["module-is-directory.zip"] = zip_bytes([
        ("dir.clue/Info/info_device.json", device.encode()),
        ("dir.clue/Modules/module_network.json/", b""),
        ("dir.clue/Modules/module_network.json/inner.json", b'{"timestamp":1}\n'),
        ("dir.clue/Modules/module_interaction.json",
         b'{"type":"Began","timestamp":1.0,"touches":[{"tapCount":1,"locationInWindow":{"x":1,"y":2}}]}\n'),
    ])
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w") as archive, warnings.catch_warnings():
        warnings.simplefilter("ignore")  # Python warns of the duplicate name this file is made of
        archive.writestr(zipfile.ZipInfo("crash.ips", STAMP), GOOD_IPS)
        archive.writestr(zipfile.ZipInfo("crash.ips", STAMP), GOOD_CRASH)
    files["duplicate-names.zip"] = buffer.getvalue()
    findings = os.path.join(ROOT, "Tests", "Fixtures", "Fuzz")
    files["fuzz-huge-coordinate.clue.zip"] = zip_bytes([
        ("fuzz.clue/Info/info_device.json", device.encode()),
        ("fuzz.clue/Modules/module_interaction.json",
         open(os.path.join(findings, "clue-interaction-huge-coordinate.json"), "rb").read()),
    ])

    files["fuzz-metrickit-frame-below-load-address.json"] = open(
        os.path.join(findings, "metrickit-frame-below-load-address.json"), "rb").read()

    def half(data):
        return data[: len(data) // 2]

    bundle = [tar_file("crash.ips", GOOD_IPS), tar_file("other.crash", GOOD_CRASH)]
    files["truncated.zip"] = half(zip_bytes([("crash.ips", GOOD_IPS), ("other.crash", GOOD_CRASH)]))
    files["truncated.tar"] = tar_bytes(bundle)[:700]
    # Compressed apart, with a fixed gzip time: tarfile's "w:gz" stamps the current time, and the file would change
    # every time the corpus is written.
    files["truncated.tar.gz"] = half(gzip.compress(tar_bytes(bundle), mtime=0))
    files["truncated.tar.bz2"] = half(tar_bytes(bundle, "w:bz2"))
    files["truncated.tar.xz"] = half(tar_bytes(bundle, "w:xz"))
    files["truncated.ips.gz"] = half(gzip.compress(GOOD_IPS, mtime=0))
    files["truncated.crash.bz2"] = half(bz2.compress(GOOD_CRASH))
    files["truncated.crash.xz"] = half(lzma.compress(GOOD_CRASH))
    files["truncated.cpio"] = half(cpio_newc([("crash.ips", GOOD_IPS), ("other.crash", GOOD_CRASH)]))
    return files


def large():
    files = {}
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_STORED) as archive:
        for index in range(100000):
            archive.writestr(zipfile.ZipInfo("e/%06d.txt" % index, STAMP), b"x")
    files["many-entries.zip"] = buffer.getvalue()
    info = tarfile.TarInfo("huge.crash")
    info.size = 8 << 30
    header = info.tobuf(format=tarfile.PAX_FORMAT)
    files["huge-declared.tar"] = header + b"Incident Identifier: 0" + b"\0" * 490
    line = io.BytesIO()
    with gzip.GzipFile(fileobj=line, mode="wb", mtime=0) as stream:
        chunk = b"a" * (1 << 20)
        for _ in range(100):
            stream.write(chunk)
        stream.write(b"\n")
    files["long-line.log.gz"] = line.getvalue()
    files["long-line.txt"] = ("\u00e9" + "a" * 99).encode() * 400000
    files["line-feeds.txt"] = b"\n" * (16 << 20)
    files["many-lines.crash"] = b"\n".join(GOOD_CRASH.split(b"\n")[:12]) + b"\n" + b"x\n" * 1100000
    bomb = io.BytesIO()
    with zipfile.ZipFile(bomb, "w", zipfile.ZIP_DEFLATED) as archive:
        inner = zipfile.ZipInfo("zeros.crash", STAMP)
        inner.compress_type = zipfile.ZIP_DEFLATED
        with archive.open(inner, "w", force_zip64=True) as entry:
            zeros = b"\0" * (1 << 20)
            for _ in range(1024):
                entry.write(zeros)
    files["nested-bomb.zip"] = zip_bytes([("inner.zip", bomb.getvalue())], zipfile.ZIP_STORED)
    device = json.dumps({"deviceName": "x", "systemName": "iOS", "systemVersion": "17.2", "model": "iPhone15,2"})
    touches = b"".join(
        b'{"type":"%s","timestamp":%d.%03d,"touches":[{"tapCount":1}]}\n'
        % (b"Began" if index % 2 == 0 else b"Ended", index // 1000, index % 1000)
        for index in range(1000000))
    files["million-events.clue.zip"] = zip_bytes([
        ("million.clue/Info/info_device.json", device.encode()),
        ("million.clue/Modules/module_interaction.json", touches),
    ])
    return files


def main():
    os.makedirs(HOSTILE, exist_ok=True)
    files = small()
    if "--large" in sys.argv:
        files.update(large())
    for name, data in files.items():
        with open(os.path.join(HOSTILE, name), "wb") as target:
            target.write(data)
    with open(os.path.join(HOSTILE, "expected.json"), "w") as listing:
        json.dump({"small": EXPECTED, "large": LARGE}, listing, indent=1, sort_keys=True)
        listing.write("\n")


if __name__ == "__main__":
    main()
