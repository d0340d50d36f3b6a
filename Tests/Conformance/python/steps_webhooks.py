"""Steps: webhooks. UpdateApp's webhook_url, webhook_events and event_hooks as the SDK sends them;
GetApp decoding them; an activity's event reaching a receiver on loopback, checked and parsed by
the SDK's own verify_and_parse_webhook; a 500 retried under the same X-Webhook-Id; a private
address refused. scripts/sdk-conformance.sh lets hooks point at 127.0.0.1."""

import http.server
import json
import threading
import time

from getstream.models import ActivityAddedEvent, EventHook
from getstream.webhook import verify_and_parse_webhook

from support import check_decoded, expect, expect_api_error, expect_equal, step

# A hang guard, not a measurement.
PATIENCE = 60


class Receiver:
    """The app's backend: records each POST's headers and body; answers 500 while `failures` > 0."""

    def __init__(self):
        self.deliveries, self.failures, self.lock = [], 0, threading.Lock()
        receiver = self

        class Handler(http.server.BaseHTTPRequestHandler):
            def do_POST(self):
                body = self.rfile.read(int(self.headers.get("Content-Length", "0")))
                with receiver.lock:
                    status = 500 if receiver.failures > 0 else 200
                    receiver.failures = max(0, receiver.failures - 1)
                    receiver.deliveries.append((dict(self.headers), body, status))
                self.send_response(status)
                self.send_header("Content-Length", "0")
                self.end_headers()

            def log_message(self, *args):
                pass

        server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        threading.Thread(target=server.serve_forever, daemon=True).start()
        self.url = f"http://127.0.0.1:{server.server_address[1]}/hook"

    def delivered(self, activity_id):
        """The deliveries of the activity's feeds.activity.added, every attempt, in arrival order."""
        with self.lock:
            found = []
            for headers, body, status in self.deliveries:
                event = json.loads(body)
                if event.get("type") == "feeds.activity.added" and event.get("activity", {}).get("id") == activity_id:
                    found.append((headers, body, status))
            return found

    def wait_for_200(self, activity_id):
        deadline = time.monotonic() + PATIENCE
        while not any(status == 200 for _, _, status in self.delivered(activity_id)):
            expect(time.monotonic() < deadline, f"the event of {activity_id} delivered within {PATIENCE} s")
            time.sleep(0.1)
        return self.delivered(activity_id)


def receiver(run):
    """One receiver per run, made by the first step that needs it."""
    if getattr(run, "webhook_receiver", None) is None:
        run.webhook_receiver = Receiver()
    return run.webhook_receiver


@step
def webhook_settings_round_trip(run):
    hook = receiver(run)
    run.client.update_app(
        webhook_url=hook.url, webhook_events=["feeds.activity.added"],
        event_hooks=[EventHook(hook_type="webhook", webhook_url=hook.url + "?second", event_types=["feeds.follow.created"],
                               timeout_ms=2000)])
    app = run.client.get_app().data.app
    check_decoded(app)
    expect_equal((app.webhook_url, app.webhook_events), (hook.url, ["feeds.activity.added"]), "webhook_url and its events")
    expect_equal(len(app.event_hooks), 1, "event hooks")
    second = app.event_hooks[0]
    expect_equal((second.hook_type, second.webhook_url, second.event_types, second.enabled, second.timeout_ms),
                 ("webhook", hook.url + "?second", ["feeds.follow.created"], True, 2000), "the event hook")
    expect(bool(second.id), "the event hook has an id")


@step
def webhook_delivers_a_signed_event_the_sdk_parses(run):
    hook = receiver(run)
    added = run.client.feeds.add_activity(
        type="post", feeds=[run.alice_feed], text="to the backend", user_id=run.alice).data.activity
    # The first attempt (on a very busy machine a slow answer may be tried again, as Stream would).
    headers, body, _ = hook.wait_for_200(added.id)[0]
    event = verify_and_parse_webhook(body, headers["X-Signature"], run.api_secret)
    expect(isinstance(event, ActivityAddedEvent), f"an ActivityAddedEvent, not {type(event).__name__}")
    expect_equal((event.activity.id, event.fid, event.activity.text), (added.id, run.alice_feed, "to the backend"),
                 "the parsed event")
    expect_equal((headers["X-Api-Key"], headers["X-Webhook-Attempt"]), (run.api_key, "1"), "X-Api-Key, X-Webhook-Attempt")
    run.activities["webhook"] = added.id


@step
def webhook_a_500_is_retried_under_the_same_id(run):
    hook = receiver(run)
    with hook.lock:
        hook.failures = 2
    added = run.client.feeds.add_activity(
        type="post", feeds=[run.alice_feed], text="retried", user_id=run.alice).data.activity
    attempts = hook.wait_for_200(added.id)
    expect_equal([(h["X-Webhook-Attempt"], status) for h, _, status in attempts][:3],
                 [("1", 500), ("2", 500), ("3", 200)], "the attempts")
    expect_equal(len({h["X-Webhook-Id"] for h, _, _ in attempts}), 1, "one X-Webhook-Id for every attempt")
    run.client.feeds.delete_activities(ids=[added.id, run.activities["webhook"]], hard_delete=True)


@step
def webhook_inside_addresses_and_other_hook_types_are_refused(run):
    hook = receiver(run)
    expect_api_error(lambda: run.client.update_app(webhook_url="http://169.254.169.254/latest/meta-data/"), 400, 4)
    expect_api_error(lambda: run.client.update_app(
        event_hooks=[EventHook(hook_type="sqs", sqs_queue_url="https://sqs.example.com/q")]), 400, 4)
    expect_equal(run.client.get_app().data.app.webhook_url, hook.url, "webhook_url after the refusals")


@step
def webhook_settings_cleared(run):
    run.client.update_app(webhook_url="", webhook_events=[], event_hooks=[])
    app = run.client.get_app().data.app
    expect_equal((app.webhook_url, app.webhook_events, app.event_hooks), ("", [], []), "the webhook settings")
