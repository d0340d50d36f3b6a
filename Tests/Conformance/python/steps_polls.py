"""Steps: polls as a feed app's composer and activity view make them: create_poll, an
activity's poll_id, cast_poll_vote (an option, then an answer), get_poll with own votes,
query_polls, query_poll_votes, create/update/get/delete_poll_option, update_poll_partial (closing
it), update_poll, delete_poll_vote and delete_poll; a poll put on and taken off by activity updates."""

from getstream.models import PollOptionInput, PollOptionRequest, VoteData

from support import check_decoded, expect, expect_equal, near_now, step


@step
def polls_made_voted_on_and_closed(run):
    made = run.client.create_poll(
        name="Lunch?", user_id=run.alice, allow_answers=True, max_votes_allowed=2,
        options=[PollOptionInput(text="pizza"), PollOptionInput(text="soup")],
    ).data
    check_decoded(made)
    poll = made.poll
    expect_equal((poll.name, poll.created_by_id, poll.max_votes_allowed), ("Lunch?", run.alice, 2), "the poll made")
    expect_equal([o.text for o in poll.options], ["pizza", "soup"], "its options, in order")
    near_now(poll.created_at, "the poll's created_at")
    pizza, soup = (o.id for o in poll.options)

    post = run.client.feeds.add_activity(
        type="post", feeds=[run.alice_feed], text="vote", poll_id=poll.id, user_id=run.alice).data.activity
    expect_equal(post.poll.id if post.poll else None, poll.id, "the activity carries the poll")

    cast = run.client.feeds.cast_poll_vote(post.id, poll.id, user_id=run.bob, vote=VoteData(option_id=pizza)).data
    check_decoded(cast)
    expect_equal((cast.vote.option_id, cast.vote.user_id), (pizza, run.bob), "the vote cast")
    expect_equal((cast.poll.vote_count, cast.poll.vote_counts_by_option.get(pizza)), (1, 1), "the counts after it")
    answer = run.client.feeds.cast_poll_vote(post.id, poll.id, user_id=run.bob, vote=VoteData(answer_text="tacos")).data
    expect(answer.vote.is_answer and answer.vote.answer_text == "tacos", f"an answer: {answer.vote}")
    expect_equal(answer.poll.answers_count, 1, "answers_count")

    read = run.client.get_poll(poll.id, user_id=run.bob).data
    check_decoded(read)
    expect_equal(sorted(v.id for v in read.poll.own_votes), sorted([cast.vote.id, answer.vote.id]), "bob's own votes")
    expect_equal([v.user_id for v in read.poll.latest_votes_by_option[pizza]], [run.bob], "the newest votes for pizza")
    timeline = run.client.feeds.feed("user", run.alice).get_or_create(user_id=run.bob).data
    carried = [a.poll for a in timeline.activities if a.id == post.id]
    expect(carried and carried[0] and carried[0].vote_count == 1, "the feed's page carries the poll with its counts")

    listed = run.client.query_polls(user_id=run.alice, filter={"id": poll.id}).data
    check_decoded(listed)
    expect_equal([p.id for p in listed.polls], [poll.id], "query_polls")
    votes = run.client.query_poll_votes(poll.id, user_id=run.alice, filter={"is_answer": False}).data
    check_decoded(votes)
    expect_equal([v.id for v in votes.votes], [cast.vote.id], "query_poll_votes, options only")

    added = run.client.create_poll_option(poll.id, text="salad", user_id=run.alice).data
    check_decoded(added)
    renamed = run.client.update_poll_option(poll.id, id=added.poll_option.id, text="greens", user_id=run.alice).data
    expect_equal(renamed.poll_option.text, "greens", "the option renamed")
    expect_equal(run.client.get_poll_option(poll.id, added.poll_option.id).data.poll_option.text, "greens", "get_poll_option")
    run.client.delete_poll_option(poll.id, added.poll_option.id, user_id=run.alice)

    removed = run.client.feeds.delete_poll_vote(post.id, poll.id, cast.vote.id, user_id=run.bob).data
    check_decoded(removed)
    expect_equal(removed.poll.vote_count, 0, "the vote taken back")

    closed = run.client.update_poll_partial(poll.id, user_id=run.alice, set={"is_closed": True}).data
    check_decoded(closed)
    expect(closed.poll.is_closed, "update_poll_partial closed the poll")
    replaced = run.client.update_poll(
        id=poll.id, name="Dinner?", user_id=run.alice, is_closed=True,
        options=[PollOptionRequest(id=soup, text="soup"), PollOptionRequest(id=pizza, text="pizza")],
    ).data
    check_decoded(replaced)
    expect_equal([o.text for o in replaced.poll.options], ["soup", "pizza"], "update_poll's options, reordered")
    run.client.delete_poll(poll.id, user_id=run.alice)
    again = run.client.feeds.get_activity(post.id).data.activity
    expect(again.poll is None, "a deleted poll leaves its activity")


@step
def a_poll_put_on_and_taken_off_by_updates(run):
    made = run.client.create_poll(
        name="Later?", user_id=run.alice, options=[PollOptionInput(text="yes"), PollOptionInput(text="no")]
    ).data
    post = run.client.feeds.add_activity(type="post", feeds=[run.alice_feed], text="no poll yet", user_id=run.alice).data.activity
    put = run.client.feeds.update_activity_partial(id=post.id, set={"poll_id": made.poll.id}).data
    check_decoded(put)
    expect_equal(put.activity.poll.id if put.activity.poll else None, made.poll.id, "the poll put on by set.poll_id")
    off = run.client.feeds.update_activity_partial(id=post.id, unset=["poll_id"]).data
    check_decoded(off)
    expect_equal(off.activity.poll, None, "the poll taken off by unset")
    check_decoded(run.client.feeds.delete_activity(id=post.id, hard_delete=True).data)
    check_decoded(run.client.delete_poll(made.poll.id, user_id=run.alice).data)
