"""Steps: webhooks. UpdateApp's webhook_url, webhook_events and event_hooks as the SDK sends them;
GetApp decoding them, and hiding them from a user; an activity's, a reaction's and a follow's events
reaching a receiver on loopback, checked and parsed by the SDK's own verify_and_parse_webhook, each
hook with its own event types; a 500 retried under the same X-Webhook-Id; a private address and
another hook type refused. scripts/sdk-conformance.sh lets hooks point at 127.0.0.1."""

import http.server
import json
import threading
import time

from getstream import Stream
from getstream.models import ActivityAddedEvent, ActivityReactionAddedEvent, EventHook, FollowCreatedEvent
from getstream.webhook import verify_and_parse_webhook

from support import check_decoded, expect, expect_api_error, expect_equal, near_now, step

# A hang guard, not a measurement.
PATIENCE = 60

# What each hook of the run is subscribed to: the app's webhook_url (path /hook) and one event hook
# (path /hook?second).
MAIN_EVENTS = ["feeds.activity.added", "feeds.activity.reaction.added"]
SECOND_EVENTS = ["feeds.follow.created"]


class Delivery:
    """One POST as the receiver got it: path, headers, raw body, the status it answered."""

    def __init__(self, path, headers, body, status):
        self.path, self.headers, self.body, self.status = path, headers, body, status
        self.event = json.loads(body)

    def parsed(self, secret):
        """The SDK's typed event, once the SDK checked X-Signature against the body."""
        return verify_and_parse_webhook(self.body, self.headers["X-Signature"], secret)


class Receiver:
    """The app's backend: records each POST; answers 500 while `failures` > 0, else 200."""

    def __init__(self):
        self.deliveries, self.failures, self.lock = [], 0, threading.Lock()
        receiver = self

        class Handler(http.server.BaseHTTPRequestHandler):
            def do_POST(self):
                body = self.rfile.read(int(self.headers.get("Content-Length", "0")))
                with receiver.lock:
                    status = 500 if receiver.failures > 0 else 200
                    receiver.failures = max(0, receiver.failures - 1)
                    receiver.deliveries.append(Delivery(self.path, dict(self.headers), body, status))
                self.send_response(status)
                self.send_header("Content-Length", "0")
                self.end_headers()

            def log_message(self, *args):
                pass

        server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        threading.Thread(target=server.serve_forever, daemon=True).start()
        self.url = f"http://127.0.0.1:{server.server_address[1]}/hook"
        self.second_url = self.url + "?second"

    def found(self, matches):
        """The deliveries whose event `matches`, every attempt, in arrival order."""
        with self.lock:
            return [delivery for delivery in self.deliveries if matches(delivery.event)]

    def wait_for_200(self, matches, what):
        """The deliveries of an event, once one of them was answered 200."""
        deadline = time.monotonic() + PATIENCE
        while not any(delivery.status == 200 for delivery in self.found(matches)):
            expect(time.monotonic() < deadline, f"{what} delivered within {PATIENCE} s")
            time.sleep(0.1)
        return self.found(matches)

    def wait_for_activity(self, activity_id):
        return self.wait_for_200(
            lambda event: event.get("type") == "feeds.activity.added" and event.get("activity", {}).get("id") == activity_id,
            f"the feeds.activity.added of {activity_id}")


def receiver(run):
    """One receiver per run, made by the first step that needs it."""
    if getattr(run, "webhook_receiver", None) is None:
        run.webhook_receiver = Receiver()
    return run.webhook_receiver


def webhook_settings(app):
    """What GetApp says of where events go, comparable as a whole."""
    hooks = [(h.id, h.hook_type, h.webhook_url, h.event_types, h.enabled, h.timeout_ms) for h in app.event_hooks or []]
    return app.webhook_url, app.webhook_events, hooks


@step
def webhook_settings_round_trip(run):
    hook = receiver(run)
    run.client.update_app(
        webhook_url=hook.url, webhook_events=MAIN_EVENTS,
        event_hooks=[EventHook(hook_type="webhook", webhook_url=hook.second_url, event_types=SECOND_EVENTS,
                               timeout_ms=2000)])
    app = run.client.get_app().data.app
    check_decoded(app)
    expect_equal((app.webhook_url, app.webhook_events), (hook.url, MAIN_EVENTS), "webhook_url and its events")
    expect_equal(len(app.event_hooks), 1, "event hooks")
    second = app.event_hooks[0]
    expect_equal((second.hook_type, second.webhook_url, second.event_types, second.enabled, second.timeout_ms),
                 ("webhook", hook.second_url, SECOND_EVENTS, True, 2000), "the event hook")
    expect(bool(second.id), "the event hook has an id")
    run.webhook_settings = webhook_settings(app)


@step
def webhook_delivers_a_signed_event_the_sdk_parses(run):
    hook = receiver(run)
    added = run.client.feeds.add_activity(
        type="post", feeds=[run.alice_feed], text="to the backend", user_id=run.alice).data.activity
    # The first attempt (on a very busy machine a slow answer may be tried again, as Stream would).
    first = hook.wait_for_activity(added.id)[0]
    event = first.parsed(run.api_secret)
    expect(isinstance(event, ActivityAddedEvent), f"an ActivityAddedEvent, not {type(event).__name__}")
    check_decoded(event)
    expect_equal((event.activity.id, event.fid, event.activity.text), (added.id, run.alice_feed, "to the backend"),
                 "the parsed event")
    expect_equal(event.activity.user.id, run.alice, "the event's activity's user")
    near_now(event.created_at, "the event's created_at")
    expect_equal(first.path, "/hook", "the hook the activity's event went to")
    expect_equal((first.headers["X-Api-Key"], first.headers["X-Webhook-Attempt"]), (run.api_key, "1"),
                 "X-Api-Key, X-Webhook-Attempt")
    expect(bool(first.headers.get("X-Webhook-Id")), "an X-Webhook-Id")
    run.activities["webhook"] = added.id


@step
def webhook_reaction_event_parsed(run):
    hook = receiver(run)
    activity = run.activities["webhook"]
    run.client.feeds.add_activity_reaction(activity, type="like", user_id=run.bob)
    first = hook.wait_for_200(
        lambda event: event.get("type") == "feeds.activity.reaction.added" and event.get("activity", {}).get("id") == activity,
        "the reaction's feeds.activity.reaction.added")[0]
    event = first.parsed(run.api_secret)
    expect(isinstance(event, ActivityReactionAddedEvent), f"an ActivityReactionAddedEvent, not {type(event).__name__}")
    check_decoded(event)
    expect_equal((event.activity.id, event.fid, event.reaction.type, event.reaction.user.id, event.reaction.activity_id),
                 (activity, run.alice_feed, "like", run.bob, activity), "the parsed reaction event")
    expect_equal(first.path, "/hook", "the hook the reaction's event went to")
    run.client.feeds.delete_activity_reaction(activity, "like", user_id=run.bob)


@step
def webhook_event_hook_gets_its_own_events(run):
    # A follow is only in the event hook's event types: it reaches that hook's URL.
    hook = receiver(run)
    source = f"timeline:hooked-{run.suffix}"
    run.client.feeds.follow(source=source, target=run.bob_feed)
    try:
        first = hook.wait_for_200(
            lambda event: event.get("type") == "feeds.follow.created"
            and event.get("follow", {}).get("source_feed", {}).get("feed") == source,
            "the follow's feeds.follow.created")[0]
    finally:
        run.client.feeds.unfollow(source, run.bob_feed)
    event = first.parsed(run.api_secret)
    expect(isinstance(event, FollowCreatedEvent), f"a FollowCreatedEvent, not {type(event).__name__}")
    check_decoded(event)
    expect_equal((event.follow.source_feed.feed, event.follow.target_feed.feed, event.follow.status),
                 (source, run.bob_feed, "accepted"), "the parsed follow event")
    expect_equal((first.path, first.headers["X-Webhook-Attempt"]), ("/hook?second", "1"), "the hook, the attempt")


@step
def webhook_a_500_is_retried_under_the_same_id(run):
    hook = receiver(run)
    with hook.lock:
        hook.failures = 2
    added = run.client.feeds.add_activity(
        type="post", feeds=[run.alice_feed], text="retried", user_id=run.alice).data.activity
    attempts = hook.wait_for_activity(added.id)
    expect_equal([(d.headers["X-Webhook-Attempt"], d.status) for d in attempts][:3],
                 [("1", 500), ("2", 500), ("3", 200)], "the attempts")
    expect_equal(len({d.headers["X-Webhook-Id"] for d in attempts}), 1, "one X-Webhook-Id for every attempt")
    expect_equal({d.body for d in attempts}, {attempts[0].body}, "the same body on every attempt")
    expect(isinstance(attempts[-1].parsed(run.api_secret), ActivityAddedEvent), "the retried event parsed")
    run.client.feeds.delete_activities(ids=[added.id, run.activities["webhook"]], hard_delete=True)


@step
def webhook_each_hook_only_got_its_event_types(run):
    # Whatever either hook got so far is of its own event types (a stray one may arrive later; none is waited for).
    hook = receiver(run)
    with hook.lock:
        got = {(d.path, d.event.get("type")) for d in hook.deliveries}
    strays = sorted((path, kind) for path, kind in got
                    if kind not in {"/hook": MAIN_EVENTS, "/hook?second": SECOND_EVENTS}.get(path, []))
    expect_equal(strays, [], "events outside their hook's event types")


@step
def webhook_inside_addresses_and_other_hook_types_are_refused(run):
    expect_api_error(lambda: run.client.update_app(webhook_url="http://169.254.169.254/latest/meta-data/"), 400, 4)
    expect_api_error(lambda: run.client.update_app(webhook_url="http://10.0.0.7/hook"), 400, 4)
    expect_api_error(lambda: run.client.update_app(
        event_hooks=[EventHook(hook_type="webhook", webhook_url="http://169.254.169.254/hook")]), 400, 4)
    expect_api_error(lambda: run.client.update_app(
        event_hooks=[EventHook(hook_type="sqs", sqs_queue_url="https://sqs.example.com/q")]), 400, 4)
    app = run.client.get_app().data.app
    check_decoded(app)
    expect_equal(webhook_settings(app), run.webhook_settings, "the webhook settings after the refusals")


@step
def webhook_settings_hidden_from_users(run):
    as_user = Stream(api_key=run.api_key, token=run.client.create_token(run.alice), base_url=run.base_url)
    app = as_user.get_app().data.app
    check_decoded(app)
    expect_equal(webhook_settings(app), ("", [], []), "the webhook settings a user sees")


@step
def webhook_settings_cleared(run):
    run.client.update_app(webhook_url="", webhook_events=[], event_hooks=[])
    app = run.client.get_app().data.app
    check_decoded(app)
    expect_equal(webhook_settings(app), ("", [], []), "the webhook settings")
