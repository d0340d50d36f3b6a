"""Steps: reactions to activities (add, enforce_unique, query, one user's across many, delete) and bookmarks with folders."""

from getstream.models import AddFolderRequest

from support import check_decoded, expect_equal, step


@step
def reaction_is_counted_and_own(run):
    note = run.notes[0]
    data = run.client.feeds.add_activity_reaction(note, type="like", user_id=run.alice, custom={"emoji": "👍"}).data
    check_decoded(data)
    expect_equal((data.reaction.type, data.reaction.user.id), ("like", run.alice), "the reaction")
    expect_equal(data.activity.reaction_count, 1, "reaction_count")
    expect_equal(data.activity.reaction_groups["like"].count, 1, "reaction_groups.like.count")
    expect_equal([r.type for r in data.activity.own_reactions], ["like"], "own_reactions")
    unique = run.client.feeds.add_activity_reaction(note, type="heart", user_id=run.alice, enforce_unique=True).data
    check_decoded(unique)
    expect_equal(sorted(unique.activity.reaction_groups), ["heart"], "reaction types after enforce_unique")


@step
def reactions_query(run):
    run.client.feeds.add_activity_reaction(run.notes[0], type="heart", user_id=run.bob)
    data = run.client.feeds.query_activity_reactions(run.notes[0], filter={"reaction_type": "heart"}, limit=1).data
    check_decoded(data)
    expect_equal(len(data.reactions), 1, "a page of one")
    rest = run.client.feeds.query_activity_reactions(
        run.notes[0], filter={"reaction_type": "heart"}, limit=1, next=data.next
    ).data
    users = {data.reactions[0].user.id, rest.reactions[0].user.id}
    expect_equal(users, {run.alice, run.bob}, "who reacted with heart, over two pages")


@step
def reactions_batch_query(run):
    # bob's reactions across two notes (a heart on the first, from reactions_query), and one not there.
    run.client.feeds.add_activity_reaction(run.notes[1], type="like", user_id=run.bob)
    data = run.client.feeds.batch_query_activity_reactions(
        activity_ids=[run.notes[0], run.notes[1], "no-such-activity"], user_id=run.bob, limit=1
    ).data
    check_decoded(data)
    rest = run.client.feeds.batch_query_activity_reactions(
        activity_ids=[run.notes[0], run.notes[1]], user_id=run.bob, limit=1, next=data.next
    ).data
    check_decoded(rest)
    found = {(r.activity_id, r.type, r.user.id) for r in data.reactions + rest.reactions}
    expect_equal(found, {(run.notes[0], "heart", run.bob), (run.notes[1], "like", run.bob)}, "bob's reactions, over two pages")
    run.client.feeds.delete_activity_reaction(run.notes[1], "like", user_id=run.bob)


@step
def reaction_delete(run):
    data = run.client.feeds.delete_activity_reaction(run.notes[0], "heart", user_id=run.alice).data
    check_decoded(data)
    expect_equal((data.reaction.type, data.activity.reaction_count), ("heart", 1), "removed reaction, count left")


@step
def bookmarks_with_folders(run):
    note = run.notes[1]
    added = run.client.feeds.add_bookmark(note, user_id=run.alice, new_folder=AddFolderRequest(name="Saved")).data
    check_decoded(added)
    folder = added.bookmark.folder.id
    expect_equal((added.bookmark.folder.name, added.bookmark.activity.bookmark_count), ("Saved", 1), "folder, bookmark_count")
    found = run.client.feeds.query_bookmarks(user_id=run.alice, filter={"folder_id": folder}).data
    check_decoded(found)
    expect_equal([b.activity.id for b in found.bookmarks], [note], "alice's bookmarks in Saved")
    folders = run.client.feeds.query_bookmark_folders(filter={"user_id": run.alice}).data
    check_decoded(folders)
    expect_equal([f.name for f in folders.bookmark_folders], ["Saved"], "alice's folders")
    moved = run.client.feeds.update_bookmark(note, folder_id=folder, new_folder_id="", user_id=run.alice).data
    check_decoded(moved)
    expect_equal(moved.bookmark.folder, None, "the folder after new_folder_id=''")
    renamed = run.client.feeds.update_bookmark_folder(folder, name="Kept").data
    check_decoded(renamed)
    expect_equal(renamed.bookmark_folder.name, "Kept", "the renamed folder")
    removed = run.client.feeds.delete_bookmark(note, user_id=run.alice).data
    check_decoded(removed)
    expect_equal(removed.bookmark.activity.bookmark_count, 0, "bookmark_count after delete_bookmark")
    check_decoded(run.client.feeds.delete_bookmark_folder(folder).data)
