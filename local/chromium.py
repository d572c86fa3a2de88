"""A small standard-library client of headless Chromium over the DevTools protocol on a pipe
(`--remote-debugging-pipe`: the browser reads NUL-terminated JSON commands on fd 3 and writes
replies and events on fd 4). No port, no websocket, no downloaded browser: Debian's `chromium`.

Used by tests/report/test_report_browser.py (render each kind of report.html: page errors,
requests, numbers, timeline) and local/report_screenshots.py (docs/report.md's screenshots).

    with Chromium() as b:                      # None of the binaries found: ChromiumMissing
        page = b.open("/abs/path/report.html")  # loaded; errors and requests collected
        page.eval("document.title")
        page.screenshot("shot.png", width=1200)
"""
from __future__ import annotations

import base64
import fcntl
import json
import os
import select
import shutil
import subprocess
import tempfile
import time
from typing import Any

BINARIES = ("chromium", "chromium-browser", "google-chrome", "google-chrome-stable")
FLAGS = ("--headless", "--no-sandbox", "--disable-gpu", "--no-first-run", "--disable-background-networking",
         "--disable-component-update", "--disable-sync", "--disable-extensions", "--disable-default-apps",
         "--mute-audio", "--hide-scrollbars", "--remote-debugging-pipe")
TIMEOUT = 60.0


class ChromiumMissing(RuntimeError):
    pass


def binary() -> str | None:
    """The Chromium binary ($CHROMIUM, else the first of BINARIES on PATH), or None."""
    named = os.environ.get("CHROMIUM")
    if named:
        return shutil.which(named) or (named if os.access(named, os.X_OK) else None)
    for name in BINARIES:
        found = shutil.which(name)
        if found:
            return found
    return None


def _high(fd: int) -> int:
    """fd moved to a descriptor >= 10 (close-on-exec)."""
    high = fcntl.fcntl(fd, fcntl.F_DUPFD_CLOEXEC, 10)
    os.close(fd)
    return high


class Chromium:
    """One headless browser (its own new profile directory), driven over the pipe."""

    def __init__(self, path: str | None = None) -> None:
        self.path = path or binary()
        if self.path is None:
            raise ChromiumMissing("no chromium on PATH (apt-get install chromium)")
        self.profile = tempfile.mkdtemp(prefix="termeval-chromium-")
        to_child, self._out = os.pipe()       # we write commands -> the browser's fd 3
        self._in, from_child = os.pipe()      # the browser's fd 4 -> we read
        # the child's ends moved above 9 first: dup2 onto 3 and 4 then never overwrites one
        # with the other, and always makes a new inheritable descriptor
        to_child, from_child = _high(to_child), _high(from_child)

        def fds() -> None:                    # in the child only: its fds 3 and 4
            os.dup2(to_child, 3)
            os.dup2(from_child, 4)
        self.proc = subprocess.Popen([self.path, *FLAGS, f"--user-data-dir={self.profile}", "about:blank"],
                                     stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                                     stderr=subprocess.DEVNULL, preexec_fn=fds, close_fds=False)
        os.close(to_child)
        os.close(from_child)
        self._buf = b""
        self._id = 0
        self.events: list[dict] = []

    # ------------------------------------------------------------------ the protocol
    def send(self, method: str, params: dict | None = None, session: str | None = None,
             timeout: float = TIMEOUT) -> dict:
        """Send one command and wait for its reply (events meanwhile are kept in self.events)."""
        self._id += 1
        msg: dict[str, Any] = {"id": self._id, "method": method, "params": params or {}}
        if session:
            msg["sessionId"] = session
        os.write(self._out, json.dumps(msg).encode() + b"\0")
        want = self._id
        end = time.monotonic() + timeout
        while True:
            m = self._next(end - time.monotonic())
            if m.get("id") == want:
                if "error" in m:
                    raise RuntimeError(f"{method}: {m['error']}")
                return m.get("result", {})
            self.events.append(m)

    def _next(self, timeout: float) -> dict:
        while b"\0" not in self._buf:
            if timeout <= 0 or not select.select([self._in], [], [], timeout)[0]:
                raise TimeoutError("no reply from chromium")
            chunk = os.read(self._in, 1 << 20)
            if not chunk:
                raise RuntimeError("chromium closed the pipe")
            self._buf += chunk
        raw, self._buf = self._buf.split(b"\0", 1)
        return json.loads(raw)

    def wait_event(self, method: str, session: str | None, timeout: float = TIMEOUT) -> dict:
        end = time.monotonic() + timeout
        for i, m in enumerate(self.events):
            if m.get("method") == method and m.get("sessionId") == session:
                return self.events.pop(i)
        while True:
            m = self._next(end - time.monotonic())
            if m.get("method") == method and m.get("sessionId") == session:
                return m
            self.events.append(m)

    # ------------------------------------------------------------------ pages
    def open(self, path: str, width: int = 1280, height: int = 900) -> "Page":
        """A new tab showing the local file `path`, loaded (its load event fired)."""
        target = self.send("Target.createTarget", {"url": "about:blank"})["targetId"]
        session = self.send("Target.attachToTarget", {"targetId": target, "flatten": True})["sessionId"]
        page = Page(self, session, target)
        for domain in ("Page", "Runtime", "Network", "Log"):
            self.send(f"{domain}.enable", {}, session)
        self.send("Emulation.setDeviceMetricsOverride", {"width": width, "height": height, "deviceScaleFactor": 1,
                                                         "mobile": False}, session)
        self.send("Page.navigate", {"url": "file://" + os.path.abspath(path)}, session)
        self.wait_event("Page.loadEventFired", session)
        return page

    def close(self) -> None:
        try:
            self.send("Browser.close", timeout=5)
        except (OSError, RuntimeError, TimeoutError):
            pass
        try:
            self.proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()
        for fd in (self._in, self._out):
            try:
                os.close(fd)
            except OSError:
                pass
        shutil.rmtree(self.profile, ignore_errors=True)

    def __enter__(self) -> "Chromium":
        return self

    def __exit__(self, *exc: Any) -> None:
        self.close()


class Page:
    def __init__(self, browser: Chromium, session: str, target: str) -> None:
        self.b, self.session, self.target = browser, session, target

    def eval(self, expression: str) -> Any:
        """The value of a JavaScript expression (JSON-able), awaited if it is a promise."""
        r = self.b.send("Runtime.evaluate", {"expression": expression, "returnByValue": True, "awaitPromise": True},
                        self.session)
        if "exceptionDetails" in r:
            raise RuntimeError(f"{expression[:80]}: {r['exceptionDetails'].get('text')} "
                               f"{r['exceptionDetails'].get('exception', {}).get('description', '')}")
        return r["result"].get("value")

    def _mine(self) -> list[dict]:
        self.eval("0")      # a round trip: the events sent before it are in
        return [m for m in self.b.events if m.get("sessionId") == self.session]

    def errors(self) -> list[str]:
        """Exceptions, console errors and error log entries (a blocked request among them)."""
        out = []
        for m in self._mine():
            p = m.get("params", {})
            if m.get("method") == "Runtime.exceptionThrown":
                d = p.get("exceptionDetails", {})
                out.append(f"exception: {d.get('text')} {d.get('exception', {}).get('description', '')}")
            elif m.get("method") == "Runtime.consoleAPICalled" and p.get("type") in ("error", "assert"):
                out.append("console: " + " ".join(str(a.get("value", a.get("description"))) for a in p.get("args", [])))
            elif m.get("method") == "Log.entryAdded" and p.get("entry", {}).get("level") == "error":
                out.append(f"log: {p['entry'].get('text')} {p['entry'].get('url', '')}")
        return out

    def requests(self) -> list[str]:
        """The URLs the page asked for (the page itself included)."""
        return [m["params"]["request"]["url"] for m in self._mine() if m.get("method") == "Network.requestWillBeSent"]

    def screenshot(self, path: str, clip: dict | None = None) -> None:
        """A PNG of the page (or of `clip`: {x, y, width, height} in CSS pixels)."""
        params: dict[str, Any] = {"format": "png", "captureBeyondViewport": True}
        if clip:
            params["clip"] = {**clip, "scale": 1}
        data = self.b.send("Page.captureScreenshot", params, self.session)["data"]
        with open(path, "wb") as f:
            f.write(base64.b64decode(data))

    def close(self) -> None:
        self.b.send("Target.closeTarget", {"targetId": self.target})
