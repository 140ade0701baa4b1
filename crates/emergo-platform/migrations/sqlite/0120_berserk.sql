-- Issue 23: an arena player who goes berserk (half its clock) before its first move scores a
-- point more for a long enough win. Set with the game's halved clock in one transaction.
ALTER TABLE tournament_games ADD COLUMN white_berserk BOOLEAN NOT NULL DEFAULT FALSE;
ALTER TABLE tournament_games ADD COLUMN black_berserk BOOLEAN NOT NULL DEFAULT FALSE;
