-- Bulk updates (issue 14 point 6): a failed item of a *.BULK_UPDATE or *.METADATA_UPDATE job
-- is listed in the job's result as an error body ({message, details, key, source_id|code},
-- voucherify-facts 2.2), so a failure keeps the catalogue key of the error that refused it.
-- `reason` stays the error's details; the message is the key's canonical one (src/lib/errors.ts).
-- Null for failures of the import jobs, which list only a reason.
ALTER TABLE async_action_failures ADD COLUMN error_key TEXT;
