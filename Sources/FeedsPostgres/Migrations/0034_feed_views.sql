-- Feed views (CreateFeedView …): how a read with `view` picks and orders a feed's activities.
-- `config` holds the selectors and the ranking as `PostgresFeedViewStore` writes them.
CREATE TABLE feed_views (
    id            text PRIMARY KEY,
    config        jsonb NOT NULL,
    created_at    timestamptz NOT NULL DEFAULT now(),
    updated_at    timestamptz NOT NULL DEFAULT now(),
    last_used_at  timestamptz
);

-- Ranking arithmetic that cannot fail, for scores written by `RankingSQL` from a view's
-- expression. Every value is held within ±1e150, and one nearer 0 than 1e-150 is 0, so that no
-- product, quotient or power of two of them overflows or underflows a float8 (which would be an
-- error, and the read a 500); what has no value (a division by zero, the log of a negative
-- number) is NULL, and a NULL score ranks as 0. Plain SQL, so the planner inlines them.
CREATE FUNCTION rk(x float8) RETURNS float8 LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
    SELECT CASE WHEN x IS NULL OR x = 'NaN'::float8 THEN NULL
                WHEN x > 1e150 THEN 1e150 WHEN x < -1e150 THEN -1e150
                WHEN abs(x) < 1e-150 THEN 0 ELSE x END $$;

CREATE FUNCTION rk_div(a float8, b float8) RETURNS float8 LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
    SELECT CASE WHEN b = 0 THEN NULL ELSE rk(a / b) END $$;

CREATE FUNCTION rk_mod(a float8, b float8) RETURNS float8 LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
    SELECT CASE WHEN b = 0 THEN NULL ELSE rk(a - b * trunc(a / b)) END $$;

CREATE FUNCTION rk_pow(a float8, b float8) RETURNS float8 LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
    SELECT CASE WHEN a = 0 THEN CASE WHEN b > 0 THEN 0 WHEN b = 0 THEN 1 END
                WHEN a < 0 AND b <> trunc(b) THEN NULL
                WHEN b * ln(abs(a)) > 345 THEN
                    CASE WHEN a < 0 AND abs(b - 2 * trunc(b / 2)) = 1 THEN -1e150 ELSE 1e150 END
                WHEN b * ln(abs(a)) < -345 THEN 0
                ELSE rk(power(a, b)) END $$;

CREATE FUNCTION rk_exp(x float8) RETURNS float8 LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
    SELECT CASE WHEN x > 345 THEN 1e150 WHEN x < -345 THEN 0 ELSE rk(exp(x)) END $$;

CREATE FUNCTION rk_ln(x float8) RETURNS float8 LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
    SELECT CASE WHEN x > 0 THEN rk(ln(x)) END $$;

CREATE FUNCTION rk_log(x float8) RETURNS float8 LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
    SELECT CASE WHEN x > 0 THEN rk(log(x)) END $$;

CREATE FUNCTION rk_sqrt(x float8) RETURNS float8 LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
    SELECT CASE WHEN x >= 0 THEN rk(sqrt(x)) END $$;

-- A JSON value as a ranking number: numbers only (text, objects and the rest have none), held
-- within range while still numeric, so that no cast fails.
CREATE FUNCTION rk_json(v jsonb) RETURNS float8 LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
    SELECT CASE WHEN jsonb_typeof(v) <> 'number' THEN NULL
                WHEN v::numeric > 1e150 THEN 1e150 WHEN v::numeric < -1e150 THEN -1e150
                WHEN abs(v::numeric) < 1e-150 THEN 0 ELSE v::numeric::float8 END $$;
