#!/usr/bin/env python3
"""Writes a seeded, realistic inbox of N inputs for the end-to-end benchmark (make bench):

- .clue recordings from the samples, half as package folders and half zipped as Clue mails them, each with a
  video entry of realistic size (folders hard-link one video, zips carry their own incompressible bytes) and an
  info file of its own, so no two inputs are alike;
- crash reports the size of real ones — .ips (bug type 309), Apple text .crash, KSCrash JSON — with 30-60 threads
  (the crashed one 10-40 frames deep, the others mostly shallow, as in real reports), 300-400 binary images and
  50-400 KB, plus MetricKit payloads, crashes spread Zipf-like over distinct bugs;
- zips holding several reports, and a few hostile inputs (a truncated zip, JSON invalid beyond repair, an empty file).

    Scripts/make-inbox.py N DIR [--seed S] [--video-bytes B] [--crashed-thread-only] [--used-images-only]
                          [--deep-threads] [--random-system-images] [--app-symbols FOLDER]

--app-symbols takes a folder written by Scripts/make-large-symbols.sh: the app is then a stripped release build whose
frames lie in that debug file's functions (each bug a chain of them on top of its crashed thread, one frame in 25
elsewhere), so a run given the folder's dSYM symbolicates them as a real night does. Without it, app frames are named
and no debug file has the app's UUID.

--crashed-thread-only writes the same inbox with every crash report cut to its crashed thread (the same random draws,
so the same inputs, bugs and images): what a run costs without the other threads' frames. --used-images-only cuts
every crash report's image list to the app and the images its (remaining) frames lie in: what a run costs without
the 300-400 images a crash lists.

--deep-threads writes the inbox every make bench wrote before 2026-11-26, byte for byte (zips aside, whose entries
carry the time they were written): every thread of a crash 10-40 frames deep, about 1,050 frames a crash where real
reports have a few hundred. The figures in Benchmarks/2026-11.md before that date are on it; make bench still times
it once.

--random-system-images writes the system images as every inbox had them until 2026-11-26 (the figures in
Benchmarks/2026-11.md until then are on it; --deep-threads implies it): a UUID of their own in every crash report, the
dyld shared cache at one address in every report, and every image 2 MB, so that a frame drawn beyond UIKitCore's end lay
in no image. By default a system image has one UUID per OS build, as in real reports; each report slides the shared
cache by an amount of its own, as each boot of a device does; and each image holds every frame drawn in it. The same
draws either way: only the system images' UUIDs, addresses and sizes differ.

Nothing here is committed output: make bench writes the inbox into a temporary folder.
"""
import argparse
import io
import itertools
import json
import os
import random
import shutil
import zipfile

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..")
SAMPLES = os.path.join(ROOT, "SampleReports")
CLUE_FOLDERS = [
    os.path.join(SAMPLES, "5B0F1C2E-9D4A-4C61-8E07-3A1F6B2C9D10.clue"),
    os.path.join(SAMPLES, "E2A7C3D4-1B2F-4A5E-9C8D-7F6E5D4C3B2A.clue"),
]
# The system images frames lie in, with the style of their symbols. A real report's frames touch 20-40 images and name
# hundreds of distinct symbols; the same OS names the same symbols in every report.
SYSTEM_IMAGES = [
    ("UIKitCore", "objc", "UI"), ("Foundation", "objc", "NS"), ("CoreFoundation", "c", "CF"), ("QuartzCore", "cpp", "CA"),
    ("libdispatch.dylib", "c", "dispatch"), ("libsystem_kernel.dylib", "c", "kernel"),
    ("libsystem_pthread.dylib", "c", "pthread"), ("GraphicsServices", "c", "GS"), ("libobjc.A.dylib", "c", "objc"),
    ("SwiftUI", "swift", "SwiftUI"), ("libswiftCore.dylib", "swift", "Swift"), ("CoreData", "objc", "NS"),
    ("CFNetwork", "cpp", "HTTP"), ("Network", "c", "nw"), ("libsystem_malloc.dylib", "c", "malloc"),
    ("libsystem_c.dylib", "c", "libc"), ("libc++.1.dylib", "cpp", "std"), ("libc++abi.dylib", "cpp", "abi"),
    ("CoreGraphics", "c", "CG"), ("ImageIO", "cpp", "IIO"), ("WebKit", "objc", "WK"), ("JavaScriptCore", "cpp", "JSC"),
    ("AVFoundation", "objc", "AV"), ("MediaToolbox", "c", "FigPlayer"), ("CoreText", "cpp", "TXT"),
    ("UIFoundation", "objc", "NS"), ("Combine", "swift", "Combine"), ("libswift_Concurrency.dylib", "swift", "Concurrency"),
    ("CoreAnimation", "cpp", "CA"), ("Security", "cpp", "Security"), ("libsqlite3.dylib", "c", "sqlite3"),
    ("CoreMotion", "objc", "CM"), ("CoreLocation", "objc", "CL"), ("AudioToolbox", "cpp", "AudioQueue"),
    ("IOKit", "c", "IO"), ("libxpc.dylib", "c", "xpc"), ("BaseBoard", "objc", "BS"), ("FrontBoardServices", "objc", "FBS"),
    ("RunningBoardServices", "objc", "RBS"), ("dyld", "c", "dyld"),
]
WORDS = ["layout", "update", "commit", "render", "display", "draw", "perform", "dispatch", "invoke", "process", "handle",
         "schedule", "flush", "notify", "observe", "transition", "animate", "load", "prepare", "finish", "resolve",
         "evaluate", "decode", "encode", "reload", "insert", "remove", "apply", "begin", "end", "send", "receive",
         "Sublayers", "Constraints", "Window", "Scene", "Cell", "Item", "Section", "Context", "Transaction", "Queue",
         "Source", "Observer", "Timer", "Event", "Touch", "Gesture", "Animation", "Layer", "View", "Controller",
         "Request", "Response", "Stream", "Buffer", "Image", "Font", "Text", "Run", "Loop", "Block", "Graph", "Node"]


def system_vocabulary():
    """Every system image's symbols and their offsets, from a seed of their own so the same in every inbox."""
    rng = random.Random(1)
    vocabulary = {}
    for position, (image, style, prefix) in enumerate(SYSTEM_IMAGES):
        names = set()
        for _ in range(max(12, int(600 / (position + 1) ** 0.7))):
            words = [rng.choice(WORDS) for _ in range(rng.randrange(2, 5))]
            camel = words[0] + "".join(word[0].upper() + word[1:] for word in words[1:])
            noun = prefix + rng.choice(WORDS[32:]) + rng.choice(WORDS[32:])
            if style == "objc":
                names.add("%s[%s %s%s]" % (rng.choice("-+"), noun, camel, ":" * rng.randrange(0, 3)))
            elif style == "cpp":
                names.add("%s::%s::%s(%s::%s*)" % (prefix, noun, camel, prefix, rng.choice(WORDS[32:])))
            elif style == "swift":
                names.add("%s.%s(%s:)" % (noun, camel, rng.choice(WORDS)))
            else:
                names.add("_%s_%s" % (prefix, "_".join(word.lower() for word in words)))
        offset = 0x1000
        symbols = []
        for name in sorted(names):
            symbols.append((name, offset))
            offset += rng.randrange(0x40, 0x2000) & ~3
        vocabulary[image] = symbols
    return vocabulary


SYSTEM_SYMBOLS = system_vocabulary()
# The frames every main thread and every worker thread ends with, outermost last.
MAIN_THREAD_BASE = [("CoreFoundation", "__CFRunLoopDoSources0"), ("CoreFoundation", "__CFRunLoopRun"),
                    ("CoreFoundation", "CFRunLoopRunSpecific"), ("GraphicsServices", "GSEventRunModal"),
                    ("UIKitCore", "UIApplicationMain")]
WORKER_THREAD_BASE = [("libsystem_pthread.dylib", "_pthread_wqthread"), ("libsystem_pthread.dylib", "start_wqthread")]
for image, symbol in MAIN_THREAD_BASE + WORKER_THREAD_BASE:
    SYSTEM_SYMBOLS[image].append((symbol, 0x1f0000 - 0x400 * len(SYSTEM_SYMBOLS[image])))
SYMBOL_OFFSETS = {image: dict(symbols) for image, symbols in SYSTEM_SYMBOLS.items()}
# The threads a crash lists beside the crashed one are shallow in real reports: idle workqueue threads of one to three
# frames, run loops of ten to thirteen, waits of four to eight. The 44 other threads of three public reports read for
# this (an iPhone on iOS 18.5, the iOS simulator on macOS, an iPhone on iOS 10) had 1 to 13 frames, 6 on average. Here
# a third are idle, a third run loops, a fifth wait and a tenth are at work (10-40 frames), 8.6 frames on average: a
# crash of 30-60 threads has about 400 frames, where every thread 10-40 deep gave it 1,050. Their fixed frames,
# outermost last; the frames between the top and the bottom of a run loop or a wait are drawn like any other.
IDLE_WORKER = [("libsystem_kernel.dylib", "__workq_kernreturn")] + WORKER_THREAD_BASE
RUN_LOOP_TOP = [("libsystem_kernel.dylib", "mach_msg2_trap"), ("libsystem_kernel.dylib", "mach_msg2_internal"),
                ("libsystem_kernel.dylib", "mach_msg_overwrite"), ("libsystem_kernel.dylib", "mach_msg"),
                ("CoreFoundation", "__CFRunLoopServiceMachPort"), ("CoreFoundation", "__CFRunLoopRun"),
                ("CoreFoundation", "CFRunLoopRunSpecific")]
WAIT_TOP = [("libsystem_kernel.dylib", "__psynch_cvwait"), ("libsystem_pthread.dylib", "_pthread_cond_wait")]
THREAD_BASE = [("Foundation", "__NSThread__start__"), ("libsystem_pthread.dylib", "_pthread_start"),
               ("libsystem_pthread.dylib", "thread_start")]
# Offsets of their own, beside the vocabulary's (which the draws below weigh, so it stays as it was).
for image, symbol in IDLE_WORKER + RUN_LOOP_TOP + WAIT_TOP + THREAD_BASE:
    SYMBOL_OFFSETS[image].setdefault(symbol, 0x1e0000 - 0x400 * len(SYMBOL_OFFSETS[image]))
# Each system image holds every frame drawn in it: 2 MB, or more for one whose symbols reach further (UIKitCore's do).
# Until 2026-11-26 every image was 2 MB, and a frame beyond UIKitCore's end lay in no image, as few frames of real
# reports do.
SYSTEM_IMAGE_SIZES = {image: max(0x200000, ((max(offsets.values()) + 0x180) | 0x3FFF) + 1)
                      for image, offsets in SYMBOL_OFFSETS.items()}
# Within an image, a few symbols (the run loop's, the dispatch queue's) are on far more stacks than the rest.
SYMBOL_WEIGHTS = {image: list(itertools.accumulate(1 / rank for rank in range(1, len(symbols) + 1)))
                  for image, symbols in SYSTEM_SYMBOLS.items()}
# Frames fall in the system images Zipf-like: UIKitCore, Foundation and CoreFoundation far more than dyld.
IMAGE_WEIGHTS = list(itertools.accumulate(1 / rank for rank in range(1, len(SYSTEM_IMAGES) + 1)))
DEVICES = ["iPhone12,1", "iPhone13,2", "iPhone14,2", "iPhone14,5", "iPhone15,2", "iPhone15,3", "iPad13,1"]
OSES = [("15.7", "19H12"), ("16.5", "20F66"), ("16.6", "20G75"), ("17.1", "21B80"), ("17.4", "21E219"), ("18.1", "22B83")]


class AppSymbols:
    """The app's own functions, from the debug file Scripts/make-large-symbols.sh builds (its Large.functions and
    Large.uuid): the app image takes the file's UUID, and app frames lie inside its functions, unsymbolicated, as a
    stripped release build reports them. The run symbolicates them against the dSYM, as a real night does."""

    def __init__(self, folder):
        self.uuid = open(os.path.join(folder, "Large.uuid")).read().split()[0].lower()
        starts = sorted(int(address, 16) - 0x100000000 for address, kind, name in
                        (line.split() for line in open(os.path.join(folder, "Large.functions")))
                        if kind in "Tt" and name.startswith("_work_"))
        self.functions = list(zip(starts, starts[1:] + [starts[-1] + 0x20]))
        self.size = (self.functions[-1][1] + 0x3fff) & ~0x3fff
        # Some functions (the app's view models, its networking) are on far more stacks than the rest.
        order = list(range(len(self.functions)))
        random.Random(2).shuffle(order)
        self.popular = order
        self.weights = list(itertools.accumulate(1 / rank for rank in range(1, len(order) + 1)))

    def return_address(self, function):
        """An offset inside `function` after its first instruction, as a caller's return address is: the same for
        every frame of the function, as if it made one call."""
        start, end = self.functions[function]
        return start + 4 * (1 + function * 7919 % max(1, (end - start) // 4 - 1))

    def chain(self, bug):
        """The app frames on top of bug `bug`'s crashed thread, innermost first: the same in every crash of it."""
        rng = random.Random(1_000_003 * bug + 17)
        return [self.return_address(rng.randrange(len(self.functions))) for _ in range(rng.randrange(3, 9))]

    def draw(self, rng):
        """An app frame elsewhere on a stack: a popular function, mostly."""
        return self.return_address(self.popular[rng.choices(range(len(self.popular)), cum_weights=self.weights)[0]])


def zipf(rng, count, s=1.1):
    weights = [1 / (k ** s) for k in range(1, count + 1)]
    return rng.choices(range(count), weights=weights)[0]


def uuid(rng):
    return "%08x-%04x-4%03x-8%03x-%012x" % (rng.getrandbits(32), rng.getrandbits(16), rng.getrandbits(12),
                                             rng.getrandbits(12), rng.getrandbits(48))


def system_uuid(build, name):
    """The UUID of the system image `name` in OS build `build`: the same in every report from that build."""
    return uuid(random.Random("%s/%s" % (build, name)))


def apple_json(body):
    """A body as Apple writes a .ips: a key per line (`"key" : value`), every value below the top level compact, and
    slashes escaped (`\\/`). Indenting every level instead would double the file and read unlike any real report."""
    def value(item):
        return json.dumps(item, separators=(",", ":")).replace("/", "\\/")
    return "{\n" + ",\n".join("  %s : %s" % (json.dumps(key), value(item)) for key, item in body.items()) + "\n}"


class Crash:
    """One crash of bug `bug`, with threads and images the size of a real report."""

    # Set by --crashed-thread-only: every thread is drawn, then all but the crashed one dropped.
    crashed_thread_only = False
    # Set by --used-images-only: every image is drawn, then those no frame lies in dropped (the app's is kept).
    used_images_only = False
    # Set by --deep-threads: every thread 10-40 frames deep, as every inbox was before 2026-11-26.
    deep_threads = False
    # Set by --random-system-images (and by --deep-threads): every system image a UUID of its own in every report.
    random_system_images = False
    # Set by --app-symbols: the app's functions and UUID, from a debug file.
    app_symbols = None

    def __init__(self, rng, bug):
        self.rng = rng
        self.bug = bug
        self.incident = uuid(rng).upper()
        self.device = rng.choice(DEVICES)
        self.os = rng.choice(OSES)
        app = Crash.app_symbols
        self.images = [("ShopApp", 0x100000000 + rng.randrange(0, 0x4000) * 0x4000, app.size if app else 0x80000,
                        app.uuid if app else "8f3c2a1b-4d5e-4f60-9a7b-1c2d3e4f5a6b",
                        "/private/var/containers/Bundle/Application/%s/ShopApp.app/ShopApp" % uuid(rng).upper())]
        systems = [image for image, _, _ in SYSTEM_IMAGES]
        # The OS's images lie in the dyld shared cache: every report from one OS build lists them with the same UUIDs
        # and at the same distances from each other, the whole cache slid by an amount of its own at each boot.
        random_images = Crash.random_system_images or Crash.deep_threads
        base = 0x180000000 + (0 if random_images else random.Random(self.incident).randrange(0x8000) * 0x4000)
        for index in range(rng.randrange(300, 400)):
            name = systems[index] if index < len(systems) else "libsystem_%d.dylib" % index
            # Drawn either way, so that every later draw, and with them the rest of the inbox, stays as it was.
            drawn_uuid = uuid(rng)
            image_uuid = drawn_uuid if random_images else system_uuid(self.os[1], name)
            size = 0x200000 if random_images else SYSTEM_IMAGE_SIZES.get(name, 0x200000)
            self.images.append((name, base, size, image_uuid, "/usr/lib/system/%s" % name))
            base += 0x400000
        by_name = {image[0]: image for image in self.images}

        def frame(image, symbol, offset):
            # (image, its load address, offset of the address in the image, symbol, offset of the address in the symbol)
            location = rng.randrange(0, 0x180) & ~3
            return (image, by_name[image][1], offset + location, symbol, location)

        def fixed(frames):
            return [frame(image, symbol, SYMBOL_OFFSETS[image][symbol]) for image, symbol in frames]

        def drawn(count):
            """`count` frames in the system images, weighed as real stacks are, one in 25 in the app."""
            frames = []
            for image in rng.choices(systems[: len(SYSTEM_IMAGES)], cum_weights=IMAGE_WEIGHTS, k=count):
                if app and rng.random() < 0.04:
                    frames.append(("ShopApp", self.images[0][1], app.draw(rng), None, None))
                    continue
                symbol, offset = rng.choices(SYSTEM_SYMBOLS[image], cum_weights=SYMBOL_WEIGHTS[image])[0]
                frames.append(frame(image, symbol, offset))
            return frames

        def other_thread():
            kind = rng.random()
            if kind < 0.35:
                return fixed(WORKER_THREAD_BASE[-1:] if rng.random() < 0.5 else IDLE_WORKER)
            if kind < 0.7:
                return fixed(RUN_LOOP_TOP) + drawn(rng.randrange(0, 4)) + fixed(THREAD_BASE)
            if kind < 0.9:
                return fixed(WAIT_TOP) + drawn(rng.randrange(0, 6)) + fixed(THREAD_BASE)
            return drawn(rng.randrange(10, 40) - len(WORKER_THREAD_BASE)) + fixed(WORKER_THREAD_BASE)

        self.threads = []
        for thread in range(rng.randrange(30, 61)):
            if thread > 0 and not Crash.deep_threads:
                self.threads.append(other_thread())
                continue
            frames = []
            if thread == 0 and app:
                # A stripped app: its frames name no symbol.
                frames.extend(("ShopApp", self.images[0][1], offset, None, None) for offset in app.chain(bug))
            elif thread == 0:
                frames.append(("ShopApp", by_name["ShopApp"][1], 0x8000 + bug * 0x40 + 0x1c, "Feature%dViewModel.load()" % bug, 0x1c))
                frames.append(("ShopApp", by_name["ShopApp"][1], 0x9000 + (bug % 17) * 0x40 + 0x20,
                               "Feature%dViewController.viewDidLoad()" % (bug % 17), 0x20))
            ending = MAIN_THREAD_BASE if thread == 0 else WORKER_THREAD_BASE
            frames.extend(drawn(rng.randrange(10, 40) - len(ending)))
            frames.extend(fixed(ending))
            self.threads.append(frames)
        if Crash.crashed_thread_only:
            self.threads = self.threads[:1]
        if Crash.used_images_only:
            used = {frame[0] for thread in self.threads for frame in thread}
            self.images = [image for position, image in enumerate(self.images) if position == 0 or image[0] in used]

    def ips(self):
        index = {image[0]: position for position, image in enumerate(self.images)}
        header = {"app_name": "ShopApp", "timestamp": "2026-11-20 10:00:00.00 +0000", "app_version": "2.3.1",
                  "slice_uuid": self.images[0][3], "build_version": "412", "bug_type": "309",
                  "os_version": "iPhone OS %s (%s)" % self.os, "name": "ShopApp", "incident_id": self.incident}
        body = {
            "incident": self.incident, "modelCode": self.device, "procName": "ShopApp", "cpuType": "ARM-64",
            "osVersion": {"train": "iPhone OS %s" % self.os[0], "build": self.os[1], "releaseType": "User"},
            "bundleInfo": {"CFBundleShortVersionString": "2.3.1", "CFBundleVersion": "412",
                           "CFBundleIdentifier": "com.example.shopapp"},
            "exception": {"type": "EXC_BAD_ACCESS", "signal": "SIGSEGV", "codes": "0x0000000000000001, 0x0000000000000010"},
            "faultingThread": 0,
            "threads": [{"id": 1000 + number, "triggered": number == 0,
                         "frames": [{"imageOffset": offset, "symbol": symbol, "symbolLocation": location,
                                     "imageIndex": index[image]} if symbol else {"imageOffset": offset, "imageIndex": index[image]}
                                    for image, _, offset, symbol, location in frames]}
                        for number, frames in enumerate(self.threads)],
            "usedImages": [{"source": "P", "arch": "arm64e" if n else "arm64", "base": base, "size": size, "uuid": image_uuid,
                            "path": path, "name": name} for n, (name, base, size, image_uuid, path) in enumerate(self.images)],
        }
        return json.dumps(header) + "\n" + apple_json(body)

    def text(self):
        lines = ["Incident Identifier: %s" % self.incident, "Hardware Model:      %s" % self.device,
                 "Process:             ShopApp [4100]", "Path:                %s" % self.images[0][4],
                 "Identifier:          com.example.shopapp", "Version:             2.3.1 (412)",
                 "Code Type:           ARM-64 (Native)", "", "Date/Time:           2026-11-20 10:00:00.0000 +0000",
                 "OS Version:          iPhone OS %s (%s)" % self.os, "Report Version:      104", "",
                 "Exception Type:  EXC_BAD_ACCESS (SIGSEGV)",
                 "Exception Subtype: KERN_INVALID_ADDRESS at 0x0000000000000010", "Triggered by Thread:  0", ""]
        for number, frames in enumerate(self.threads):
            lines.append("Thread %d%s:" % (number, " Crashed" if number == 0 else ""))
            for position, (image, base, offset, symbol, location) in enumerate(frames):
                if symbol:
                    lines.append("%-4d%-30s\t0x%016x %s + %d" % (position, image, base + offset, symbol, location))
                else:
                    lines.append("%-4d%-30s\t0x%016x 0x%x + %d" % (position, image, base + offset, base, offset))
            lines.append("")
        lines.append("Binary Images:")
        for name, base, size, image_uuid, path in self.images:
            lines.append("0x%x - 0x%x %s arm64  <%s> %s" % (base, base + size - 1, name, image_uuid.replace("-", ""), path))
        return "\n".join(lines) + "\n"

    def kscrash(self):
        threads = [{"index": number, "crashed": number == 0,
                    "backtrace": {"contents": [dict({"instruction_addr": base + offset, "object_addr": base, "object_name": image},
                                                    **({"symbol_addr": base + offset - location, "symbol_name": symbol} if symbol else {}))
                                               for image, base, offset, symbol, location in frames]}}
                   for number, frames in enumerate(self.threads)]
        images = [{"image_addr": base, "image_size": size, "name": path, "uuid": image_uuid.upper(),
                   "cpu_type": 16777228, "cpu_subtype": 0} for name, base, size, image_uuid, path in self.images]
        return json.dumps({
            "report": {"id": self.incident, "timestamp": "2026-11-20T10:00:00Z", "type": "standard"},
            "system": {"CFBundleShortVersionString": "2.3.1", "CFBundleVersion": "412", "CFBundleIdentifier": "com.example.shopapp",
                       "CFBundleExecutable": "ShopApp", "machine": self.device, "system_version": self.os[0],
                       "os_version": self.os[1], "system_name": "iOS", "cpu_arch": "arm64"},
            "binary_images": images,
            "crash": {"error": {"type": "mach", "mach": {"exception_name": "EXC_BAD_ACCESS", "code_name": "KERN_INVALID_ADDRESS"},
                                "signal": {"name": "SIGSEGV", "signal": 11}, "address": 16},
                      "threads": threads},
        }, indent=1)

    def metrickit(self):
        def tree(frames):
            node = None
            for image, base, offset, _, _ in reversed(frames[:12]):
                entry = {"binaryName": image, "binaryUUID": next(i[3] for i in self.images if i[0] == image).upper(),
                         "offsetIntoBinaryTextSegment": offset, "address": base + offset, "sampleCount": 1}
                if node:
                    entry["subFrames"] = [node]
                node = entry
            return [node] if node else []
        return json.dumps({"crashDiagnostics": [{
            "version": "1.0.0",
            "callStackTree": {"callStackPerThread": True,
                              "callStacks": [{"threadAttributed": number == 0, "callStackRootFrames": tree(frames)}
                                             for number, frames in enumerate(self.threads[:8])]},
            "diagnosticMetaData": {"appVersion": "2.3.1", "appBuildVersion": "412", "osVersion": "iPhone OS %s (%s)" % self.os,
                                   "deviceType": self.device, "bundleIdentifier": "com.example.shopapp",
                                   "exceptionType": 1, "exceptionCode": 0, "signal": 11, "platformArchitecture": "arm64e"},
        }], "timeStampBegin": "2026-11-20 10:00:00", "timeStampEnd": "2026-11-20 11:00:00"}, indent=1)


def clue_files(rng, number, video):
    """The files of one recording: a sample package with an info file of its own."""
    source = CLUE_FOLDERS[number % len(CLUE_FOLDERS)]
    files = {}
    for folder, _, names in os.walk(source):
        for name in names:
            path = os.path.join(folder, name)
            relative = os.path.relpath(path, source)
            if name == "module_video.mp4":
                files[relative] = ("video", path)
            else:
                files[relative] = ("bytes", open(path, "rb").read())
    files["Info/info_bench.json"] = ("bytes", json.dumps({"copy": number, "seed": rng.getrandbits(32)}).encode())
    files["Modules/module_video.mp4"] = ("video", video)
    return files


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("count", type=int)
    parser.add_argument("folder")
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--video-bytes", type=int, default=256 * 1024)
    parser.add_argument("--bugs", type=int, default=200)
    parser.add_argument("--crashed-thread-only", action="store_true")
    parser.add_argument("--used-images-only", action="store_true")
    parser.add_argument("--deep-threads", action="store_true")
    parser.add_argument("--random-system-images", action="store_true")
    parser.add_argument("--app-symbols")
    arguments = parser.parse_args()
    Crash.app_symbols = AppSymbols(arguments.app_symbols) if arguments.app_symbols else None
    Crash.crashed_thread_only = arguments.crashed_thread_only
    Crash.used_images_only = arguments.used_images_only
    Crash.deep_threads = arguments.deep_threads
    Crash.random_system_images = arguments.random_system_images
    rng = random.Random(arguments.seed)
    os.makedirs(arguments.folder, exist_ok=True)
    # One video for every folder package (hard links), and incompressible bytes after a real QuickTime header.
    header = open(os.path.join(CLUE_FOLDERS[0], "Modules", "module_video.mp4"), "rb").read()
    video_path = os.path.join(arguments.folder, ".video.mp4")
    with open(video_path, "wb") as video:
        video.write(header + rng.randbytes(max(0, arguments.video_bytes - len(header))))
    video_bytes = open(video_path, "rb").read()
    kinds = (["clue-folder"] * 25 + ["clue-zip"] * 25 + ["ips"] * 20 + ["crash"] * 10 + ["kscrash"] * 8
             + ["metrickit"] * 4 + ["zip-of-reports"] * 5 + ["hostile"] * 3)
    for number in range(arguments.count):
        kind = rng.choice(kinds)
        name = os.path.join(arguments.folder, "input-%06d" % number)
        if kind == "clue-folder":
            package = name + ".clue"
            for relative, (what, value) in clue_files(rng, number, video_path).items():
                path = os.path.join(package, relative)
                os.makedirs(os.path.dirname(path), exist_ok=True)
                if what == "video":
                    os.link(video_path, path)
                else:
                    open(path, "wb").write(value)
        elif kind == "clue-zip":
            folder = uuid(rng).upper() + ".clue"
            with zipfile.ZipFile(name + ".clue.zip", "w", zipfile.ZIP_DEFLATED) as archive:
                for relative, (what, value) in sorted(clue_files(rng, number, video_path).items()):
                    data = video_bytes if what == "video" else value
                    archive.writestr("%s/%s" % (folder, relative), data,
                                     zipfile.ZIP_STORED if what == "video" else zipfile.ZIP_DEFLATED)
        elif kind in ("ips", "crash", "kscrash", "metrickit"):
            crash = Crash(rng, zipf(rng, arguments.bugs))
            text, extension = {"ips": (crash.ips, ".ips"), "crash": (crash.text, ".crash"),
                               "kscrash": (crash.kscrash, ".json"), "metrickit": (crash.metrickit, ".json")}[kind]
            open(name + extension, "w").write(text())
        elif kind == "zip-of-reports":
            with zipfile.ZipFile(name + ".zip", "w", zipfile.ZIP_DEFLATED) as archive:
                for position in range(3):
                    crash = Crash(rng, zipf(rng, arguments.bugs))
                    archive.writestr("reports/crash-%d.ips" % position, crash.ips())
        else:
            choice = number % 3
            if choice == 0:
                buffer = io.BytesIO()
                with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as archive:
                    archive.writestr("crash.ips", Crash(rng, 0).ips())
                open(name + ".zip", "wb").write(buffer.getvalue()[: len(buffer.getvalue()) // 2])
            elif choice == 1:
                open(name + ".json", "w").write('{"report": {"id": "%s"}, "crash": {"threads": [}}}' % uuid(rng))
            else:
                open(name + ".crash", "w").write("")
    os.remove(video_path)


if __name__ == "__main__":
    main()
