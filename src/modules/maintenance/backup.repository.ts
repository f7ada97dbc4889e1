/** Backups copy the database file through the SQLite engine (db/sqlite/backup.ts): a file engine's own tools. */
export { checkCopy, copyLive, isInUse, type CopyCheck } from '../../db/sqlite/backup.js';
