"""Stream's Python SDK against a running Feeds server: runs every step of steps_*.py, prints
`ok NAME` or `FAIL NAME: reason` for each, and writes "PASSED FAILED" to $FEEDS_SDK_COUNTS.
scripts/sdk-conformance.sh starts the server and sets the environment:
FEEDS_SDK_BASE_URL, FEEDS_SDK_API_KEY, FEEDS_SDK_API_SECRET, FEEDS_SDK_PASS (a label)."""

import http.server
import os
import subprocess
import threading
import sys
import tempfile
import uuid
import warnings

from getstream import Stream
from getstream.exceptions import StreamApiException

# The step modules register their steps on import, in this order; a new feature (follows,
# reactions, comments, real-time) adds a steps_<feature>.py and its import here.
import steps_users  # noqa: F401
import steps_uploads  # noqa: F401
import steps_activities  # noqa: F401
import steps_feeds  # noqa: F401
import steps_follows  # noqa: F401
import steps_reactions  # noqa: F401
import steps_comments  # noqa: F401
import steps_notifications  # noqa: F401
import steps_feed_groups  # noqa: F401
import steps_stories  # noqa: F401
import steps_feed_batches  # noqa: F401
import steps_feed_views  # noqa: F401
import steps_members  # noqa: F401
import steps_pins  # noqa: F401
import steps_polls  # noqa: F401
import steps_links  # noqa: F401
import steps_webhooks  # noqa: F401
import steps_erasure  # noqa: F401
import steps_errors  # noqa: F401
from support import STEPS, png


class Made(dict):
    """What earlier steps made, by name; a missing entry says so, instead of a bare KeyError."""

    def __missing__(self, key):
        raise AssertionError(f"an earlier step did not make {key!r}")


PAGE = (b'<html><head><title>Fallback</title><meta property="og:title" content="Sea &amp; Sky">'
        b'<meta property="og:description" content="Waves, all day"><meta property="og:image" content="/sea.jpg">'
        b'<meta property="og:site_name" content="Beach News"></head><body></body></html>')


def serve_page():
    """A web page with Open Graph tags and its image on loopback (scripts/sdk-conformance.sh lets
    the server fetch from 127.0.0.1); its URL."""

    class Page(http.server.BaseHTTPRequestHandler):
        def do_GET(self):
            # The page, and its og:image (a small PNG, whatever its name says).
            kind, body = ("image/png", png(12, 9)) if self.path == "/sea.jpg" else ("text/html", PAGE)
            self.send_response(200)
            self.send_header("Content-Type", kind)
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

        def log_message(self, *args):
            pass

    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Page)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return f"http://127.0.0.1:{server.server_address[1]}/beach"


class Run:
    """What the steps share: the client, the test users and files, and what earlier steps made."""

    def __init__(self, base_url, api_key, api_secret, directory):
        self.base_url, self.api_key, self.api_secret = base_url, api_key, api_secret
        self.client = Stream(api_key=api_key, api_secret=api_secret, base_url=base_url)
        self.suffix = suffix = uuid.uuid4().hex[:8]
        self.alice, self.bob = f"alice-{suffix}", f"bob-{suffix}"
        self.alice_feed, self.bob_feed = f"user:{self.alice}", f"user:{self.bob}"
        self.bytes = {
            "notes.txt": b"Notes for the SDK conformance run.\n",
            "spare.txt": b"A file that is deleted again.\n",
            "gradient.png": png(8, 6),
            "spare.png": png(6, 8),
            "setup.exe": b"MZ not really a program\n",
        }
        self.files = {}
        for name, content in self.bytes.items():
            path = os.path.join(directory, name)
            with open(path, "wb") as file:
                file.write(content)
            self.files[name] = path
        # A two-second video, made by ffmpeg (which the server's video uploads need too).
        self.files["clip.mp4"] = os.path.join(directory, "clip.mp4")
        subprocess.run(
            ["ffmpeg", "-nostdin", "-v", "error", "-y", "-f", "lavfi", "-i", "testsrc=size=320x240:rate=25", "-t", "2",
             "-c:v", "libx264", "-pix_fmt", "yuv420p", self.files["clip.mp4"]],
            check=True)
        self.page_url = serve_page()
        self.urls, self.activities, self.notes = Made(), Made(), []
        self.comments = ()


def reason(error):
    """One line saying why a step failed, with what the server answered when there is a reply."""
    if isinstance(error, StreamApiException):
        body = (error.raw_response_body or "")[:300]
        if error.status_code < 400:
            return f"the SDK could not decode the {error.status_code} reply ({error.__cause__!r}): {body}"
        return f"{error} (body: {body})"
    if isinstance(error, AssertionError):
        return str(error)
    # getstream 7.0.0 turns a 2xx reply it cannot decode into a KeyError raised while building
    # its exception (the body has no `code`); the decode error it was handling says what is wrong.
    if error.__context__ is not None and not isinstance(error.__context__, StreamApiException):
        cause = error.__context__
        return f"the SDK could not decode the reply: {type(cause).__name__}: {cause}"
    return f"{type(error).__name__}: {error}"


def main():
    # dataclasses_json warns of every missing required field; check_decoded reports them per step.
    warnings.filterwarnings("ignore", category=RuntimeWarning, module="dataclasses_json")
    label = os.environ.get("FEEDS_SDK_PASS", "")
    prefix = f"[{label}] " if label else ""
    passed = failed = 0
    with tempfile.TemporaryDirectory() as directory:
        run = Run(
            os.environ["FEEDS_SDK_BASE_URL"],
            os.environ["FEEDS_SDK_API_KEY"],
            os.environ["FEEDS_SDK_API_SECRET"],
            directory,
        )
        for function in STEPS:
            try:
                function(run)
            except Exception as error:  # a step fails by any exception; the run goes on
                failed += 1
                print(f"FAIL {prefix}{function.__name__}: {reason(error)[:800]}", flush=True)
            else:
                passed += 1
                print(f"ok {prefix}{function.__name__}", flush=True)
    counts = os.environ.get("FEEDS_SDK_COUNTS")
    if counts:
        with open(counts, "w") as file:
            file.write(f"{passed} {failed}\n")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
