-- Polls (CreatePoll, CastPollVote): a poll, its options in order, and its votes. A vote is for an
-- option, or an answer in the voter's words (allow_answers; one a voter). Every vote runs with the
-- poll's row locked, so the counts here are exact however many vote at once. An activity carries
-- at most one poll; deleting the poll takes it off its activities.
CREATE TABLE polls (
    id                            text PRIMARY KEY,
    name                          text NOT NULL,
    description                   text NOT NULL DEFAULT '',
    voting_visibility             text NOT NULL DEFAULT 'public' CHECK (voting_visibility IN ('public', 'anonymous')),
    enforce_unique_vote           boolean NOT NULL DEFAULT false,
    max_votes_allowed             integer CHECK (max_votes_allowed BETWEEN 1 AND 10),
    allow_user_suggested_options  boolean NOT NULL DEFAULT false,
    allow_answers                 boolean NOT NULL DEFAULT false,
    is_closed                     boolean NOT NULL DEFAULT false,
    vote_count                    integer NOT NULL DEFAULT 0,     -- votes for options
    answers_count                 integer NOT NULL DEFAULT 0,
    option_count                  integer NOT NULL DEFAULT 0,     -- for the next option's position
    custom                        jsonb NOT NULL DEFAULT '{}',
    created_by                    text NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    created_at                    timestamptz NOT NULL DEFAULT now(),
    updated_at                    timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX polls_created_idx ON polls (created_at DESC, id DESC);
CREATE INDEX polls_creator_idx ON polls (created_by, created_at DESC, id DESC);

CREATE TABLE poll_options (
    poll_id     text NOT NULL REFERENCES polls (id) ON DELETE CASCADE,
    id          text NOT NULL,
    text        text NOT NULL,
    custom      jsonb NOT NULL DEFAULT '{}',
    position    integer NOT NULL,
    vote_count  integer NOT NULL DEFAULT 0,
    PRIMARY KEY (poll_id, id),
    UNIQUE (poll_id, text) DEFERRABLE INITIALLY DEFERRED   -- options may swap texts in one UpdatePoll
);

CREATE TABLE poll_votes (
    poll_id      text NOT NULL REFERENCES polls (id) ON DELETE CASCADE,
    id           text NOT NULL,
    user_id      text NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    option_id    text,             -- NULL for an answer
    answer_text  text,             -- NULL for a vote for an option
    created_at   timestamptz NOT NULL DEFAULT now(),
    updated_at   timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (poll_id, id),
    FOREIGN KEY (poll_id, option_id) REFERENCES poll_options (poll_id, id) ON DELETE CASCADE,
    CHECK ((option_id IS NULL) <> (answer_text IS NULL))
);
-- One vote a voter for each option, one answer a voter.
CREATE UNIQUE INDEX poll_votes_option_voter_idx ON poll_votes (poll_id, user_id, option_id) WHERE option_id IS NOT NULL;
CREATE UNIQUE INDEX poll_votes_answer_voter_idx ON poll_votes (poll_id, user_id) WHERE option_id IS NULL;
CREATE INDEX poll_votes_latest_idx ON poll_votes (poll_id, option_id, created_at DESC, id DESC);
CREATE INDEX poll_votes_user_idx ON poll_votes (user_id);

ALTER TABLE activities ADD COLUMN poll_id text REFERENCES polls (id) ON DELETE SET NULL;
CREATE INDEX activities_poll_idx ON activities (poll_id) WHERE poll_id IS NOT NULL;
