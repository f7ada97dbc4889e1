import type { SpaceFigures, StorageUpkeep } from '../../db/engine.js';

/** Database upkeep goes through the engine's port (db/engine.ts StorageUpkeep): what it is, named for this module. */
export type { SpaceFigures };

export const readSpace = (storage: StorageUpkeep): SpaceFigures => storage.space();
