-- A type filter's plan turns on how rare the type is. ANALYZE's default sample (30,000 rows)
-- misses a type held by one activity in 10,000 as often as not, and the planner then walks every
-- row of each feed asked for instead of the type's few: a 30,000-row sample finds it three times,
-- a 300,000-row sample thirty, enough to price it right every time (QueryCostTests).
ALTER TABLE activities ALTER COLUMN type SET STATISTICS 1000;
