-- The sha256 of each migration file as it was applied, so a store can tell a
-- migration edited after the store was made (or one it has never heard of)
-- from one it already holds. Stores made before this column existed get the
-- committed hashes of their migrations (migrations/hashes.json) when they
-- upgrade: those files were never edited after they landed.

ALTER TABLE schema_migrations ADD COLUMN sha256 VARCHAR;
