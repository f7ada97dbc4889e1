/** The exports module's front door: all that code outside the module uses of it (docs/architecture.md, Front doors). */
export type { ExportView } from './exports.presenter.js';
export { exportParametersSchema } from './exports.schemas.js';
export {
  createExport,
  eraseExportsOfCustomer,
  exportJobId,
  getExport,
  openExportFile,
  removeExportFiles,
} from './exports.service.js';
export { exportsDirectory } from './exports.service.js';
