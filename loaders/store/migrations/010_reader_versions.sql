-- Which version of its format's reader read each imported file
-- (READER_VERSION next to each reader in loaders/import). A file whose content
-- is stored but whose reader has changed since is read again on its next
-- import, replacing its rows; only same content read by the same reader
-- version is "unchanged". A table of its own rather than a column of sources,
-- so the statements that insert whole sources rows (judge runs among them)
-- keep their shape. A source without a row here was read by version 1: every
-- source stored before this migration, and judge runs, which no reader reads.

CREATE TABLE source_readers (
  source_id      VARCHAR PRIMARY KEY,   -- the source (sources.source_id); goes with it
  reader_version INTEGER NOT NULL       -- its format's reader version when the file was read
);
