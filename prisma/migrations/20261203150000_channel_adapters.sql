-- migrate:up
-- Channel adapters (docs/channels.md). What is not text in a platform's message (an image, a
-- voice note, a location) reaches the agent as a short description in "text"; the platform's
-- own reference to it (file id, media id, URL, coordinates) is kept in "media", so a person in
-- the console, or a later tool, can still fetch it. A reply longer than the platform allows is
-- sent as several parts by one delivery: "partsSent" counts the parts the platform accepted,
-- so a retry after a failure part-way resumes with the next part instead of repeating any.
ALTER TABLE "Message" ADD COLUMN "media" JSONB;
ALTER TABLE "Delivery" ADD COLUMN "partsSent" INTEGER NOT NULL DEFAULT 0;

-- migrate:down
ALTER TABLE "Delivery" DROP COLUMN "partsSent";
ALTER TABLE "Message" DROP COLUMN "media";
