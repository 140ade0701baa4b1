-- A rematch between the seat holders of a finished game: who offers it now, and the game it
-- became once the other accepted (set once: a second acceptance finds it set and is refused).
ALTER TABLE games ADD COLUMN rematch_offer TEXT CHECK (rematch_offer IS NULL OR rematch_offer IN ('white', 'black'));
ALTER TABLE games ADD COLUMN rematch_game TEXT;
