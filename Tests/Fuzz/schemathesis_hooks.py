"""Schemathesis hooks for scripts/schema-fuzz.sh: the few rules of the API that depend on state or
on who is calling, which no OpenAPI 3.0 schema can state. Each edit keeps a case as valid or as
invalid as it was generated; everything else is sent and checked as generated."""

import uuid

import schemathesis

# Operations that take `next`/`prev` cursors: opaque strings only the server issues, so a generated
# string is refused (400) though the schema allows any. The schema cannot say "next or prev, not
# both" either (`not` is outside what swift-openapi-generator accepts).
PAGED = {"GetOrCreateFeed", "QueryActivities", "QueryFeeds"}

# A server token must name the acting user (user_id) where a user token is the actor (adding an
# activity, creating a feed): the spec keeps user_id optional because user tokens need none.
NEEDS_ACTOR = {"AddActivity", "GetOrCreateFeed"}

# UpdateUsers keys each user by its id: a key and the id inside must match.
KEYED_BY_ID = {"UpdateUsers"}

# A bookmark is one user's in one folder (or in none), and the path names only the activity: the
# stateful phase reads a bookmark it made back through the same path, with a folder_id of its own
# making. Fuzzed bookmarks stay outside folders, so the one made is the one found (folders are
# tested in the Swift suite and the SDK steps).
BOOKMARK = {"AddBookmark", "UpdateBookmark", "DeleteBookmark"}
BOOKMARK_FOLDER_FIELDS = ("folder_id", "new_folder", "new_folder_id")

# A soft-deleted feed group is still read with include_soft_deleted=true, by design; the stateful
# phase takes that for a deleted resource still there. Fuzzed reads leave the flag out (it is
# tested in the Swift suite and the SDK steps).
SOFT_DELETED_READS = {"GetFeedGroup", "ListFeedGroups"}


@schemathesis.hook
def before_call(context, case, kwargs):
    operation = case.operation.definition.raw.get("operationId")
    headers = case.headers or {}
    # One Idempotency-Key stands for one request: a key sent again with another body is refused
    # (422, as declared). Generated keys repeat across cases, so each call gets a fresh one; a key
    # over the declared 255 characters is left as it is, still invalid.
    key = headers.get("Idempotency-Key")
    if isinstance(key, str) and len(key) <= 255:
        headers["Idempotency-Key"] = uuid.uuid4().hex
    if operation in BOOKMARK and isinstance(case.query, dict):
        case.query.pop("folder_id", None)
    if operation in SOFT_DELETED_READS and isinstance(case.query, dict):
        case.query.pop("include_soft_deleted", None)
    body = case.body
    if not isinstance(body, dict):
        return
    if operation in BOOKMARK:
        for name in BOOKMARK_FOLDER_FIELDS:
            body.pop(name, None)
    if operation in PAGED:
        for name in ("next", "prev"):
            if isinstance(body.get(name), str):
                del body[name]
    if operation in NEEDS_ACTOR and "user_id" not in body and "user" not in body:
        body["user_id"] = "fuzzer"
    if operation in KEYED_BY_ID and isinstance(body.get("users"), dict):
        for key, user in body["users"].items():
            if isinstance(user, dict) and isinstance(user.get("id"), str):
                user["id"] = key
