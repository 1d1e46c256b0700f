-- migrate:up
-- A session whose model is down waits as one (docs/reliability.md, "A down model, one call per
-- step"): when a turn answering its messages is deferred, the worker writes the retry time here,
-- and the session's other jobs wait for it instead of each calling the model on a retry ladder
-- of its own (five waiting messages made five calls per step). `version` is the session's version
-- at the deferral: the next commit moves the version on, so a turn that got through ends the
-- backoff without writing this column (sb_commit_turn is unchanged). Internal to the worker.

ALTER TABLE "Session" ADD COLUMN "providerBackoff" JSONB;

-- migrate:down
ALTER TABLE "Session" DROP COLUMN "providerBackoff";
