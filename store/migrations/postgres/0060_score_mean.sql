-- Twin of ../0060_score_mean.sql: the two sums of the level_score prior, kept by triggers.
CREATE TABLE score_mean (
    id        INTEGER PRIMARY KEY CHECK (id = 1),
    sum_means DOUBLE PRECISION NOT NULL,
    scored    BIGINT           NOT NULL
);
INSERT INTO score_mean (id, sum_means, scored)
    SELECT 1, COALESCE(SUM(CAST(score_sum AS DOUBLE PRECISION) / count_scorer), 0), COUNT(*) FROM profiles WHERE count_scorer > 0;

CREATE FUNCTION profiles_score_mean() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
    d DOUBLE PRECISION := 0;
    n BIGINT := 0;
BEGIN
    IF TG_OP IN ('UPDATE', 'DELETE') AND OLD.count_scorer > 0 THEN
        d := d - CAST(OLD.score_sum AS DOUBLE PRECISION) / OLD.count_scorer;
        n := n - 1;
    END IF;
    IF TG_OP IN ('UPDATE', 'INSERT') AND NEW.count_scorer > 0 THEN
        d := d + CAST(NEW.score_sum AS DOUBLE PRECISION) / NEW.count_scorer;
        n := n + 1;
    END IF;
    IF d <> 0 OR n <> 0 THEN
        UPDATE score_mean SET sum_means = sum_means + d, scored = scored + n;
    END IF;
    RETURN NULL;
END $$;
CREATE TRIGGER profiles_score_mean_insert AFTER INSERT ON profiles
    FOR EACH ROW EXECUTE FUNCTION profiles_score_mean();
CREATE TRIGGER profiles_score_mean_delete AFTER DELETE ON profiles
    FOR EACH ROW EXECUTE FUNCTION profiles_score_mean();
CREATE TRIGGER profiles_score_mean_update AFTER UPDATE OF score_sum, count_scorer ON profiles
    FOR EACH ROW EXECUTE FUNCTION profiles_score_mean();
