/** The maintenance module's front door: all that code outside the module uses of it (docs/architecture.md, Front doors). */
export { backupDatabase, restoreDatabase, type RestoreReport, type ReturningKey } from './backup.service.js';
export { releaseFreeSpace, vacuumDatabase } from './maintenance.service.js';
