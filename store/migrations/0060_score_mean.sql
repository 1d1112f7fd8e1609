-- The prior of every level_score is the mean of the scored profiles' means. It was an AVG over
-- the profiles table in each comment's transaction: 50-95 ms at 100,000 profiles (33,000 scored),
-- held on the store's one writer, so a million profiles would have allowed a comment or two a
-- second. The two sums it needs are kept here instead, by triggers, whoever writes (this binary,
-- a tool, the demo seeder); RefreshLevelScores recomputes them from the table daily, which also
-- clears any floating-point drift. Checked against the AVG by TestScoreMeanFollowsWrites.
CREATE TABLE score_mean (
    id        INTEGER PRIMARY KEY CHECK (id = 1),
    sum_means REAL    NOT NULL,
    scored    INTEGER NOT NULL
);
INSERT INTO score_mean (id, sum_means, scored)
    SELECT 1, COALESCE(SUM(CAST(score_sum AS REAL) / count_scorer), 0), COUNT(*) FROM profiles WHERE count_scorer > 0;

CREATE TRIGGER profiles_score_mean_insert AFTER INSERT ON profiles WHEN NEW.count_scorer > 0
BEGIN
    UPDATE score_mean SET sum_means = sum_means + CAST(NEW.score_sum AS REAL) / NEW.count_scorer, scored = scored + 1;
END;

CREATE TRIGGER profiles_score_mean_delete AFTER DELETE ON profiles WHEN OLD.count_scorer > 0
BEGIN
    UPDATE score_mean SET sum_means = sum_means - CAST(OLD.score_sum AS REAL) / OLD.count_scorer, scored = scored - 1;
END;

CREATE TRIGGER profiles_score_mean_update AFTER UPDATE OF score_sum, count_scorer ON profiles
    WHEN OLD.count_scorer > 0 OR NEW.count_scorer > 0
BEGIN
    UPDATE score_mean SET
        sum_means = sum_means
            - CASE WHEN OLD.count_scorer > 0 THEN CAST(OLD.score_sum AS REAL) / OLD.count_scorer ELSE 0 END
            + CASE WHEN NEW.count_scorer > 0 THEN CAST(NEW.score_sum AS REAL) / NEW.count_scorer ELSE 0 END,
        scored = scored - (CASE WHEN OLD.count_scorer > 0 THEN 1 ELSE 0 END) + (CASE WHEN NEW.count_scorer > 0 THEN 1 ELSE 0 END);
END;
