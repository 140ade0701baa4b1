-- Issue 18: each rating-history row keeps the rating (and RD) its player had as the game began,
-- so that the game page shows the change (+12 / −12) and the player page the opponents'
-- ratings of a performance figure. Rows settled before this migration take the player's
-- previous row of the category (a first game: 1500, RD 350).
ALTER TABLE rating_history ADD COLUMN rating_before DOUBLE PRECISION;
ALTER TABLE rating_history ADD COLUMN rd_before DOUBLE PRECISION;
UPDATE rating_history SET
    rating_before = COALESCE((SELECT p.rating FROM rating_history p
        WHERE p.account_id = rating_history.account_id AND p.category = rating_history.category
          AND (p.at < rating_history.at
               OR (p.at = rating_history.at AND p.game_id < rating_history.game_id))
        ORDER BY p.at DESC, p.game_id DESC LIMIT 1), 1500.0),
    rd_before = COALESCE((SELECT p.rd FROM rating_history p
        WHERE p.account_id = rating_history.account_id AND p.category = rating_history.category
          AND (p.at < rating_history.at
               OR (p.at = rating_history.at AND p.game_id < rating_history.game_id))
        ORDER BY p.at DESC, p.game_id DESC LIMIT 1), 350.0);

-- The watch page's games: ongoing games between two accounts, the latest changed first.
CREATE INDEX games_ongoing_between_accounts ON games (updated_at)
    WHERE result IS NULL AND white_account IS NOT NULL AND black_account IS NOT NULL;
