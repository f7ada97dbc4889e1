/** Backups copy the database file through the SQLite engine (db/sqlite/backup.ts): a file engine's own tools. */
export {
  checkCopy,
  copyLive,
  isInUse,
  readKeys,
  revokeKeys,
  type CopyCheck,
  type StoredKey,
} from '../../db/sqlite/backup.js';
