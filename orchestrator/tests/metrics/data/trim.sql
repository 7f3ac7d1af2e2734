-- Trims a recorded store before it is dumped into real-run.sql (README.md): keeps the first
-- 3 samples of every pass of every boot; nothing else changes.
DELETE FROM samples WHERE id NOT IN (
  SELECT id FROM (SELECT id, ROW_NUMBER() OVER (PARTITION BY boot_id, pass ORDER BY t_s, id) AS n
                  FROM samples) WHERE n <= 3);
VACUUM;
