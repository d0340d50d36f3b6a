"""The admin console in headless Chromium, as an admin uses it: signs in, changes the blocked
extensions and sees the change through GET /api/v2/app, uploads through the API and sees the
upload listed with its thumbnail, deletes it, runs gc, sees a refused webhook delivery and retries
it, signs out. Prints `ok STEP` or
`FAIL STEP: reason` for each step and writes "PASSED FAILED" to $FEEDS_ADMIN_COUNTS; a screenshot
of every page goes to $FEEDS_ADMIN_SCREENSHOTS. scripts/admin-browser.sh starts the server and
sets FEEDS_ADMIN_BASE_URL, FEEDS_ADMIN_API_KEY and FEEDS_ADMIN_API_SECRET."""

import base64
import hashlib
import hmac
import http.server
import json
import math
import os
import struct
import sys
import threading
import time
import urllib.error
import urllib.request
import uuid
import zlib

from selenium import webdriver
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import WebDriverWait

# Hang guards, not measurements: a busy machine may take this long over a page.
PATIENCE = 60


def photo(width, height):
    """A real PNG with something to see in a thumbnail: a sunset of rings."""
    rows = bytearray()
    for y in range(height):
        rows.append(0)
        for x in range(width):
            d = math.hypot(x - width * 0.5, y - height * 0.75) / width
            rows += bytes((int(255 - 90 * d) % 256, int(120 + 100 * math.sin(d * 9)) % 256, int(60 + 160 * d) % 256))

    def chunk(kind, data):
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF)

    header = struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0)
    return b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header) + chunk(b"IDAT", zlib.compress(bytes(rows))) + chunk(b"IEND", b"")


class Run:
    """The browser, the API beside it, and what earlier steps made."""

    def __init__(self):
        self.base = os.environ["FEEDS_ADMIN_BASE_URL"]
        self.key = os.environ["FEEDS_ADMIN_API_KEY"]
        self.secret = os.environ["FEEDS_ADMIN_API_SECRET"]
        self.shots = os.environ["FEEDS_ADMIN_SCREENSHOTS"]
        self.user = f"alice-{uuid.uuid4().hex[:6]}"
        os.makedirs(self.shots, exist_ok=True)
        options = webdriver.ChromeOptions()
        options.binary_location = os.environ.get("FEEDS_ADMIN_CHROMIUM", "/usr/bin/chromium")
        for flag in ["--headless=new", "--no-sandbox", "--disable-dev-shm-usage", "--disable-gpu", "--window-size=1280,900"]:
            options.add_argument(flag)
        options.set_capability("goog:loggingPrefs", {"browser": "ALL"})
        service = Service(os.environ.get("FEEDS_ADMIN_CHROMEDRIVER", "/usr/bin/chromedriver"))
        self.driver = webdriver.Chrome(service=service, options=options)
        self.driver.set_page_load_timeout(PATIENCE)
        self.upload = {}

    # The browser.

    def open(self, path):
        self.driver.get(self.base + path)

    def field(self, name):
        return self.driver.find_element(By.NAME, name)

    def type_into(self, name, text):
        element = self.field(name)
        element.clear()
        element.send_keys(text)

    def submit(self, text):
        """Clicks the button labelled `text` and waits for the next page."""
        button = self.driver.find_element(By.XPATH, f"//button[normalize-space()='{text}']")
        old = self.driver.find_element(By.TAG_NAME, "html")
        button.click()
        WebDriverWait(self.driver, PATIENCE).until(lambda d: old.id != d.find_element(By.TAG_NAME, "html").id)

    def text(self):
        return self.driver.find_element(By.TAG_NAME, "body").text

    def path(self):
        return self.driver.current_url[len(self.base):]

    def screenshot(self, name, width=1280):
        """The whole page at `width`, for the record and for a failure to be looked at."""
        height = self.driver.execute_script("return document.documentElement.scrollHeight")
        self.driver.set_window_size(width, max(height + 120, 600))
        self.driver.save_screenshot(os.path.join(self.shots, f"{name}.png"))
        self.driver.set_window_size(1280, 900)

    # The API beside it.

    def token(self):
        def part(value):
            return base64.urlsafe_b64encode(json.dumps(value, separators=(",", ":")).encode()).rstrip(b"=").decode()

        signing = f"{part({'alg': 'HS256', 'typ': 'JWT'})}.{part({'server': True, 'iat': int(time.time())})}"
        signature = hmac.new(self.secret.encode(), signing.encode(), hashlib.sha256).digest()
        return signing + "." + base64.urlsafe_b64encode(signature).rstrip(b"=").decode()

    def api(self, method, path, body=None, content_type=None):
        request = urllib.request.Request(
            f"{self.base}/api/v2{path}{'&' if '?' in path else '?'}api_key={self.key}", data=body, method=method,
            headers={"Authorization": self.token(), "Stream-Auth-Type": "jwt"} | (
                {"Content-Type": content_type} if content_type else {}))
        try:
            with urllib.request.urlopen(request, timeout=PATIENCE) as reply:
                return reply.status, json.loads(reply.read() or b"{}")
        except urllib.error.HTTPError as error:
            return error.code, json.loads(error.read() or b"{}")

    def upload_file(self, kind, name, data):
        boundary = uuid.uuid4().hex
        parts = [
            (f'Content-Disposition: form-data; name="file"; filename="{name}"\r\n'
             "Content-Type: application/octet-stream\r\n\r\n").encode() + data,
            b'Content-Disposition: form-data; name="user"\r\nContent-Type: application/json\r\n\r\n'
            + json.dumps({"id": self.user}).encode(),
        ]
        body = b"".join(f"--{boundary}\r\n".encode() + part + b"\r\n" for part in parts) + f"--{boundary}--\r\n".encode()
        return self.api("POST", f"/uploads/{kind}", body, f"multipart/form-data; boundary={boundary}")

    def fetch(self, url):
        try:
            with urllib.request.urlopen(url, timeout=PATIENCE) as reply:
                return reply.status
        except urllib.error.HTTPError as error:
            return error.code


def step_sign_in_is_required(run):
    run.open("/admin/rules")
    assert run.path() == "/admin/sign-in?next=/admin/rules", f"not sent to sign in: {run.path()}"
    run.screenshot("01-sign-in")
    run.type_into("api_key", run.key)
    run.type_into("api_secret", "not-the-secret")
    run.submit("Sign in")
    assert "not this app's credentials" in run.text(), run.text()[:300]
    assert run.field("api_key").get_attribute("value") == run.key, "the typed key was not kept"
    run.screenshot("02-sign-in-refused")


def step_sign_in(run):
    run.type_into("api_key", run.key)
    run.type_into("api_secret", run.secret)
    run.submit("Sign in")
    assert run.path() == "/admin/rules", f"signed in to {run.path()}"
    cookies = {cookie["name"]: cookie for cookie in run.driver.get_cookies()}
    session = cookies.get("feeds_admin_session")
    assert session and session["httpOnly"] and session.get("sameSite") == "Strict", f"session cookie: {session}"


def step_a_bad_rule_is_refused_with_the_api_message(run):
    run.type_into("file_upload_config.blocked_file_extensions", "exe, ../secret")
    run.submit("Save rules")
    text = run.text()
    assert 'file_upload_config.blocked_file_extensions: "../secret" is not a file extension' in text, text[:400]
    assert run.field("file_upload_config.blocked_file_extensions").get_attribute("value") == "exe, ../secret"
    run.screenshot("03-rules-refused")
    status, body = run.api("GET", "/app")
    assert body["app"]["file_upload_config"]["blocked_file_extensions"] == [], f"saved anyway: {body['app']}"


def step_blocked_extensions_reach_the_api(run):
    run.type_into("file_upload_config.blocked_file_extensions", ".EXE, bat")
    run.submit("Save rules")
    assert "Saved as version" in run.text(), run.text()[:300]
    status, body = run.api("GET", "/app")
    assert status == 200, f"GET /app answered {status}"
    blocked = body["app"]["file_upload_config"]["blocked_file_extensions"]
    assert blocked == ["exe", "bat"], f"GET /app says {blocked}"
    assert "file_upload_config.blocked_file_extensions: none → exe, bat" in run.text(), "no audit line"
    run.screenshot("04-rules")
    status, body = run.upload_file("file", "setup.exe", b"MZ not really a program\n")
    assert status == 400, f"a blocked .exe was answered {status}"


def step_an_upload_is_listed_with_its_thumbnail(run):
    status, body = run.upload_file("file", "minutes.txt", b"Minutes of the last meeting.\n")
    assert status == 201, f"a file upload answered {status}: {body}"
    status, body = run.upload_file("image", "sunset.png", photo(320, 200))
    assert status == 201, f"upload answered {status}: {body}"
    run.upload["url"] = body["file"]
    run.upload["key"] = body["file"].split("/cdn/", 1)[1].split("?", 1)[0]
    run.open(f"/admin/uploads?user={run.user}")
    row = run.driver.find_element(By.CSS_SELECTOR, f'tr[data-key="{run.upload["key"]}"]')
    assert "sunset.png" in row.text and "image/png" in row.text and run.user in row.text, row.text
    assert row.find_element(By.CSS_SELECTOR, "td.state").text == "stored", row.text
    image = row.find_element(By.CSS_SELECTOR, "img.thumb")
    WebDriverWait(run.driver, PATIENCE).until(lambda d: d.execute_script("return arguments[0].complete", image))
    width = run.driver.execute_script("return arguments[0].naturalWidth", image)
    assert width > 0, "the thumbnail did not load"
    run.screenshot("05-uploads")
    run.screenshot("05-uploads-phone", width=390)


def step_delete_the_upload(run):
    row = run.driver.find_element(By.CSS_SELECTOR, f'tr[data-key="{run.upload["key"]}"]')
    old = run.driver.find_element(By.TAG_NAME, "html")
    row.find_element(By.XPATH, ".//button[normalize-space()='Delete']").click()
    WebDriverWait(run.driver, PATIENCE).until(lambda d: old.id != d.find_element(By.TAG_NAME, "html").id)
    assert "Deleted." in run.text(), run.text()[:300]
    row = run.driver.find_element(By.CSS_SELECTOR, f'tr[data-key="{run.upload["key"]}"]')
    assert row.find_element(By.CSS_SELECTOR, "td.state").text == "deleted", row.text
    assert not row.find_elements(By.CSS_SELECTOR, "img.thumb"), "a thumbnail of a deleted upload"
    assert run.fetch(run.upload["url"]) == 404, "the deleted upload still serves"
    run.screenshot("06-uploads-deleted")


def step_run_gc(run):
    run.open("/admin/storage")
    assert "What the next gc would delete" in run.text()
    run.submit("Run gc now")
    assert run.path() == "/admin/storage?gc=1", run.path()
    latest = run.driver.find_element(By.XPATH, "//h2[.='Last gc runs']/following-sibling::div//tbody/tr[1]").text
    assert "console" in latest and "done" in latest, f"the latest run: {latest}"
    run.screenshot("07-storage")


class Receiver:
    """The app's backend for webhooks, on loopback (scripts/admin-browser.sh allows 127.0.0.1):
    answers `status` to every delivery and counts them."""

    def __init__(self):
        self.status, self.count = 410, 0
        receiver = self

        class Handler(http.server.BaseHTTPRequestHandler):
            def do_POST(self):
                self.rfile.read(int(self.headers.get("Content-Length", "0")))
                receiver.count += 1
                self.send_response(receiver.status)
                self.send_header("Content-Length", "0")
                self.end_headers()

            def log_message(self, *args):
                pass

        server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        threading.Thread(target=server.serve_forever, daemon=True).start()
        self.url = f"http://127.0.0.1:{server.server_address[1]}/hook"


def step_a_refused_webhook_is_shown_and_retried(run):
    receiver = Receiver()
    status, body = run.api("PATCH", "/app", json.dumps({"webhook_url": receiver.url}).encode(), "application/json")
    assert status == 200, f"PATCH /app: {status} {body}"
    activity = {"type": "post", "feeds": [f"user:{run.user}"], "text": "hello", "user_id": run.user}
    status, body = run.api("POST", "/feeds/activities", json.dumps(activity).encode(), "application/json")
    assert status == 201, f"POST /feeds/activities: {status} {body}"
    deadline = time.monotonic() + PATIENCE
    while True:
        run.open("/admin/webhooks")
        if "1 failed" in run.text():
            break
        assert time.monotonic() < deadline, f"no failed delivery shown: {run.text()}"
        time.sleep(0.5)
    assert "the receiver answered 410" in run.text(), run.text()
    run.screenshot("08-webhooks-failed")
    receiver.status = 200
    run.submit("Retry all failed")
    assert run.path() == "/admin/webhooks?retried=1", run.path()
    while receiver.count < 2 or "No failed deliveries" not in run.text():
        assert time.monotonic() < deadline + PATIENCE, f"the retry was not delivered: {run.text()}"
        time.sleep(0.5)
        run.open("/admin/webhooks")
    run.screenshot("09-webhooks-retried")
    status, body = run.api("PATCH", "/app", json.dumps({"webhook_url": ""}).encode(), "application/json")
    assert status == 200, f"PATCH /app: {status} {body}"


def step_sign_out(run):
    run.submit("Sign out")
    assert run.path() == "/admin/sign-in", run.path()
    run.open("/admin/uploads")
    assert run.path().startswith("/admin/sign-in"), f"still in after signing out: {run.path()}"


def step_no_page_broke_its_policy(run):
    # A violated Content-Security-Policy (a blocked stylesheet or thumbnail) shows in the console.
    problems = [
        entry["message"] for entry in run.driver.get_log("browser")
        if entry["level"] == "SEVERE" and "favicon.ico" not in entry["message"]
        and "Failed to load resource: the server responded with a status of 40" not in entry["message"]
    ]
    assert not problems, f"console errors: {problems}"


STEPS = [
    step_sign_in_is_required, step_sign_in, step_a_bad_rule_is_refused_with_the_api_message,
    step_blocked_extensions_reach_the_api, step_an_upload_is_listed_with_its_thumbnail, step_delete_the_upload,
    step_run_gc, step_a_refused_webhook_is_shown_and_retried, step_sign_out, step_no_page_broke_its_policy,
]


def main():
    passed = failed = 0
    run = None
    try:
        run = Run()
    except Exception as error:  # noqa: BLE001 - whatever stops the browser starting is the report
        print(f"FAIL start the browser: {type(error).__name__}: {error}")
        failed = len(STEPS)
    broken = None
    for step in STEPS if run else []:
        name = step.__name__.removeprefix("step_").replace("_", " ")
        if broken:
            # Each step goes on from where the last left the browser.
            print(f"FAIL {name}: not run, as {broken} failed")
            failed += 1
            continue
        try:
            step(run)
            print(f"ok {name}", flush=True)
            passed += 1
        except Exception as error:  # noqa: BLE001 - a step's failure of any kind is reported, not raised
            print(f"FAIL {name}: {type(error).__name__}: {error}", flush=True)
            failed += 1
            broken = name
            try:
                run.driver.save_screenshot(os.path.join(run.shots, "failure.png"))
            except Exception:  # noqa: BLE001
                pass
    if run:
        run.driver.quit()
    counts = os.environ.get("FEEDS_ADMIN_COUNTS")
    if counts:
        with open(counts, "w") as file:
            file.write(f"{passed} {failed}\n")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
