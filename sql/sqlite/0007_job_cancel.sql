-- An operator's request to cancel a job (`promo jobs cancel`, the `c` key of `promo jobs`).
-- Whoever holds the job's lease sees it in its next portion's transaction: that portion
-- writes nothing of its own, runs the step's clean-up and ends the job FAILED.
ALTER TABLE async_actions ADD COLUMN canceled_at TEXT;
