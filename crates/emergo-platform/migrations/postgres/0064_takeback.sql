-- Issue 18: takeback requests between people (docs/api.md "Takebacks between people"): who asks
-- now, and who was refused since the last move (asks again only after the next move). A move,
-- a takeback and an ending clear both.
ALTER TABLE games ADD COLUMN takeback_offer TEXT CHECK (takeback_offer IS NULL OR takeback_offer IN ('white', 'black'));
ALTER TABLE games ADD COLUMN takeback_declined TEXT CHECK (takeback_declined IS NULL OR takeback_declined IN ('white', 'black'));
