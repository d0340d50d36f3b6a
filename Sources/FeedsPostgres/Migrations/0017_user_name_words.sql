-- QueryUsers' name $autocomplete matches users with a word of their name starting with the text.
-- Each word of each name, lowercased, has a row here, so that the users whose word starts with the
-- text's first word are an index range, not every user; the whole text is then checked against the
-- name itself. The index is in the "C" collation, the one in which LIKE 'ann%' is a range whatever
-- the database's own.
CREATE TABLE user_name_words (
    word     text NOT NULL,
    user_id  text NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    PRIMARY KEY (user_id, word)
);
CREATE INDEX user_name_words_word_idx ON user_name_words ((word COLLATE "C"), user_id);

CREATE FUNCTION index_user_name() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF TG_OP = 'UPDATE' THEN
        DELETE FROM user_name_words WHERE user_id = NEW.id;
    END IF;
    INSERT INTO user_name_words (word, user_id)
    SELECT DISTINCT w, NEW.id FROM regexp_split_to_table(lower(COALESCE(NEW.name, '')), ' ') AS w WHERE w <> ''
    ON CONFLICT DO NOTHING;
    RETURN NULL;
END $$;
CREATE TRIGGER users_name_indexed AFTER INSERT OR UPDATE OF name ON users
    FOR EACH ROW EXECUTE FUNCTION index_user_name();

INSERT INTO user_name_words (word, user_id)
SELECT DISTINCT w, u.id FROM users u, regexp_split_to_table(lower(COALESCE(u.name, '')), ' ') AS w WHERE w <> ''
ON CONFLICT DO NOTHING;

-- And id $autocomplete: the ids starting with the text are a range of this index.
CREATE INDEX users_id_prefix_idx ON users ((id COLLATE "C"));
